import CLua
import CLuaHost

/// A Swift function that Lua code can call. It receives the call's arguments and
/// returns its results; a thrown error becomes a Lua error raised in the caller.
public typealias LuaHostFunction = ([LuaValue]) throws -> [LuaValue]

/// An error a ``LuaHostFunction`` throws to raise a Lua error with this message.
public struct LuaHostError: Error, CustomStringConvertible {
  /// The message the Lua caller receives as its error.
  public var description: String
  /// The host refused memory: if this error ends the call, it is a
  /// ``LuaError/Kind/memoryLimit(_:)``.
  package var isMemoryLimit = false

  /// An error that raises `message` in the Lua code that called the host function.
  public init(_ message: String) { description = message }

  /// The host would not hold more for the call: raises `message` as a memory limit.
  package static func memoryLimit(_ message: String) -> LuaHostError {
    var error = LuaHostError(message)
    error.isMemoryLimit = true
    return error
  }
}

final class HostFunctionBox {
  let body: LuaHostFunction
  unowned let runtime: LuaRuntime

  init(body: @escaping LuaHostFunction, runtime: LuaRuntime) {
    self.body = body
    self.runtime = runtime
  }
}

func luaTypeName(_ state: OpaquePointer, _ index: Int32) -> UnsafePointer<CChar> {
  lua_typename(state, lua_type(state, index))
}

/// The C trampoline's way into Swift: runs a host function, never raising itself.
let dispatchHostFunction: @convention(c) (OpaquePointer, UnsafeMutableRawPointer?) -> Int32 = {
  thread, function in
  guard let function else { return 0 }
  let box = Unmanaged<HostFunctionBox>.fromOpaque(function).takeUnretainedValue()
  return box.runtime.runHostFunction(box, on: thread)
}

/// The collector's way to release a host function's box, once the closure holding it is freed.
let releaseHostFunction: @convention(c) (UnsafeMutableRawPointer) -> Void = { function in
  Unmanaged<HostFunctionBox>.fromOpaque(function).release()
}

let observeLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>, Int32) -> Void = {
  context, source, line in
  guard let context else { return }
  let runtime = Unmanaged<LuaRuntime>.fromOpaque(context).takeUnretainedValue()
  runtime.observe(source: String(cString: source), line: Int(line))
}

extension LuaRuntime {
  /// Splits Lua's `message\nstack traceback:...` into its two parts.
  static func splitTraceback(_ raw: String) -> (message: String, traceback: String) {
    guard let range = raw.range(of: "\nstack traceback:") else { return (raw, "") }
    return (String(raw[..<range.lowerBound]), String(raw[range.lowerBound...].dropFirst()))
  }
}
