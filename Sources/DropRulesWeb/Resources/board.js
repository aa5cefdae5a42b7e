// Draws a droprules board: each target a box at its frame, each item a chip inside its
// target. Shared by the replay page (`droprules run --format html`) and the playground
// (`droprules play`). Everything that came from a scenario or a rule is put into the page
// as text (textContent, attributes), never as markup.
"use strict";

const DropBoard = (() => {
  const PROPOSALS = ["move", "copy", "forbidden", "cancel"];
  const LABEL_HEIGHT = 20;
  const CHIP_HEIGHT = 22;
  const CHIP_GAP = 4;
  const SVG = "http://www.w3.org/2000/svg";

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svgElement(tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
    return node;
  }

  function finite(value) {
    return typeof value === "number" && Number.isFinite(value);
  }

  /// A frame as {x, y, width, height}; a malformed one becomes an empty box at the origin.
  function rect(frame) {
    const [x, y, width, height] = Array.isArray(frame) ? frame : [];
    return {
      x: finite(x) ? x : 0,
      y: finite(y) ? y : 0,
      width: finite(width) && width > 0 ? width : 0,
      height: finite(height) && height > 0 ? height : 0,
    };
  }

  /// The smallest box holding every frame and every point (pointers can leave the targets).
  function bounds(model, points) {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const grow = (x, y) => {
      if (!finite(x) || !finite(y)) return;
      minX = Math.min(minX, x); minY = Math.min(minY, y);
      maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    };
    for (const target of model.targets || []) {
      const frame = rect(target.frame);
      grow(frame.x, frame.y);
      grow(frame.x + frame.width, frame.y + frame.height);
    }
    for (const point of points || []) if (point) grow(point[0], point[1]);
    if (minX === Infinity) return { x: 0, y: 0, width: 100, height: 100 };
    // A margin so that a pointer on the edge and the boxes' outlines stay visible.
    const margin = Math.min(Math.max(maxX - minX, maxY - minY) * 0.02, 20) + 4;
    return { x: minX - margin, y: minY - margin, width: maxX - minX + 2 * margin, height: maxY - minY + 2 * margin };
  }

  /// The scale that fits the board into the space given; small boards grow up to 2x.
  function fitScale(box, width, height) {
    const scale = Math.min(width / box.width, height / box.height, 2);
    return finite(scale) && scale > 0 ? scale : 1;
  }

  /// The scale at which a typical target (the median width and height) has room for its
  /// label: a board too large to fit readably is drawn at this scale (at most 1:1) and
  /// scrolls.
  function readableScale(model) {
    const frames = (model.targets || []).map((target) => rect(target.frame)).filter((frame) => frame.width > 0);
    if (frames.length === 0) return 0;
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const width = median(frames.map((frame) => frame.width));
    const height = median(frames.map((frame) => frame.height));
    return Math.min(Math.max(100 / width, 40 / height), 1);
  }

  /// The scale a page opens with: the board fitted, unless that makes labels unreadable.
  function initialScale(model, box, width, height) {
    return Math.max(fitScale(box, width, height), readableScale(model));
  }

  function itemLabel(items, id) {
    const item = items[id];
    return item && typeof item.name === "string" && item.name !== "" ? item.name : id;
  }

  /// Where a target without an item extent lists its items: the largest strip of its
  /// frame that its child targets leave free, in board coordinates.
  function freeRegion(frame, children) {
    if (children.length === 0) return frame;
    let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
    for (const child of children) {
      left = Math.min(left, Math.max(child.x, frame.x));
      top = Math.min(top, Math.max(child.y, frame.y));
      right = Math.max(right, Math.min(child.x + child.width, frame.x + frame.width));
      bottom = Math.max(bottom, Math.min(child.y + child.height, frame.y + frame.height));
    }
    const strips = [
      { x: frame.x, y: frame.y, width: left - frame.x, height: frame.height },
      { x: right, y: frame.y, width: frame.x + frame.width - right, height: frame.height },
      { x: frame.x, y: frame.y, width: frame.width, height: top - frame.y },
      { x: frame.x, y: bottom, width: frame.width, height: frame.y + frame.height - bottom },
    ].filter((strip) => strip.width > 0 && strip.height > 0);
    strips.sort((a, b) => b.width * b.height - a.width * a.height);
    return strips[0] || { x: frame.x, y: frame.y, width: 0, height: 0 };
  }

  /// What a target is called: the `name` (or `title`) in its data, else its id, as the
  /// announcements name it.
  function targetName(target) {
    const data = target && target.data && typeof target.data === "object" ? target.data : {};
    const name = typeof data.name === "string" && data.name !== "" ? data.name
      : typeof data.title === "string" && data.title !== "" ? data.title : null;
    return name || (target ? target.id : "");
  }

  /// An item's accessible name in the playground: `Standup, in Monday 13`.
  function itemAccessibleName(model, id, target, selected) {
    return `${itemLabel(model.items, id)}, in ${targetName(target)}` + (selected ? ", selected" : "");
  }

  /// A target's data as a tooltip shows it: compact JSON, cut at 400 characters.
  function dataText(data) {
    if (!data || typeof data !== "object" || Object.keys(data).length === 0) return "";
    const text = JSON.stringify(data);
    return text.length > 400 ? `${text.slice(0, 399)}…` : text;
  }

  function itemElement(model, id, options, target) {
    const item = model.items[id];
    const node = element("div", "item");
    node.dataset.itemId = id;
    if (options.draggable) {
      // Reachable with Tab and named for a screen reader: Space or Enter picks it up.
      node.draggable = true;
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.setAttribute("aria-roledescription", "draggable item");
      const selected = options.selected ? options.selected.has(id) : false;
      node.setAttribute("aria-label", itemAccessibleName(model, id, target, selected));
      if (selected) node.classList.add("selected");
      if (options.describedBy) node.setAttribute("aria-describedby", options.describedBy);
    }
    const name = item && typeof item.name === "string" && item.name !== "" ? item.name : null;
    node.append(element("span", "item-name", name || id));
    if (name && name !== id) node.append(element("span", "item-id", id));
    const types = item && Array.isArray(item.types) ? item.types.join(", ") : "";
    node.title = (name ? `${name} (${id})` : id) + (types ? `\n${types}` : "");
    return node;
  }

  /// Items at their slots along the target's axis, as the host computes insertion gaps.
  function placeSlots(box, target, frame, scale, model, options, itemNodes) {
    const vertical = target.axis !== "horizontal";
    const extent = target.itemExtent * scale;
    const ids = target.items || [];
    ids.forEach((id, position) => {
      const node = itemElement(model, id, options, target);
      const offset = position * extent;
      if (vertical) {
        if (offset >= frame.height * scale) return;
        Object.assign(node.style, {
          left: "4px", right: "4px", top: `${offset + 2}px`, height: `${Math.max(extent - 4, 2)}px`,
        });
      } else {
        if (offset >= frame.width * scale) return;
        Object.assign(node.style, {
          top: `${LABEL_HEIGHT}px`, bottom: "4px", left: `${offset + 2}px`, width: `${Math.max(extent - 4, 2)}px`,
        });
      }
      if (extent < 14) node.classList.add("tiny");
      box.append(node);
      itemNodes.set(id, node);
    });
    // A vertical list's first slot starts at the frame's top: the label goes on the right.
    if (vertical && ids.length > 0) box.classList.add("label-right");
  }

  /// Items as chips flowing through the free part of the frame, with a count of the rest.
  function placeChips(box, target, frame, region, scale, model, options, itemNodes) {
    const ids = target.items || [];
    if (ids.length === 0) return;
    const left = (region.x - frame.x) * scale + 4;
    const top = Math.max((region.y - frame.y) * scale, LABEL_HEIGHT) + 2;
    const width = region.width * scale - 8;
    const bottom = (region.y - frame.y + region.height) * scale - 2;
    if (width < 24 || bottom - top < 12) {
      box.dataset.count = String(ids.length);
      box.classList.add("has-count");
      return;
    }
    const chipWidth = Math.min(width, 160);
    const perRow = Math.max(1, Math.floor((width + CHIP_GAP) / (chipWidth + CHIP_GAP)));
    const rows = Math.max(1, Math.floor((bottom - top + CHIP_GAP) / (CHIP_HEIGHT + CHIP_GAP)));
    const capacity = perRow * rows;
    // An expanded target lists every item and scrolls; "Show fewer" folds it again.
    const open = options.expanded ? options.expanded.has(target.id) : false;
    const shown = ids.length > capacity && !open ? capacity - 1 : ids.length;
    const height = Math.min(CHIP_HEIGHT, bottom - top);
    const place = (node, slot) => {
      Object.assign(node.style, {
        left: `${left + (slot % perRow) * (chipWidth + CHIP_GAP)}px`,
        top: `${top + Math.floor(slot / perRow) * (CHIP_HEIGHT + CHIP_GAP)}px`,
        width: `${chipWidth}px`, height: `${height}px`,
      });
      box.append(node);
    };
    for (let slot = 0; slot < shown; slot++) {
      const node = itemElement(model, ids[slot], options, target);
      place(node, slot);
      itemNodes.set(ids[slot], node);
    }
    if (shown < ids.length) {
      const more = element(options.onExpand ? "button" : "div", "item more", `+${ids.length - shown} more`);
      more.title = ids.slice(shown).map((id) => itemLabel(model.items, id)).join("\n");
      if (options.onExpand) {
        more.type = "button";
        more.dataset.moreOf = target.id;
        more.setAttribute("aria-expanded", "false");
        more.setAttribute("aria-label", `Show ${ids.length - shown} more items in ${targetName(target)}`);
        more.addEventListener("click", () => options.onExpand(target.id, true));
      }
      place(more, shown);
    } else if (open && ids.length > capacity && options.onExpand) {
      const fewer = element("button", "item more", "Show fewer");
      fewer.type = "button";
      fewer.dataset.moreOf = target.id;
      fewer.setAttribute("aria-expanded", "true");
      fewer.setAttribute("aria-label", `Show fewer items in ${targetName(target)}`);
      fewer.addEventListener("click", () => options.onExpand(target.id, false));
      place(fewer, shown);
      box.classList.add("expanded");
    }
  }

  /// A handler call's result as the text trace writes it: `true`, `move`, `copy, index 2`,
  /// `copy, move`, `nil`; `error` when it raised, nothing where the host ignores it.
  function describeResult(call) {
    if (call.error) return "error";
    if (["dropEntered", "dropExited", "dragEnded"].includes(call.handler)) return "";
    const result = call.result;
    if (result === null || result === undefined) return "nil";
    if (Array.isArray(result)) return result.join(", ") || "none";
    if (typeof result === "object" && typeof result.operation === "string") {
      return result.operation + (result.index != null ? `, index ${result.index}` : "");
    }
    if (typeof result === "object") {
      // A table such as dragPreview's {title, subtitle, badge}: as JSON, cut short.
      const text = JSON.stringify(result);
      return text.length > 120 ? `${text.slice(0, 119)}…` : text;
    }
    return String(result);
  }

  /// Draws `model` ({targets, items}) into `container` at `scale` over the board box
  /// `box`, and returns a drawing whose `mark(view)` shows a moment of a drag.
  function draw(container, model, box, scale, options = {}) {
    model = { targets: model.targets || [], items: model.items || {} };
    container.replaceChildren();
    container.classList.add("board");
    container.style.width = `${box.width * scale}px`;
    container.style.height = `${box.height * scale}px`;
    const frames = new Map();
    const children = new Map();
    for (const target of model.targets) {
      frames.set(target.id, rect(target.frame));
      if (target.parent != null) {
        if (!children.has(target.parent)) children.set(target.parent, []);
        children.get(target.parent).push(target.id);
      }
    }
    const parents = new Map(model.targets.map((target) => [target.id, target.parent]));
    const depthOf = (id) => {
      let depth = 0;
      for (let at = parents.get(id); at != null && depth < 64; at = parents.get(at)) depth++;
      return depth;
    };
    // The closed containers (`collapsed`) that shut each target: itself and its ancestors.
    const collapsed = new Set(model.targets.filter((target) => target.collapsed).map((target) => target.id));
    const closedBy = (id) => {
      const shut = [];
      for (let at = id, steps = 0; at != null && steps < 64; at = parents.get(at), steps++) {
        if (collapsed.has(at)) shut.push(at);
      }
      return shut;
    };
    const closers = new Map();
    const targetNodes = new Map();
    const itemNodes = new Map();
    model.targets.forEach((target, order) => {
      const frame = frames.get(target.id);
      const node = element("div", `target depth-${depthOf(target.id) % 4}`);
      const shut = closedBy(target.id);
      if (shut.length) {
        node.classList.add("closed");
        closers.set(target.id, shut);
      }
      node.dataset.targetId = target.id;
      const data = dataText(target.data);
      node.title = `${target.id}\n${target.type}` + (data ? `\n${data}` : "");
      Object.assign(node.style, {
        left: `${(frame.x - box.x) * scale}px`, top: `${(frame.y - box.y) * scale}px`,
        width: `${frame.width * scale}px`, height: `${frame.height * scale}px`, zIndex: String(order + 1),
      });
      const label = element("div", "target-label");
      label.append(element("span", "target-id", target.id), element("span", "target-type", target.type));
      node.append(label);
      if (frame.width * scale < 36 || frame.height * scale < 16) node.classList.add("tiny");
      else if (frame.width * scale < 160) node.classList.add("narrow");
      if (finite(target.itemExtent) && target.itemExtent > 0) {
        placeSlots(node, target, frame, scale, model, options, itemNodes);
      } else {
        const region = freeRegion(frame, (children.get(target.id) || []).map((id) => frames.get(id)));
        placeChips(node, target, frame, region, scale, model, options, itemNodes);
      }
      container.append(node);
      targetNodes.set(target.id, node);
    });
    const overlay = svgElement("svg", { class: "pointer-layer", width: box.width * scale, height: box.height * scale });
    overlay.style.zIndex = String(model.targets.length + 2);
    const ghost = element("div", "drag-ghost");
    ghost.style.zIndex = String(model.targets.length + 3);
    container.append(overlay, ghost);
    const toScreen = (point) => [(point[0] - box.x) * scale, (point[1] - box.y) * scale];
    let marked = [];

    /// Shows a moment of a drag: `target` and `proposal`, `dragged` and `changed` item ids,
    /// `skipped` target ids, `path` (board points so far), `pointer`, `label` (what is dragged),
    /// `index`, `over`, `edge`, and `opened`, the closed containers a rule sprang open.
    function mark(view = {}) {
      for (const node of marked) {
        node.classList.remove(
          "highlight", "dragged", "changed", "skipped", "over-before", "over-center", "over-after", "opened");
        for (const proposal of PROPOSALS) node.classList.remove(`p-${proposal}`);
        node.querySelectorAll(".insert-line").forEach((line) => line.remove());
      }
      marked = [];
      const tag = (node, ...classes) => {
        if (!node) return;
        node.classList.add(...classes);
        marked.push(node);
      };
      for (const id of view.dragged || []) tag(itemNodes.get(id), "dragged");
      for (const id of view.changed || []) tag(itemNodes.get(id), "changed");
      for (const id of view.skipped || []) tag(targetNodes.get(id), "skipped");
      const opened = new Set(view.opened || []);
      if (opened.size) {
        for (const [id, shut] of closers) if (shut.every((container) => opened.has(container))) tag(targetNodes.get(id), "opened");
      }
      const proposal = PROPOSALS.includes(view.proposal) ? view.proposal : "cancel";
      const highlighted = view.target != null ? targetNodes.get(view.target) : null;
      if (highlighted) {
        tag(highlighted, "highlight", `p-${proposal}`);
        const target = model.targets.find((candidate) => candidate.id === view.target);
        if (finite(view.index) && target && finite(target.itemExtent) && target.itemExtent > 0) {
          const line = element("div", `insert-line p-${proposal}`);
          // The first gap sits on the frame's edge: drawn just inside it, so it shows.
          const offset = Math.max((view.index - 1) * target.itemExtent * scale, 6);
          if (target.axis === "horizontal") Object.assign(line.style, { left: `${offset}px`, top: "0", bottom: "0" });
          else Object.assign(line.style, { top: `${offset}px`, left: "0", right: "0" });
          line.classList.add(target.axis === "horizontal" ? "across" : "along");
          highlighted.append(line);
        }
      }
      if (view.over != null && ["before", "center", "after"].includes(view.edge)) {
        tag(itemNodes.get(view.over), `over-${view.edge}`);
      }
      drawPointer(view, proposal);
    }

    function drawPointer(view, proposal) {
      overlay.replaceChildren();
      const path = (view.path || []).filter((point) => point && finite(point[0]) && finite(point[1]));
      if (path.length > 1) {
        const points = path.map((point) => toScreen(point).join(",")).join(" ");
        overlay.append(svgElement("polyline", { class: "pointer-path", points }));
      }
      for (const point of path) {
        const [x, y] = toScreen(point);
        overlay.append(svgElement("circle", { class: "pointer-stop", cx: x, cy: y, r: 3.5 }));
      }
      ghost.hidden = true;
      const pointer = view.pointer;
      if (!pointer || !finite(pointer[0]) || !finite(pointer[1])) return;
      const [x, y] = toScreen(pointer);
      overlay.append(svgElement("circle", { class: `pointer p-${proposal}`, cx: x, cy: y, r: 8 }));
      overlay.append(svgElement("circle", { class: "pointer-dot", cx: x, cy: y, r: 2.5 }));
      if (view.label) {
        ghost.hidden = false;
        ghost.textContent = view.label;
        ghost.className = `drag-ghost p-${proposal}`;
        ghost.style.left = `${x + 12}px`;
        ghost.style.top = `${y + 10}px`;
      }
    }

    /// The board point under a client (viewport) position: the page draws the board
    /// scaled and shifted, the rules see board coordinates.
    function toBoard(clientX, clientY) {
      const area = container.getBoundingClientRect();
      return [(clientX - area.left) / scale + box.x, (clientY - area.top) / scale + box.y];
    }

    return { mark, toBoard, targetNodes, itemNodes, scale, box };
  }

  return {
    bounds, fitScale, readableScale, initialScale, draw, itemLabel, targetName, itemAccessibleName, rect, element,
    describeResult, PROPOSALS,
  };
})();
