extension JSONValue {
  /// JSON text with sorted keys, stable for tests and tools: compact, or indented by two
  /// spaces with `pretty`.
  ///
  /// An integer is written exactly; a double is written in the shortest form that reads
  /// back as the same double, with a `.0` or an exponent, so it reads back as a double
  /// (`1.0`, `0.1`, `1e+20`). A double that is not finite, which no parsed or stored value
  /// is, is written as `null`. Strings escape `"`, `\` and control characters only.
  public func serialized(pretty: Bool = false) -> String {
    var output = ""
    write(to: &output, pretty: pretty, indent: 0)
    return output
  }

  private func write(to output: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .integer(let value): output += String(value)
    case .number(let value): output += value.isFinite ? value.description : "null"
    case .string(let value): Self.writeString(value, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += "," }
        Self.newline(&output, pretty: pretty, indent: indent + 1)
        element.write(to: &output, pretty: pretty, indent: indent + 1)
      }
      Self.newline(&output, pretty: pretty, indent: indent)
      output += "]"
    case .object(let fields):
      guard !fields.isEmpty else {
        output += "{}"
        return
      }
      output += "{"
      for (position, key) in fields.keys.sorted().enumerated() {
        if position > 0 { output += "," }
        Self.newline(&output, pretty: pretty, indent: indent + 1)
        Self.writeString(key, to: &output)
        output += pretty ? ": " : ":"
        fields[key]?.write(to: &output, pretty: pretty, indent: indent + 1)
      }
      Self.newline(&output, pretty: pretty, indent: indent)
      output += "}"
    }
  }

  private static func newline(_ output: inout String, pretty: Bool, indent: Int) {
    guard pretty else { return }
    output += "\n"
    output += String(repeating: " ", count: indent * 2)
  }

  private static func writeString(_ value: String, to output: inout String) {
    output += "\""
    var plainStart = value.unicodeScalars.startIndex
    for index in value.unicodeScalars.indices {
      let scalar = value.unicodeScalars[index]
      let escape: String
      switch scalar {
      case "\"": escape = "\\\""
      case "\\": escape = "\\\\"
      case "\n": escape = "\\n"
      case "\r": escape = "\\r"
      case "\t": escape = "\\t"
      case "\u{08}": escape = "\\b"
      case "\u{0C}": escape = "\\f"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: continue
      }
      // Through a String: appending to `output.unicodeScalars` grows it to the exact size
      // each time, so a long document was copied whole on every string (quadratic).
      output += String(value.unicodeScalars[plainStart..<index])
      output += escape
      plainStart = value.unicodeScalars.index(after: index)
    }
    output += String(value.unicodeScalars[plainStart...])
    output += "\""
  }
}
