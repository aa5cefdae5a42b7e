extension JSONValue {
  /// Roughly the bytes the value takes in memory, to count it against a memory cap.
  public var estimatedBytes: Int {
    switch self {
    case .string(let text): 32 + text.utf8.count
    case .array(let elements): elements.reduce(32) { $0 + $1.estimatedBytes }
    case .object(let fields): fields.reduce(48) { $0 + 32 + $1.key.utf8.count + $1.value.estimatedBytes }
    default: 16
    }
  }
}
