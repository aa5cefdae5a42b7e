/// The identifier of a drop target, unique on a board.
public typealias TargetID = String

/// The direction along which a target lays out its items.
public enum ItemAxis: String, Sendable, Hashable {
  case vertical
  case horizontal
}

/// Which third of an item the pointer is over, along the target's axis: a drop on the
/// `center` goes *into* the item (a folder row), one on an edge goes *between* items.
public enum ItemEdge: String, Sendable, CaseIterable, Hashable {
  case before
  case center
  case after
}

/// A place items can be dropped on: a calendar day, a list, a folder, a slot.
public struct DropTarget: Hashable, Sendable, Codable {
  /// The target's id, unique on its board.
  public var id: TargetID
  /// The rule key, such as `calendar.day`.
  public var type: String
  /// The frame in global coordinates.
  public var frame: Rect
  /// The target it is nested in, if any: a drop that no rule of this target takes falls
  /// through to it.
  public var parent: TargetID?
  /// Free-form data, a JSON object.
  public var data: [String: JSONValue]
  /// The ids of the items the target holds, in order.
  public var items: [ItemID]
  /// With an item extent, the host computes the insertion gap nearest the pointer.
  public var axis: ItemAxis?
  /// The length of one item along ``axis``.
  public var itemExtent: Double?
  /// A closed container (a folder whose contents are not shown): it and the targets
  /// nested in it take no drops until a rule spring-loads it during a drag (`open = true`
  /// over the row that opens it).
  public var collapsed: Bool
  /// How far its content is scrolled: the offset of the content's origin from the frame's.
  public var scroll: Point

  /// A target; only the id, the type and the frame are required.
  public init(
    id: TargetID, type: String, frame: Rect, parent: TargetID? = nil, data: [String: JSONValue] = [:],
    items: [ItemID] = [], axis: ItemAxis? = nil, itemExtent: Double? = nil, collapsed: Bool = false,
    scroll: Point = Point(x: 0, y: 0)
  ) {
    self.id = id
    self.type = type
    self.frame = frame
    self.parent = parent
    self.data = data
    self.items = items
    self.axis = axis
    self.itemExtent = itemExtent
    self.collapsed = collapsed
    self.scroll = scroll
  }

  /// The 1-based insertion gap nearest `point` (global), when the target lays out items:
  /// `floor(offset / itemExtent + 0.5) + 1`, clamped to `1 ... items.count + 1`.
  public func insertionIndex(at point: Point) -> Int? {
    guard let itemExtent else { return nil }
    return Self.insertionIndex(at: point, in: frame, axis: axis, itemExtent: itemExtent, itemCount: items.count)
  }

  /// The gap computation itself, on the fields it needs (the hot path copies no target).
  static func insertionIndex(at point: Point, in frame: Rect, axis: ItemAxis?, itemExtent: Double, itemCount: Int)
    -> Int?
  {
    guard itemExtent > 0 else { return nil }
    let offset = (axis ?? .vertical) == .vertical ? point.y - frame.y : point.x - frame.x
    let raw = (offset / itemExtent + 0.5).rounded(.down) + 1
    guard !raw.isNaN else { return 1 }  // infinities clamp below, to the first or last gap
    return min(max(Int(max(min(raw, 1e9), -1e9)), 1), itemCount + 1)
  }

  /// The item position under `point` (global) and which third of it the pointer is
  /// over, when the target lays out items and the pointer is over one of them: position
  /// `k` spans `[(k - 1) * itemExtent, k * itemExtent)` along the axis, its first third
  /// is `before`, its last third (from two thirds on) `after`, the rest `center`.
  static func itemUnderPointer(
    at point: Point, in frame: Rect, axis: ItemAxis?, itemExtent: Double, itemCount: Int
  ) -> (position: Int, edge: ItemEdge)? {
    guard itemExtent > 0, itemCount > 0 else { return nil }
    let offset = (axis ?? .vertical) == .vertical ? point.y - frame.y : point.x - frame.x
    guard offset.isFinite, offset >= 0, offset < itemExtent * Double(itemCount) else { return nil }
    let slot = (offset / itemExtent).rounded(.down)
    // Compared in thirds of the extent, so a pointer exactly on a third's line is exact.
    let within = (offset - slot * itemExtent) * 3
    let edge: ItemEdge = within < itemExtent ? .before : within >= 2 * itemExtent ? .after : .center
    return (min(Int(slot), itemCount - 1) + 1, edge)
  }
}
