/// What a drag shows and says: the source's `dragPreview`, and the `announce` handlers
/// that say a step better than the built-in sentences (Announcements.swift).
///
/// Both are read-only calls. Rules without them cost nothing: the built-in preview and
/// announcements are made when the trace is read, and a pointer step asks one flag.
/// Limits on what rules present.
public enum DragEngineLimits {
  /// The longest title, subtitle, badge or announcement kept, in Unicode scalars
  /// (``TextCap/presentation``): a rule may return megabytes, and every reader of the
  /// trace would carry them.
  public static let longestPresentationText = TextCap.presentation.limit
}

extension DragEngine {
  /// Asks the first source's `dragPreview` what the drag shows, and records it.
  func askForPreview() {
    guard let source = drag?.sources.first, let position = currentBoard.position(of: source) else { return }
    let result = readOnly { invoke(.dragPreview, on: position) }
    if case .returned(.preview(let preview)) = result { recorder.record(.preview(preview)) }
  }

  /// Asks the rule of the target at `position` to say `event`, if it has `announce`;
  /// records what it said, which replaces the built-in sentence of the step.
  func announce(_ event: AnnouncementEvent, on position: Int?) {
    guard announcements.anyRuleAnnounces, let position, let rule = ruleOfTarget[position],
      ruleDescriptions[rule]?.handlers.contains(.announce) == true
    else { return }
    let result = readOnly { invoke(.announce, on: position, announcing: event) }
    if case .returned(.text(let text)) = result, !text.isEmpty { recorder.record(.announcement(text)) }
  }

  /// After a step that negotiated a proposal: tells the current target's rule that the
  /// pointer entered it or that its proposal or position changed, or the last target's
  /// that the pointer left it for no target.
  func announceProposal(_ proposal: Proposal, index: Int?) {
    guard announcements.anyRuleAnnounces, !isOutside,
      let (event, position) = announcements.event(over: drag?.current, proposal: proposal, index: index)
    else { return }
    announce(event, on: position)
  }

  /// The end of a drag: the target that took the drop says so, or the one the drag
  /// ended over (else the first source) that nothing was dropped.
  func announceOutcome(_ outcome: DropOutcome, over position: Int?) {
    let event: AnnouncementEvent =
      switch outcome {
      case .performed: .dropped
      case .failed: .refused
      case .cancelled, .refused: .cancelled
      }
    announce(event, on: position ?? drag?.sources.first.flatMap(currentBoard.position(of:)))
  }

  /// Runs `call` with the board read-only, as it was before.
  private func readOnly(_ call: () -> HandlerResult) -> HandlerResult {
    let wasReadOnly = drag?.isReadOnly ?? true
    drag?.isReadOnly = true
    defer { drag?.isReadOnly = wasReadOnly }
    return call()
  }
}
