// libFuzzer target: Lua source that builds values and passes them across the bridge.
//
// Each input runs twice, each time in a fresh state (the second time only if it compiled):
//
// 1. In a bare `LuaRuntime`, as a chunk whose environment has `sink(...)`. `sink` hands
//    its arguments to a host function that checks them in Swift (their JSON form, when
//    they have one, must survive serializing and parsing) and returns them; the Lua
//    side then compares what came back with what went in. The chunk's own results go
//    to Swift and back the same way.
// 2. In a `RuleHost`, as code that a rule's `performDrop` loads, where `sink` stores each
//    value with `target:set` and compares what `target.data` then reads.
//
// What must come back: integers exactly, floats bit for bit (NaN as NaN, -0.0 as -0.0),
// strings byte for byte when they are valid UTF-8 (the bridge decodes strings as UTF-8,
// so others come back repaired), tables as fresh tables with the same sequence and
// string keys (other keys are left out), and functions, coroutines and tables with a
// metatable as the same object. Through `target:set` the JSON rules apply instead:
// numbers become doubles, whole ones under 9e15 read back as integers. A mismatch calls
// `fatalError`, which libFuzzer reports as a crash; any Lua or Swift error is fine.
import DropRules
import Foundation

let limits = LuaLimits(maxInstructions: 1_000_000, maxMemory: 16 << 20, maxTime: .milliseconds(500))

/// `FUZZ_TOLERATE=equivalent-keys` stops checking tables with non-ASCII string keys, so
/// that a run can go past that known finding (run.sh sets it while it stands).
let tolerateEquivalentKeys =
  ProcessInfo.processInfo.environment["FUZZ_TOLERATE", default: ""].split(separator: ",").contains(
    "equivalent-keys")

/// Lua that the harness shares between the two runs: private copies of what the checks
/// use, taken before the input runs, so that the input cannot change the checks.
let commonLua = """
  local type, rawequal, rawget, rawlen, next, getmetatable, tostring, pcall =
    type, rawequal, rawget, rawlen, next, getmetatable, tostring, pcall
  local mathtype, utf8len, format, sub, pack, unpack =
    math.type, utf8.len, string.format, string.sub, table.pack, table.unpack

  local find = string.find
  local tolerateEquivalentKeys = \(tolerateEquivalentKeys)

  local function valid(text) return utf8len(text) ~= nil end

  -- Whether the string keys of `table` can be checked one by one: keys that are not
  -- valid UTF-8 are repaired on the way and may then meet, and with FUZZ_TOLERATE=
  -- equivalent-keys, non-ASCII keys are not checked either (Swift strings compare
  -- canonically equivalent keys as equal; see Fuzz/Corpus/regressions).
  local function checkableKeys(table)
    for key in next, table do
      if type(key) == "string" then
        if not valid(key) then return false end
        if tolerateEquivalentKeys and find(key, "[\\128-\\255]") then return false end
      end
    end
    return true
  end

  -- A short description for messages; never runs a metamethod.
  local function describe(value)
    if type(value) == "string" then return sub(format("%q", value), 1, 80) end
    if mathtype(value) == "float" then return format("%a", value) end
    if type(value) == "number" or type(value) == "boolean" or value == nil then return tostring(value) end
    return "a " .. type(value)
  end

  """

