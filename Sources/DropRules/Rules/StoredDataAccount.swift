/// The bytes of data that rules stored on the board beyond what each target held when a
/// rule first changed it: memory the host keeps on the rules' behalf, which counts
/// against the runtime's cap like the Lua heap does.
struct StoredDataAccount {
  private var targets: [TargetID: (baseline: Int, current: Int)] = [:]
  private(set) var total = 0

  /// The bytes that setting `key` to `value` adds to `data` (negative when it frees).
  static func growth(setting key: String, to value: JSONValue?, in data: [String: JSONValue]) -> Int {
    (value?.estimatedBytes ?? 0) - (data[key]?.estimatedBytes ?? 0)
  }

  /// Records a change of `target`, whose data was `data` before it.
  mutating func record(growth: Int, on target: TargetID, before data: [String: JSONValue]) {
    let entry =
      targets[target]
      ?? {
        let size = JSONValue.object(data).estimatedBytes
        return (size, size)
      }()
    update(target, to: (entry.baseline, entry.current + growth))
  }

  /// Counts `target` again from its data (a rollback replaced it).
  mutating func recount(_ target: TargetID, data: [String: JSONValue]?) {
    guard let entry = targets[target] else { return }
    update(target, to: (entry.baseline, data.map { JSONValue.object($0).estimatedBytes } ?? entry.baseline))
  }

  mutating func reset() {
    targets = [:]
    total = 0
  }

  private mutating func update(_ target: TargetID, to entry: (baseline: Int, current: Int)) {
    let before = targets[target].map { max(0, $0.current - $0.baseline) } ?? 0
    targets[target] = entry
    total += max(0, entry.current - entry.baseline) - before
  }
}
