/// Who may change what, and how much: a file changes data only on targets of the types it
/// serves, on the items those targets hold, and on the drag's own items (and copies not
/// yet placed), within its share of the board's data cap. Reading stays open to every
/// file, and moving items in a drop is not a data change.
extension RuleFileState {
  /// Bytes of data this file may still store on targets of the types it serves,
  /// drag-only data included: each file has a share of the board's data cap as large as
  /// its own memory cap, so no file's data can make another file's writes fail.
  var targetDataAvailable: Int {
    guard let view else { return 0 }
    let stored = view.storedTargetDataBytes { [typeOwners, loadOrder] type in
      typeOwners.owner(serving: type) == loadOrder
    }
    return max(0, runtime.limits.maxMemory - stored)
  }

  /// Bytes of item data this file may still pay for. A file pays for the whole data of
  /// every item it was the last to change (wherever the item went since) and of its
  /// copies: a second share of its own, as large as its memory cap, so no file's item
  /// data can make another file's writes fail.
  var itemDataAvailable: Int {
    max(0, runtime.limits.maxMemory - (view?.currentBoard.itemDataBytes(paidBy: dataPayer) ?? 0))
  }

  /// The name the board's data account knows this file by.
  var dataPayer: String { file }

  /// The shares of the board's data cap: each file's for the targets of its types, and
  /// each file's for the items it changed.
  enum DataShare { case targets, items }

  /// What a data write changes: a target's data or an item's.
  enum WriteSubject {
    case target(TargetID)
    case item(ItemID)

    /// The share of the board's data cap that pays for the write.
    var share: DataShare {
      switch self {
      case .target: .targets
      case .item: .items
      }
    }
  }

  /// Why this file may not change `subject`'s data, or nil when it may.
  func writeRefusal(_ caller: String, _ subject: WriteSubject) -> String? {
    switch subject {
    case .target(let id): writeRefusal(caller, target: id)
    case .item(let id): writeRefusal(caller, item: id)
    }
  }

  /// Why a write does not fit its share, in words a rule author can act on.
  func dataShareFull(_ share: DataShare) -> String {
    let cap = runtime.limits.maxMemory
    return switch share {
    case .targets:
      "this file's share of the board's data cap, \(cap) bytes, is full (the data on targets of the types it serves, "
        + "drag-only data included; every rule file has a share of its own, as large as its memory limit; raise it "
        + "with \(RuleLimit.memory.setting))"
    case .items:
      "this file's share of the board's data cap for items, \(cap) bytes, is full (the whole data of the items it "
        + "changed last, wherever they are now, and of its copies; every rule file has a share of its own, as large "
        + "as its memory limit; raise it with \(RuleLimit.memory.setting))"
    }
  }

  /// This file's path: the file of its rules.
  private var file: String { ruleSet.all.first?.file ?? "this rule file" }

  /// Why this file may not change `id`'s data, or nil when it may (or when the target is
  /// gone, which the write itself reports).
  private func writeRefusal(_ caller: String, target id: TargetID) -> String? {
    // By position: a target's copy would cost its data and items on every write.
    guard let board = view?.currentBoard, let position = board.position(of: id) else { return nil }
    return refusal(caller, of: "target '\(id.capped(.name))'", ofType: board.targets[position].type)
  }

  /// Why this file may not change item `id`'s data, or nil when it may.
  ///
  /// The target that takes a drop changes the items it receives, in its `performDrop`.
  /// Otherwise an item's container must be this file's both where it sits now and where
  /// it sat when the drag began: a file that only hovered, or that moved another file's
  /// item in, wrote it and moved it back, changes nothing of another file's.
  private func writeRefusal(_ caller: String, item id: ItemID) -> String? {
    guard let view else { return nil }
    let dragged = view.isDragged(id)
    if dragged, currentCall?.handler == .performDrop { return nil }
    let committed = view.board.place(of: id).flatMap { view.board.target($0.container) }
    if dragged, committed == nil {
      return "\(caller): item '\(id.capped(.name))' came with the drag from outside the board; only the target that "
        + "takes the drop changes its data, in its performDrop (\(file) may read it)"
    }
    let staged = view.currentBoard.place(of: id).flatMap { view.currentBoard.target($0.container) }
    for container in [committed, staged].compactMap({ $0 }) {
      let what = "item '\(id.capped(.name))' in target '\(container.id.capped(.name))'"
      if let refused = refusal(caller, of: what, ofType: container.type) { return refused }
    }
    return nil
  }

  private func refusal(_ caller: String, of what: String, ofType type: String) -> String? {
    let owner = typeOwners.owner(serving: type)
    guard owner != loadOrder else { return nil }
    let served = owner.flatMap(typeOwners.path(of:)).map { "which \($0) serves" } ?? "which no rule file serves"
    return "\(caller): \(what) is of type '\(type.capped(.name))', \(served); \(file) may read it, not change it "
      + "(a file changes data only on targets of its own types and the items they hold, and in performDrop on the "
      + "items it receives)"
  }
}
