import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads whole files, at most a given number of bytes, for rule files, modules,
/// scenarios and the playground's watch.
///
/// Not `FileManager.contents(atPath:)`: on Linux it leaks 4 KB for every empty file it
/// reads (LeakSanitizer showed it in the fuzzers; the playground reads its rule files
/// before every drag), and it reads a file that never ends (`/dev/zero`) until memory
/// runs out, since a special file reports no size to stop at.
package enum FileContents {
  /// The bytes of the file at `path`, at most `maximumBytes + 1` of them (more than
  /// `maximumBytes` says the file is too long); nil when it cannot be opened or read,
  /// or is no regular file: a named pipe would block until a writer came, and a device
  /// such as `/dev/zero` never ends.
  package static func bytes(atPath path: String, maximumBytes: Int) -> Data? {
    try? bytes(atPath: path, maximumBytes: maximumBytes, confinedTo: nil).get()
  }

  /// Why a confined read returned nothing.
  package enum ReadFailure: Error, Equatable {
    /// The file could not be opened or read, or is no regular file.
    case unreadable
    /// The file opened lies, links resolved, outside every root (its real path).
    case outside(String)
  }

  /// As ``bytes(atPath:maximumBytes:)``, but only from a file that lies, once opened,
  /// in one of `roots` (real paths) or below. The check is of the file opened, not of
  /// the path before opening it: a link swapped between a check and the open cannot
  /// lead a read outside.
  package static func bytes(
    atPath path: String, maximumBytes: Int, confinedTo roots: [String]?
  ) -> Result<Data, ReadFailure> {
    // Non-blocking, so that opening a named pipe returns at once; fstat then refuses it.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return .failure(.unreadable) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable) }
    if let roots {
      guard let opened = openedPath(of: descriptor) else { return .failure(.unreadable) }
      let inside = roots.contains { root in opened == root || opened.hasPrefix(root.hasSuffix("/") ? root : root + "/")
      }
      guard inside else { return .failure(.outside(opened)) }
    }
    let limit = maximumBytes < Int.max ? maximumBytes + 1 : maximumBytes
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while data.count < limit {
      let wanted = min(chunk.count, limit - data.count)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(.unreadable)
      }
      if count == 0 { break }
      data.append(contentsOf: chunk[0..<count])
    }
    return .success(data)
  }

  /// Where an open file lies, links resolved: what the descriptor itself names.
  private static func openedPath(of descriptor: Int32) -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #elseif canImport(Darwin)
      var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
      guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { return nil }
      return String(cString: buffer)
    #else
      return nil
    #endif
  }
}
