import DropRules
import DropRulesModel
import DropRulesTools
import Foundation
import Synchronization

/// The playground's protocol session, confined to one actor: a ``ProtocolDispatcher`` and
/// its Lua host are not `Sendable`, while HTTP requests arrive on many tasks at once.
///
/// The page sends a `move` for each `dragover`, about every 50 ms. Each move takes a
/// ticket as it arrives, and only the newest ticket's move runs: an older one still
/// waiting for the actor is answered as skipped without calling a rule, so moves never
/// queue up behind a slow handler, and never run out of order.
package actor PlaygroundDispatcher {
  private let dispatcher: ProtocolDispatcher
  private var watch: RuleFileWatch
  /// Taken without waiting for the actor, so a move's ticket tells when it arrived.
  private let moveTickets = Atomic<Int>(0)
  /// The board the playground started with, which `reset` puts back.
  private let initialBoard: Board

  /// The page's own method, outside the host protocol: `reset` cancels a drag in
  /// progress and puts back the board the playground started with.
  package static let resetMethod = "reset"

  /// A dispatcher that answers with `dispatcher`, whose rule files it watches; its board
  /// now is the one `reset` puts back.
  package init(dispatcher: sending ProtocolDispatcher) {
    initialBoard = dispatcher.session.host.board
    self.dispatcher = dispatcher
    watch = RuleFileWatch(files: dispatcher.session.ruleFiles)
  }

  /// What the server sends back for one request.
  package struct Answer: Sendable {
    /// The JSON-RPC response text; nil for a notification.
    package var response: String?
    /// The `load` response when the rules were reloaded before this request.
    package var reload: String?
  }

  /// Takes a ticket for a move as it arrives; the move runs only if no newer ticket was
  /// taken by the time the actor gets to it.
  package nonisolated func takeMoveTicket() -> Int {
    moveTickets.add(1, ordering: .sequentiallyConsistent).newValue
  }

  /// Answers one request. `method` and `id` are the request's, read by the caller; a
  /// `move` passes its ticket.
  package func respond(to body: Data, method: String?, id: JSONValue, moveTicket: Int?) -> Answer {
    if let moveTicket, moveTicket != moveTickets.load(ordering: .sequentiallyConsistent) {
      return Answer(response: Self.skipped(id: id), reload: nil)
    }
    if method == Self.resetMethod { return Answer(response: reset(id: id), reload: nil) }
    var reload: String?
    if method == "beginDrag", !dispatcher.session.isDragging, watch.changed(files: dispatcher.session.ruleFiles) {
      // The files were saved since the last drag: load them again first. When they do
      // not load, the protocol session keeps the rules it had, and the page shows why.
      reload = dispatcher.respond(to: Data(#"{"jsonrpc": "2.0", "id": "reload", "method": "load"}"#.utf8))
      _ = watch.changed(files: dispatcher.session.ruleFiles)
    }
    return Answer(response: dispatcher.respond(to: body), reload: reload)
  }

  /// Cancels a drag in progress (its handlers run as for any cancel) and puts back the
  /// initial board: `{"targets": n, "cancelled": bool}`. The rules' own variables stay.
  func reset(id: JSONValue) -> String {
    let cancelled = dispatcher.session.isDragging
    var fields: [String: JSONValue] = ["jsonrpc": .string("2.0"), "id": id]
    do {
      if cancelled { try dispatcher.session.perform(.cancel) }
      try dispatcher.session.setBoard(initialBoard)
      fields["result"] = .object([
        "targets": .integer(Int64(initialBoard.targets.count)), "cancelled": .bool(cancelled),
      ])
    } catch {
      fields["error"] = .object(["code": .integer(-32000), "message": .string(error.description)])
    }
    return JSONValue.object(fields).serialized()
  }

  /// The answer to a move that a newer one replaced before it ran.
  static func skipped(id: JSONValue) -> String {
    JSONValue.object([
      "jsonrpc": .string("2.0"), "id": id,
      "error": .object([
        "code": .integer(-32000), "message": .string("skipped: a newer move arrived before this one ran"),
        "data": .object(["skipped": .bool(true)]),
      ]),
    ]).serialized()
  }
}
