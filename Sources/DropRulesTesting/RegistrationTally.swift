/// How many VM instructions a test file's listing load had run when each registration
/// (`test`, `it`, `pending`) began and ended, and at the end of the load: from these,
/// where the file does nothing but register tests.
///
/// Every test runs in a fresh load of its file, which runs the file's top level again.
/// In a file of N tests that is N registrations per test, and the file's cost grows with
/// the square of its tests. But once a test is registered, a load for it needs nothing
/// more of the file unless the file still does something: defines a helper, sets a
/// value, registers a hook. Where it does not, the load may stop.
///
/// Between the end of one registration and the start of the next, a file that only
/// registers runs the next registration statement and nothing else:
/// `test("name", function() ... end)` is one instruction for the function, one for each
/// argument and one for the call, plus the registration function's own first and last
/// instructions, the same for every registration. Anything else the file does runs at
/// least one instruction more: a statement, a call (into any function, whose instructions
/// count too), a loop, a jump, an argument that is more than a value. So where every such
/// gap is exactly what its statement needs, and the load ends as soon after the last
/// registration as a file of bare registrations does, the file only registers there.
struct RegistrationTally {
  /// One registration: the counts when it began and ended, and its arguments.
  struct Registration: Equatable {
    var entry: Int
    var arguments: Int
    var exit: Int
  }

  /// What a file of bare registrations runs: between two registrations beyond the
  /// statement's own instructions, and from the last to the end of the load.
  struct Pure: Equatable {
    var between: Int
    var tail: Int
  }

  /// The file ``Pure`` is measured on: three bare registrations.
  static let probeSource = """
    test("a", function() end)
    test("b", function() end)
    test("c", function() end)
    """

  /// By position.
  var registrations: [Registration]
  /// The count when the load ended.
  var atEnd: Int

  /// What the statement of a registration with `arguments` arguments runs: the function,
  /// each argument, the call.
  static func statement(arguments: Int) -> Int { arguments + 2 }

  /// The instructions between the end of registration `position - 1` and the start of
  /// `position`, beyond that registration's own statement.
  func extra(before position: Int) -> Int {
    registrations[position].entry - registrations[position - 1].exit
      - Self.statement(arguments: registrations[position].arguments)
  }

  /// The counts of ``probeSource``'s load; nil if its two gaps do not agree, and nothing
  /// can be told from counts.
  func pureProbe() -> Pure? {
    guard registrations.count == 3, let last = registrations.last else { return nil }
    let between = extra(before: 1)
    guard between >= 0, extra(before: 2) == between, atEnd > last.exit else { return nil }
    return Pure(between: between, tail: atEnd - last.exit)
  }

  /// The first position from which the file only registers tests: a load for a test at
  /// or after it may stop once the test is registered. Nil when the file does something
  /// after its last registration.
  func firstPureSuffix(given pure: Pure) -> Int? {
    guard let last = registrations.indices.last, atEnd - registrations[last].exit == pure.tail else { return nil }
    var first = last
    while first > 0, extra(before: first) == pure.between { first -= 1 }
    return first
  }
}
