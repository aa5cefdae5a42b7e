import DropRules
import DropRulesLua
import DropRulesModel
import DropRulesTestSupport
import Foundation

/// A host with the given rule source loaded and a row of targets.
public func makeHost(
  rules source: String, targets: [DropTarget], items: [DragItem], directory: TemporaryDirectory,
  limits: LuaLimits = LuaLimits()
) throws -> RuleHost {
  let path = try directory.write("rules.lua", source)
  let host = try RuleHost(limits: limits)
  try host.loadRules(atPaths: [path])
  try host.replaceBoard(Board(targets: targets, items: items))
  return host
}

extension RuleHost {
  /// The handler calls of the last drag, as `handler target -> result` lines.
  public var callLog: [String] {
    trace.flatMap { step in step.calls.map { "\($0.handler.rawValue) \($0.target) -> \($0.result)" } }
  }
}

/// A host with several rule files loaded in order, on a row of targets.
public func makeHost(
  files: [(name: String, source: String)], targets: [DropTarget], items: [DragItem], directory: TemporaryDirectory,
  limits: LuaLimits = LuaLimits()
) throws -> RuleHost {
  let host = try RuleHost(limits: limits)
  try host.loadRules(atPaths: try files.map { try directory.write($0.name, $0.source) })
  try host.replaceBoard(Board(targets: targets, items: items))
  return host
}

extension RuleHost {
  /// Everything rule code printed during the last drag, in order.
  public var printedLines: [String] { trace.flatMap(\.printed) }
}

/// Rules that tests of several layers drive.
public enum SharedRules {
  /// A box that takes a drop only after 500 ms of hovering.
  public static let dwell = """
    return { box = {
      dropUpdated = function(info, box)
        print(box.id, info.hoverTime)
        if info.hoverTime < 500 then return "forbidden" end
        return "move"
      end,
      performDrop = function(info, box) box:insert(info.items) return true end,
    } }
    """
}
