import DropRules

/// The model of a week planner that lets droprules decide what its drags may do.
///
/// It owns a ``RuleHost`` loaded with the app's rule files, keeps its own days as the
/// host's board, and turns what the UI reports (a drag began, the pointer moved, the
/// modifier keys changed, the user dropped or gave up) into host calls. The UI reads
/// back a proposal to show (a move or copy badge, or none) and the days after a drop.
/// Nothing here knows a UI toolkit: the SwiftUI adapter and the command-line demo both
/// drive it.
public final class WeekModel {
  /// One day column of the planner, in points, left to right.
  public struct Day: Sendable {
    /// The day's target id on the board.
    public var id: String
    /// Its date, which rules read as `day.data.date`.
    public var date: String
    /// Whether it is in the past: the rules forbid drops there (`day.data.past`).
    public var isPast: Bool

    /// A day column.
    public init(id: String, date: String, isPast: Bool = false) {
      self.id = id
      self.date = date
      self.isPast = isPast
    }
  }

  /// What a day column shows while a drag is over it.
  public enum Badge: String, Sendable {
    case move, copy, forbidden, none
  }

  /// The width of a day column; columns sit side by side from x = 0.
  public static let dayWidth = 100.0
  /// The height of every day column.
  public static let dayHeight = 400.0

  private let host: RuleHost

  /// Loads the rule files and lays the days out as the board's targets, holding
  /// `events` (event id -> title, by day id).
  ///
  /// - Throws: ``WeekModelError`` when a rule file does not load or the board is wrong,
  ///   with the message droprules gives (`file:line: message`).
  public init(ruleFiles: [String], days: [Day], events: [String: [(id: String, title: String)]]) throws(WeekModelError)
  {
    do {
      host = try RuleHost()
    } catch {
      throw .rules(error.description)
    }
    do {
      try host.declareType("com.example.schedule-item", conformsTo: ["public.data"])
      let targets = days.enumerated().map { offset, day in
        DropTarget(
          id: day.id, type: "calendar.day",
          frame: Rect(x: Double(offset) * Self.dayWidth, y: 0, width: Self.dayWidth, height: Self.dayHeight),
          data: ["date": .string(day.date), "past": .bool(day.isPast)],
          items: events[day.id]?.map(\.id) ?? [])
      }
      let items = events.values.flatMap { $0 }.map { event in
        DragItem(
          id: event.id, name: event.title,
          representations: [
            Representation(type: "com.example.schedule-item", payload: event.id),
            Representation(type: "public.plain-text", payload: event.title),
          ])
      }
      try host.replaceBoard(Board(targets: targets, items: items))
    } catch {
      throw .board("\(error)")
    }
    do {
      try host.loadRules(atPaths: ruleFiles)
    } catch {
      throw .rules(error.description)
    }
  }

  /// The events of a day, in order, as committed.
  public func events(on day: String) -> [String] { host.board.items(in: day) }

  /// Whether a drag is in progress.
  public var isDragging: Bool { host.isDragging }

  /// The UI lifted `events` (board items), with the modifier keys held.
  ///
  /// - Returns: the events the rules kept in place (`canDrag`); the drag did not begin
  ///   when it kept all of them.
  @discardableResult
  public func dragBegan(_ events: [String], option: Bool = false) throws(WeekModelError) -> [String] {
    do {
      return try host.beginDrag(
        DragRequest(items: events.map { .board($0) }, modifiers: option ? [.option] : [])
      ).refused
    } catch {
      throw .drag(error.description)
    }
  }

  /// The pointer moved to `(x, y)` in the planner's coordinates; returns the badge to show.
  public func pointerMoved(x: Double, y: Double) throws(WeekModelError) -> Badge {
    do {
      return Self.badge(try host.movePointer(to: Point(x: x, y: y)))
    } catch {
      throw .drag(error.description)
    }
  }

  /// The option key went down or up during the drag; returns the badge to show.
  public func optionKeyChanged(_ isDown: Bool) throws(WeekModelError) -> Badge {
    do {
      return Self.badge(try host.setModifiers(isDown ? [.option] : []))
    } catch {
      throw .drag(error.description)
    }
  }

  /// The user let go. Returns whether the drop was performed; the days show the result.
  public func dropped() throws(WeekModelError) -> Bool {
    do {
      return try host.drop() == .performed
    } catch {
      throw .drag(error.description)
    }
  }

  /// The drag ended without a drop (Escape, or the pointer left the window).
  public func cancelled() {
    if host.isDragging { _ = try? host.cancel() }
  }

  /// What went wrong in the rules since the model was made, as `file:line: message`: a
  /// rule error never throws here (the host fails safe), so an app shows or logs these.
  public var ruleErrors: [String] { host.diagnostics.map(\.description) }

  private static func badge(_ proposal: Proposal) -> Badge {
    switch proposal {
    case .move: .move
    case .copy: .copy
    case .forbidden: .forbidden
    case .cancel: .none
    }
  }
}

/// Why the model could not do what the UI asked, with droprules' own message.
public enum WeekModelError: Error, CustomStringConvertible {
  /// A rule file did not load: `calendar.lua:12: unknown handler 'dropUpdate' ...`.
  case rules(String)
  /// The days or events do not make a valid board.
  case board(String)
  /// A drag call at the wrong time, or naming an event that is not on the board.
  case drag(String)

  /// What went wrong, for a person.
  public var description: String {
    switch self {
    case .rules(let message): "the rules did not load: \(message)"
    case .board(let message): "the week is not a valid board: \(message)"
    case .drag(let message): "the drag could not go on: \(message)"
    }
  }
}
