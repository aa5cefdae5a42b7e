import DropRulesLua
import DropRulesModel

/// One field of a host object, declared once: its name, its Lua type and doc line (which
/// the reference, the editor definitions and the luacheck configuration are made from),
/// how api.lua shapes it, and how the host reads it.
///
/// api.lua holds no field of its own: it takes each kind's fields from these lists when it
/// loads, reads a field when a rule first asks for it, and keeps it until the board's
/// version moves. Adding a field is adding an entry here.
package struct HostField<Subject>: Sendable {
  /// How api.lua makes a field's Lua value from what the host gives.
  package enum Shape: String, Sendable {
    /// A string, number or boolean (or nil), as given.
    case value
    /// A table of values, given read-only.
    case table
    /// The object of the item, or of the target, whose id is given (nil for nil).
    case item, target
    /// A read-only list of the objects of the item ids given.
    case items
    /// A read-only set of the names given: `set.name == true`.
    case names
    /// JSON data, read whole when small and a key at a time when not (``HostData``).
    case data
  }

  package enum Reader: Sendable {
    case value(@Sendable (Subject) -> LuaValue)
    case data(HostData<Subject>)
  }

  package let name: String
  /// The field's type as editors see it (`droprules.Target?`).
  package let luaType: String
  package let shape: Shape
  /// The method that changes what the field shows (`target:set`), which its read-only
  /// error names.
  package let changedWith: String?
  package let doc: String
  let reader: Reader

  init(
    _ name: String, _ luaType: String, _ shape: Shape, changedWith: String? = nil, doc: String,
    read: @escaping @Sendable (Subject) -> LuaValue
  ) {
    self.name = name
    self.luaType = luaType
    self.shape = shape
    self.changedWith = changedWith
    self.doc = doc
    reader = .value(read)
  }

  init(_ name: String, _ luaType: String, data: HostData<Subject>, changedWith: String, doc: String) {
    self.name = name
    self.luaType = luaType
    shape = .data
    self.changedWith = changedWith
    self.doc = doc
    reader = .data(data)
  }

  /// The field's value as api.lua shapes it: for data, the whole of it when it is small,
  /// else `false` (api.lua then reads it a key at a time).
  func read(_ subject: Subject) -> LuaValue {
    switch reader {
    case .value(let read): read(subject)
    case .data(let data): data.smallWhole(subject).map { LuaValue(json: .object($0)) } ?? .boolean(false)
    }
  }

  /// How the field's read-only views name it in errors (`target.data (read-only: change it
  /// with target:set)`).
  func description(in kind: String) -> String {
    "\(kind).\(name) (read-only\(changedWith.map { ": change it with \($0)" } ?? ""))"
  }
}

/// JSON data a host object shows (`target.data`, `item.data`): read whole when small, a
/// key at a time when not, so that reading one key of data another rule file made large
/// costs that key.
package struct HostData<Subject>: Sendable {
  /// How many keys the data has, counted without building it.
  let keyCount: @Sendable (Subject) -> Int
  let whole: @Sendable (Subject) -> [String: JSONValue]
  let value: @Sendable (Subject, String) -> JSONValue?

  /// The whole data when it is small enough to read at the first read of a key.
  func smallWhole(_ subject: Subject) -> [String: JSONValue]? {
    guard keyCount(subject) <= Self.smallKeys else { return nil }
    let data = whole(subject)
    var bytes = 0
    for (key, element) in data {
      bytes += Board.bytes(of: key, element)
      if bytes > Self.smallBytes { return nil }
    }
    return data
  }

  /// The most keys, and bytes, data read whole may have.
  static var smallKeys: Int { 64 }
  static var smallBytes: Int { 16 * 1024 }
}