/// Run 1: the prelude. It receives the host's sink and fail functions, defines `sink` in
/// the input's environment and returns `run(chunk)` and `check(...)`.
let preludeLua =
  commonLua + """
    local rawsink, fail = ...

    -- Why `back` is not what the bridge should make of `value`, or nil.
    local function same(value, back)
      local kind = type(value)
      if kind ~= type(back) then return ": a " .. kind .. " came back as a " .. type(back) end
      if kind == "number" then
        if mathtype(value) ~= mathtype(back) then
          return format(": %s %s came back as %s %s", mathtype(value), describe(value), mathtype(back), describe(back))
        end
        if value ~= value then
          if back == back then return ": NaN came back as " .. describe(back) end
          return nil
        end
        if value ~= back or (value == 0 and 1 / value ~= 1 / back) then
          return ": " .. describe(value) .. " came back as " .. describe(back)
        end
        return nil
      end
      if kind == "string" then
        if valid(value) and value ~= back then
          return ": string " .. describe(value) .. " came back as " .. describe(back)
        end
        return nil
      end
      if kind ~= "table" or getmetatable(value) ~= nil then
        if not rawequal(value, back) then return ": a " .. kind .. " passed by reference came back as another" end
        return nil
      end
      if getmetatable(back) ~= nil then return ": a plain table came back with a metatable" end
      if rawequal(value, back) then return ": a plain table came back as itself, not a copy" end
      local length = rawlen(value)
      for index = 1, length do
        local problem = same(rawget(value, index), rawget(back, index))
        if problem then return "[" .. index .. "]" .. problem end
      end
      local checkKeys = checkableKeys(value)
      for key, element in next, value do
        if type(key) == "string" then
          if checkKeys then
            local problem = same(element, rawget(back, key))
            if problem then return "[" .. describe(key) .. "]" .. problem end
          end
        elseif not (mathtype(key) == "integer" and key >= 1 and key <= length) then
          if rawget(back, key) ~= nil then return ": key " .. describe(key) .. " should have been left out" end
        end
      end
      if checkKeys then
        for key in next, back do
          local kept
          if type(key) == "string" then
            kept = rawget(value, key) ~= nil
          else
            kept = mathtype(key) == "integer" and key >= 1 and key <= length and rawget(value, key) ~= nil
          end
          if not kept then return ": key " .. describe(key) .. " appeared" end
        end
      end
      return nil
    end

    _ENV.sink = function(...)
      local values = pack(...)
      local back = pack(rawsink(...))
      if back.n ~= values.n then fail(format("sink: %d values went in, %d came back", values.n, back.n)) end
      for index = 1, values.n do
        local problem = same(values[index], back[index])
        if problem then fail("sink argument " .. index .. problem) end
      end
      return ...
    end

    local originals
    local function run(chunk)
      originals = pack(chunk())
      return unpack(originals, 1, originals.n)
    end

    local function check(...)
      local back = pack(...)
      if back.n ~= originals.n then fail(format("%d results, %d came back", originals.n, back.n)) end
      for index = 1, back.n do
        local problem = same(originals[index], back[index])
        if problem then fail("result " .. index .. problem) end
      end
    end

    return run, check
    """

/// Marks a mismatch in what the rule prints; random, so that no input can print it.
let mismatchMark = "FUZZ-MISMATCH-\(UInt64.random(in: 1...UInt64.max))"

/// Run 2: the rule file. `performDrop` decodes the input from `box.data.source` (hex) and
/// runs it with `sink`, `target` (the box) and `info` in its environment.
let ruleLua =
  commonLua + """
    local print, load, setmetatable, pairs = print, load, setmetatable, pairs
    local char, tonumber, gsub = string.char, tonumber, string.gsub
    local mark = "\(mismatchMark)"

    -- The number target.data reads back for a number stored as data: data keeps a Lua
    -- integer exact and a float a float, whatever their size.
    local function expectedNumber(value)
      return value, mathtype(value)
    end

    -- Why `back` (read from target.data) is not what storing `value` should give, or nil.
    -- Only plain values are compared: target:set copies a view before storing it.
    local function stored(value, back)
      local kind = type(value)
      if kind == "nil" or kind == "boolean" then
        if back ~= value then return ": " .. describe(value) .. " read back as " .. describe(back) end
        return nil
      end
      if kind == "number" then
        local double, subtype = expectedNumber(value)
        if type(back) ~= "number" or mathtype(back) ~= subtype or back ~= double then
          return format(": %s read back as %s, not %s %s", describe(value), describe(back), subtype, describe(double))
        end
        return nil
      end
      if kind == "string" then
        if type(back) ~= "string" or (valid(value) and value ~= back) then
          return ": string " .. describe(value) .. " read back as " .. describe(back)
        end
        return nil
      end
      if kind ~= "table" or getmetatable(value) ~= nil then return nil end
      if type(back) ~= "table" then return ": a table read back as " .. describe(back) end
      local length = rawlen(value)
      local checkKeys = checkableKeys(value)
      for index = 1, length do
        local problem = stored(rawget(value, index), back[index])
        if problem then return "[" .. index .. "]" .. problem end
      end
      if checkKeys then
        for key, element in next, value do
          if type(key) == "string" then
            local problem = stored(element, back[key])
            if problem then return "[" .. describe(key) .. "]" .. problem end
          end
        end
        for key in pairs(back) do
          local kept
          if type(key) == "string" then
            kept = rawget(value, key) ~= nil
          else
            kept = mathtype(key) == "integer" and key >= 1 and key <= length and rawget(value, key) ~= nil
          end
          if not kept then return ": key " .. describe(key) .. " appeared" end
        end
      end
      return nil
    end

    local function sinkFor(box)
      return function(...)
        local values = pack(...)
        for index = 1, values.n do
          local value = values[index]
          if pcall(box.set, box, "v", value) then
            local problem = stored(value, box.data.v)
            if problem then print(mark .. " sink argument " .. index .. problem) end
          end
        end
        return ...
      end
    end

    return {
      ["fuzz.box"] = {
        performDrop = function(info, box)
          local source = gsub(box.data.source, "%x%x", function(byte) return char(tonumber(byte, 16)) end)
          local environment = setmetatable({ sink = sinkFor(box), target = box, info = info }, { __index = _ENV })
          local chunk = load(source, "=input", "t", environment)
          if chunk then pcall(chunk) end
          return true
        end,
      },
    }
    """

