import CLua
import CLuaHost

/// Compiling chunks and making the environments they run in.
extension LuaRuntime {
  /// Compiles a text chunk. Binary chunks are refused. A leading UTF-8 byte order mark
  /// is dropped (lines are unchanged: the mark is on line 1). Only in a file's chunk
  /// (`chunkName` `@path`), as Lua's `loadfile` does, a first line that starts with `#`
  /// (`#!/usr/bin/env lua`) is emptied: its newline stays, so errors still count it as
  /// line 1; a binary chunk after it is refused as one. Any other chunk (`=name`) keeps
  /// a `#` first line, a syntax error to Lua, as Lua's own `load` of a string does (and
  /// as a rule's `load` still does).
  ///
  /// - Parameters:
  ///   - source: the chunk's text, as UTF-8 bytes.
  ///   - chunkName: `@path` for files (errors then read `path:line:`), `=name` otherwise.
  ///   - environment: the chunk's `_ENV`, usually from ``newEnvironment(globals:)``;
  ///     nil leaves the unrestricted global table, for droprules' own trusted code.
  /// - Returns: the chunk as a function, to run with ``call(_:_:keepingTables:hostWork:)``.
  /// - Throws: ``LuaError`` of kind `refused` for a binary (precompiled) chunk, `syntax`
  ///   when the text does not compile, `memoryLimit` when compiling it passes the cap.
  public func load(
    source: some Sequence<UInt8>, chunkName: String, environment: LuaReference? = nil
  ) throws(LuaError) -> LuaReference {
    let path = chunkName.hasPrefix("@") ? String(chunkName.dropFirst()) : nil
    let bytes = path != nil ? Self.fileText(Array(source)) : Array(Self.withoutByteOrderMark(Array(source)))
    if bytes.first == 0x1B {
      throw LuaError(
        kind: .refused, message: "binary (precompiled) chunks are not loaded; use the .lua source", file: path)
    }
    if let path { loadedFiles.insert(path) }
    let status = Self.compile(bytes, chunkName: chunkName, on: state)
    guard status == LUA_OK else {
      let message = popString()
      let kind: LuaError.Kind =
        status == LUA_ERRMEM
        ? .memoryLimit(limits.maxMemory)
        : clua_compile_timed_out(state) != 0 ? .timeLimit(limits.maxTimeMilliseconds) : .syntax
      throw restoringFullPath(LuaError(kind: kind, rawMessage: message))
    }
    if let environment {
      pushReference(environment)
      _ = lua_setupvalue(state, -2, 1)
    }
    return popReference()
  }

  /// Compiles a text chunk given as a string, as the byte-sequence `load` does.
  public func load(
    source: String, chunkName: String, environment: LuaReference? = nil
  ) throws(LuaError) -> LuaReference {
    try load(source: Array(source.utf8), chunkName: chunkName, environment: environment)
  }

  /// Lua shortens long chunk names to `...tail`; this restores the full path.
  func restoringFullPath(_ error: LuaError) -> LuaError {
    guard let file = error.file, file.hasPrefix("...") else { return error }
    let tail = file.dropFirst(3)
    var restored = error
    restored.file = loadedFiles.first { $0.hasSuffix(tail) } ?? file
    return restored
  }

  /// A fresh sandboxed environment holding the safe standard library plus `globals`;
  /// `require` gives each of `modules` (a table of name to value) by its name before it
  /// looks for a file, in this environment and in those of the modules it loads.
  public func newEnvironment(
    globals: [String: LuaValue] = [:], modules: LuaValue = .nil
  ) throws(LuaError) -> LuaReference {
    let makeEnvironment = try sandboxFunction("newEnvironment")
    // Copying the libraries is the host's work, not the rule's: no instruction budget.
    let results = try call(
      makeEnvironment, [.table(LuaTable(fields: globals)), modules], keepingTables: true, hostWork: true)
    guard case .reference(let environment) = results.first ?? .nil else {
      throw LuaError(kind: .runtime, message: "newEnvironment returned no table")
    }
    return environment
  }

  /// Whether calls count their instructions only once they have run for a few
  /// milliseconds (the watchdog then sets the count hook, and the deadline bounds what ran
  /// before), instead of from their first instruction. Lua 5.4 sends every instruction
  /// through a check while a count hook is set, so short calls run faster; the budget
  /// becomes a coarse bound, for code whose count nobody reads (a test file's own code).
  /// Needs a deadline; without one, calls count from their first instruction.
  package var countsLazily: Bool {
    get { clua_counts_lazily(state) != 0 }
    set { clua_count_lazily(state, newValue ? 1 : 0) }
  }

  /// The instructions the last call counted (its C functions' charges included).
  package var instructionsCounted: Int { Int(clua_instructions_used(state)) }

  /// `table` made in Lua once and kept: a table Lua receives again and again (as a
  /// ``LuaValue/reference(_:)``) without a copy each time.
  package func keep(_ table: LuaTable) throws(LuaError) -> LuaReference {
    guard lua_checkstack(state, 3) != 0 else { throw LuaError(kind: .runtime, message: "stack overflow") }
    let plan = startPlan(on: state)
    self.plan(.table(table), into: plan)
    let pushed = clua_push_plan_protected(state, plan)
    guard pushed == LUA_OK else {
      throw LuaError(
        kind: pushed == LUA_ERRMEM ? .memoryLimit(limits.maxMemory) : .runtime,
        message: "a table could not be made in Lua: " + popString())
    }
    return popReference()
  }
}
