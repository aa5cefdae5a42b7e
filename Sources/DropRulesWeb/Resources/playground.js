// The playground (`droprules play`): the browser's own HTML5 drag and drop drives the
// rules through the host protocol, one JSON-RPC request per POST to /rpc.
//   dragstart -> beginDrag, dragover -> move (and modifiers), drop -> drop,
//   dragend without a drop -> cancel.
// dragover fires about every 50 ms: one move is in flight at a time, and only the newest
// pointer position waits behind it, so moves never queue up.
"use strict";

const DropPlayground = (() => {
  const { element } = DropBoard;
  const info = JSON.parse(document.getElementById("droprules-data").textContent);
  const boardNode = document.getElementById("board");
  const viewport = document.getElementById("viewport");
  const statusNode = document.getElementById("status");
  const traceNode = document.getElementById("trace");
  const messageNode = document.getElementById("message");
  const EFFECTS = { move: "move", copy: "copy" };
  const MAX_TRACE_ENTRIES = 500;

  let model = { targets: [], items: {} };
  let box = null;
  let drawing = null;
  let requestId = 0;
  let drag = idleDrag();
  /// The drop effect the last dragover set, for tests and the curious.
  let lastEffect = null;

  function idleDrag() {
    return {
      active: false, ended: false, item: null, began: Promise.resolve(), inflight: null, pending: null,
      sent: null, answered: null, modifiers: "", proposal: null, target: null, index: null, pointer: null, path: [],
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
      for (const item of target.items || []) items[item.id] = { name: item.name, types: item.types };
      return { ...target, items: (target.items || []).map((item) => item.id) };
    });
    return { targets, items };
  }

  async function refresh() {
    const answer = await rpc("describe");
    if (answer.error) return showMessage(answer.error.message, true);
    model = fromDescription(answer.result);
    if (box === null) box = DropBoard.bounds(model, []);
    redraw();
  }

  function redraw() {
    const width = Math.max(viewport.clientWidth - 2, 200);
    const height = Math.max(window.innerHeight * 0.75, 280);
    drawing = DropBoard.draw(boardNode, model, box, DropBoard.initialScale(model, box, width, height), { draggable: true });
    mark();
  }

  function mark() {
    if (!drawing) return;
    drawing.mark(drag.active ? {
      target: drag.target, proposal: drag.proposal, index: drag.index, pointer: drag.pointer, path: drag.path,
      dragged: [drag.item], label: DropBoard.itemLabel(model.items, drag.item),
    } : {});
    statusNode.replaceChildren();
    if (!drag.active) {
      statusNode.append(element("span", "note", "Drag an item onto a target: the rules decide."));
      return;
    }
    statusNode.append(`dragging ${DropBoard.itemLabel(model.items, drag.item)}`);
    if (drag.target != null) statusNode.append(` over ${drag.target}`);
    if (drag.proposal != null) {
      const badge = element("span", `badge p-${drag.proposal}`, drag.proposal);
      if (drag.index != null) badge.append(` index ${drag.index}`);
      statusNode.append(badge);
    }
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
    const text = step && step.announcement;
    const region = document.getElementById("announcer");
    if (!text || !region || region.textContent === text) return;
    region.textContent = text;
  }

  /// A step in the trace panel: what happened, the handler calls with their results and
  /// prints, and errors.
  function logStep(heading, step) {
    announce(step);
    const lines = [heading];
    for (const call of step.calls || []) {
      const subject = call.target + (call.item != null ? ` ${call.item}` : "");
      lines.push(`  ${call.handler}  ${subject}  ${DropBoard.describeResult(call)}`.trimEnd());
      for (const line of call.printed || []) lines.push(`    print  ${line}`);
    }
    if (step.downgrade) lines.push(`  negotiated ${step.downgrade.from} → ${step.downgrade.to}`);
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

  function modifiersOf(event) {
    const pressed = [];
    if (event.altKey) pressed.push("option");
    if (event.metaKey) pressed.push("command");
    if (event.shiftKey) pressed.push("shift");
    if (event.ctrlKey) pressed.push("control");
    return pressed;
  }

  /// Sends the newest pointer position once the move in flight is answered.
  function pump() {
    if (!drag.active) drag.pending = null;
    if (!drag.active || drag.inflight || !drag.pending) return;
    const { point, modifiers } = drag.pending;
    drag.pending = null;
    const key = modifiers.join(",");
    if (drag.sent && drag.sent[0] === point[0] && drag.sent[1] === point[1] && key === drag.modifiers) return;
    const current = drag;
    current.inflight = (async () => {
      await current.began;
      if (!current.active) return;
      if (key !== current.modifiers) {
        current.modifiers = key;
        apply(current, await rpc("modifiers", { modifiers }), `modifiers ${key || "none"}`);
      }
      current.sent = point;
      const answer = await rpc("move", { at: point });
      apply(current, answer, `at (${point.join(", ")})`);
      if (!answer.error) current.answered = { point, modifiers: key };
    })().catch((error) => showMessage(String(error), true)).finally(() => {
      current.inflight = null;
      pump();
    });
  }

  function apply(current, answer, heading) {
    if (answer.error) {
      if (!(answer.error.data && answer.error.data.skipped)) showMessage(answer.error.message, true);
      return;
    }
    const step = answer.result;
    announce(step);
    const changed = step.proposal !== current.proposal || step.target !== current.target || step.index !== current.index;
    if (changed || (step.calls || []).length || (step.errors || []).length) logStep(heading, step);
    current.proposal = step.proposal;
    current.target = step.target;
    current.index = step.index;
    current.pointer = step.pointer;
    if (Array.isArray(step.pointer)) current.path.push(step.pointer);
    if (current === drag) mark();
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

  function boardPoint(event) {
    const [x, y] = drawing.toBoard(event.clientX, event.clientY);
    return [Math.round(x), Math.round(y)];
  }

  function onDragStart(event) {
    const node = event.target instanceof Element ? event.target.closest(".item[data-item-id]") : null;
    if (!node || drag.active) return;
    const id = node.dataset.itemId;
    event.dataTransfer.setData("text/plain", id);
    event.dataTransfer.effectAllowed = "copyMove";
    showMessage("");
    const current = { ...idleDrag(), active: true, item: id, modifiers: modifiersOf(event).join(",") };
    drag = current;
    current.began = rpc("beginDrag", { items: [id], modifiers: modifiersOf(event) }).then((answer) => {
      if (answer.error) {
        showMessage(answer.error.message, true);
        current.active = false;
        return;
      }
      logStep(`begin drag of ${DropBoard.itemLabel(model.items, id)}`, answer.result);
      if (answer.result.outcome === "refused") current.active = false;
      mark();
    }).catch((error) => {
      showMessage(String(error), true);
      current.active = false;
    });
    mark();
  }

  function onDragOver(event) {
    if (!drag.active || drag.ended) return;
    const point = boardPoint(event);
    const modifiers = modifiersOf(event);
    drag.pending = { point, modifiers };
    pump();
    // Where the rules have answered for this very point and these modifiers, their
    // proposal sets the drop effect: "none" refuses the drop. Where the answer is still
    // on its way, the drop is let through with the last operation (the server decides at
    // the drop, with the final position), so a quick release is not lost; the next
    // dragover, 50 ms on, has the answer.
    const answered = drag.answered && drag.answered.point[0] === point[0] && drag.answered.point[1] === point[1]
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

  async function end(kind, event) {
    const current = drag;
    if (!current.active || current.ended) return;
    current.ended = true;
    if (event) current.pending = { point: boardPoint(event), modifiers: modifiersOf(event) };
    await current.began;
    pump();
    await settle(current);
    if (current.active) {
      const answer = await rpc(kind);
      if (answer.error) showMessage(answer.error.message, true);
      else logStep(kind, answer.result);
    }
    current.active = false;
    if (current === drag) drag = idleDrag();
    await refresh();
  }

  function onDrop(event) {
    if (!drag.active) return;
    event.preventDefault();
    end("drop", event).catch((error) => showMessage(String(error), true));
  }

  function onDragEnd() {
    // After a drop, `drop` has already ended the drag; otherwise the user let go where
    // nothing took the item, or pressed Escape.
    end("cancel").catch((error) => showMessage(String(error), true));
  }

  async function start() {
    document.getElementById("scenario-name").textContent = info.name || "";
    const legend = document.getElementById("legend");
    legend.append("proposals:");
    for (const proposal of DropBoard.PROPOSALS) legend.append(element("span", `badge p-${proposal}`, proposal));
    document.getElementById("rules-note").textContent =
      `Rules: ${(info.rules || []).join(", ") || "(none)"}. Save a rule file and the next drag uses it.`;
    boardNode.addEventListener("dragstart", onDragStart);
    document.addEventListener("dragover", onDragOver);
    document.addEventListener("drop", onDrop);
    document.addEventListener("dragend", onDragEnd);
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

  window.droprulesPlay = { state: () => drag, model: () => model, lastEffect: () => lastEffect };
  start().catch((error) => showMessage(String(error), true));
  return { fromDescription };
})();
