import Testing

@testable import DropRules
@testable import DropRulesTesting

@Suite("Coverage: which lines count")
struct CoverageTests {
  @Test("function headers, lone brackets, comments and blank lines are not executable")
  func executableLines() {
    let source = """
      -- a comment
      local function isFull(day, info)
        return #day.items > 3
      end

      local readers = {
        {
          read = function(payload)
            return payload
          end,
        },
      }
      function M.name(a) return a end
      return function(x)
        call(function(y)
          return y
        end)
      end
      """
    #expect(CoverageRecorder.executableLines(in: source) == [3, 6, 9, 13, 15, 16])
  }
}
