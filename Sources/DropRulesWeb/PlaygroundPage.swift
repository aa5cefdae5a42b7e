import DropRules
import DropRulesModel
import DropRulesTools

/// The page `droprules play` serves: the scenario's board, whose items the browser's own
/// drag and drop moves, driving the rules through the host protocol at `POST /rpc`.
public struct PlaygroundPage {
  /// The policy the page is served with: nothing loads from anywhere but the page
  /// itself, and scripts talk only to the server that served it.
  public static let contentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:"

  /// A page writer; the page's assets are built in, so there is nothing to configure.
  public init() {}

  /// The page for a scenario: its name, file and rule files are shown; the board itself
  /// comes from the server (`describe`), so the page always draws the session's board.
  /// The items the scenario's drag brings in from another app join the page's panel of
  /// external items.
  public func html(scenario: Scenario, ruleFiles: [String]) -> String {
    let external = scenario.drag.items.compactMap { dragged -> JSONValue? in
      guard case .external(let item) = dragged else { return nil }
      return ScenarioWriter.json(item)
    }
    let data = JSONValue.object([
      "name": .string(scenario.name),
      "file": scenario.file.map(JSONValue.string) ?? .null,
      "rules": .array(ruleFiles.map(JSONValue.string)),
      "allowedOperations": .array(
        DragOperation.allCases.filter(scenario.drag.allowedOperations.contains).map { .string($0.rawValue) }),
      "externalItems": .array(external),
    ]).serialized()
    return PageTemplate(text: WebAssets.playgroundPage).filled([
      "style": WebAssets.boardStyle,
      "data": ScriptEmbedding.json(data),
      "script": [WebAssets.boardScript, WebAssets.playgroundScript, WebAssets.playgroundKeysScript].joined(
        separator: "\n"),
    ])
  }
}
