/// A random number generator that a seed fully decides (SplitMix64), so that a fuzz run
/// with the same seed makes the same drags on every machine: Swift's own generator is
/// seeded from the system and cannot be.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose every output follows from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// True with probability `chance` (0 to 1).
  package mutating func chance(_ chance: Double) -> Bool { Double.random(in: 0..<1, using: &self) < chance }

  /// A random element of a non-empty collection.
  package mutating func pick<C: Collection>(_ collection: C) -> C.Element where C.Index == Int {
    collection[collection.startIndex + Int.random(in: 0..<collection.count, using: &self)]
  }
}
