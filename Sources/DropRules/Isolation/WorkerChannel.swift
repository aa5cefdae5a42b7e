import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Why a worker process did not answer as it should.
enum WorkerFault: Error, CustomStringConvertible {
  /// No answer by the deadline.
  case timedOut
  /// The other end closed the connection: the process ended.
  case ended
  /// A message larger than the channel takes.
  case tooLarge(Int)
  /// A message that is not one the protocol has.
  case malformed(String)

  var description: String {
    switch self {
    case .timedOut: "it did not answer in time"
    case .ended: "it ended"
    case .tooLarge(let bytes): "it sent a message of \(bytes) bytes, more than the host takes"
    case .malformed(let reason): "it sent a message the host cannot read (\(reason))"
    }
  }
}

/// One end of the connection between a rule host and a rule file's worker process:
/// messages as JSON, each after its length in 8 bytes, read and written against a
/// deadline so that a worker that stops answering stalls no one.
struct WorkerChannel {
  let descriptor: Int32
  /// The most bytes one message may have.
  let maximumMessageBytes: Int

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.userInfo[.exactJSONValues] = true
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }()
  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.userInfo[.exactJSONValues] = true
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }()

  func send(_ message: some Encodable, by deadline: ContinuousClock.Instant?) throws(WorkerFault) {
    let body: Data
    do { body = try Self.encoder.encode(message) } catch { throw .malformed("\(error)") }
    var length = UInt64(body.count).littleEndian
    var frame = Data(bytes: &length, count: 8)
    frame.append(body)
    var sent = 0
    while sent < frame.count {
      try wait(for: Int16(POLLOUT), by: deadline)
      let count = frame.withUnsafeBytes { bytes in
        guard let start = bytes.baseAddress else { return 0 }
        return Glibc.send(descriptor, start + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
      }
      if count < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw .ended
      }
      sent += count
    }
  }

  func receive<Message: Decodable>(_: Message.Type, by deadline: ContinuousClock.Instant?) throws(WorkerFault)
    -> Message
  {
    let header = try read(8, by: deadline)
    let length = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    guard length <= UInt64(maximumMessageBytes) else { throw .tooLarge(Int(clamping: length)) }
    let body = try read(Int(length), by: deadline)
    do { return try Self.decoder.decode(Message.self, from: body) } catch { throw .malformed("\(error)") }
  }

  private func read(_ count: Int, by deadline: ContinuousClock.Instant?) throws(WorkerFault) -> Data {
    var data = Data(count: count)
    var received = 0
    while received < count {
      try wait(for: Int16(POLLIN), by: deadline)
      let got = data.withUnsafeMutableBytes { buffer in
        guard let start = buffer.baseAddress else { return 0 }
        return recv(descriptor, start + received, count - received, 0)
      }
      if got == 0 { throw .ended }
      if got < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw .ended
      }
      received += got
    }
    return data
  }

  /// Waits until the descriptor is ready for `events`, or throws at the deadline.
  private func wait(for events: Int16, by deadline: ContinuousClock.Instant?) throws(WorkerFault) {
    while true {
      var timeout: Int32 = -1
      if let deadline {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw .timedOut }
        let (seconds, attoseconds) = left.components
        timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      }
      var descriptor = pollfd(fd: self.descriptor, events: events, revents: 0)
      let ready = poll(&descriptor, 1, timeout)
      if ready > 0 { return }
      if ready < 0, errno != EINTR { throw .ended }
    }
  }
}
