/// The first result of a call made with ``LuaRuntime/callWithPoints(_:)``, classified
/// inside Lua so that the common answers (nil, a boolean, an interned symbol) cost no copy.
package enum LuaCallResult: Equatable {
  /// How a table result gave its number (under the number key of
  /// ``LuaRuntime/internSymbols(_:symbolKey:numberKey:)``).
  package enum Number: Equatable {
    case none
    case integer(Int64)
    /// A float: whole or not, finite or not; the caller decides.
    case float(Double)
    /// Something that is not a number.
    case notANumber
  }

  case nothing
  case boolean(Bool)
  /// The code of an interned symbol (its place in the list given to `internSymbols`),
  /// alone or under the symbol key of a table, whose number and flag come with it.
  case symbol(Int, number: Number, flag: Bool)
  /// Anything else, described for a diagnostic.
  case other(String)
}
