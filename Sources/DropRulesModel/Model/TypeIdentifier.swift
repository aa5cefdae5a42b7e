/// A uniform type identifier such as `public.plain-text` or `com.example.schedule-item`.
public struct TypeIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The identifier's text, `public.plain-text`.
  public let rawValue: String

  /// An identifier with this text; any text is accepted (conformance is declared apart).
  public init(_ rawValue: String) { self.rawValue = rawValue }
  /// An identifier written as a literal: `"public.plain-text"`.
  public init(stringLiteral value: String) { self.init(value) }

  /// The identifier's text.
  public var description: String { rawValue }

  /// Orders identifiers by their text, for stable output.
  public static func < (lhs: TypeIdentifier, rhs: TypeIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}
