import Testing

@testable import DropRulesModel

/// The engine's collaborators, each with its own state: the hover clock, spring-loading
/// and what the engine keeps to say a drag.
@Suite("The drag engine's collaborators")
struct EngineCollaboratorTests {
  @Test("the hover clock counts from the last target entered; only waits move it")
  func hoverClock() {
    var clock = HoverClock()
    clock.pass(300)
    #expect(clock.hoverTime == 300)
    clock.enterTarget()
    #expect(clock.hoverTime == 0)
    clock.pass(120)
    clock.pass(80)
    #expect(clock.hoverTime == 200)
    #expect(clock.now == 500)
  }

  @Test("a container spring-loads once per drag, and closes when the drag ends")
  func springLoading() {
    var loading = SpringLoading()
    var opened = loading.open(3)
    #expect(opened)
    opened = loading.open(3)
    #expect(!opened)
    opened = loading.open(5)
    #expect(opened)
    #expect(loading.opened == [3, 5])
    loading.closeAll()
    #expect(loading.opened.isEmpty)
    opened = loading.open(3)
    #expect(opened)
  }

  @Test("a step is announced when it enters a target, changes the proposal or place, or leaves for none")
  func announcementEvents() {
    var state = AnnouncementState()
    state.begin(naming: ["x": "Photo"])
    #expect(state.itemNames == ["x": "Photo"])
    var said: [String] = []
    func step(_ over: Int?, _ proposal: Proposal, _ index: Int?) {
      let event = state.event(over: over, proposal: proposal, index: index)
      said.append(event.map { "\($0.0.rawValue) \($0.1)" } ?? "-")
    }
    step(2, .move, 1)
    step(2, .move, 1)
    step(2, .copy, 1)
    step(2, .copy, 3)
    step(4, .copy, 3)
    step(nil, .cancel, nil)
    step(nil, .cancel, nil)
    state.begin(naming: [:])
    step(4, .copy, 3)
    #expect(said == ["entered 2", "-", "proposal 2", "proposal 2", "entered 4", "exited 4", "-", "entered 4"])
  }
}
