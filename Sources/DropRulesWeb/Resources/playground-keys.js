// The playground's keyboard (`droprules play`), loaded after playground.js: it drives
// drags through the interface DropPlayground exposes, never through its internals.
"use strict";

// The keyboard sensor, as dnd-kit's: Tab reaches each item; Space or Enter lifts the
// focused one (Shift+Space adds it to the selection instead); the arrow keys step
// through every target in reading order, and through every insertion gap of a target
// with an item extent (and *into* each row there that stands for a container, a folder's
// row), then the "another app" zone; Space or Enter drops; Escape cancels. Closed
// containers are passed over until a rule springs them open. The lifted item keeps
// focus; the drop moves focus to the moved item.
const DropKeyboard = (() => {
  const play = DropPlayground;
  const MODIFIER_KEYS = { Alt: "option", Meta: "command", Control: "control" };
  /// Modifier keys held during a keyboard drag (Shift only selects, so it is left out).
  const held = new Set();

  /// Targets top to bottom, then left to right: a column's list before the next column
  /// when they start level, a parent before the children inside it.
  function readingOrder(a, b) {
    const first = DropBoard.rect(a.frame);
    const second = DropBoard.rect(b.frame);
    return first.y - second.y || first.x - second.x;
  }

  /// Whether a target takes no drops now: it, or a target it is nested in, is closed
  /// and not opened (spring-loaded) in this drag.
  function isClosed(target, byId, opened) {
    for (let at = target, steps = 0; at && steps <= byId.size; at = byId.get(at.parent), steps++) {
      if (at.collapsed && !opened.has(at.id)) return true;
    }
    return false;
  }

  /// The middle of a target's `position`th row along its axis, in board coordinates:
  /// where a pointer drops *into* that row.
  function rowCentre(target, position) {
    const frame = DropBoard.rect(target.frame);
    const along = (position - 0.5) * target.itemExtent;
    return target.axis === "horizontal"
      ? [Math.round(frame.x + along), Math.round(frame.y + frame.height / 2)]
      : [Math.round(frame.x + frame.width / 2), Math.round(frame.y + along)];
  }

  /// Every place the arrow keys stop: `{over, index}` for each gap of a target with an
  /// item extent, with `{at, into}` between two gaps for a row that stands for a
  /// container; `{over}` for any other target; then `{outside}` (another app).
  function stops(opened = new Set()) {
    const model = play.model();
    const byId = new Map(model.targets.map((target) => [target.id, target]));
    const list = [];
    for (const target of [...model.targets].sort(readingOrder)) {
      if (isClosed(target, byId, opened)) continue;
      const extent = target.itemExtent;
      if (typeof extent === "number" && extent > 0) {
        const items = target.items || [];
        for (let index = 1; index <= items.length + 1; index++) {
          list.push({ over: target.id, index });
          const row = items[index - 1];
          if (row && model.items[row] && model.items[row].opens) {
            list.push({ at: rowCentre(target, index), into: row });
          }
        }
      } else {
        list.push({ over: target.id });
      }
    }
    list.push({ outside: null });
    return list;
  }

  function sameStop(a, b) {
    return a.over === b.over && a.index === b.index && a.into === b.into && (a.outside === undefined) === (b.outside === undefined);
  }

  /// The stop a drag of a board item starts at: its own gap, or its own target.
  function startStop(list, itemId) {
    const holder = play.containerOf(itemId);
    if (!holder) return -1;
    const position = (holder.items || []).indexOf(itemId) + 1;
    return list.findIndex((stop) => stop.over === holder.id && (stop.index == null || stop.index === position));
  }

  function lift(node) {
    let ids, external = [];
    if (node.dataset.externalId) {
      external = [play.externalItem(node.dataset.externalId)];
      ids = [external[0].id];
      node.dataset.dragId = ids[0];
    } else {
      ids = play.draggedWith(node.dataset.itemId);
    }
    held.clear();
    const current = play.begin(ids, external, "keyboard", []);
    current.focusBack = node.dataset.externalId ? { item: ids[0], external: node.dataset.externalId } : { item: ids[0] };
    current.stops = stops(current.opened);
    current.openedStops = current.opened.size;
    current.stop = node.dataset.externalId ? -1 : startStop(current.stops, ids[0]);
    if (current.stop >= 0) go(current, current.stop);
  }

  function go(current, at) {
    current.stop = at;
    const stop = current.stops[at];
    const move = stop.outside !== undefined
      ? { outside: play.outsideParams() }
      : stop.at ? { at: stop.at } : { over: stop.over, index: stop.index };
    play.queue(move, [...held]);
  }

  function step(current, delta) {
    if (current.opened.size !== current.openedStops) {
      // A container sprang open: its targets join the stops, and the drag stays where it is.
      const here = current.stops[current.stop];
      current.stops = stops(current.opened);
      current.openedStops = current.opened.size;
      current.stop = here ? current.stops.findIndex((stop) => sameStop(stop, here)) : -1;
    }
    const count = current.stops.length;
    const at = current.stop < 0 ? (delta > 0 ? 0 : count - 1) : (current.stop + delta + count) % count;
    go(current, at);
  }

  /// Keys for other controls (the reset button, the zone's menus) do what they always do.
  function isOtherControl(node) {
    if (!(node instanceof Element)) return false;
    if (node.closest(".item[data-item-id], .external-item")) return false;
    return Boolean(node.closest("button, select, input, textarea, a[href], summary"));
  }

  function finish(kind) {
    play.end(kind).catch((error) => play.showMessage(String(error), true));
  }

  function onKeyDown(event) {
    const current = play.current();
    if (current.active && current.via === "keyboard" && !current.ended) {
      if (MODIFIER_KEYS[event.key]) {
        held.add(MODIFIER_KEYS[event.key]);
        if (current.stop >= 0) go(current, current.stop);
        return;
      }
      if (isOtherControl(event.target)) return;
      switch (event.key) {
        case "ArrowDown": case "ArrowRight": step(current, 1); break;
        case "ArrowUp": case "ArrowLeft": step(current, -1); break;
        case " ": case "Enter": finish("drop"); break;
        case "Escape": finish("cancel"); break;
        default: return;
      }
      event.preventDefault();
      return;
    }
    if (current.active) return;
    const node = event.target instanceof Element
      ? event.target.closest(".item[data-item-id], .external-item[data-external-id]") : null;
    if (!node) {
      if (event.key === "Escape" && play.selection().size > 0) play.setSelection([]);
      return;
    }
    if (event.key === " " && event.shiftKey && node.dataset.itemId) {
      event.preventDefault();
      play.toggleSelected(node.dataset.itemId);
    } else if ((event.key === " " || event.key === "Enter") && !event.repeat) {
      event.preventDefault();
      lift(node);
    } else if (event.key === "Escape" && play.selection().size > 0) {
      play.setSelection([]);
    }
  }

  function onKeyUp(event) {
    const current = play.current();
    if (!MODIFIER_KEYS[event.key] || !current.active || current.via !== "keyboard" || current.ended) return;
    held.delete(MODIFIER_KEYS[event.key]);
    if (current.stop >= 0) go(current, current.stop);
  }

  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  return { stops, readingOrder };
})();
