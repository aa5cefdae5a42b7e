/// Finds the targets under a point without scanning the whole board.
///
/// Frames go into a uniform grid sized from the typical target. Frames much larger than
/// a cell (containers: kanban columns, calendar weeks, folders) go into a second grid of
/// cells `coarseFactor` times larger, and only the frames too large even for that (a
/// background, a frame of infinite size) into a list checked on every query. A query
/// then costs one cell of each grid and the few huge frames, whatever the number of
/// targets: with containers in the short list, a query over a board of columns cost
/// 88,357 instructions at 100,000 targets (Benchmarks/hit-instructions.sh).
struct SpatialIndex: Sendable {
  private struct Cell: Hashable {
    var column: Int
    var row: Int
  }

  /// One uniform grid of frame positions.
  private struct Grid: Sendable {
    let cellSize: Double
    var cells: [Cell: [Int]] = [:]

    func coordinate(_ value: Double) -> Int? {
      let scaled = (value / cellSize).rounded(.down)
      guard scaled.isFinite, abs(scaled) < 1e12 else { return nil }
      return Int(scaled)
    }

    func cell(of point: Point) -> Cell? {
      guard let column = coordinate(point.x), let row = coordinate(point.y) else { return nil }
      return Cell(column: column, row: row)
    }

    /// The cells a frame covers, when it covers at most `maximumCellsPerFrame` of them
    /// along each side.
    func cellRange(of frame: Rect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
      guard let minColumn = coordinate(frame.x), let maxColumn = coordinate(frame.maxX),
        let minRow = coordinate(frame.y), let maxRow = coordinate(frame.maxY),
        maxColumn - minColumn < SpatialIndex.maximumCellsPerFrame, maxRow - minRow < SpatialIndex.maximumCellsPerFrame
      else { return nil }
      return (minColumn...maxColumn, minRow...maxRow)
    }

    /// Files `position` under every cell of `frame`; false when the frame is too large.
    mutating func insert(_ position: Int, frame: Rect) -> Bool {
      guard let range = cellRange(of: frame),
        range.columns.count * range.rows.count <= SpatialIndex.maximumCellsPerFrame
      else { return false }
      for column in range.columns {
        for row in range.rows { cells[Cell(column: column, row: row), default: []].append(position) }
      }
      return true
    }

    func candidates(at point: Point) -> [Int] {
      cell(of: point).flatMap { cells[$0] } ?? []
    }

    /// Positions filed under any cell `rect` covers; nil when it covers too many to ask.
    func candidates(intersecting rect: Rect) -> Set<Int>? {
      guard let range = cellRange(of: rect) else { return nil }
      var result = Set<Int>()
      for column in range.columns {
        for row in range.rows { result.formUnion(cells[Cell(column: column, row: row)] ?? []) }
      }
      return result
    }
  }

  private var fine: Grid
  private var coarse: Grid
  private var hugeFrames: [Int] = []
  private let frames: [Rect]
  fileprivate static let maximumCellsPerFrame = 16
  /// How many times larger a coarse cell is than a fine one.
  static let coarseFactor = 16.0

  /// - Parameter frames: indexed by position; queries return those positions.
  init(frames: [Rect]) {
    self.frames = frames
    let sizes = frames.map { max($0.width, $0.height) }.filter { $0 > 0 && $0.isFinite }.sorted()
    let cellSize = sizes.isEmpty ? 1 : max(sizes[sizes.count / 2], 1e-6)
    fine = Grid(cellSize: cellSize)
    coarse = Grid(cellSize: cellSize * Self.coarseFactor)
    fine.cells.reserveCapacity(frames.count)
    for (position, frame) in frames.enumerated() {
      guard frame.width > 0, frame.height > 0 else {
        hugeFrames.append(position)  // empty: never contains a point, but checked as the scan would
        continue
      }
      if fine.insert(position, frame: frame) || coarse.insert(position, frame: frame) { continue }
      hugeFrames.append(position)
    }
  }

  /// Positions of the frames containing `point`, in ascending order.
  func frames(containing point: Point) -> [Int] {
    var result = fine.candidates(at: point).filter { frames[$0].contains(point) }
    // Most boards have no containers, or no huge frames: each query skips what is empty.
    if !coarse.cells.isEmpty {
      result.append(contentsOf: coarse.candidates(at: point).lazy.filter { frames[$0].contains(point) })
    }
    if !hugeFrames.isEmpty {
      result.append(contentsOf: hugeFrames.lazy.filter { frames[$0].contains(point) })
    }
    return result.count > 1 ? result.sorted() : result
  }

  /// Positions of the frames that share area with `rect`, `rect`'s own among them.
  func frames(intersecting rect: Rect) -> [Int] {
    let overlaps = { (other: Rect) in
      other.x < rect.maxX && rect.x < other.maxX && other.y < rect.maxY && rect.y < other.maxY
    }
    guard let fromFine = fine.candidates(intersecting: rect), let fromCoarse = coarse.candidates(intersecting: rect)
    else { return frames.indices.filter { overlaps(frames[$0]) } }
    var result = Set(hugeFrames.filter { overlaps(frames[$0]) })
    result.formUnion(fromFine.filter { overlaps(frames[$0]) })
    result.formUnion(fromCoarse.filter { overlaps(frames[$0]) })
    return result.sorted()
  }
}
