import Foundation
import Synchronization

/// Bytecode of the chunks this process compiled from text, so that a chunk loaded again
/// is not parsed again: the sandbox and the rule API in every rule host, the test API and
/// the test file in every test's fresh load, a rule file in every `scenario{}`.
///
/// Why this bytecode may be loaded when droprules refuses bytecode everywhere else: Lua
/// does not verify bytecode, so bytecode from a file or from a rule could read and write
/// memory at will. The bytecode here never comes from outside. Every entry is what
/// `lua_dump` wrote for a function that the text-only loader compiled in this process, and
/// it is used only for exactly the same text under exactly the same chunk name (compared
/// byte for byte, not by a hash that two texts could share), so loading it gives the same
/// function that compiling the text again would give, debug information included. No rule
/// can reach the cache (`string.dump` is removed and no Lua function reads or writes it),
/// and it is never written to or read from disk.
final class CompiledChunkCache: Sendable {
  static let shared = CompiledChunkCache()

  /// Past this many bytes of source and bytecode, the cache starts afresh, so that a
  /// long-lived process that loads ever new files does not grow without end.
  static let maximumBytes = 64 * 1024 * 1024

  private struct Entry {
    var source: [UInt8]
    var bytecode: [UInt8]
    var bytes: Int { source.count + bytecode.count }
  }

  private struct Entries {
    /// One entry per chunk name: a file changed on disk replaces its old text.
    var byChunkName: [String: Entry] = [:]
    var bytes = 0
  }

  private let entries = Mutex(Entries())

  /// The bytecode compiled from `source` under `chunkName`, if this process made it.
  func bytecode(chunkName: String, source: [UInt8]) -> [UInt8]? {
    entries.withLock { entries in
      guard let entry = entries.byChunkName[chunkName], Self.same(entry.source, source) else { return nil }
      return entry.bytecode
    }
  }

  /// Byte equality at memcmp's speed: a test file of 1,000 tests is compared on each of
  /// its 1,000 loads.
  private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in
        guard let first = a.baseAddress, let second = b.baseAddress else { return true }
        return memcmp(first, second, a.count) == 0
      }
    }
  }

  /// Bytes held now, source and bytecode.
  var storedBytes: Int { entries.withLock { $0.bytes } }

  /// Keeps `bytecode`, which `lua_dump` made from the function the text loader compiled
  /// from `source` under `chunkName`.
  func store(chunkName: String, source: [UInt8], bytecode: [UInt8]) {
    let entry = Entry(source: source, bytecode: bytecode)
    guard entry.bytes <= Self.maximumBytes / 4 else { return }
    entries.withLock { entries in
      entries.bytes -= entries.byChunkName[chunkName]?.bytes ?? 0
      if entries.bytes + entry.bytes > Self.maximumBytes { entries = Entries() }
      entries.byChunkName[chunkName] = entry
      entries.bytes += entry.bytes
    }
  }
}
