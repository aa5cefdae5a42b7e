import DropRulesModel

/// A shuffled test order that a seed repeats: the order of files, and of the tests in
/// each file.
///
/// Tests that pass only in the order they are written lean on each other; shuffling
/// shows it, and the seed gives the failing order back. Each file's tests are shuffled
/// by a generator seeded from the seed and the file's path, so a file's order does not
/// depend on which files run or in which order they run.
public struct TestOrder: Sendable, Equatable {
  /// The seed the order comes from; the same seed gives the same order.
  public let seed: UInt64

  /// The order a seed gives, such as one a report printed.
  public init(seed: UInt64) {
    self.seed = seed
  }

  /// A seed for a run that names none: short, so it is easy to type back.
  public static func randomSeed() -> UInt64 {
    UInt64.random(in: 1...999_999)
  }

  /// The files, shuffled.
  public func files(_ files: [String]) -> [String] {
    Self.shuffled(files, seed: seed)
  }

  /// One file's tests, shuffled.
  public func tests<Test>(_ tests: [Test], inFile file: String) -> [Test] {
    Self.shuffled(tests, seed: seed ^ Self.stableHash(file))
  }

  /// Fisher-Yates, written out rather than `shuffled(using:)`, whose algorithm the
  /// standard library may change: a seed printed by one build must repeat in the next.
  static func shuffled<Element>(_ elements: [Element], seed: UInt64) -> [Element] {
    // SplitMix64, the fuzzer's generator: the same sequence for a seed on every platform.
    var generator = SeededRandom(seed: seed)
    var result = elements
    var index = result.count - 1
    while index > 0 {
      // The modulo's bias is below 2^-40 for any list a test run holds.
      let other = Int(generator.next() % UInt64(index + 1))
      result.swapAt(index, other)
      index -= 1
    }
    return result
  }

  /// FNV-1a of the path's bytes: the same in every process, unlike `Hasher`.
  static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
