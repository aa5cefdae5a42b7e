/// A point in global (board) coordinates, or local to a target.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The horizontal coordinate, growing to the right.
  public var x: Double
  /// The vertical coordinate, growing downwards.
  public var y: Double

  /// The point at `x`, `y`.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// `(50, 50)`: whole coordinates without a trailing `.0`.
  public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// A rectangle: origin and size. It contains the points of `[x, x + width) x [y, y + height)`,
/// so adjacent frames never both contain their shared edge.
public struct Rect: Hashable, Sendable, Codable {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width; a frame of width 0 contains no point.
  public var width: Double
  /// The height; a frame of height 0 contains no point.
  public var height: Double

  /// The rectangle with its origin at `x`, `y` and this size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The right edge, which the rectangle does not contain.
  public var maxX: Double { x + width }
  /// The bottom edge, which the rectangle does not contain.
  public var maxY: Double { y + height }
  /// The middle: where `over` steps put the pointer.
  public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

  /// Whether `point` lies inside: on the left or top edge counts, on the right or bottom does not.
  public func contains(_ point: Point) -> Bool {
    point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
  }
}

/// Formats a coordinate without a trailing `.0` for whole numbers.
package func formatNumber(_ value: Double) -> String {
  if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
  return String(value)
}

extension JSONValue {
  /// A coordinate as JSON: a whole number as an integer (`100`, not `100.0`), any other
  /// as a double. Scenario files, traces, the protocol and the pages all write them so.
  public static func coordinate(_ value: Double) -> JSONValue {
    if let whole = Int64(exactly: value) { return .integer(whole) }
    return .number(value)
  }

  /// A frame as JSON: `[x, y, width, height]`.
  public static func frame(_ frame: Rect) -> JSONValue {
    .array([frame.x, frame.y, frame.width, frame.height].map(coordinate))
  }
}
