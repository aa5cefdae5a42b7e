/// Finds the target chain under the pointer: the innermost target that takes part in
/// the drag, then its ancestors that do, innermost first. Targets are board positions.
struct HitTester {
  private var parents: [Int?] = []
  private var depths: [Int] = []
  /// Per target: whether it is a closed container, whose inner targets take no drops
  /// unless spring-loaded.
  private var collapsed: [Bool] = []
  /// Whether any target is collapsed: most boards have none, and skip the check.
  private(set) var hasCollapsed = false
  private let frames: [Rect]
  private let index: SpatialIndex
  /// Per target: unknown, or whether no other frame cuts into it (see ``isStable(_:)``).
  private var stability: [Bool?]
  /// The board's tree and frame generations this was built from.
  private(set) var treeGeneration: Int
  let frameGeneration: Int

  init(board: Board) {
    frames = board.targets.map(\.frame)
    index = SpatialIndex(frames: frames)
    stability = Array(repeating: nil, count: frames.count)
    treeGeneration = board.treeGeneration.value
    frameGeneration = board.frameGeneration.value
    refreshTree(board: board)
  }

  /// Reads the parents again, after items that stand for targets moved them; frames
  /// are unchanged, so the spatial index stays.
  mutating func refreshTree(board: Board) {
    let targets = board.targets
    treeGeneration = board.treeGeneration.value
    collapsed = targets.map(\.collapsed)
    hasCollapsed = collapsed.contains(true)
    let parents = targets.map { $0.parent.flatMap(board.position(of:)) }
    self.parents = parents
    var depths = [Int](repeating: -1, count: targets.count)
    // Parents are acyclic (the board checks): memoized walks make this linear.
    func depth(of position: Int) -> Int {
      var chain: [Int] = []
      var current: Int? = position
      while let next = current, depths[next] < 0 {
        chain.append(next)
        current = parents[next]
      }
      var depth = current.map { depths[$0] } ?? -1
      for position in chain.reversed() {
        depth += 1
        depths[position] = depth
      }
      return depths[position]
    }
    for position in targets.indices { _ = depth(of: position) }
    self.depths = depths
  }

  /// Whether a collapsed target that is not in `expanded` hides the target: itself or an
  /// ancestor. It takes no drops (a closed folder's contents are not shown).
  func isHidden(_ position: Int, expanded: Set<Int>) -> Bool {
    closedContainer(of: position, expanded: expanded) != nil
  }

  /// The outermost collapsed target not in `expanded` that hides `position` (itself or
  /// an ancestor), or nil: what the trace names as the reason a target was passed over.
  func closedContainer(of position: Int, expanded: Set<Int>) -> Int? {
    var found: Int?
    var current: Int? = position
    while let next = current {
      if collapsed[next], !expanded.contains(next) { found = next }
      current = parents[next]
    }
    return found
  }

  /// The targets whose frames contain `point`, in ascending position.
  ///
  /// - Parameters:
  ///   - point: a global location.
  ///   - within: restricts the search to this target and its ancestors (an `over` step).
  /// - Returns: board positions, ascending.
  func targets(at point: Point, within: Int? = nil) -> [Int] {
    let containing = index.frames(containing: point)
    guard let within else { return containing }
    let allowed = ancestry(of: within)
    return containing.filter { allowed.contains($0) }
  }

  /// The chain among `underPointer` (from ``targets(at:within:)``): the innermost target
  /// that takes part, then its ancestors that do.
  ///
  /// - Parameters:
  ///   - underPointer: the targets under the pointer, as ``targets(at:within:)`` gives them.
  ///   - takesPart: whether a target has a rule and accepts the dragged items.
  /// - Returns: board positions, innermost first.
  func chain(among underPointer: [Int], takesPart: (Int) -> Bool) -> [Int] {
    let candidates = underPointer.filter { takesPart($0) }
    guard let innermost = candidates.max(by: { prefers($1, over: $0) }) else { return [] }
    let containing = Set(candidates)
    return ancestry(of: innermost).filter { containing.contains($0) }
  }

  /// Whether the hit-test tries `position` before `other`: deeper first; among equals,
  /// the one declared last, which is drawn on top.
  func prefers(_ position: Int, over other: Int) -> Bool {
    (depths[position], position) > (depths[other], other)
  }

  /// Whether every other frame either contains this target's frame whole or misses it:
  /// then any two points inside the frame lie in the same frames, and a pointer that
  /// moves within it needs no new search. Worked out once per target, when first asked.
  mutating func isStable(_ position: Int) -> Bool {
    if let known = stability[position] { return known }
    let frame = frames[position]
    let stable =
      frame.width > 0 && frame.height > 0
      && index.frames(intersecting: frame).allSatisfy { other in
        other == position
          || (frames[other].x <= frame.x && frames[other].maxX >= frame.maxX
            && frames[other].y <= frame.y && frames[other].maxY >= frame.maxY)
      }
    stability[position] = stable
    return stable
  }

  private func ancestry(of position: Int) -> [Int] {
    var result = [position]
    var current = parents[position]
    while let next = current {
      result.append(next)
      current = parents[next]
    }
    return result
  }
}
