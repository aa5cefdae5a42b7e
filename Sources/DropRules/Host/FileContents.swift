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
    // Non-blocking, so that opening a named pipe returns at once; fstat then refuses it.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let limit = maximumBytes < Int.max ? maximumBytes + 1 : maximumBytes
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while data.count < limit {
      let wanted = min(chunk.count, limit - data.count)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      data.append(contentsOf: chunk[0..<count])
    }
    return data
  }
}
