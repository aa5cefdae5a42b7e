/// A uniform type identifier such as `public.plain-text` or `com.example.schedule-item`.
public struct TypeIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.init(value) }

  public var description: String { rawValue }

  public static func < (lhs: TypeIdentifier, rhs: TypeIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}
