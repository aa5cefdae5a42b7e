import Foundation
import WeekModel

// Drives the week planner's model as a UI would: lift an event, move over the days,
// hold option, drop; then shows how each kind of failure reaches the app.
// Usage: week-demo PATH/TO/calendar.lua (the repository's rules/calendar/calendar.lua).

let arguments = CommandLine.arguments.dropFirst()
guard let rules = arguments.first else {
  FileHandle.standardError.write(Data("usage: week-demo PATH/TO/calendar.lua\n".utf8))
  exit(2)
}

func show(_ week: WeekModel, _ days: [String]) {
  for day in days { print("  \(day): \(week.events(on: day).joined(separator: ", "))") }
}

let days = [
  WeekModel.Day(id: "mon", date: "2026-11-23", isPast: true),
  WeekModel.Day(id: "tue", date: "2026-11-24"),
  WeekModel.Day(id: "wed", date: "2026-11-25"),
]
do {
  let week = try WeekModel(
    ruleFiles: [rules], days: days,
    events: ["tue": [(id: "standup", title: "Standup"), (id: "review", title: "Review")]])
  print("before")
  show(week, days.map(\.id))

  try week.dragBegan(["standup"])
  print("over mon (past):   \(try week.pointerMoved(x: 50, y: 30).rawValue)")
  print("over wed:          \(try week.pointerMoved(x: 250, y: 30).rawValue)")
  print("option held:       \(try week.optionKeyChanged(true).rawValue)")
  print("dropped:           \(try week.dropped() ? "performed" : "not performed")")
  print("after")
  show(week, days.map(\.id))

  // A drag of an event that is not on the board is an error the app handles.
  do {
    try week.dragBegan(["lunch"])
  } catch {
    print("error handled:     \(error)")
  }
  print("rule errors:       \(week.ruleErrors.count)")
} catch {
  print("error: \(error)")
  exit(1)
}

// A rule file that does not load is an error with its file and line.
let broken = FileManager.default.temporaryDirectory.appendingPathComponent("week-demo-broken.lua")
try "return { [\"calendar.day\"] = { dropUpdate = function() end } }".write(
  to: broken, atomically: true, encoding: .utf8)
do {
  _ = try WeekModel(ruleFiles: [broken.path], days: days, events: [:])
} catch {
  print("error handled:     \(error)")
}
