/// A limit of the rule host that a handler call spent: a caller tells from it which
/// setting to raise without reading the message.
///
/// ```swift
/// if diagnostic.limit == .instructions { limits.maxInstructions *= 10 }
/// ```
public enum RuleLimit: String, Hashable, Sendable, CaseIterable {
  /// The instruction budget of a call.
  case instructions
  /// The memory cap of a rule file's runtime, or the board's data cap.
  case memory
  /// The wall-clock deadline of a call.
  case time
}
