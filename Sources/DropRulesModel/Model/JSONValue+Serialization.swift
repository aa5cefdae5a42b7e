extension JSONValue {
  /// JSON text with sorted keys, stable for tests and tools: compact, or indented by two
  /// spaces with `pretty`.
  ///
  /// An integer is written exactly; a double is written in the shortest form that reads
  /// back as the same double, with a `.0` or an exponent, so it reads back as a double
  /// (`1.0`, `0.1`, `1e+20`). A double that is not finite, which no parsed or stored value
  /// is, is written as `null`. Strings escape `"`, `\` and control characters only.
  public func serialized(pretty: Bool = false) -> String {
    String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
  }

  /// The same text as ``serialized(pretty:)``, as UTF-8 bytes.
  ///
  /// Written straight into bytes: appending to a `String` piece by piece spent half of
  /// each `droprules serve` answer (213,000 instructions a move, 53% of them here).
  public func serializedBytes(pretty: Bool = false) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    write(to: &output, pretty: pretty, indent: 0)
    return output
  }

  /// Writes the text into `output`: an array of bytes, or a ``JSONTextWriter``'s own
  /// buffer (a step's rare parts, written as values, go there without an array between).
  func write<Output: UTF8Output>(to output: inout Output, pretty: Bool, indent: Int) {
    // Nothing more of a value goes into an output that is full (an object's keys are
    // not even sorted).
    guard !output.isFull else { return }
    switch self {
    case .null: Self.nullWord.withUnsafeBufferPointer { output.append(bytes: $0) }
    case .bool(let value): (value ? Self.trueWord : Self.falseWord).withUnsafeBufferPointer { output.append(bytes: $0) }
    case .integer(let value): Self.writeInteger(value, to: &output)
    case .number(let value):
      (value.isFinite ? Array(value.description.utf8) : Self.nullWord).withUnsafeBufferPointer {
        output.append(bytes: $0)
      }
    case .string(let value): Self.writeString(value, to: &output)
    case .array(let elements):
      output.append(byte: UInt8(ascii: "["))
      guard !elements.isEmpty else {
        output.append(byte: UInt8(ascii: "]"))
        return
      }
      // A bounded writer that is full takes nothing more: the rest of a value of a
      // gigabyte is not walked.
      for (position, element) in elements.enumerated() where !output.isFull {
        if position > 0 { output.append(byte: UInt8(ascii: ",")) }
        Self.newline(&output, pretty: pretty, indent: indent + 1)
        element.write(to: &output, pretty: pretty, indent: indent + 1)
      }
      Self.newline(&output, pretty: pretty, indent: indent)
      output.append(byte: UInt8(ascii: "]"))
    case .object(let fields):
      output.append(byte: UInt8(ascii: "{"))
      guard !fields.isEmpty else {
        output.append(byte: UInt8(ascii: "}"))
        return
      }
      for (position, key) in fields.keys.sorted().enumerated() where !output.isFull {
        if position > 0 { output.append(byte: UInt8(ascii: ",")) }
        Self.newline(&output, pretty: pretty, indent: indent + 1)
        Self.writeString(key, to: &output)
        output.append(byte: UInt8(ascii: ":"))
        if pretty { output.append(byte: UInt8(ascii: " ")) }
        fields[key]?.write(to: &output, pretty: pretty, indent: indent + 1)
      }
      Self.newline(&output, pretty: pretty, indent: indent)
      output.append(byte: UInt8(ascii: "}"))
    }
  }

  private static let nullWord = Array("null".utf8)
  private static let trueWord = Array("true".utf8)
  private static let falseWord = Array("false".utf8)
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Decimal digits, without making a String first.
  static func writeInteger<Output: UTF8Output>(_ value: Int64, to output: inout Output) {
    if value < 0 { output.append(byte: UInt8(ascii: "-")) }
    // The magnitude as unsigned: Int64.min has none as Int64.
    var magnitude = value.magnitude
    // At most 20 digits, made from the last into a buffer on the stack.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var first = 20
      repeat {
        first -= 1
        digits.initializeElement(at: first, to: UInt8(ascii: "0") + UInt8(magnitude % 10))
        magnitude /= 10
      } while magnitude > 0
      output.append(bytes: UnsafeBufferPointer(rebasing: digits[first..<20]))
    }
  }

  private static func newline<Output: UTF8Output>(_ output: inout Output, pretty: Bool, indent: Int) {
    guard pretty else { return }
    output.append(byte: UInt8(ascii: "\n"))
    for _ in 0..<indent * 2 { output.append(byte: UInt8(ascii: " ")) }
  }

  /// A string in quotes. Only ASCII bytes are ever escaped, and no byte of a multi-byte
  /// UTF-8 sequence is ASCII, so the string's bytes are copied in runs between escapes.
  static func writeString<Output: UTF8Output>(_ value: String, to output: inout Output) {
    output.append(byte: UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { bytes in
      var runStart = 0
      for (offset, byte) in bytes.enumerated()
      where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
        runStart = offset + 1
        output.append(byte: UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte: byte)
        case UInt8(ascii: "\n"): output.append(byte: UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): output.append(byte: UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): output.append(byte: UInt8(ascii: "t"))
        case 0x08: output.append(byte: UInt8(ascii: "b"))
        case 0x0C: output.append(byte: UInt8(ascii: "f"))
        default:
          output.append(byte: UInt8(ascii: "u"))
          output.append(byte: UInt8(ascii: "0"))
          output.append(byte: UInt8(ascii: "0"))
          output.append(byte: hexDigits[Int(byte >> 4)])
          output.append(byte: hexDigits[Int(byte & 0x0F)])
        }
      }
      output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    output.append(byte: UInt8(ascii: "\""))
  }
}

/// Where JSON text is written a byte or a run at a time: an array of bytes, or a
/// ``JSONTextWriter``'s own buffer.
protocol UTF8Output {
  mutating func append(byte: UInt8)
  mutating func append(bytes: UnsafeBufferPointer<UInt8>)
  /// Whether the output takes no more bytes (a bounded writer past its limit).
  var isFull: Bool { get }
}

extension [UInt8]: UTF8Output {
  var isFull: Bool { false }
  mutating func append(byte: UInt8) { append(byte) }
  mutating func append(bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
