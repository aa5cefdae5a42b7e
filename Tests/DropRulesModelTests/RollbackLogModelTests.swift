import Testing

@testable import DropRulesModel

/// The rollback log against the simplest model of what it must keep: every record, with
/// the ones no rollback can replay filtered out when a call ends. The log compacts in
/// place; the model allocates freely. They must agree on every record and its order,
/// and on the records a failed call hands back for its rollback.
@Suite("The rollback log keeps what the simple model keeps, in its order")
struct RollbackLogModelTests {
  /// A data write (`key` set) or a structural change (no key, always kept); `serial`
  /// tells records of one key apart.
  struct Write: RollbackRecord, Equatable {
    var key: String?
    var serial: Int
    var rollbackKey: String? { key }
  }

  /// The log's rules written plainly: within a call only the first record of a key; when
  /// a call ends, its records of keys an earlier call recorded go.
  struct Model {
    var records: [Write] = []
    var earlier: Set<String> = []
    var thisCall: Set<String> = []

    mutating func append(_ write: Write) {
      if let key = write.key, !thisCall.insert(key).inserted { return }
      records.append(write)
    }

    mutating func endCall(from start: Int) {
      let call = records[start...].filter { $0.key.map { !earlier.contains($0) } ?? true }
      records = Array(records[..<start]) + call
      earlier.formUnion(thisCall)
      thisCall = []
    }

    mutating func takeCall(from start: Int) -> [Write] {
      thisCall = []
      defer { records.removeSubrange(start...) }
      return Array(records[start...])
    }
  }

  @Test("3,000 seeded calls of writes, structural changes and failures")
  func agreesWithModel() {
    var random = SeededRandom(seed: 0x5EED_2026)
    var log = RollbackLog<Write>()
    var model = Model()
    var serial = 0
    var recordsTaken = 0
    for _ in 0..<3_000 {
      let start = log.count
      #expect(start == model.records.count)
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        serial += 1
        // Few keys, so that calls rewrite what earlier calls wrote.
        let key: String? =
          Int.random(in: 0..<5, using: &random) == 0 ? nil : "k\(Int.random(in: 0..<4, using: &random))"
        log.append(Write(key: key, serial: serial))
        model.append(Write(key: key, serial: serial))
      }
      if Int.random(in: 0..<6, using: &random) == 0 {
        let taken = log.takeCall(from: start)
        let expected = model.takeCall(from: start)
        if taken != expected {
          Issue.record("call taken after serial \(serial): \(taken.map(\.serial)) vs \(expected.map(\.serial))")
          return
        }
        recordsTaken += taken.count
      } else {
        log.endCall(from: start)
        model.endCall(from: start)
      }
      if log.records != model.records {
        Issue.record("after serial \(serial): \(log.records.map(\.serial)) vs \(model.records.map(\.serial))")
        return
      }
    }
    #expect(log.count > 0)
    #expect(recordsTaken > 0, "some failed calls took records back")
  }
}
