import DropRules
import Foundation

/// Splits a byte stream into request lines without ever holding more than one line of
/// at most `maximumLength` bytes: a longer line is counted and dropped as it arrives,
/// so a client that sends 100 MB without a newline costs the server nothing.
///
/// A line ends at `\n`; a `\r` before it is dropped (CRLF clients).
public struct RequestLineSplitter {
  /// What the stream held: a whole line, or a line too long to keep.
  public enum Line: Equatable, Sendable {
    case complete(Data)
    /// A line longer than the maximum, with its length in bytes (without the newline).
    case tooLong(byteCount: Int)
  }

  /// The longest line kept, in bytes, without its newline.
  public let maximumLength: Int
  private var pending = Data()
  /// The bytes of the line being dropped so far; nil while the line is kept.
  private var droppedCount: Int?

  /// A splitter that keeps lines of at most `maximumLength` bytes (16 MiB by default).
  public init(maximumLength: Int = ProtocolDispatcher.maximumRequestBytes) {
    self.maximumLength = maximumLength
  }

  /// Takes the next bytes of the stream and returns the lines they end.
  public mutating func append(_ bytes: Data) -> [Line] {
    bytes.withUnsafeBytes { append($0) }
  }

  /// Takes the next bytes of the stream and returns the lines they end. Newlines are
  /// found with `memchr`: a dropped line costs a scan of its bytes and nothing more.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Line] {
    var lines: [Line] = []
    guard let base = bytes.baseAddress else { return lines }
    var start = 0
    while start < bytes.count {
      guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
        take(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        break
      }
      let newline = base.distance(to: UnsafeRawPointer(found))
      take(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
      lines.append(endLine())
      start = newline + 1
    }
    return lines
  }

  /// Ends the stream: the last line, when it had no newline.
  public mutating func finish() -> Line? {
    guard droppedCount != nil || !pending.isEmpty else { return nil }
    return endLine()
  }

  private mutating func take(_ bytes: UnsafeRawBufferPointer) {
    if let dropped = droppedCount {
      droppedCount = dropped + bytes.count
    } else if pending.count + bytes.count > maximumLength + 1 {
      // One byte more than the maximum may be a `\r` that the newline drops.
      droppedCount = pending.count + bytes.count
      pending = Data()
    } else if let base = bytes.baseAddress {
      pending.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }
  }

  private mutating func endLine() -> Line {
    defer {
      pending = Data()
      droppedCount = nil
    }
    if let dropped = droppedCount { return .tooLong(byteCount: dropped) }
    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
    guard pending.count <= maximumLength else { return .tooLong(byteCount: pending.count) }
    return .complete(pending)
  }
}
