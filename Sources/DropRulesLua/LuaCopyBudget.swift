import CLua
import CLuaHost

/// What one copy of a Lua value into Swift may cost.
///
/// A table of 40 tables, each holding the next twice, is 2^40 entries when copied:
/// the budget counts entries (a shared table each time it is reached) and string
/// bytes as they are copied, and stops the copy when either runs out.
struct LuaCopyBudget {
  /// Tables nested deeper than this are refused.
  static let maximumDepth = 32
  /// What one Swift copy of an entry costs beyond its string bytes, roughly.
  static let bytesPerEntry = 48

  var bytesLeft: Int
  /// The call's deadline on the monotonic clock in nanoseconds, or 0: a long copy
  /// checks it every few thousand entries.
  var deadline: Int64 = 0
  /// Entries and string bytes copied so far, which the call pays for as instructions.
  var entriesCopied = 0
  var bytesCopied = 0
  /// Tables being copied, from the outermost in, to refuse a table inside itself.
  var path: [UnsafeRawPointer?] = []

  static var unlimited: LuaCopyBudget { LuaCopyBudget(bytesLeft: .max) }

  mutating func spend(entries: Int, bytes: Int) throws(LuaCopyError) {
    let (entryBytes, overflow) = entries.multipliedReportingOverflow(by: Self.bytesPerEntry)
    let cost = overflow ? Int.max : entryBytes.addingReportingOverflow(bytes).partialValue
    guard cost >= 0, cost <= bytesLeft else { throw .tooLarge }
    bytesLeft -= cost
    bytesCopied = bytesCopied.addingReportingOverflow(bytes).partialValue
    let before = entriesCopied
    entriesCopied = entriesCopied.addingReportingOverflow(entries).partialValue
    if deadline != 0, before >> 12 != entriesCopied >> 12, clua_now() > deadline { throw .outOfTime }
  }
}

/// Why a Lua value could not be copied into Swift.
public enum LuaCopyError: Error, Equatable, CustomStringConvertible {
  /// Copying it would pass the memory left under the cap.
  case tooLarge
  /// A table contains itself.
  case cycle
  /// Tables nested deeper than the limit.
  case tooDeep
  /// The call's deadline passed during the copy.
  case outOfTime
  /// Two keys of a table differ in bytes but are the same text in Swift.
  case equivalentKeys(String)

  /// Why the value could not be copied, in a sentence for the rule author.
  public var description: String {
    switch self {
    case .tooLarge:
      "the value is too large to pass to the host (tables reached twice count twice; memory left under the cap ran out)"
    case .cycle: "a table that contains itself cannot be passed to the host"
    case .tooDeep: "tables nested deeper than \(LuaCopyBudget.maximumDepth) levels cannot be passed to the host"
    case .outOfTime: "the call's time ran out while its value was copied to the host"
    case .equivalentKeys(let key):
      "a table has two keys spelled \"\(key)\" with different bytes (Unicode forms of the same text); "
        + "the host would keep one, so use one spelling"
    }
  }
}
