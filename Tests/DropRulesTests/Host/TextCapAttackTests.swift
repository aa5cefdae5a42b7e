import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// Texts a rule makes are kept cut by TextCap, counted in scalars: one Character of a
/// million combining marks (2 MB) once passed every cap counted in Characters.
@Suite("TextCap attacks: combining marks in everything the host keeps")
struct TextCapAttackTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  static let combiningRule = """
    local huge = "a" .. string.rep("\\u{301}", 1000000)
    return { box = {
      dragPreview = function() return { title = huge, subtitle = huge, badge = huge } end,
      dropUpdated = function(info, box)
        if box.id == "c" then return huge end
        return "move"
      end,
      performDrop = function(info, box) box:insert(info.items) return true end,
      announce = function(event) if event ~= "entered" then return huge end end,
    } }
    """

  @Test("announcements, preview fields, answers and target names keep at most their cap")
  func combiningMarks() throws {
    var targets = row(["a", "b", "c"], items: ["a": ["x"]])
    targets[1].data["name"] = .string("b" + String(repeating: "\u{301}", count: 1_000_000))
    let host = try makeHost(rules: Self.combiningRule, targets: targets, items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    let preview = try #require(host.lastStep?.preview)
    for field in [preview.title, preview.subtitle ?? "", preview.badge ?? ""] {
      #expect(field.unicodeScalars.count == TextCap.presentation.limit)
      #expect(field.utf8.count <= 4 * TextCap.presentation.limit + 3)
    }
    try host.moveOver("b")
    let entered = try #require(host.lastStep?.announcement)
    #expect(entered.utf8.count < 300, "the built-in sentence names b by 60 scalars of its name")
    #expect(entered.unicodeScalars.starts(with: "Over b\u{301}\u{301}".unicodeScalars))
    try host.moveOver("c")
    #expect((host.lastStep?.announcement?.utf8.count ?? 0) <= 4 * TextCap.presentation.limit + 3)
    _ = try host.drop()
    for step in host.trace {
      #expect((step.announcement?.utf8.count ?? 0) <= 4 * TextCap.presentation.limit + 3)
      for call in step.calls {
        if case .other(let text)? = call.value {
          #expect(text.utf8.count <= 4 * TextCap.name.limit + 3)
        } else {
          #expect((call.value?.description.utf8.count ?? 0) <= 3 * (4 * TextCap.presentation.limit + 3) + 50)
        }
      }
    }
    let complaint = try #require(host.diagnostics.first { $0.message.hasPrefix("dropUpdated returned") })
    #expect(complaint.message.utf8.count < 1_000, "\(complaint.message.utf8.count) bytes")
  }
}
