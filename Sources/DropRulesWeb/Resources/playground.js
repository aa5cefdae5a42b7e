// The playground (`droprules play`): drags drive the rules through the host protocol,
// one JSON-RPC request per POST to /rpc. Two ways to drag, one drag state:
//   the mouse, with the browser's own HTML5 drag and drop: dragstart -> beginDrag,
//     dragover -> move {at} (or outside, over the "another app" zone), drop -> drop,
//     dragend without a drop -> cancel;
//   the keyboard (DropKeyboard, in playground-keys.js), as dnd-kit's keyboard sensor: Space or Enter
//     lifts the focused item, the arrow keys step through the targets and their gaps
//     (move {over, index}), Space or Enter drops, Escape cancels.
// dragover fires about every 50 ms: one move is in flight at a time, and only the newest
// one waits behind it, so moves never queue up.
"use strict";

const DropPlayground = (() => {
  const { element } = DropBoard;
  const info = JSON.parse(document.getElementById("droprules-data").textContent);
  const boardNode = document.getElementById("board");
  const viewport = document.getElementById("viewport");
  const statusNode = document.getElementById("status");
  const traceNode = document.getElementById("trace");
  const messageNode = document.getElementById("message");
  const zoneNode = document.getElementById("another-app");
  const externalList = document.getElementById("external-items");
  const detailsNode = document.getElementById("target-details");
  const stagedPanel = document.getElementById("staged-panel");
  const EFFECTS = { move: "move", copy: "copy" };
  const MAX_TRACE_ENTRIES = 500;

  /// Items "from another app" that every playground offers, besides the scenario's own.
  const SAMPLE_EXTERNAL_ITEMS = [
    { id: "snippet", name: "Text snippet", representations: [["public.plain-text", "Buy oat milk"]] },
    {
      id: "link", name: "Link to example.com",
      representations: [["public.url", "https://example.com/"], ["public.plain-text", "https://example.com/"]],
    },
    {
      id: "photo", name: "photo.png",
      representations: [["public.png", "iVBORw0KGgo="], ["public.file-url", "file:///Users/me/Pictures/photo.png"]],
    },
  ];

  let model = { targets: [], items: {} };
  let box = null;
  let drawing = null;
  let requestId = 0;
  let drag = idleDrag();
  /// The drop effect the last dragover set, for tests and the curious.
  let lastEffect = null;
  /// Board item ids picked with shift-click or Shift+Space: a drag of one drags them all.
  const selection = new Set();
  /// Targets whose "+N more" is open.
  const expanded = new Set();
  /// Items offered from another app, by the id the panel shows: {item, base}.
  const externals = new Map();
  /// What to focus once the board is drawn again: {item} or {external} or {board}.
  let focusNext = null;
  /// The target the details panel shows when no drag is on.
  let inspected = null;

  function idleDrag() {
    return {
      active: false, ended: false, item: null, items: [], external: {}, via: null, began: Promise.resolve(),
      inflight: null, pending: null, sent: null, answered: null, modifiers: "", proposal: null, target: null,
      index: null, pointer: null, path: [], outside: false, preview: null, staged: null, opened: new Set(),
    };
  }

  async function rpc(method, params) {
    const request = { jsonrpc: "2.0", id: ++requestId, method };
    if (params !== undefined) request.params = params;
    const response = await fetch("/rpc", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request),
    });
    const reload = response.headers.get("X-Droprules-Reload");
    if (reload) showReload(JSON.parse(decodeURIComponent(reload)));
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
    return response.json();
  }

  /// The board as `describe` answers it, in the shape the board drawing takes.
  function fromDescription(description) {
    const items = {};
    const targets = (description.targets || []).map((target) => {
      for (const item of target.items || []) {
        items[item.id] = { name: item.name, types: item.types, opens: item.opens || null };
      }
      return { ...target, items: (target.items || []).map((item) => item.id) };
    });
    return { targets, items };
  }

  async function refresh() {
    const answer = await rpc("describe");
    if (answer.error) return showMessage(answer.error.message, true);
    model = fromDescription(answer.result);
    if (box === null) box = DropBoard.bounds(model, []);
    for (const id of [...selection]) if (!model.items[id]) selection.delete(id);
    redraw();
  }

  function targetOf(id) {
    return model.targets.find((target) => target.id === id) || null;
  }

  function containerOf(itemId) {
    return model.targets.find((target) => (target.items || []).includes(itemId)) || null;
  }

  function itemName(id) {
    if (drag.external[id]) return drag.external[id].name || id;
    return DropBoard.itemLabel(model.items, id);
  }

  function redraw() {
    // Drawing replaces every node: what had focus gets it back.
    const active = document.activeElement;
    if (!focusNext && active && boardNode.contains(active)) {
      if (active.dataset.itemId) focusNext = { item: active.dataset.itemId };
      else if (active.dataset.moreOf) focusNext = { more: active.dataset.moreOf };
    }
    const width = Math.max(viewport.clientWidth - 2, 200);
    const height = Math.max(window.innerHeight * 0.6, 280);
    drawing = DropBoard.draw(boardNode, model, box, DropBoard.initialScale(model, box, width, height), {
      draggable: true, selected: selection, expanded, describedBy: "drag-help", onExpand: expand,
    });
    mark();
    restoreFocus();
  }

  function restoreFocus() {
    const next = focusNext;
    focusNext = null;
    if (!next) return;
    let node = null;
    if (next.item) node = drawing.itemNodes.get(next.item) || null;
    if (!node && next.more) node = boardNode.querySelector(`[data-more-of="${CSS.escape(next.more)}"]`);
    if (!node && next.external) node = externalList.querySelector(`[data-external-id="${CSS.escape(next.external)}"]`);
    if (!node && next.item && model.items[next.item]) {
      // A moved item the target has no room to show: open the target's list.
      const holder = containerOf(next.item);
      if (holder && !expanded.has(holder.id) && !holder.itemExtent) {
        expanded.add(holder.id);
        focusNext = next;
        return redraw();
      }
    }
    (node || boardNode).focus();
  }

  function expand(targetId, open) {
    if (open) expanded.add(targetId);
    else expanded.delete(targetId);
    const target = targetOf(targetId);
    if (open) {
      // The first item that was hidden takes focus, so the keyboard goes on from there.
      const hidden = (target.items || []).find((id) => !drawing.itemNodes.has(id));
      focusNext = hidden ? { item: hidden } : { more: targetId };
    } else {
      focusNext = { more: targetId };
    }
    redraw();
    say(open ? `Showing all ${target.items.length} items in ${DropBoard.targetName(target)}.`
      : `Showing fewer items in ${DropBoard.targetName(target)}.`);
  }

  // MARK: What the page shows

  function mark() {
    if (!drawing) return;
    drawing.mark(drag.active ? {
      target: drag.target, proposal: drag.proposal, index: drag.index, pointer: drag.pointer, path: drag.path,
      dragged: drag.items, label: previewText(), opened: [...drag.opened], over: drag.over, edge: drag.edge,
    } : {});
    const proposal = DropBoard.PROPOSALS.includes(drag.proposal) ? drag.proposal : "cancel";
    zoneNode.className = "another-app" + (drag.active && drag.outside ? ` highlight p-${proposal}` : "");
    for (const node of externalList.querySelectorAll(".external-item")) {
      node.classList.toggle("dragged", drag.active && drag.items.includes(node.dataset.dragId));
    }
    markStatus();
    showDetails(drag.active && drag.target != null ? drag.target : inspected);
  }

  function markStatus() {
    statusNode.replaceChildren();
    if (!drag.active) {
      statusNode.append(element("span", "note", "Drag an item onto a target, with the mouse or the keyboard: the rules decide."));
      if (selection.size > 0) {
        const count = element("span", "selection-count", `${selection.size} selected`);
        const clear = element("button", "link", "Clear selection");
        clear.type = "button";
        clear.addEventListener("click", () => setSelection([]));
        statusNode.append(count, clear);
      }
      return;
    }
    statusNode.append(previewNode());
    if (drag.outside) statusNode.append("over another app");
    else if (drag.target != null) statusNode.append(`over ${DropBoard.targetName(targetOf(drag.target)) || drag.target}`);
    if (drag.proposal != null) {
      const badge = element("span", `badge p-${drag.proposal}`, drag.proposal);
      // Over the middle of a container's row the drop goes into it, not to a gap.
      const row = drag.over != null && drag.edge === "center" ? model.items[drag.over] : null;
      if (row && row.opens) badge.append(` into ${row.name || drag.over}`);
      else if (drag.index != null) badge.append(` index ${drag.index}`);
      statusNode.append(badge);
    }
    if (drag.via === "keyboard") {
      statusNode.append(element("span", "note", "arrows: next or previous · Space or Enter: drop · Escape: cancel"));
    }
  }

  /// What is dragged, in one line: the preview's title, or the first item and "+N".
  function previewText() {
    const preview = drag.preview;
    if (preview && typeof preview.title === "string") {
      return preview.title + (preview.badge != null && preview.badge !== "" ? ` · ${preview.badge}` : "");
    }
    const more = drag.items.length - 1;
    return itemName(drag.item) + (more > 0 ? ` +${more}` : "");
  }

  /// The drag preview beside the status line: the step's `preview` ({title, subtitle,
  /// badge}) when the rules or the host made one, else the first item's name and "+N".
  function previewNode() {
    const node = element("span", "drag-preview");
    node.id = "drag-preview";
    const preview = drag.preview && typeof drag.preview.title === "string" ? drag.preview : null;
    node.append(element("span", "preview-title", preview ? preview.title : itemName(drag.item)));
    if (preview && preview.subtitle != null) node.append(element("span", "preview-subtitle", preview.subtitle));
    const badge = preview ? preview.badge : drag.items.length > 1 ? `+${drag.items.length - 1}` : null;
    if (badge != null && badge !== "") node.append(element("span", "preview-badge", badge));
    return node;
  }

  /// The details panel: a target's id, type, name, items and data.
  function showDetails(targetId) {
    const target = targetId != null ? targetOf(targetId) : null;
    detailsNode.replaceChildren();
    if (!target) {
      detailsNode.append(element("p", "note", "Hover over or focus a target to see its data."));
      return;
    }
    const facts = element("dl", "facts");
    const fact = (name, value) => facts.append(element("dt", null, name), element("dd", null, value));
    fact("id", target.id);
    fact("type", target.type);
    fact("name", DropBoard.targetName(target));
    fact("items", (target.items || []).map((id) => DropBoard.itemLabel(model.items, id)).join(", ") || "none");
    if (target.itemExtent) fact("layout", `${target.axis || "vertical"} list, ${target.itemExtent} per item`);
    detailsNode.append(facts);
    const data = target.data && Object.keys(target.data).length ? JSON.stringify(target.data, null, 2) : "";
    detailsNode.append(data ? element("pre", "data", data) : element("p", "note", "no data"));
  }

  function showMessage(text, isError) {
    messageNode.textContent = text || "";
    messageNode.className = isError ? "message error" : "message";
  }

  function showReload(answer) {
    if (answer.error) {
      showMessage(`The saved rules did not load; the previous rules stay. ${answer.error.message}`, true);
      addEntry(["rules not reloaded: " + answer.error.message], "error");
    } else {
      const files = (answer.result && answer.result.files) || [];
      showMessage(`Rules reloaded: ${files.join(", ")}`, false);
      addEntry(["rules reloaded: " + files.join(", ")], "info");
      for (const line of (answer.result && answer.result.printed) || []) addEntry([`print  ${line}`], "info");
    }
  }

  function addEntry(lines, kind) {
    const entry = element("div", `entry ${kind || ""}`);
    lines.forEach((line, position) => {
      if (line instanceof Node) entry.append(line);
      else entry.append(position === 0 ? "" : "\n", line);
    });
    traceNode.append(entry);
    while (traceNode.childElementCount > MAX_TRACE_ENTRIES) traceNode.firstElementChild.remove();
    traceNode.scrollTop = traceNode.scrollHeight;
    return entry;
  }

  /// Speaks a step's announcement through the live region (a screen reader reads it),
  /// unless it says what the last one said: a pointer moving within a target repeats it.
  function announce(step) {
    say(step && step.announcement);
  }

  function say(text) {
    const region = document.getElementById("announcer");
    if (!text || !region || region.textContent === text) return;
    region.textContent = text;
  }

  /// A step in the trace panel: what happened, the handler calls with their results and
  /// prints, and errors. (Its announcement is spoken by the caller.)
  function logStep(heading, step) {
    const lines = [heading];
    for (const call of step.calls || []) {
      const subject = call.target + (call.item != null ? ` ${call.item}` : "");
      lines.push(`  ${call.handler}  ${subject}  ${DropBoard.describeResult(call)}`.trimEnd());
      for (const line of call.printed || []) lines.push(`    print  ${line}`);
    }
    if (step.downgrade) lines.push(`  negotiated ${step.downgrade.from} → ${step.downgrade.to}`);
    for (const id of step.springLoaded || []) lines.push(`  opened ${id} (spring-loaded)`);
    if ((step.refused || []).length) lines.push(`  refused ${step.refused.join(", ")} (canDrag)`);
    if (step.proposal != null) lines.push(`  proposal ${step.proposal}` + (step.index != null ? ` index ${step.index}` : ""));
    for (const skipped of step.skipped || []) lines.push(`  skipped ${skipped.target}: ${skipped.detail}`);
    if (step.outcome != null) {
      lines.push(`  outcome ${step.outcome}` + (step.outcomeReason ? ` (${step.outcomeReason.detail})` : ""));
    }
    for (const error of step.errors || []) {
      lines.push(`  error ${error.file || ""}${error.line != null ? `:${error.line}` : ""} ${error.message}`);
    }
    const failed = (step.errors || []).length > 0 || (step.calls || []).some((call) => call.error);
    addEntry(lines, failed ? "error" : "");
  }

  // MARK: The drag, whatever drives it

  function modifiersOf(event) {
    const pressed = [];
    if (event.altKey) pressed.push("option");
    if (event.metaKey) pressed.push("command");
    if (event.shiftKey) pressed.push("shift");
    if (event.ctrlKey) pressed.push("control");
    return pressed;
  }

  /// What the "another app" zone takes and asks for, as `outside` params.
  function outsideParams() {
    return {
      accepts: [document.getElementById("outside-accepts").value],
      operation: document.getElementById("outside-operation").value,
    };
  }

  /// Where a move goes, as a trace heading: `at (50, 50)`, `over todo index 2`, `outside`.
  function heading(move) {
    if (move.at) return `at (${move.at.join(", ")})`;
    if (move.over != null) return `over ${move.over}` + (move.index != null ? ` index ${move.index}` : "");
    return `outside (takes ${move.outside.accepts.join(", ")}, asks for ${move.outside.operation})`;
  }

  /// Queues a move ({at}, {over, index} or {outside}) with the modifiers held: it is sent
  /// once the move in flight is answered, unless a newer one replaces it first.
  function queue(move, modifiers) {
    drag.pending = { move, modifiers };
    pump();
  }

  /// Sends the newest queued move once the move in flight is answered.
  function pump() {
    if (!drag.active) drag.pending = null;
    if (!drag.active || drag.inflight || !drag.pending) return;
    const { move, modifiers } = drag.pending;
    drag.pending = null;
    const key = modifiers.join(",");
    const moveKey = JSON.stringify(move);
    if (drag.sent === moveKey && key === drag.modifiers) return;
    const current = drag;
    current.inflight = (async () => {
      await current.began;
      if (!current.active) return;
      if (key !== current.modifiers) {
        current.modifiers = key;
        apply(current, await rpc("modifiers", { modifiers }), `modifiers ${key || "none"}`, null);
      }
      current.sent = moveKey;
      const answer = move.outside ? await rpc("outside", move.outside) : await rpc("move", move);
      apply(current, answer, heading(move), move);
      if (!answer.error) current.answered = { move: moveKey, modifiers: key };
    })().catch((error) => showMessage(String(error), true)).finally(() => {
      current.inflight = null;
      pump();
    });
  }

  /// Time passes in the browser, but a drag's clock moves only with `wait` steps: while
  /// the pointer rests over a target, the page says so every DWELL_TICK ms, so a rule that
  /// asks for a dwell (a closed folder that springs open) sees the time pass. Nothing is
  /// sent while a move is in flight or waiting, off the board, or over no target.
  const DWELL_TICK = 250;
  function tickDwell() {
    const current = drag;
    if (!current.active || current.ended || current.inflight || current.pending) return;
    if (current.outside || current.target == null) return;
    current.inflight = (async () => {
      await current.began;
      if (!current.active || current.ended) return;
      apply(current, await rpc("wait", { ms: DWELL_TICK }), `wait ${DWELL_TICK} ms`, null, { quiet: true });
    })().catch((error) => showMessage(String(error), true)).finally(() => {
      current.inflight = null;
      pump();
    });
  }

  /// Shows an answered step. A `quiet` one (a dwell tick) enters the trace panel only
  /// when it changed something: the proposal, the target, what opened, or an error.
  function apply(current, answer, title, move, { quiet = false } = {}) {
    if (answer.error) {
      if (!(answer.error.data && answer.error.data.skipped)) showMessage(answer.error.message, true);
      return;
    }
    const step = answer.result;
    if (current.pickedUp && step.announcement) {
      // A keyboard drag starts over the item's own place: one announcement says both,
      // so the second does not cut the first short.
      say(`${current.pickedUp} ${step.announcement}`);
      current.pickedUp = null;
    } else {
      announce(step);
    }
    const changed = step.proposal !== current.proposal || step.target !== current.target || step.index !== current.index;
    const opened = (step.springLoaded || []).length > 0;
    if (changed || opened || (step.errors || []).length || (!quiet && (step.calls || []).length)) logStep(title, step);
    current.proposal = step.proposal;
    current.target = step.target;
    current.index = step.index;
    current.pointer = step.pointer;
    // The row under the pointer and its third: its middle means *into* it (a folder's row).
    current.over = step.over;
    current.edge = step.edge;
    if (step.preview && typeof step.preview.title === "string") current.preview = step.preview;
    // Closed containers a rule spring-loaded: open, and reachable by the keys, until the drag ends.
    for (const id of step.springLoaded || []) current.opened.add(id);
    if (move) current.outside = Boolean(move.outside);
    if (Array.isArray(step.pointer)) current.path.push(step.pointer);
    if (current === drag) mark();
    if (changed && current === drag && current.via === "keyboard") {
      // A big board scrolls to show where the keys took the drag.
      const shown = current.outside ? zoneNode : drawing.targetNodes.get(current.target);
      if (shown) shown.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    if (changed) fetchStaged(current);
  }

  /// Waits until every queued move has been answered.
  async function settle(current) {
    while (current.inflight || current.pending) {
      if (current.inflight) {
        await current.inflight;
        continue;
      }
      // A drag that ended (canDrag refused every item) or was replaced sends nothing
      // more: its last position is dropped, or this loop would never yield.
      if (!current.active || current !== drag) {
        current.pending = null;
        break;
      }
      pump();
      if (!current.inflight) current.pending = null;
    }
  }

  /// Begins a drag of board item ids and external items ({id, name, representations}).
  function begin(ids, externalItems, via, modifiers) {
    showMessage("");
    const external = {};
    for (const item of externalItems) external[item.id] = item;
    const current = {
      ...idleDrag(), active: true, item: ids[0], items: ids, external, via, modifiers: modifiers.join(","),
    };
    drag = current;
    const items = ids.map((id) => external[id] || id);
    current.began = rpc("beginDrag", { items, modifiers }).then((answer) => {
      if (answer.error) {
        showMessage(answer.error.message, true);
        current.active = false;
        return;
      }
      current.preview = answer.result.preview || null;
      if (via === "keyboard" && answer.result.outcome == null) current.pickedUp = answer.result.announcement;
      announce(answer.result);
      logStep(`begin drag of ${ids.map(itemName).join(", ")}`, answer.result);
      if (answer.result.outcome === "refused") current.active = false;
      if (current === drag) mark();
    }).catch((error) => {
      showMessage(String(error), true);
      current.active = false;
    });
    mark();
    return current;
  }

  /// Ends the drag with `drop` or `cancel`, after a last move when one is given.
  async function end(kind, move, modifiers) {
    const current = drag;
    if (!current.active || current.ended) return;
    current.ended = true;
    if (move) current.pending = { move, modifiers: modifiers || [] };
    await current.began;
    pump();
    await settle(current);
    if (current.active) {
      const answer = await rpc(kind);
      if (answer.error) {
        showMessage(answer.error.message, true);
      } else {
        announce(answer.result);
        logStep(kind, answer.result);
      }
    }
    current.active = false;
    if (current === drag) drag = idleDrag();
    if (kind === "drop") selection.clear();
    if (current.via === "keyboard") focusNext = current.focusBack || { item: current.item };
    stagedPanel.hidden = true;
    await refresh();
  }

  /// After an answered move that changed the proposal, target or index: the board as it
  /// would be if the drop came now, with what the rules staged. One request at a time,
  /// and only the newest wish waits.
  function fetchStaged(current) {
    current.staged = current.staged || { wanted: false, running: false };
    current.staged.wanted = true;
    if (current.staged.running) return;
    current.staged.running = true;
    (async () => {
      while (current.staged.wanted && current.active && !current.ended) {
        current.staged.wanted = false;
        const answer = await rpc("describe", { staged: true });
        if (answer.error || !current.active || current.ended || current !== drag) break;
        drawStaged(fromDescription(answer.result));
      }
    })().catch((error) => showMessage(String(error), true)).finally(() => {
      current.staged.running = false;
    });
  }

  function drawStaged(staged) {
    const committed = new Map();
    for (const target of model.targets) for (const id of target.items || []) committed.set(id, target.id);
    const changed = [];
    for (const target of staged.targets) {
      for (const id of target.items || []) if (committed.get(id) !== target.id) changed.push(id);
    }
    const removed = [...committed.keys()].filter((id) => !staged.targets.some((t) => (t.items || []).includes(id)));
    const node = document.getElementById("staged-board");
    const scale = DropBoard.fitScale(box, Math.max(node.clientWidth || 360, 200), 300);
    DropBoard.draw(node, staged, box, scale).mark({ changed, dragged: drag.items });
    // Only the board itself answers to its targets' and items' ids.
    for (const kind of ["targetId", "itemId"]) {
      for (const copy of node.querySelectorAll(`[data-${kind === "targetId" ? "target" : "item"}-id]`)) {
        copy.dataset[kind === "targetId" ? "stagedTarget" : "stagedItem"] = copy.dataset[kind];
        delete copy.dataset[kind];
      }
    }
    document.getElementById("staged-note").textContent = changed.length + removed.length === 0
      ? "Nothing staged: the rules change the board only when the drop comes."
      : `Staged so far: ${[...changed.map((id) => `${id} placed`), ...removed.map((id) => `${id} taken out`)].join(", ")}.`;
    stagedPanel.hidden = false;
  }

  /// The board items a drag of `id` takes: the whole selection when `id` is in it (in
  /// board order), else `id` alone.
  function draggedWith(id) {
    if (!selection.has(id)) {
      setSelection([]);
      return [id];
    }
    return model.targets.flatMap((target) => (target.items || []).filter((item) => selection.has(item)));
  }

  /// Selected items look selected and say so in their accessible name.
  function markSelection() {
    for (const [id, node] of drawing.itemNodes) {
      const selected = selection.has(id);
      if (node.classList.contains("selected") === selected) continue;
      node.classList.toggle("selected", selected);
      node.setAttribute("aria-label", DropBoard.itemAccessibleName(model, id, containerOf(id), selected));
    }
  }

  function setSelection(ids) {
    selection.clear();
    for (const id of ids) selection.add(id);
    markSelection();
    mark();
  }

  function toggleSelected(id) {
    if (selection.has(id)) selection.delete(id);
    else selection.add(id);
    markSelection();
    mark();
    say(`${itemName(id)} ${selection.has(id) ? "selected" : "not selected"}; ${selection.size} selected.`);
  }

  // MARK: Items from another app

  /// The item an external panel entry drags: a fresh id each time, so an item dropped
  /// before (now on the board under its id) never clashes with the next one.
  function externalItem(base) {
    const { item } = externals.get(base);
    let id = item.id;
    for (let n = 2; model.items[id] || drag.external[id]; n++) id = `${item.id}-${n}`;
    return { ...item, id };
  }

  function drawExternalItems() {
    const seen = new Set();
    const offered = [...(info.externalItems || []), ...SAMPLE_EXTERNAL_ITEMS].filter((item) => {
      if (!item || typeof item.id !== "string" || seen.has(item.id)) return false;
      seen.add(item.id);
      return true;
    });
    externalList.replaceChildren();
    for (const item of offered) {
      externals.set(item.id, { item });
      const name = item.name || item.id;
      const types = (item.representations || []).map((pair) => (Array.isArray(pair) ? pair[0] : pair.type));
      const node = element("div", "item external-item");
      node.dataset.externalId = item.id;
      node.dataset.externalBase = item.id;
      node.draggable = true;
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-roledescription", "draggable item");
      node.setAttribute("aria-label", `${name}, from another app`);
      node.setAttribute("aria-describedby", "drag-help");
      node.title = `${name}\n${types.join(", ")}`;
      node.append(element("span", "item-name", name), element("span", "item-types", types.join(", ")));
      const entry = element("li");
      entry.append(node);
      externalList.append(entry);
    }
  }

  // MARK: The mouse

  function boardPoint(event) {
    const [x, y] = drawing.toBoard(event.clientX, event.clientY);
    return [Math.round(x), Math.round(y)];
  }

  /// The move a mouse event means: over the "another app" zone, a drag out of the board;
  /// anywhere else, the board point under the pointer.
  function moveFor(event) {
    const over = event.target instanceof Element && event.target.closest("#another-app");
    return over ? { outside: outsideParams() } : { at: boardPoint(event) };
  }

  function onDragStart(event) {
    if (drag.active || !(event.target instanceof Element)) return;
    const node = event.target.closest(".item[data-item-id], .external-item[data-external-id]");
    if (!node) return;
    let ids, external = [];
    if (node.dataset.externalId) {
      external = [externalItem(node.dataset.externalId)];
      ids = [external[0].id];
      node.dataset.dragId = ids[0];
    } else {
      ids = draggedWith(node.dataset.itemId);
    }
    event.dataTransfer.setData("text/plain", ids.join("\n"));
    event.dataTransfer.effectAllowed = "copyMove";
    begin(ids, external, "mouse", modifiersOf(event));
  }

  function onDragOver(event) {
    if (!drag.active || drag.ended || drag.via !== "mouse") return;
    const move = moveFor(event);
    const modifiers = modifiersOf(event);
    queue(move, modifiers);
    // Where the rules have answered for this very move and these modifiers, their
    // proposal sets the drop effect: "none" refuses the drop. Where the answer is still
    // on its way, the drop is let through with the last operation (the server decides at
    // the drop, with the final position), so a quick release is not lost; the next
    // dragover, 50 ms on, has the answer.
    const answered = drag.answered && drag.answered.move === JSON.stringify(move)
      && drag.answered.modifiers === modifiers.join(",");
    const effect = answered ? EFFECTS[drag.proposal] : EFFECTS[drag.proposal] || "move";
    lastEffect = effect || "none";
    if (effect) {
      event.preventDefault();
      event.dataTransfer.dropEffect = effect;
    } else {
      event.dataTransfer.dropEffect = "none";
    }
  }

  function onDrop(event) {
    if (!drag.active || drag.via !== "mouse") return;
    event.preventDefault();
    end("drop", moveFor(event), modifiersOf(event)).catch((error) => showMessage(String(error), true));
  }

  function onDragEnd() {
    // After a drop, `drop` has already ended the drag; otherwise the user let go where
    // nothing took the item, or pressed Escape.
    if (drag.via !== "mouse") return;
    end("cancel").catch((error) => showMessage(String(error), true));
  }

  function onClick(event) {
    const node = event.target instanceof Element ? event.target.closest(".item[data-item-id]") : null;
    if (!node || drag.active) return;
    if (event.shiftKey) toggleSelected(node.dataset.itemId);
    else if (selection.size > 0 && !selection.has(node.dataset.itemId)) setSelection([]);
  }

  function onInspect(event) {
    const node = event.target instanceof Element ? event.target.closest(".target[data-target-id]") : null;
    if (!node || node.dataset.targetId === inspected) return;
    inspected = node.dataset.targetId;
    if (!drag.active) showDetails(inspected);
  }

  // MARK: Reset

  /// Puts back the board the playground started with; a drag in progress is cancelled
  /// first.
  async function reset() {
    if (drag.active) await end("cancel");
    const answer = await rpc("reset");
    if (answer.error) return showMessage(answer.error.message, true);
    selection.clear();
    expanded.clear();
    showMessage("");
    addEntry(["reset: the board is back where the scenario started"], "info");
    say("Board reset to the scenario's start.");
    focusNext = null;
    await refresh();
    document.getElementById("reset").focus();
  }

  async function start() {
    document.getElementById("scenario-name").textContent = info.name || "";
    const legend = document.getElementById("legend");
    legend.append("proposals:");
    for (const proposal of DropBoard.PROPOSALS) legend.append(element("span", `badge p-${proposal}`, proposal));
    document.getElementById("rules-note").textContent =
      `Rules: ${(info.rules || []).join(", ") || "(none)"}. Save a rule file and the next drag uses it.`;
    drawExternalItems();
    boardNode.addEventListener("dragstart", onDragStart);
    externalList.addEventListener("dragstart", onDragStart);
    boardNode.addEventListener("click", onClick);
    boardNode.addEventListener("mouseover", onInspect);
    boardNode.addEventListener("focusin", (event) => {
      const node = event.target instanceof Element ? event.target.closest(".target[data-target-id]") : null;
      if (node) onInspect({ target: node });
    });
    document.addEventListener("dragover", onDragOver);
    document.addEventListener("drop", onDrop);
    document.addEventListener("dragend", onDragEnd);
    setInterval(tickDwell, DWELL_TICK);
    document.getElementById("reset").addEventListener("click", () => {
      reset().catch((error) => showMessage(String(error), true));
    });
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(redraw, 150);
    });
    // A drag a closed tab left open would refuse the next one.
    await rpc("cancel").catch(() => null);
    await refresh();
    document.body.dataset.ready = "true";
  }

  window.droprulesPlay = {
    state: () => drag, model: () => model, lastEffect: () => lastEffect, selection: () => [...selection],
  };
  // What the keyboard sensor (playground-keys.js) drives the drag with.
  const api = {
    fromDescription, begin, end, queue, outsideParams, toggleSelected, draggedWith, externalItem, containerOf,
    showMessage, setSelection, current: () => drag, model: () => model, selection: () => selection,
  };
  start().catch((error) => showMessage(String(error), true));
  return api;
})();
