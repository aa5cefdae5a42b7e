import DropRules
import DropRulesTools
import Foundation
import Testing

@testable import DropRulesWeb

@Suite("playground page")
struct PlaygroundPageTests {
  @Test("the scenario's name, file and rule files stay inside the data, as data")
  func hostileScenario() throws {
    let path = ReplayPageTests.root.appendingPathComponent("Tests/Browser/fixtures/hostile/hostile.scenario.json").path
    let scenario = try ScenarioDecoder.load(path: path)
    let page = PlaygroundPage().html(scenario: scenario, ruleFiles: ["</script><b>rules.lua"])
    let (data, rest) = try ReplayPageTests.split(page)
    for marker in ["pwned", "<b>"] { #expect(!rest.contains(marker), "\(marker) outside the data") }
    let parsed = try JSONValue.parse(data).objectValue
    #expect(parsed?["name"] == .string(scenario.name))
    #expect(parsed?["rules"] == .array([.string("</script><b>rules.lua")]))
    #expect(page.components(separatedBy: "</script>").count == 3)
  }

  @Test("the served policy lets scripts talk only to the server that served the page")
  func policy() {
    #expect(PlaygroundPage.contentSecurityPolicy.contains("default-src 'none'"))
    #expect(PlaygroundPage.contentSecurityPolicy.contains("connect-src 'self'"))
    #expect(!WebAssets.playgroundScript.lowercased().contains("</script"))
    #expect(!WebAssets.playgroundScript.contains("innerHTML"))
    #expect(!WebAssets.boardScript.contains("innerHTML") && !WebAssets.replayScript.contains("innerHTML"))
  }

  @Test("the items the scenario's drag brings from another app are offered on the page, as beginDrag takes them")
  func externalItems() throws {
    let path = ReplayPageTests.root.appendingPathComponent("rules/contacts/vcard-from-another-app.scenario.json").path
    let scenario = try ScenarioDecoder.load(path: path)
    let page = PlaygroundPage().html(scenario: scenario, ruleFiles: [])
    let (data, _) = try ReplayPageTests.split(page)
    let items = try JSONValue.parse(data).objectValue?["externalItems"]?.arrayValue
    let item = try #require(items?.first?.objectValue)
    #expect(items?.count == 1)
    #expect(item["id"] == .string("dee"))
    #expect(item["name"] == .string("Dee Ito"))
    #expect(item["representations"]?.arrayValue?.first?.arrayValue?.first == .string("public.vcard"))
  }
}
