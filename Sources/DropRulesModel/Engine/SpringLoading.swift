/// The closed containers rules spring-loaded during a drag (`open = true` over the row
/// that opens one): the targets inside them are hit-tested until the drag ends.
struct SpringLoading {
  /// The board positions of the containers opened so far.
  private(set) var opened: Set<Int> = []

  /// Opens the container at `position`; false if it was open already.
  mutating func open(_ position: Int) -> Bool { opened.insert(position).inserted }

  /// The drag ended: every container closes again.
  mutating func closeAll() { opened = [] }
}
