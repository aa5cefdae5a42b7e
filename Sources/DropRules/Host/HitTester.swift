/// Finds the target chain under the pointer: the innermost target that takes part in
/// the drag, then its ancestors that do, innermost first.
struct HitTester: Sendable {
  private let ids: [TargetID]
  private let parents: [Int?]
  private let depths: [Int]
  private let frames: [Rect]
  private let index: SpatialIndex
  private let positions: [TargetID: Int]

  init(board: Board) {
    let targets = board.targets
    ids = targets.map(\.id)
    frames = targets.map(\.frame)
    var positions: [TargetID: Int] = [:]
    for (position, target) in targets.enumerated() { positions[target.id] = position }
    self.positions = positions
    let parents = targets.map { $0.parent.flatMap { positions[$0] } }
    self.parents = parents
    depths = parents.indices.map { position in
      var depth = 0
      var current = parents[position]
      while let next = current {
        depth += 1
        current = parents[next]
      }
      return depth
    }
    index = SpatialIndex(frames: frames)
  }

  /// - Parameters:
  ///   - within: restricts the search to this target and its ancestors (an `over` step).
  ///   - takesPart: whether a target has a rule and accepts the dragged items.
  func chain(at point: Point, within: TargetID? = nil, takesPart: (TargetID) -> Bool) -> [TargetID] {
    var candidates = index.frames(containing: point).filter { takesPart(ids[$0]) }
    if let within, let position = positions[within] {
      let allowed = Set(ancestry(of: position))
      candidates = candidates.filter { allowed.contains($0) }
    }
    // Deepest first; among equals, the one declared last is drawn on top.
    guard let innermost = candidates.max(by: { (depths[$0], $0) < (depths[$1], $1) }) else { return [] }
    let containing = Set(candidates)
    return ancestry(of: innermost).filter { containing.contains($0) }.map { ids[$0] }
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