/// The rule file, written once to a fresh temporary folder.
let rulePath: String = {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("droprules-fuzz-bridge-\(ProcessInfo.processInfo.processIdentifier)")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let path = directory.appendingPathComponent("fuzz.lua").path
  guard FileManager.default.createFile(atPath: path, contents: Data(ruleLua.utf8)) else {
    fatalError("cannot write the fuzz rule file at \(path)")
  }
  return path
}()

/// A value's JSON form, when it has one, must survive a trip through the Lua form and
/// through text.
func checkJSON(_ value: LuaValue) {
  guard case .success(let json) = value.json() else { return }
  guard case .success(let again) = LuaValue(json: json).json(), again == json else {
    fatalError("JSON \(json.serialized().prefix(300)) changed on its way through LuaValue(json:)")
  }
  let text = json.serialized()
  guard let parsed = try? JSONValue.parse(Data(text.utf8)) else {
    fatalError("serialized JSON does not parse: \(text.prefix(300))")
  }
  guard parsed == json else {
    fatalError("JSON changed through its text: \(text.prefix(300)) read back as \(parsed.serialized().prefix(300))")
  }
}

/// Run 1: the input as a chunk in a bare runtime. Returns whether it compiled.
func runInRuntime(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
  let lua: LuaRuntime
  do { lua = try LuaRuntime(limits: limits) } catch { fatalError("no runtime: \(error)") }
  let rawSink = lua.function { arguments in
    arguments.forEach(checkJSON)
    return arguments
  }
  let fail = lua.function { arguments in
    fatalError("bridge mismatch: \(arguments.first?.stringValue ?? "?")")
  }
  let run: LuaReference
  let check: LuaReference
  let environment: LuaReference
  do {
    environment = try lua.newEnvironment()
    let prelude = try lua.load(source: preludeLua, chunkName: "=fuzz prelude", environment: environment)
    let functions = try lua.call(prelude, [rawSink, fail])
    guard functions.count == 2, case .function(let first) = functions[0], case .function(let second) = functions[1]
    else { fatalError("the prelude returned \(functions.count) values") }
    (run, check) = (first, second)
  } catch {
    fatalError("the fuzz prelude did not load: \(error)")
  }
  let chunk: LuaReference
  do {
    chunk = try lua.load(source: source, chunkName: "=input", environment: environment)
  } catch {
    _ = error.description
    return false
  }
  do {
    let results = try lua.call(run, [.function(chunk)])
    results.forEach(checkJSON)
    try lua.call(check, results)
  } catch {
    _ = error.description
  }
  return true
}

/// Run 2: the input inside a rule's `performDrop`, with `target:set` as its sink.
func runInRuleHost(_ source: UnsafeBufferPointer<UInt8>) {
  let digits = Array("0123456789abcdef".utf8)
  var hex: [UInt8] = []
  hex.reserveCapacity(source.count * 2)
  for byte in source {
    hex.append(digits[Int(byte >> 4)])
    hex.append(digits[Int(byte & 15)])
  }
  let host: RuleHost
  do {
    host = try RuleHost(limits: limits)
    try host.loadRules(atPaths: [rulePath])
    try host.replaceBoard(
      Board(
        targets: [
          DropTarget(id: "shelf", type: "fuzz.shelf", frame: Rect(x: 0, y: 0, width: 100, height: 100), items: ["a"]),
          DropTarget(
            id: "box", type: "fuzz.box", frame: Rect(x: 100, y: 0, width: 100, height: 100),
            data: ["source": .string(String(decoding: hex, as: UTF8.self))]),
        ],
        items: [
          DragItem(id: "a", name: "A", representations: [Representation(type: "public.plain-text", payload: "a")])
        ]))
  } catch {
    fatalError("the fuzz rule host did not start: \(error)")
  }
  do {
    _ = try host.beginDrag(DragRequest(items: [.board("a")]))
    _ = try host.moveOver("box")
    _ = try host.drop()
  } catch {
    _ = error.description
  }
  for step in host.trace {
    if let line = step.printed.first(where: { $0.hasPrefix(mismatchMark) }) {
      fatalError("target:set mismatch:\(line.dropFirst(mismatchMark.count))")
    }
  }
  if let stored = host.board.target("box")?.data["v"] { checkJSON(LuaValue(json: stored)) }
}

/// One fuzz input: runs it as Lua through the bridge and checks what comes back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let source = UnsafeBufferPointer(start: data, count: size)
  // Text that does not compile would not compile in the rule either.
  if runInRuntime(source) { runInRuleHost(source) }
  return 0
}
