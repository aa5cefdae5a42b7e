/// The first result of a handler call, classified inside Lua so that the common
/// answers (nil, a boolean, a proposal) cost no copy.
enum LuaHandlerReturn: Equatable {
  /// How a `{ operation = ..., index = n }` table gave its index.
  enum Index: Equatable {
    case none
    case integer(Int64)
    /// A float: whole or not, finite or not; the caller decides.
    case float(Double)
    /// Something that is not a number.
    case notANumber
  }

  case nothing
  case boolean(Bool)
  /// `code` 0 move, 1 copy, 2 forbidden, 3 cancel; a table result carries its index.
  case proposal(Int, index: Index)
  /// Anything else, described for a diagnostic.
  case other(String)
}
