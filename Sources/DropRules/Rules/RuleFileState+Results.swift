/// What a handler's answer means: a proposal (and its index and `open` flag), a
/// boolean, nothing, or something no handler returns, which becomes a diagnostic.
extension RuleFileState {
  func result(_ value: LuaCallResult, handler: Handler, of rule: RuleID, target: TargetID) -> HandlerResult {
    switch value {
    case .nothing: return .returned(.nothing)
    case .boolean(let flag): return .returned(.boolean(flag))
    case .other(let description): return .returned(.other(description))
    case .symbol(let code, let index, let open):
      let proposal = proposals[code]
      // `open = true` spring-loads, and only dropUpdated's answer can.
      func answer(_ index: Int?) -> HandlerResult {
        open && handler == .dropUpdated
          ? .returned(.springLoading(proposal, index: index)) : .returned(.proposal(proposal, index: index))
      }
      switch index {
      case .none: return answer(nil)
      case .integer(let whole):
        guard let index = Int(exactly: whole) else { break }
        return answer(index)
      case .float(let number):
        // A whole float (3.0, 2^53) is a whole number: clamped, as an integer out of
        // range is, to the list.
        guard number.isFinite, number.rounded() == number else { break }
        return answer(Board.index(number))
      case .notANumber: break
      }
      var diagnostic = Diagnostic(
        message: "\(handler.rawValue) returned an index that is not a whole, finite number; "
          + "give { operation = \"\(proposal.rawValue)\", index = n } with n an integer",
        handler: handler, target: target)
      if let definition = definition(of: handler, in: rule) {
        diagnostic.file = definition.file
        diagnostic.line = definition.line
      }
      return .failed(diagnostic)
    }
  }
}
