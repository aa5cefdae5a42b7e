import DropRules
import DropRulesModel
import DropRulesTools

/// The page `droprules run --format html` writes: one self-contained HTML file that draws
/// each scenario's board from its frames and replays the drag step by step.
///
/// The page fetches nothing: its style, its scripts and its data are inline. The data is
/// the JSON trace (``TraceReport``) of each scenario plus what drawing needs, the board
/// before and after the drag with frames and item names; the script builds the page from
/// it with text nodes only, so nothing a rule prints or a scenario names becomes markup.
public struct ReplayPage {
  /// A page writer; the page's assets are built in, so there is nothing to configure.
  public init() {}

  /// The HTML document for the replayed scenarios.
  public func html(_ results: [ScenarioResult]) -> String {
    let data = JSONValue.object(["scenarios": .array(results.map(Self.json))]).serialized()
    let title = results.count == 1 ? "droprules replay" : "droprules replay of \(results.count) scenarios"
    return PageTemplate(text: WebAssets.replayPage).filled([
      "title": title,
      "style": WebAssets.boardStyle,
      "data": ScriptEmbedding.json(data),
      "script": WebAssets.boardScript + "\n" + WebAssets.replayScript,
    ])
  }

  /// One scenario: its trace, and the boards before and after with everything drawing needs.
  static func json(_ result: ScenarioResult) -> JSONValue {
    let external = result.scenario.drag.items.compactMap { dragged -> DragItem? in
      if case .external(let item) = dragged { return item }
      return nil
    }
    return .object([
      "trace": TraceReport().json(result),
      "before": BoardJSON.json(result.scenario.board, extraItems: external),
      "after": BoardJSON.json(result.board, extraItems: external),
      "dragged": .array(result.scenario.drag.items.map { .string($0.id) }),
      "allowedOperations": .array(
        DragOperation.allCases.filter(result.scenario.drag.allowedOperations.contains).map { .string($0.rawValue) }),
    ])
  }
}
