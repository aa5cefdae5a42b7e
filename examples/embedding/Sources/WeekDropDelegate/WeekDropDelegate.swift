// A sketch of the SwiftUI side: a DropDelegate per day column that forwards SwiftUI's
// drop callbacks to WeekModel and shows the badge droprules proposes. It compiles only
// where SwiftUI exists (macOS, iOS); droprules is built and tested on Linux, where this
// file is empty, so everything it calls is WeekModel API that the command-line demo
// (week-demo) runs in CI.
#if canImport(SwiftUI)
  import SwiftUI
  import WeekModel

  /// Forwards one day column's drop callbacks to the model.
  ///
  /// SwiftUI reports locations in the column's own coordinates; the model wants the
  /// planner's, so the column's origin is added. SwiftUI gives no signal for the
  /// option key during a drag on every platform: `optionKeyChanged` is for a UI that
  /// watches the keyboard itself (an `NSEvent` monitor on macOS).
  @MainActor
  struct WeekDropDelegate: DropDelegate {
    let model: WeekModel
    /// The column's origin in the planner's coordinates.
    let origin: CGPoint
    /// The badge the column shows: bound to the view's state.
    @Binding var badge: WeekModel.Badge

    func validateDrop(info: DropInfo) -> Bool {
      info.hasItemsConforming(to: [.plainText])
    }

    func dropEntered(info: DropInfo) {
      // The drag began in this app: a real app calls model.dragBegan(_:) from the source
      // view's onDrag, with the ids of the lifted events.
      badge = (try? model.pointerMoved(x: origin.x + info.location.x, y: origin.y + info.location.y)) ?? .none
    }

    func dropUpdated(info: DropInfo) -> DropProposal? {
      let badge = (try? model.pointerMoved(x: origin.x + info.location.x, y: origin.y + info.location.y)) ?? .none
      self.badge = badge
      switch badge {
      case .move: return DropProposal(operation: .move)
      case .copy: return DropProposal(operation: .copy)
      case .forbidden: return DropProposal(operation: .forbidden)
      case .none: return DropProposal(operation: .cancel)
      }
    }

    func dropExited(info: DropInfo) {
      badge = .none
    }

    func performDrop(info: DropInfo) -> Bool {
      badge = .none
      return (try? model.dropped()) ?? false
    }
  }
#endif
