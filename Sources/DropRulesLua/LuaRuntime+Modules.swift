/// `require`: the runtime reads no file. It asks the embedder's ``LuaRuntime/moduleReader``
/// for a module's source, and refuses what is not Lua text.
extension LuaRuntime {
  func readModule(named name: String) -> [LuaValue] {
    // Parts joined by dots or by slashes (busted's specs write `require 'spec/helper'`),
    // none empty: no name climbs out of a module folder or starts at the root.
    let isValidName =
      !name.isEmpty
      && name.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "/" }).allSatisfy { part in
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
      }
    guard isValidName else {
      return [
        .nil,
        .string("require: invalid module name '\(name)' (use names such as 'util.colors' or 'spec/helper')"),
      ]
    }
    guard let moduleReader else { return [.nil, .string("require: module '\(name)' not found (no modules here)")] }
    let module: LuaModuleSource
    do { module = try moduleReader(name) } catch { return [.nil, .string(error.description)] }
    let text = Self.fileText(module.source)
    guard text.first != 0x1B else {
      return [.nil, .string("require: '\(module.path)' is a binary chunk; only .lua source is loaded")]
    }
    loadedFiles.insert(module.path)
    return [.string(String(decoding: text, as: UTF8.self)), .string(module.path)]
  }

  /// Source text without a leading UTF-8 byte order mark, which editors on Windows write
  /// and Lua would read as a syntax error. Lines are unchanged: the mark is on line 1.
  static func withoutByteOrderMark<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
    bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
  }

  /// A file's source as Lua's own `loadfile` reads it: without a byte order mark, and
  /// with a first line that starts with `#` (`#!/usr/bin/env lua`) emptied. Its newline
  /// stays, so every other line keeps its number, unless a binary chunk (ESC, 0x1B)
  /// follows it: then, as `luaL_loadfilex` does, the newline goes too, and the chunk
  /// starts with its signature, to be refused as binary rather than compiled as text.
  static func fileText<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    let text = withoutByteOrderMark(bytes)
    guard text.first == UInt8(ascii: "#") else { return Array(text) }
    let rest = text.drop { $0 != UInt8(ascii: "\n") }
    if rest.dropFirst().first == 0x1B { return Array(rest.dropFirst()) }
    return Array(rest)
  }
}

/// A module's source, as the embedder's module reader finds it.
public struct LuaModuleSource: Sendable {
  /// The module's text, UTF-8.
  public var source: [UInt8]
  /// The path it is named by in errors and tracebacks.
  public var path: String

  /// A module's `source`, named by `path`.
  public init(source: [UInt8], path: String) {
    self.source = source
    self.path = path
  }
}

/// Finds the source of the module `require` names (dotted, already checked); throws
/// ``LuaHostError`` with the message `require` raises when there is none.
public typealias LuaModuleReader = (_ name: String) throws(LuaHostError) -> LuaModuleSource
