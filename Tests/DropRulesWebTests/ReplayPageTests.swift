import DropRules
import DropRulesTools
import Foundation
import Testing

@testable import DropRulesWeb

@Suite("replay page")
struct ReplayPageTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func replay(_ relativePath: String) throws -> ScenarioResult {
    let scenario = try ScenarioDecoder.load(path: root.appendingPathComponent(relativePath).path)
    return try ScenarioRunner(limits: LuaLimits(maxTime: .seconds(60))).run(scenario)
  }

  /// The text of the page's data element, and the page with it taken out.
  static func split(_ page: String) throws -> (data: String, rest: String) {
    let open = "<script type=\"application/json\" id=\"droprules-data\">"
    let start = try #require(page.range(of: open))
    let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
    return (
      String(page[start.upperBound..<end.lowerBound]), String(page[..<start.upperBound] + page[end.lowerBound...])
    )
  }

  @Test("a rule's prints, an error, ids and names that carry markup stay inside the data, as data")
  func hostileScenario() throws {
    let result = try Self.replay("Tests/Browser/fixtures/hostile/hostile.scenario.json")
    #expect(result.outcome == .performed)
    #expect(result.diagnostics.count == 1)
    let page = ReplayPage().html([result])
    let (data, rest) = try Self.split(page)
    // The data element is the only place the scenario's text goes: outside it the page
    // is the template, whatever the scenario says.
    for marker in ["pwned", "onerror", "<b>"] { #expect(!rest.contains(marker), "\(marker) outside the data") }
    #expect(!data.contains("<") && !data.contains(">"))
    #expect(page.components(separatedBy: "</script>").count == 3)  // the data and the script element
    let parsed = try JSONValue.parse(data)
    let scenario = try #require(parsed.objectValue?["scenarios"]?.arrayValue?.first?.objectValue)
    #expect(scenario["trace"] == TraceReport().json(result))
    let printed = scenario["trace"]?.objectValue?["steps"]?.arrayValue?[1].objectValue?["calls"]?.arrayValue?[0]
      .objectValue?["printed"]
    #expect(
      printed
        == .array([
          .string("</script><script>document.title = 'pwned by print'</script>"), .string("<!-- <script> -->"),
        ]))
  }

  @Test("the boards before and after carry frames, parents, item names and the items a drop added")
  func boardsForDrawing() throws {
    let result = try Self.replay("rules/files/plan-to-usb-stick.scenario.json")
    let json = ReplayPage.json(result)
    let before = try #require(json.objectValue?["before"]?.objectValue)
    let targets = try #require(before["targets"]?.arrayValue)
    #expect(targets.compactMap { $0.objectValue?["id"]?.stringValue } == ["home", "projects", "system", "stick"])
    let projects = try #require(targets[1].objectValue)
    #expect(projects["frame"] == .array([.integer(300), .integer(0), .integer(300), .integer(300)]))
    #expect(projects["parent"] == .string("home"))
    #expect(projects["items"] == .array([.string("plan")]))
    #expect(before["items"]?.objectValue?["plan"]?.objectValue?["name"] == .string("plan.md"))
    let after = try #require(json.objectValue?["after"]?.objectValue?["targets"]?.arrayValue)
    #expect(after[3].objectValue?["items"] == .array([.string("plan")]))
    #expect(json.objectValue?["dragged"] == .array([.string("plan")]))
  }

  @Test("an item from another app and a copy made by the drop are described with their names")
  func externalAndCopiedItems() throws {
    let external = try Self.replay("rules/contacts/vcard-from-another-app.scenario.json")
    let items = ReplayPage.json(external).objectValue?["before"]?.objectValue?["items"]?.objectValue
    #expect(items?["dee"]?.objectValue?["name"] == .string("Dee Ito"))
    let copied = try Self.replay("rules/calendar/move-to-empty-day.scenario.json")
    let afterItems = ReplayPage.json(copied).objectValue?["after"]?.objectValue?["items"]?.objectValue
    #expect(afterItems?["standup-copy1"]?.objectValue?["name"] == .string("Standup"))
  }

  @Test("the page loads nothing from the network: no http(s) source or link, and a policy that forbids fetches")
  func selfContained() throws {
    let page = ReplayPage().html([try Self.replay("rules/kanban/spike-through-the-workflow.scenario.json")])
    let lowered = page.lowercased()
    for attribute in ["src=", "href=", "url("] {
      var searchStart = lowered.startIndex
      while let found = lowered.range(of: attribute, range: searchStart..<lowered.endIndex) {
        let after = lowered[found.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
        #expect(!after.hasPrefix("http:") && !after.hasPrefix("https:") && !after.hasPrefix("//"))
        searchStart = found.upperBound
      }
    }
    #expect(page.contains("content=\"default-src 'none'"))
    #expect(page.hasPrefix("<!doctype html>"))
  }
}
