import DropRules
import DropRulesModel

/// Makes random drags over a board, aimed where drag-and-drop bugs live: the edges of
/// frames and of item rows, the gaps and thirds of lists, nested and overlapping targets,
/// a pointer that barely moves (a flip between two targets shows there), modifier changes
/// mid-drag, dwells, drags out into another app and in from one, drops and cancels.
public struct DragGenerator {
  /// Items that come from another app: the scenario's own, and a plain-text snippet.
  public var externalItems: [DragItem]
  /// The most steps a drag takes before its drop or cancel.
  public var maximumSteps = 20

  /// A generator that offers `externalItems` besides a plain-text snippet.
  public init(externalItems: [DragItem]) {
    self.externalItems =
      externalItems + [
        DragItem(
          id: "fuzz-snippet", name: "Snippet",
          representations: [Representation(type: "public.plain-text", payload: "a snippet")])
      ]
  }

  /// A drag over `board`.
  public func drag(on board: Board, using random: inout SeededRandom) -> FuzzDrag {
    let request = self.request(on: board, using: &random)
    var steps: [DragStep] = []
    let count = Int.random(in: 1...maximumSteps, using: &random)
    var last: Point?
    while steps.count < count {
      let roll = Double.random(in: 0..<1, using: &random)
      switch roll {
      case ..<0.08:
        steps.append(.modifiers(modifiers(using: &random)))
      case ..<0.14:
        steps.append(.wait(milliseconds: random.pick([100, 250, 400, 600, 1_000])))
      case ..<0.18:
        steps.append(
          .outside(
            accepts: random.chance(0.5) ? ["public.item"] : ["public.plain-text"],
            operation: random.chance(0.5) ? .copy : .move))
      case ..<0.30 where last != nil:
        // A pointer that barely moves: sub-pixel jitter, as a hand resting on a mouse gives.
        for _ in 0..<Int.random(in: 2...4, using: &random) where steps.count < count {
          let base = last ?? Point(x: 0, y: 0)
          let point = Point(
            x: base.x + Double.random(in: -0.4...0.4, using: &random),
            y: base.y + Double.random(in: -0.4...0.4, using: &random))
          steps.append(.at(point))
        }
      case ..<0.36 where !board.targets.isEmpty:
        let target = random.pick(board.targets)
        let gap = target.itemExtent != nil && random.chance(0.6)
        steps.append(.over(target.id, index: gap ? Int.random(in: 1...(target.items.count + 1), using: &random) : nil))
        last = target.frame.center
      default:
        let point = self.point(on: board, using: &random)
        steps.append(.at(point))
        last = point
      }
    }
    let end = Double.random(in: 0..<1, using: &random)
    if end < 0.7 { steps.append(.drop) } else if end < 0.9 { steps.append(.cancel) }
    return FuzzDrag(request: request, steps: steps)
  }

  /// One to three board items (or an item from another app), the operations, the modifiers.
  func request(on board: Board, using random: inout SeededRandom) -> DragRequest {
    let placed = board.placedItems
    var items: [DraggedItem]
    if placed.isEmpty || random.chance(0.15) {
      var item = random.pick(externalItems)
      // A fresh id each time: the last drag may have put an item of that id on the board.
      var suffix = 1
      while board.item(item.id) != nil {
        suffix += 1
        item.id = "\(random.pick(externalItems).id)-\(suffix)"
      }
      items = [.external(item)]
    } else {
      var ids: [ItemID] = []
      for _ in 0..<random.pick([1, 1, 1, 1, 2, 2, 3]) {
        let id = random.pick(placed)
        if !ids.contains(id) { ids.append(id) }
      }
      items = ids.map(DraggedItem.board)
    }
    let allowed: Set<DragOperation>? =
      switch Double.random(in: 0..<1, using: &random) {
      case ..<0.6: nil
      case ..<0.75: [.move]
      case ..<0.9: [.copy]
      default: [.move, .copy]
      }
    return DragRequest(
      items: items, allowedOperations: allowed, modifiers: random.chance(0.2) ? modifiers(using: &random) : [])
  }

  /// A number between two finite bounds, even when their distance is not finite (frames
  /// at -1.7e308 and 1.7e308): then one of the two halves, each of finite width.
  static func random(from lower: Double, to upper: Double, using random: inout SeededRandom) -> Double {
    guard lower.isFinite, upper.isFinite, lower <= upper else { return 0 }
    if (upper - lower).isFinite { return Double.random(in: lower...upper, using: &random) }
    return random.chance(0.5)
      ? Double.random(in: lower...0, using: &random) : Double.random(in: 0...upper, using: &random)
  }

  func modifiers(using random: inout SeededRandom) -> Set<Modifier> {
    random.chance(0.3) ? [] : [random.pick(Modifier.allCases)]
  }

  /// A point where behaviour changes: inside a target, on or just off an edge of its
  /// frame, at a gap or a third of a row, or somewhere off every target.
  func point(on board: Board, using random: inout SeededRandom) -> Point {
    guard !board.targets.isEmpty, random.chance(0.92) else {
      // Off every target, or far away.
      let frames = board.targets.map(\.frame).filter {
        $0.x.isFinite && $0.y.isFinite && $0.maxX.isFinite && $0.maxY.isFinite
      }
      let minX = frames.map(\.x).min() ?? 0
      let minY = frames.map(\.y).min() ?? 0
      let maxX = max(frames.map(\.maxX).max() ?? 100, minX)
      let maxY = max(frames.map(\.maxY).max() ?? 100, minY)
      return Point(
        x: Self.random(from: minX - 60, to: maxX + 60, using: &random),
        y: Self.random(from: minY - 60, to: maxY + 60, using: &random))
    }
    let frame = random.pick(board.targets).frame
    let target = board.targets.first { $0.frame == frame }
    let edge = { (random: inout SeededRandom) in random.pick([-0.5, 0, 0.5]) }
    switch Double.random(in: 0..<1, using: &random) {
    case ..<0.3: return frame.center
    case ..<0.55:
      return Point(
        x: frame.x + Double.random(in: 0...max(frame.width, 0), using: &random),
        y: frame.y + Double.random(in: 0...max(frame.height, 0), using: &random))
    case ..<0.75:
      // On an edge of the frame, just inside, or just outside.
      let onVertical = random.chance(0.5)
      if onVertical {
        let x = (random.chance(0.5) ? frame.x : frame.maxX) + edge(&random)
        return Point(x: x, y: frame.y + Double.random(in: 0...max(frame.height, 0), using: &random))
      }
      let y = (random.chance(0.5) ? frame.y : frame.maxY) + edge(&random)
      return Point(x: frame.x + Double.random(in: 0...max(frame.width, 0), using: &random), y: y)
    default:
      // A gap or a third of a row, where the index and the edge change.
      guard let target, let extent = target.itemExtent, extent > 0 else { return frame.center }
      let row = Double(Int.random(in: 0...target.items.count, using: &random))
      let along = extent * (row + random.pick([0, 1.0 / 3, 2.0 / 3])) + edge(&random)
      return target.axis == .horizontal
        ? Point(x: frame.x + along, y: frame.y + frame.height / 2)
        : Point(x: frame.x + frame.width / 2, y: frame.y + along)
    }
  }
}
