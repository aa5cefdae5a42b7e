/// Finds the targets under a point without scanning the whole board.
///
/// Frames go into a uniform grid sized from the typical target; frames much larger than
/// a cell (containers, backgrounds) sit in a short list checked on every query. A query
/// then costs one cell plus the large frames, whatever the number of targets.
struct SpatialIndex: Sendable {
  private struct Cell: Hashable {
    var column: Int
    var row: Int
  }

  private let cellSize: Double
  private var cells: [Cell: [Int]] = [:]
  private var largeFrames: [Int] = []
  private let frames: [Rect]
  private static let maximumCellsPerFrame = 16

  /// - Parameter frames: indexed by position; queries return those positions.
  init(frames: [Rect]) {
    self.frames = frames
    let sizes = frames.map { max($0.width, $0.height) }.filter { $0 > 0 && $0.isFinite }.sorted()
    cellSize = sizes.isEmpty ? 1 : max(sizes[sizes.count / 2], 1e-6)
    cells.reserveCapacity(frames.count)
    for (position, frame) in frames.enumerated() {
      guard frame.width > 0, frame.height > 0, let range = cellRange(of: frame),
        range.columns.count * range.rows.count <= Self.maximumCellsPerFrame
      else {
        largeFrames.append(position)
        continue
      }
      for column in range.columns {
        for row in range.rows { cells[Cell(column: column, row: row), default: []].append(position) }
      }
    }
  }

  /// Positions of the frames containing `point`, in ascending order.
  func frames(containing point: Point) -> [Int] {
    guard let cell = cell(of: point) else { return largeFrames.filter { frames[$0].contains(point) } }
    var result = (cells[cell] ?? []).filter { frames[$0].contains(point) }
    result.append(contentsOf: largeFrames.lazy.filter { frames[$0].contains(point) })
    return result.sorted()
  }

  /// Positions of the frames that share area with `rect`, `rect`'s own among them.
  func frames(intersecting rect: Rect) -> [Int] {
    let overlaps = { (other: Rect) in
      other.x < rect.maxX && rect.x < other.maxX && other.y < rect.maxY && rect.y < other.maxY
    }
    guard let range = cellRange(of: rect) else { return frames.indices.filter { overlaps(frames[$0]) } }
    var result = Set(largeFrames.filter { overlaps(frames[$0]) })
    for column in range.columns {
      for row in range.rows {
        result.formUnion((cells[Cell(column: column, row: row)] ?? []).filter { overlaps(frames[$0]) })
      }
    }
    return result.sorted()
  }

  private func coordinate(_ value: Double) -> Int? {
    let scaled = (value / cellSize).rounded(.down)
    guard scaled.isFinite, abs(scaled) < 1e12 else { return nil }
    return Int(scaled)
  }

  private func cell(of point: Point) -> Cell? {
    guard let column = coordinate(point.x), let row = coordinate(point.y) else { return nil }
    return Cell(column: column, row: row)
  }

  private func cellRange(of frame: Rect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
    guard let minColumn = coordinate(frame.x), let maxColumn = coordinate(frame.maxX),
      let minRow = coordinate(frame.y), let maxRow = coordinate(frame.maxY),
      maxColumn - minColumn < Self.maximumCellsPerFrame, maxRow - minRow < Self.maximumCellsPerFrame
    else { return nil }
    return (minColumn...maxColumn, minRow...maxRow)
  }
}
