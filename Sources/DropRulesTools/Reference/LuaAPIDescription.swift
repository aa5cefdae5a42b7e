/// A machine-readable description of what Lua code sees in droprules: the globals of a
/// rule file and of a test file, the classes of the objects they hand out, and the
/// string values that handlers return or receive.
///
/// ``LuaAPIDescription/droprules`` is the one description of the whole API. The editor
/// definitions (`droprules types`) and the luacheck configuration (`droprules types
/// --luacheck`) are generated from it, and tests hold it to what the sandbox really
/// exposes and to `docs/reference.md`, so the three cannot drift apart.
import DropRules

package struct LuaAPIDescription: Sendable {
  /// Named unions of values, such as the proposals `dropUpdated` may return.
  package var aliases: [Alias]
  /// The objects Lua code is handed, with their fields and methods.
  package var classes: [Class]
  /// The globals of each kind of file.
  package var environments: [Environment]

  package init(aliases: [Alias], classes: [Class], environments: [Environment]) {
    self.aliases = aliases
    self.classes = classes
    self.environments = environments
  }

  /// A named type: a union of string values (each described) or of other types.
  package struct Alias: Sendable {
    package var name: String
    package var doc: String
    /// Each choice: a Lua type (`"move"` with its quotes, `droprules.ProposalTable`) and
    /// what it means.
    package var choices: [(type: String, doc: String)]

    /// The string values among the choices, without their quotes.
    package var stringValues: [String] {
      choices.compactMap { choice in
        guard choice.type.hasPrefix("\""), choice.type.hasSuffix("\""), choice.type.count >= 2 else { return nil }
        return String(choice.type.dropFirst().dropLast())
      }
    }
  }

  /// A kind of object: its fields and methods.
  package struct Class: Sendable {
    /// The name editors show (`droprules.Info`).
    package var name: String
    /// How code usually names such an object (`info`, `target`); members are written
    /// `variable.field` and `variable:method(...)` in the reference. Nil for a class
    /// whose members are written by their own name (the handlers of a rule).
    package var variable: String?
    package var doc: String
    package var members: [Member]

    package init(name: String, variable: String?, doc: String, members: [Member]) {
      self.name = name
      self.variable = variable
      self.doc = doc
      self.members = members
    }
  }

  /// A field, a method (called with a colon) or a function (called with a dot).
  package struct Member: Sendable {
    package enum Kind: Sendable {
      /// A value of a Lua type (`string`, `droprules.Target?`, `fun(...)`).
      case field(type: String)
      case method(Signature)
      case function(Signature)
    }

    package var name: String
    package var kind: Kind
    package var doc: String
    /// A field the API uses itself (a handle's simulation number): visible at run time,
    /// hidden from completion, and not to be relied on.
    package var isInternal: Bool

    package init(_ name: String, _ kind: Kind, _ doc: String, internal isInternal: Bool = false) {
      self.name = name
      self.kind = kind
      self.doc = doc
      self.isInternal = isInternal
    }

    package static func field(_ name: String, _ type: String, _ doc: String, internal isInternal: Bool = false)
      -> Member
    {
      Member(name, .field(type: type), doc, internal: isInternal)
    }

    package static func method(_ name: String, _ signature: Signature, _ doc: String) -> Member {
      Member(name, .method(signature), doc)
    }

    package static func function(_ name: String, _ signature: Signature, _ doc: String) -> Member {
      Member(name, .function(signature), doc)
    }
  }

  /// Parameters and results of a callable member or global.
  package struct Signature: Sendable {
    package var parameters: [Parameter]
    package var results: [Result]

    package init(_ parameters: [Parameter] = [], returns results: [Result] = []) {
      self.parameters = parameters
      self.results = results
    }
  }

  package struct Parameter: Sendable {
    package var name: String
    package var type: String
    package var doc: String

    package init(_ name: String, _ type: String, _ doc: String) {
      self.name = name
      self.type = type
      self.doc = doc
    }
  }

  package struct Result: Sendable {
    package var type: String
    package var name: String
    package var doc: String

    package init(_ type: String, _ name: String, _ doc: String) {
      self.type = type
      self.name = name
      self.doc = doc
    }
  }

  /// The globals one kind of file sees.
  package struct Environment: Sendable {
    /// `rule` (rule files and the modules they require) or `test` (`*_test.lua`).
    package var name: String
    package var globals: [Global]

    package init(name: String, globals: [Global]) {
      self.name = name
      self.globals = globals
    }
  }

  /// A global: droprules' own (described, with a type) or one of Lua's that the sandbox
  /// passes through (named, with what droprules changes about it).
  package struct Global: Sendable {
    package enum Kind: Sendable {
      /// A table whose members a class describes (`droprules`).
      case library(className: String)
      case function(Signature)
      /// One of Lua's own: a function or value, or a library with these fields.
      case standard(fields: [String])
    }

    package var name: String
    package var kind: Kind
    package var doc: String

    package init(_ name: String, _ kind: Kind, _ doc: String) {
      self.name = name
      self.kind = kind
      self.doc = doc
    }

    /// Lua's own global, not described for editors (they know Lua's library already).
    package var isStandard: Bool {
      if case .standard = kind { return true }
      return false
    }
  }

  package func environment(_ name: String) -> Environment? { environments.first { $0.name == name } }

  package func `class`(_ name: String) -> Class? { classes.first { $0.name == name } }

  package func alias(_ name: String) -> Alias? { aliases.first { $0.name == name } }
}

extension LuaAPIDescription.Class {
  /// How the reference writes a member: `info.items`, `target:insert(`, or the bare
  /// name for classes without a variable.
  package func referenceName(of member: LuaAPIDescription.Member) -> String {
    guard let variable else { return member.name }
    switch member.kind {
    case .field:
      return member.name.hasPrefix("[") ? variable + member.name : "\(variable).\(member.name)"
    case .method: return "\(variable):\(member.name)("
    case .function: return "\(variable).\(member.name)("
    }
  }
}
