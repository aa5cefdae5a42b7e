/// A point in global (board) coordinates, or local to a target.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// A rectangle: origin and size. It contains the points of `[x, x + width) x [y, y + height)`,
/// so adjacent frames never both contain their shared edge.
public struct Rect: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

  public func contains(_ point: Point) -> Bool {
    point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
  }
}

/// Formats a coordinate without a trailing `.0` for whole numbers.
package func formatNumber(_ value: Double) -> String {
  if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
  return String(value)
}
