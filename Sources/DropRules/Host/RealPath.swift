import Foundation

/// Paths compared as the file system sees them.
package enum RealPath {
  /// `path` with every link, `.` and `..` resolved; nil when it does not resolve.
  package static func of(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
