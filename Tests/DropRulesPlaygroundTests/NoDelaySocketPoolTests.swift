import FlyingFox
import FlyingSocks
import Foundation
import Testing

@testable import DropRulesPlayground

@Suite("the playground's sockets")
struct NoDelaySocketPoolTests {
  /// A pool whose sockets are always ready.
  struct ReadyPool: AsyncSocketPool {
    func prepare() async throws {}
    func run() async throws {}
    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {}
  }

  static func noDelay(_ socket: Socket) -> Int32 {
    var value: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    _ = getsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length)
    return value
  }

  @Test("a socket the server waits on sends without Nagle's delay (a move once took 44 ms on a kept-alive connection)")
  func noDelay() async throws {
    let socket = try Socket(domain: AF_INET)
    defer { try? socket.close() }
    #expect(Self.noDelay(socket) == 0)
    try await NoDelaySocketPool(pool: ReadyPool()).suspendSocket(socket, untilReadyFor: .read)
    #expect(Self.noDelay(socket) != 0)
  }
}
