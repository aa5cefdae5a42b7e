/// How many VM instructions a test file's listing load had run at each registration
/// (`test`, `it`, `pending`) and at its end: from these, where the file does nothing but
/// register tests.
///
/// Every test runs in a fresh load of its file, which runs the file's top level again.
/// In a file of N tests that is N registrations per test, and the file's cost grows with
/// the square of its tests. But once a test is registered, a load for it needs nothing
/// more of the file unless the file still does something: defines a helper, sets a
/// value, registers a hook. Where it does not, the load may stop.
///
/// A registration statement (`test("name", function() ... end)`) runs a fixed number of
/// instructions, the registration function's included, whatever the name and the body.
/// Anything else the file does runs at least one instruction more: a statement, a call
/// (into any function, whose instructions count too), a loop, a jump. So where every
/// gap between two registrations is the gap of a file of bare registrations, and the end
/// comes as soon after the last as in such a file, the file does nothing there but
/// register.
struct RegistrationTally {
  /// The counts of a file of bare registrations: from one registration to the next, and
  /// from the last to the end of the load.
  struct Pure: Equatable {
    var gap: Int
    var tail: Int
  }

  /// The file ``Pure`` is measured on: three bare registrations.
  static let probeSource = """
    test("a", function() end)
    test("b", function() end)
    test("c", function() end)
    """

  /// The count at each registration, by position.
  var atRegistrations: [Int]
  /// The count when the load ended.
  var atEnd: Int

  /// The gaps of ``probeSource``'s load; nil if they do not agree, and nothing can
  /// be told from counts.
  func pureProbe() -> Pure? {
    guard atRegistrations.count == 3 else { return nil }
    let gap = atRegistrations[1] - atRegistrations[0]
    guard gap > 0, atRegistrations[2] - atRegistrations[1] == gap, atEnd > atRegistrations[2] else { return nil }
    return Pure(gap: gap, tail: atEnd - atRegistrations[2])
  }

  /// The first position from which the file only registers tests: a load for a test at
  /// or after it may stop once the test is registered. Nil when the file does something
  /// after its last registration.
  func firstPureSuffix(given pure: Pure) -> Int? {
    guard let last = atRegistrations.indices.last, atEnd - atRegistrations[last] == pure.tail else { return nil }
    var first = last
    while first > 0, atRegistrations[first] - atRegistrations[first - 1] == pure.gap { first -= 1 }
    return first
  }
}
