// The replay page: one section per scenario, a board drawn from its frames and a step
// slider that replays the drag from the JSON trace embedded in the page.
"use strict";

const DropReplay = (() => {
  const { element, describeResult } = DropBoard;
  const IGNORED_RESULTS = ["dropEntered", "dropExited", "dragEnded"];
  const PLAY_INTERVAL = 1000;

  /// The step as the text trace writes it: `at (50, 50)`, `over day-13 index 2`, ...
  function describeAction(action) {
    if (!action || typeof action !== "object") return String(action);
    switch (action.kind) {
      case "begin": return "begin drag of " + (action.items || []).join(", ");
      case "at": return `at (${(action.point || []).join(", ")})`;
      case "over": return `over ${action.target}` + (action.index != null ? ` index ${action.index}` : "");
      case "modifiers": {
        const modifiers = action.modifiers || [];
        return "modifiers " + (modifiers.length ? modifiers.join(", ") : "none");
      }
      case "outside":
        return `outside, into an app that takes ${(action.accepts || []).join(", ")} as ${action.operation}`;
      case "wait": return `wait ${action.ms} ms`;
      case "frames": return "frames " + Object.keys(action.frames || {}).sort()
        .map((id) => `${id} [${(action.frames[id] || []).join(", ")}]`).join(", ");
      default: return String(action.kind);
    }
  }

  function badge(text, className) {
    return element("span", `badge ${className}`, text);
  }

  function proposalBadge(proposal) {
    return badge(proposal, `p-${DropBoard.PROPOSALS.includes(proposal) ? proposal : "cancel"}`);
  }

  /// What the page shows at each step: the pointer, target and proposal carry over from
  /// the last step that set them (a drop step has no pointer of its own).
  function moments(steps) {
    const result = [];
    let state = { pointer: null, target: null, proposal: null, index: null, over: null, edge: null, outside: false };
    const path = [];
    const opened = [];
    for (const step of steps) {
      const kind = step.action && step.action.kind;
      // A container a rule sprang open stays open until the drag ends.
      for (const id of step.springLoaded || []) if (!opened.includes(id)) opened.push(id);
      if (Array.isArray(step.pointer)) {
        state = { ...state, pointer: step.pointer, outside: false };
        path.push(step.pointer);
      } else if (kind === "outside") {
        state = { ...state, pointer: null, outside: true };
      }
      if (step.proposal != null) {
        state = {
          ...state, target: step.target, proposal: step.proposal, index: step.index, over: step.over, edge: step.edge,
        };
      }
      result.push({ ...state, path: path.slice(), opened: opened.slice() });
    }
    return result;
  }

  /// What the drag changed: items moved, added, removed or reordered, and data.
  function changes(before, after) {
    const places = (model) => {
      const map = new Map();
      for (const target of model.targets || []) for (const id of target.items || []) map.set(id, target.id);
      return map;
    };
    const from = places(before);
    const to = places(after);
    const lines = [];
    const changed = [];
    const name = (id) => DropBoard.itemLabel({ ...before.items, ...after.items }, id);
    for (const [id, target] of to) {
      if (!from.has(id)) {
        lines.push(`${name(id)} added to ${target}`);
        changed.push(id);
      } else if (from.get(id) !== target) {
        lines.push(`${name(id)} moved from ${from.get(id)} to ${target}`);
        changed.push(id);
      }
    }
    for (const [id, target] of from) if (!to.has(id)) lines.push(`${name(id)} removed from ${target}`);
    const beforeTargets = new Map((before.targets || []).map((target) => [target.id, target]));
    for (const target of after.targets || []) {
      const old = beforeTargets.get(target.id);
      if (!old) continue;
      const kept = (old.items || []).filter((id) => to.get(id) === target.id);
      const now = (target.items || []).filter((id) => from.get(id) === target.id);
      if (kept.join("\u0000") !== now.join("\u0000")) lines.push(`${target.id} reordered: ${now.map(name).join(", ")}`);
      if (JSON.stringify(old.data) !== JSON.stringify(target.data)) {
        lines.push(`${target.id} data ${JSON.stringify(target.data)}`);
      }
    }
    return { lines, changed };
  }

  function facts(rows) {
    const list = element("dl", "facts");
    for (const [term, value] of rows) {
      if (value === null || value === undefined || value === "") continue;
      const definition = element("dd");
      if (value instanceof Node) definition.append(value);
      else definition.textContent = String(value);
      list.append(element("dt", null, term), definition);
    }
    return list;
  }

  function panel(title, ...content) {
    const node = element("section", "panel");
    node.append(element("h3", null, title));
    const body = element("div", "body");
    body.append(...content);
    node.append(body);
    return node;
  }

  function diagnosticNode(diagnostic) {
    const node = element("div", "diagnostic");
    const where = diagnostic.file ? `${diagnostic.file}${diagnostic.line != null ? `:${diagnostic.line}` : ""}: ` : "";
    const context = diagnostic.handler ? ` (in ${diagnostic.handler}${diagnostic.target ? ` of ${diagnostic.target}` : ""})` : "";
    node.append(element("div", null, `${where}${diagnostic.message}${context}`));
    if (diagnostic.traceback) node.append(element("pre", null, diagnostic.traceback));
    return node;
  }

  function callsTable(calls) {
    if (!calls || calls.length === 0) return element("div", "empty", "no handler called");
    const table = element("table", "calls");
    for (const call of calls) {
      const row = element("tr");
      const subject = call.target + (call.item != null ? ` · ${call.item}` : "");
      const result = describeResult(call);
      const resultCell = element("td", "result", result);
      if (call.error) resultCell.classList.add("error");
      else if (IGNORED_RESULTS.includes(call.handler)) resultCell.classList.add("ignored");
      else if (DropBoard.PROPOSALS.includes(result)) resultCell.replaceChildren(proposalBadge(result));
      else if (result === "false") resultCell.classList.add("result-false");
      row.append(element("td", "handler", call.handler), element("td", "subject", subject), resultCell);
      table.append(row);
      for (const line of call.printed || []) {
        const printed = element("tr", "printed");
        const cell = element("td", null, line);
        cell.colSpan = 3;
        printed.append(cell);
        table.append(printed);
      }
    }
    return table;
  }

  /// A drag preview as one line: `Standup — Monday 13 [2]`.
  function previewText(preview) {
    return preview.title + (preview.subtitle ? ` — ${preview.subtitle}` : "") + (preview.badge ? ` [${preview.badge}]` : "");
  }

  /// The side panel's account of one step.
  function stepDetails(step, moment, isLast, scenario, summary) {
    const parts = [];
    const proposal = step.proposal != null ? proposalBadge(step.proposal) : null;
    if (proposal && step.index != null) proposal.append(` index ${step.index}`);
    const downgrade = !step.downgrade
      ? null
      : step.downgrade.noPerformDrop
        ? `${step.downgrade.from} → ${step.downgrade.to} (the rule for ${step.downgrade.noPerformDrop} has no performDrop)`
        : `${step.downgrade.from} → ${step.downgrade.to} (the drag allows ${(step.downgrade.allowed || []).join(", ") || "nothing"})`;
    const pointer = Array.isArray(step.pointer)
      ? `(${step.pointer.join(", ")})`
      : moment.outside ? "off the board, in another app" : null;
    const outcome = step.outcome != null ? badge(step.outcome, `o-${step.outcome}`) : null;
    // Targets under the pointer that the hit test passed over, and why.
    let skipped = null;
    if (Array.isArray(step.skipped) && step.skipped.length) {
      skipped = element("ul", "changes");
      for (const entry of step.skipped) {
        skipped.append(element("li", null, entry && typeof entry === "object" ? `${entry.target}: ${entry.detail}` : String(entry)));
      }
      if (step.skippedOmitted > 0) skipped.append(element("li", "note", `and ${step.skippedOmitted} more`));
    }
    const reason = step.outcomeReason && step.outcomeReason.detail ? step.outcomeReason.detail : null;
    parts.push(facts([
      ["action", describeAction(step.action)],
      ["pointer", pointer],
      ["target", step.target],
      ["skipped", skipped],
      ["proposal", proposal],
      ["over", step.over != null ? `${step.over} (${step.edge})` : null],
      ["negotiated", downgrade],
      ["allowed", step.allowed ? step.allowed.join(", ") || "nothing" : null],
      ["limits", (step.limits || []).map((limit) =>
        `${limit.source != null ? `source ${limit.source}` : "the drag"} allows ${(limit.operations || []).join(", ") || "nothing"}`).join("; ")],
      ["refused", (step.refused || []).length ? `${step.refused.join(", ")} (canDrag)` : null],
      ["outcome", outcome],
      ["why", reason],
      ["preview", step.preview ? previewText(step.preview) : null],
      ["opened", (step.springLoaded || []).length ? `${step.springLoaded.join(", ")} (spring-loaded)` : null],
      ["says", step.announcement || null],
    ]));
    const sections = [panel(`Step ${step.number}`, ...parts), panel("Handler calls", callsTable(step.calls))];
    if ((step.errors || []).length) sections.push(panel("Errors", ...step.errors.map(diagnosticNode)));
    if (isLast) {
      const list = element("ul", "changes");
      for (const line of summary.lines) list.append(element("li", null, line));
      const body = summary.lines.length ? list : element("div", "empty", "no change: the board is as before the drag");
      sections.push(panel("Board after the drop", body));
    }
    return sections;
  }

  function scenarioSection(scenario, position, total) {
    const trace = scenario.trace || {};
    const steps = trace.steps || [];
    const section = element("section", "scenario");
    section.id = `scenario-${position + 1}`;
    section.tabIndex = 0;
    const title = element("h2", null, trace.name || `scenario ${position + 1}`);
    const meta = element("div", "scenario-meta");
    meta.append(badge(trace.outcome || "?", `o-${trace.outcome}`));
    meta.append(badge(trace.passed ? "passed" : "failed", trace.passed ? "good" : "bad"));
    meta.append(`${trace.file || ""}  ·  rules ${(trace.rules || []).join(", ") || "(none)"}`);
    if (trace.outcomeReason && trace.outcomeReason.detail) meta.append(`  ·  ${trace.outcomeReason.detail}`);
    section.append(title, meta);
    const failures = (trace.expectations && trace.expectations.failures) || [];
    for (const failure of failures) section.append(element("div", "diagnostic", `expected ${failure}`));
    for (const line of trace.printed || []) section.append(element("div", "note mono", `print  ${line}`));

    const controls = element("div", "controls");
    const previous = element("button", null, "◀ step");
    const play = element("button", "play", "▶ play");
    const next = element("button", null, "step ▶");
    const slider = element("input");
    Object.assign(slider, { type: "range", min: "0", max: String(Math.max(steps.length - 1, 0)), value: "0" });
    slider.setAttribute("aria-label", "step");
    const count = element("span", "step-count");
    const zoom = element("span", "zoom");
    const zoomOut = element("button", null, "−");
    const zoomFit = element("button", null, "fit");
    const zoomIn = element("button", null, "+");
    zoomOut.title = "zoom out"; zoomIn.title = "zoom in"; zoomFit.title = "fit the board";
    zoom.append(zoomOut, zoomFit, zoomIn);
    controls.append(previous, play, next, slider, count, zoom);

    const stage = element("div", "stage");
    const boardPane = element("div", "board-pane");
    const viewport = element("div", "board-viewport");
    const outsideNote = element("div", "outside-note", "pointer off the board, in another app");
    const boardNode = element("div");
    viewport.append(outsideNote, boardNode);
    boardPane.append(viewport);
    const side = element("div", "side");
    const list = element("ol", "step-list");
    const details = element("div");
    details.style.display = "contents";
    side.append(panel("Steps", list), details);
    stage.append(boardPane, side);
    section.append(controls, stage);

    const before = scenario.before || { targets: [], items: {} };
    const after = scenario.after || before;
    const summary = changes(before, after);
    const timeline = moments(steps);
    const allItems = { ...before.items, ...after.items };
    // Items canDrag refused stay behind: they are neither marked nor carried.
    const refused = new Set(steps.flatMap((step) => step.refused || []));
    const dragged = (scenario.dragged || []).filter((id) => !refused.has(id));
    const label = dragged.map((id) => DropBoard.itemLabel(allItems, id)).join(", ");
    const box = DropBoard.bounds(before, timeline.flatMap((moment) => moment.path));
    const rows = steps.map((step) => {
      const row = element("li");
      row.append(element("span", "number", step.number), element("span", "action", describeAction(step.action)));
      if (step.proposal != null) row.append(proposalBadge(step.proposal));
      if (step.outcome != null) row.append(badge(step.outcome, `o-${step.outcome}`));
      if ((step.errors || []).length || (step.calls || []).some((call) => call.error)) {
        row.classList.add("has-error");
        row.append(element("span", "error-mark", "error"));
      }
      list.append(row);
      return row;
    });

    let current = 0;
    let zoomFactor = 1;
    let drawing = null;
    let drawnModel = null;
    let drawnScale = 0;
    let timer = null;

    // The zoom is relative to the initial scale, or to the whole board once "fit" is chosen.
    let fitted = false;
    function scale() {
      const width = Math.max(viewport.clientWidth - 2, 200);
      const height = Math.max(window.innerHeight * 0.72, 280);
      const base = fitted ? DropBoard.fitScale(box, width, height) : DropBoard.initialScale(before, box, width, height);
      return base * zoomFactor;
    }

    function show(position, options = {}) {
      if (steps.length === 0) {
        count.textContent = "no steps";
        drawing = DropBoard.draw(boardNode, before, box, scale());
        return;
      }
      current = Math.min(Math.max(position, 0), steps.length - 1);
      const step = steps[current];
      const moment = timeline[current];
      const isLast = current === steps.length - 1 && step.outcome != null;
      const model = isLast ? after : before;
      const wanted = scale();
      if (model !== drawnModel || Math.abs(wanted - drawnScale) > 1e-9 || options.redraw) {
        drawing = DropBoard.draw(boardNode, model, box, wanted);
        drawnModel = model;
        drawnScale = wanted;
      }
      drawing.mark({
        target: moment.target, proposal: moment.proposal, index: moment.index, over: isLast ? null : moment.over,
        edge: moment.edge, path: moment.path, pointer: moment.pointer, label: isLast ? null : label,
        dragged: isLast ? [] : dragged, changed: isLast ? summary.changed : [], opened: isLast ? [] : moment.opened,
        skipped: (step.skipped || []).map((entry) => entry && entry.target),
      });
      outsideNote.hidden = !moment.outside;
      outsideNote.className = `outside-note p-${moment.proposal || "cancel"}`;
      slider.value = String(current);
      count.textContent = `step ${step.number} of ${steps[steps.length - 1].number}`;
      rows.forEach((row, index) => row.classList.toggle("current", index === current));
      const row = rows[current];
      if (row.offsetParent) list.scrollTop = Math.max(0, row.offsetTop - list.clientHeight / 2);
      details.replaceChildren(...stepDetails(step, moment, isLast, scenario, summary));
      previous.disabled = current === 0;
      next.disabled = current === steps.length - 1;
      if (moment.pointer && options.follow !== false) follow(moment.pointer);
    }

    /// Keeps the pointer in view when the board is larger than its viewport.
    function follow(pointer) {
      if (!drawing) return;
      const x = (pointer[0] - box.x) * drawing.scale;
      const y = (pointer[1] - box.y) * drawing.scale;
      const margin = 40;
      if (x < viewport.scrollLeft + margin || x > viewport.scrollLeft + viewport.clientWidth - margin) {
        viewport.scrollLeft = x - viewport.clientWidth / 2;
      }
      if (y < viewport.scrollTop + margin || y > viewport.scrollTop + viewport.clientHeight - margin) {
        viewport.scrollTop = y - viewport.clientHeight / 2;
      }
    }

    function stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      play.textContent = "▶ play";
    }

    function start() {
      if (current >= steps.length - 1) show(0);
      play.textContent = "❚❚ pause";
      timer = setInterval(() => {
        show(current + 1);
        if (current >= steps.length - 1) stop();
      }, PLAY_INTERVAL);
    }

    previous.addEventListener("click", () => { stop(); show(current - 1); });
    next.addEventListener("click", () => { stop(); show(current + 1); });
    play.addEventListener("click", () => (timer === null ? start() : stop()));
    slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
    rows.forEach((row, index) => row.addEventListener("click", () => { stop(); show(index); }));
    zoomIn.addEventListener("click", () => { zoomFactor *= 1.5; show(current); });
    zoomOut.addEventListener("click", () => { zoomFactor /= 1.5; show(current); });
    zoomFit.addEventListener("click", () => { zoomFactor = 1; fitted = true; show(current); });
    section.addEventListener("keydown", (event) => {
      if (event.target !== section) return;
      if (event.key === "ArrowRight") { stop(); show(current + 1); event.preventDefault(); }
      if (event.key === "ArrowLeft") { stop(); show(current - 1); event.preventDefault(); }
    });
    return { section, show: (position, options) => show(position, options), redraw: () => show(current, { follow: false }) };
  }

  function legend(node) {
    node.append("proposals:");
    for (const proposal of DropBoard.PROPOSALS) node.append(proposalBadge(proposal));
  }

  function start() {
    const source = document.getElementById("droprules-data");
    // Integers beyond 2^53 are kept as the text droprules wrote (JSON.rawJSON), not
    // rounded to the nearest double: data and traces show what the rules stored.
    const data = JSON.parse(source.textContent, (key, value, context) =>
      typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
        ? JSON.rawJSON(context.source) : value);
    const scenarios = Array.isArray(data.scenarios) ? data.scenarios : [];
    legend(document.getElementById("legend"));
    const index = document.getElementById("scenario-index");
    const main = document.getElementById("scenarios");
    const views = scenarios.map((scenario, position) => {
      const view = scenarioSection(scenario, position, scenarios.length);
      main.append(view.section);
      if (scenarios.length > 1) {
        const link = element("a", null, (scenario.trace && scenario.trace.name) || `scenario ${position + 1}`);
        link.href = `#scenario-${position + 1}`;
        index.append(link);
      }
      return view;
    });
    // Drawn once laid out, so the board fits the width the page gives it.
    for (const view of views) view.show(0, { follow: false });
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(() => views.forEach((view) => view.redraw()), 150);
    });
    window.droprulesReplay = views;
  }

  return { start, describeAction, moments, changes };
})();

DropReplay.start();
