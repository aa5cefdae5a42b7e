import FlyingFox
import FlyingSocks
import Foundation

/// The server's socket pool, which turns Nagle's algorithm off on every socket it waits
/// on (`TCP_NODELAY`).
///
/// FlyingFox writes a response's header and body in two writes. With Nagle's algorithm
/// the body waits for the header's ACK, which the browser delays by 40 ms: a drag in the
/// playground then moved about 23 times a second. The pool sees the listening socket
/// (accepted sockets inherit the option on Linux) and each connection once it waits for
/// its next request; FlyingFox has no other place to set a socket option.
struct NoDelaySocketPool: AsyncSocketPool {
  let pool: any AsyncSocketPool

  func prepare() async throws { try await pool.prepare() }

  func run() async throws { try await pool.run() }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    var on: Int32 = 1
    // A socket that is not TCP (none here) refuses the option: it is only a hint.
    _ = setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    try await pool.suspendSocket(socket, untilReadyFor: events)
  }
}
