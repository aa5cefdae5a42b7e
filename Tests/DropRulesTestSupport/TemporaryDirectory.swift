import Foundation

/// A folder of its own for one test, removed with everything in it when the value is
/// dropped: the one temporary-folder helper of every test target.
public final class TemporaryDirectory {
  /// The folder's path.
  public let path: String
  /// The folder as a file URL.
  public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

  /// Makes a new, empty folder under the system's temporary folder.
  public init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("droprules-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `contents` to `relativePath` inside the folder, making folders on the way,
  /// and returns the file's path.
  @discardableResult
  public func write(_ relativePath: String, _ contents: String) throws -> String {
    let file = (path as NSString).appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try contents.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
