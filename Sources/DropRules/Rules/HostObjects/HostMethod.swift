import DropRulesLua

/// One method of a host object, declared once: its name, parameters, result and doc line
/// (the reference and the editor definitions are made from them), the check api.lua makes
/// of its arguments before the host sees them, and what the host does.
///
/// api.lua holds no method of its own: it makes each kind's methods from these lists when
/// it loads. A method that fails returns `nil, message`, raised at the rule's line.
package struct HostMethod: Sendable {
  /// What a method's arguments must be, checked (and converted) together in api.lua, with
  /// the method's name in the message (`target:set expects a string key, got number`).
  /// One check per method, not per argument: the rule pays for every instruction of it.
  package enum Arguments: String, Sendable {
    /// None.
    case none
    /// A type identifier or a list of them: passed as a list.
    case types
    /// A type identifier.
    case typeID
    /// An item object: passed as its id.
    case item
    /// An item object or a list of them (passed as a list of ids), and a finite number
    /// or nil.
    case itemsAndIndex
    /// A string key, and JSON-like data (views copied plain) whose text is UTF-8.
    case keyAndValue
    /// Anything: passed as it is (an id the host looks up).
    case id

    /// How many arguments the check takes.
    package var count: Int {
      switch self {
      case .none: 0
      case .types, .typeID, .item, .id: 1
      case .itemsAndIndex, .keyAndValue: 2
      }
    }
  }

  /// What api.lua makes of what the host returns.
  package enum ResultShape: String, Sendable {
    /// Nothing, whatever the host returned.
    case none
    /// The first value, as it is.
    case value
    /// The object of the item, or of the target, whose id was returned (nil for nil).
    case item, target
    /// A new plain list of the objects of the item ids returned.
    case itemList
  }

  package struct Parameter: Sendable {
    package let name: String
    package let luaType: String
    package let doc: String
  }

  package let name: String
  package let arguments: Arguments
  package let parameters: [Parameter]
  package let result: ResultShape
  /// The result's type as editors see it, and what it is; nil for none.
  package let returns: (luaType: String, doc: String)?
  package let doc: String
  /// The host's work, given the subject's id (nil for the board and info) and then the
  /// checked arguments; `nil, message` to refuse. Nil for a lookup that the result's shape alone answers
  /// (`info.board:target(id)`: api.lua's cache of target objects, then the host's).
  let run: (@Sendable (RuleFileState, _ idAndArguments: [LuaValue]) -> [LuaValue])?

  init(
    _ name: String, _ arguments: Arguments = .none, _ parameters: [Parameter] = [], result: ResultShape = .none,
    returns: (luaType: String, doc: String)? = nil, doc: String,
    run: (@Sendable (RuleFileState, _ idAndArguments: [LuaValue]) -> [LuaValue])?
  ) {
    precondition(parameters.count == arguments.count, "\(name): one parameter per argument")
    self.name = name
    self.arguments = arguments
    self.parameters = parameters
    self.result = result
    self.returns = returns
    self.doc = doc
    self.run = run
  }
}

extension HostMethod.Parameter {
  init(_ name: String, _ luaType: String, _ doc: String) {
    self.init(name: name, luaType: luaType, doc: doc)
  }
}
