import Testing

@testable import DropRulesModel

/// The grid behind hit-testing must find exactly what a scan of every frame finds.
@Suite("The spatial index agrees with a scan")
struct SpatialIndexTests {
  /// Frames of many sizes, some huge, some empty, some far off, made from a fixed seed.
  private func frames(_ count: Int, seed: UInt64) -> [Rect] {
    var state = seed
    func next(_ bound: Double) -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53) * bound
    }
    return (0..<count).map { index in
      switch index % 10 {
      case 0: Rect(x: next(100), y: next(100), width: 5_000, height: 5_000)
      case 1: Rect(x: next(1_000), y: next(1_000), width: 0, height: 10)
      case 2: Rect(x: 1e9 + next(10), y: -1e9, width: 10, height: 10)
      // Containers, too large for the fine grid: the coarse one holds them.
      case 3: Rect(x: next(2_000), y: next(2_000), width: 300 + next(400), height: 200 + next(900))
      default: Rect(x: next(2_000), y: next(2_000), width: 1 + next(40), height: 1 + next(40))
      }
    }
  }

  @Test("points and rectangles find the same frames as checking every frame", arguments: [1, 2, 3])
  func agreesWithAScan(seed: UInt64) {
    let all = frames(600, seed: seed)
    let index = SpatialIndex(frames: all)
    var state = seed
    func next(_ bound: Double) -> Double {
      state = state &* 2_862_933_555_777_941_757 &+ 3_037_000_493
      return Double(state >> 11) / Double(1 << 53) * bound
    }
    for _ in 0..<500 {
      let point = Point(x: next(2_100) - 50, y: next(2_100) - 50)
      #expect(index.frames(containing: point) == all.indices.filter { all[$0].contains(point) })
      let rect = Rect(x: next(2_000), y: next(2_000), width: next(300), height: next(300))
      let sharingArea = all.indices.filter { position in
        let other = all[position]
        return other.x < rect.maxX && rect.x < other.maxX && other.y < rect.maxY && rect.y < other.maxY
      }
      #expect(index.frames(intersecting: rect) == sharingArea)
    }
  }

  @Test("NaN and infinite points find nothing, and never trap")
  func oddPoints() {
    let index = SpatialIndex(frames: frames(50, seed: 9))
    for point in [Point(x: .nan, y: 1), Point(x: .infinity, y: 0), Point(x: -.infinity, y: .nan)] {
      #expect(index.frames(containing: point).isEmpty)
    }
  }
}
