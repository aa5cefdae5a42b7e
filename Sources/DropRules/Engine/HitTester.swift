/// Finds the target chain under the pointer: the innermost target that takes part in
/// the drag, then its ancestors that do, innermost first. Targets are board positions.
struct HitTester {
  private let parents: [Int?]
  private let depths: [Int]
  private let frames: [Rect]
  private let index: SpatialIndex
  /// Per target: unknown, or whether no other frame cuts into it (see ``isStable(_:)``).
  private var stability: [Bool?]

  init(board: Board) {
    let targets = board.targets
    frames = targets.map(\.frame)
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
    index = SpatialIndex(frames: frames)
    stability = Array(repeating: nil, count: targets.count)
  }

  /// - Parameters:
  ///   - within: restricts the search to this target and its ancestors (an `over` step).
  ///   - takesPart: whether a target has a rule and accepts the dragged items.
  func chain(at point: Point, within: Int? = nil, takesPart: (Int) -> Bool) -> [Int] {
    var candidates = index.frames(containing: point).filter { takesPart($0) }
    if let within {
      let allowed = Set(ancestry(of: within))
      candidates = candidates.filter { allowed.contains($0) }
    }
    // Deepest first; among equals, the one declared last is drawn on top.
    guard let innermost = candidates.max(by: { (depths[$0], $0) < (depths[$1], $1) }) else { return [] }
    let containing = Set(candidates)
    return ancestry(of: innermost).filter { containing.contains($0) }
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
