"""The playground without a mouse, and what a new user looks for: keyboard drags (as
dnd-kit's keyboard sensor), announcements in the aria-live region, the reset button,
multi-item drags, the "another app" zone, items from another app, the drag preview,
target data, the staged board and items behind "+N more"."""
import json
import os
import pathlib
import shutil

import pytest

from conftest import ROOT
from test_play import Playground, items_in, open_playground

CALENDAR_RULES = ROOT / "rules" / "calendar" / "calendar.lua"
KANBAN = ROOT / "rules" / "kanban" / "spike-through-the-workflow.scenario.json"
VCARD = ROOT / "rules" / "contacts" / "vcard-from-another-app.scenario.json"
SHOTS = pathlib.Path(os.environ.get("KB_SHOTS", "/tmp/kb-shots"))


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def schedule_item(id, name):
    return {"id": id, "name": name,
            "representations": [["com.example.schedule-item", "{}"], ["public.plain-text", name]]}


@pytest.fixture
def week(tmp_path):
    """The calendar rules and three days: a past one, one with two meetings, an empty one."""
    shutil.copy(CALENDAR_RULES, tmp_path / "calendar.lua")
    scenario = {
        "name": "a week to drag in with the keyboard", "rules": ["calendar.lua"],
        "board": {"targets": [
            {"id": "day-11", "type": "calendar.day", "frame": [0, 0, 200, 240],
             "data": {"name": "Monday 11", "past": True}},
            {"id": "day-12", "type": "calendar.day", "frame": [200, 0, 200, 240], "data": {"name": "Tuesday 12"},
             "items": [schedule_item("standup", "Standup"), schedule_item("review", "Review")]},
            {"id": "day-13", "type": "calendar.day", "frame": [400, 0, 200, 240], "data": {"name": "Wednesday 13"}}]},
        "drag": {"items": ["standup"]}, "steps": ["cancel"],
    }
    path = tmp_path / "week.scenario.json"
    path.write_text(json.dumps(scenario))
    return path


def announced(page, text):
    """Waits until the live region says `text`."""
    page.wait_for_function("text => document.getElementById('announcer').textContent === text", arg=text)


def settled(page):
    page.wait_for_function(
        "() => { const s = window.droprulesPlay.state(); return s.active && !s.inflight && !s.pending && s.answered; }")


def idle(page):
    page.wait_for_function("() => !window.droprulesPlay.state().active")
    page.wait_for_timeout(150)


def rewrite_begin(page, change):
    """Routes the page's beginDrag answers through `change(result)`, to show the page a
    preview the rules did not make, or none."""
    def route(route):
        if json.loads(route.request.post_data).get("method") != "beginDrag":
            return route.continue_()
        response = route.fetch()
        answer = response.json()
        change(answer["result"])
        route.fulfill(response=response, body=json.dumps(answer))

    page.route("**/rpc", route)


def tab_to(page, name):
    """Presses Tab until the focused element's accessible name is `name`."""
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('aria-label')") == name:
            return
    raise AssertionError(f"Tab never reached {name!r}")


def test_a_keyboard_drag_moves_an_item_and_is_announced(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    tab_to(page, "Standup, in Tuesday 12")
    page.keyboard.press("Space")
    announced(page, "Picked up Standup. Over Tuesday 12: move.")
    settled(page)
    page.keyboard.press("ArrowRight")
    announced(page, "Over Wednesday 13: move.")
    settled(page)
    assert page.locator('.target[data-target-id="day-13"]').get_attribute("class").count("highlight") == 1
    assert "p-move" in page.locator('.target[data-target-id="day-13"]').get_attribute("class")
    assert page.locator("#status .badge.p-move").inner_text() == "move"
    assert page.locator("#drag-preview").inner_text() == "Standup"
    shot(page, "keyboard-over-day-13")
    page.keyboard.press("Enter")
    announced(page, "Dropped into Wednesday 13.")
    idle(page)
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup"]
    assert items_in(page, "day-13") == ["standup"]
    # Focus follows the moved item, which says where it is now.
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Standup, in Wednesday 13"
    shot(page, "keyboard-dropped")
    watched.assert_clean()


def test_escape_cancels_a_keyboard_drag_and_the_board_stays(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    tab_to(page, "Review, in Tuesday 12")
    page.keyboard.press("Enter")
    announced(page, "Picked up Review. Over Tuesday 12: move.")
    page.keyboard.press("ArrowLeft")
    announced(page, "Over Monday 11: forbidden.")
    settled(page)
    assert "p-forbidden" in page.locator('.target[data-target-id="day-11"]').get_attribute("class")
    shot(page, "keyboard-over-forbidden")
    page.keyboard.press("Escape")
    announced(page, "Drag cancelled; everything is back where it was.")
    idle(page)
    assert server.rpc("board")["result"]["targets"] == {"day-11": [], "day-12": ["standup", "review"], "day-13": []}
    assert items_in(page, "day-12") == ["standup", "review"]
    assert page.evaluate("() => document.activeElement.dataset.itemId") == "review"
    watched.assert_clean()


def test_arrow_keys_reach_every_gap_of_a_list_and_the_reset_button_puts_the_board_back(open_page):
    server = Playground(KANBAN, KANBAN.parent)
    try:
        watched = open_playground(open_page, server)
        page = watched.page
        tab_to(page, "spike, in backlog")
        page.keyboard.press("Space")
        settled(page)
        # From its own gap (backlog, 2): the backlog's last gap, then Todo's first.
        page.keyboard.press("ArrowDown")
        settled(page)
        assert page.evaluate("() => window.droprulesPlay.state().index") == 3
        page.keyboard.press("ArrowDown")
        announced(page, "Over todo: move, position 1.")
        settled(page)
        assert page.locator('.target[data-target-id="todo"] .insert-line').count() == 1
        shot(page, "keyboard-gap-todo-1")
        page.keyboard.press("Space")
        announced(page, "Dropped into todo.")
        idle(page)
        assert server.rpc("board")["result"]["targets"]["todo"] == ["spike", "login", "logout"]
        assert items_in(page, "todo") == ["spike", "login", "logout"]
        # The reset button, pressed from the keyboard, puts back the scenario's board.
        reset = page.get_by_role("button", name="Reset board")
        reset.focus()
        page.keyboard.press("Enter")
        announced(page, "Board reset to the scenario's start.")
        page.wait_for_function("() => document.querySelectorAll('[data-target-id=\"todo\"] .item').length === 2")
        assert server.rpc("board")["result"]["targets"] == {
            "backlog": ["idea", "spike"], "todo": ["login", "logout"], "done": []}
        assert items_in(page, "backlog") == ["idea", "spike"]
        shot(page, "after-reset")
        watched.assert_clean()
    finally:
        server.stop()


def test_reset_during_a_keyboard_drag_cancels_it_first(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    tab_to(page, "Standup, in Tuesday 12")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    settled(page)
    page.get_by_role("button", name="Reset board").focus()
    page.keyboard.press("Enter")
    announced(page, "Board reset to the scenario's start.")
    idle(page)
    assert "outcome cancelled" in page.locator("#trace").inner_text()
    assert server.rpc("board")["result"]["targets"]["day-12"] == ["standup", "review"]
    watched.assert_clean()


def test_shift_click_selects_two_items_and_a_drag_moves_both(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    page.locator('.item[data-item-id="standup"]').click(modifiers=["Shift"])
    page.locator('.item[data-item-id="review"]').click(modifiers=["Shift"])
    assert page.evaluate("() => window.droprulesPlay.selection()") == ["standup", "review"]
    assert page.get_by_role("button", name="Standup, in Tuesday 12, selected").count() == 1
    shot(page, "selected-two")
    page.locator('.item[data-item-id="review"]').drag_to(page.locator('.target[data-target-id="day-13"]'), steps=8)
    idle(page)
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup", "review"]
    assert items_in(page, "day-13") == ["standup", "review"]
    assert "Dropped into Wednesday 13." == page.locator("#announcer").inner_text()
    watched.assert_clean()


def test_shift_space_selects_and_a_keyboard_drag_carries_the_selection_with_a_preview(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    # A host without previews: the page makes its own.
    rewrite_begin(page, lambda result: result.pop("preview", None))
    tab_to(page, "Standup, in Tuesday 12")
    page.keyboard.press("Shift+Space")
    announced(page, "Standup selected; 1 selected.")
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Space")
    announced(page, "Review selected; 2 selected.")
    page.keyboard.press("Space")
    announced(page, "Picked up Standup and Review. Over Tuesday 12: move.")
    page.keyboard.press("ArrowRight")
    settled(page)
    # No preview from the host: the first item's name and how many more.
    preview = page.locator("#drag-preview")
    assert preview.locator(".preview-title").inner_text() == "Standup"
    assert preview.locator(".preview-badge").inner_text() == "+1"
    # The staged board is drawn beside the trace while the drag goes on.
    page.wait_for_selector("#staged-panel:not([hidden])")
    shot(page, "keyboard-two-items")
    page.keyboard.press("Enter")
    announced(page, "Dropped into Wednesday 13.")
    idle(page)
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup", "review"]
    assert page.evaluate("() => window.droprulesPlay.selection()") == []
    watched.assert_clean()


def test_a_drag_over_the_another_app_zone_is_a_drag_out(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    # With the mouse.
    page.locator('.item[data-item-id="standup"]').drag_to(page.locator("#another-app"), steps=8)
    idle(page)
    trace = page.locator("#trace").inner_text()
    assert "outside (takes public.item, asks for copy)" in trace
    assert "outcome performed" in trace
    assert page.locator("#announcer").inner_text() == "Dropped into another app."
    # A copy to another app leaves the board as it was.
    assert server.rpc("board")["result"]["targets"]["day-12"] == ["standup", "review"]
    # With the keyboard: the zone is the last stop, one step back from the first.
    tab_to(page, "Review, in Tuesday 12")
    page.keyboard.press("Space")
    settled(page)
    page.keyboard.press("ArrowLeft")
    announced(page, "Over Monday 11: forbidden.")
    page.keyboard.press("ArrowLeft")
    announced(page, "Over another app: copy.")
    settled(page)
    assert "highlight" in page.locator("#another-app").get_attribute("class")
    shot(page, "keyboard-over-another-app")
    page.keyboard.press("Enter")
    announced(page, "Dropped into another app.")
    idle(page)
    watched.assert_clean()


def test_an_item_from_another_app_is_dragged_in_with_the_keyboard(open_page):
    server = Playground(VCARD, VCARD.parent)
    try:
        watched = open_playground(open_page, server)
        page = watched.page
        # The scenario's own external item joins the samples in the panel.
        names = page.locator("#external-items .external-item").evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('aria-label'))")
        assert names[0] == "Dee Ito, from another app"
        assert "Text snippet, from another app" in names
        tab_to(page, "Dee Ito, from another app")
        page.keyboard.press("Space")
        announced(page, "Picked up Dee Ito.")
        page.keyboard.press("ArrowDown")
        settled(page)
        page.keyboard.press("ArrowDown")
        announced(page, "Over all: copy, position 2.")
        settled(page)
        shot(page, "external-vcard-over-all")
        page.keyboard.press("Enter")
        announced(page, "Dropped into all.")
        idle(page)
        assert server.rpc("board")["result"]["targets"]["all"] == ["ana", "dee", "bo"]
        assert items_in(page, "all") == ["ana", "dee", "bo"]
        watched.assert_clean()
    finally:
        server.stop()


def test_an_item_from_another_app_is_dragged_in_with_the_mouse(open_page):
    server = Playground(KANBAN, KANBAN.parent)
    try:
        watched = open_playground(open_page, server)
        page = watched.page
        snippet = page.locator('.external-item[data-external-id="snippet"]')
        snippet.drag_to(page.locator('.target[data-target-id="backlog"]'), steps=8)
        idle(page)
        assert server.rpc("board")["result"]["targets"]["backlog"] == ["idea", "spike", "snippet"]
        # Again: the second copy gets an id of its own.
        snippet.drag_to(page.locator('.target[data-target-id="backlog"]'), steps=8)
        idle(page)
        assert server.rpc("board")["result"]["targets"]["backlog"] == ["idea", "spike", "snippet", "snippet-2"]
        # Todo takes new cards from nowhere but the backlog.
        snippet.drag_to(page.locator('.target[data-target-id="todo"]'), steps=8)
        idle(page)
        assert "proposal forbidden" in page.locator("#trace").inner_text()
        assert server.rpc("board")["result"]["targets"]["todo"] == ["login", "logout"]
        watched.assert_clean()
    finally:
        server.stop()


def test_every_control_has_an_accessible_name_and_target_data_shows(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    for role, name in [("button", "Reset board"), ("button", "Standup, in Tuesday 12"),
                       ("button", "Text snippet, from another app"), ("region", "Another app"),
                       ("region", "Board"), ("status", "Announcements"), ("combobox", "takes"),
                       ("combobox", "and asks for")]:
        assert page.get_by_role(role, name=name, exact=True).count() == 1, (role, name)
    snapshot = page.locator("body").aria_snapshot()
    for line in snapshot.splitlines():
        stripped = line.strip().lstrip("- ")
        for role in ("button", "combobox", "textbox", "link"):
            if stripped.startswith(role) and not stripped.startswith(f'{role} "'):
                raise AssertionError(f"a {role} without a name: {line}")
    # Focusing an item shows its target's data.
    tab_to(page, "Standup, in Tuesday 12")
    details = page.locator("#target-details").inner_text()
    assert "day-12" in details and "Tuesday 12" in details
    page.locator('.target[data-target-id="day-11"]').hover()
    page.wait_for_function("() => document.getElementById('target-details').textContent.includes('past')")
    assert "day-11" in page.locator('.target[data-target-id="day-11"]').get_attribute("title")
    assert '"past":true' in page.locator('.target[data-target-id="day-11"]').get_attribute("title")
    shot(page, "target-details")
    watched.assert_clean()


def test_items_behind_more_open_with_the_keyboard_and_drag(open_page, tmp_path):
    shutil.copy(CALENDAR_RULES, tmp_path / "calendar.lua")
    crowded = [schedule_item(f"m{n}", f"Meeting {n}") for n in range(1, 9)]
    scenario = {
        "name": "a crowded day", "rules": ["calendar.lua"],
        "board": {"targets": [
            {"id": "busy", "type": "calendar.day", "frame": [0, 0, 160, 90], "items": crowded},
            {"id": "free", "type": "calendar.day", "frame": [180, 0, 160, 90]}]},
        "drag": {"items": ["m1"]}, "steps": ["cancel"],
    }
    path = tmp_path / "crowded.scenario.json"
    path.write_text(json.dumps(scenario))
    server = Playground(path, tmp_path)
    try:
        watched = open_playground(open_page, server)
        page = watched.page
        more = page.locator('[data-more-of="busy"]')
        assert more.count() == 1
        hidden = [f"m{n}" for n in range(1, 9) if page.locator(f'.item[data-item-id="m{n}"]').count() == 0]
        assert hidden, "nothing hidden behind +N more"
        shot(page, "more-closed")
        more.focus()
        page.keyboard.press("Enter")
        # The first item that was hidden takes focus.
        page.wait_for_function("id => document.activeElement.dataset.itemId === id", arg=hidden[0])
        assert page.locator('.item[data-item-id="m8"]').count() == 1
        shot(page, "more-open")
        # The last item, hidden before, goes to the free day.
        page.locator('.item[data-item-id="m8"]').focus()
        page.keyboard.press("Space")
        settled(page)
        page.keyboard.press("ArrowRight")
        announced(page, "Over free: move.")
        settled(page)
        page.keyboard.press("Enter")
        announced(page, "Dropped into free.")
        idle(page)
        assert server.rpc("board")["result"]["targets"]["free"] == ["m8"]
        watched.assert_clean()
    finally:
        server.stop()


def test_option_held_during_a_keyboard_drag_copies(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    tab_to(page, "Standup, in Tuesday 12")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    announced(page, "Over Wednesday 13: move.")
    page.keyboard.down("Alt")
    announced(page, "Over Wednesday 13: copy.")
    settled(page)
    page.keyboard.press("Enter")
    page.keyboard.up("Alt")
    announced(page, "Dropped into Wednesday 13.")
    idle(page)
    board = server.rpc("board")["result"]["targets"]
    assert board["day-12"] == ["standup", "review"] and len(board["day-13"]) == 1
    watched.assert_clean()


def test_the_preview_the_protocol_sends_is_shown_during_the_drag(open_page, playground):
    """A beginDrag answer whose step has `preview` ({title, subtitle, badge}) is shown in
    the status line and beside the pointer, in place of the item's name."""
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    rewrite_begin(page, lambda result: result.update(
        preview={"title": "2 meetings", "subtitle": "from Tuesday 12", "badge": "2"}))
    tab_to(page, "Standup, in Tuesday 12")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    settled(page)
    preview = page.locator("#drag-preview")
    assert preview.locator(".preview-title").inner_text() == "2 meetings"
    assert preview.locator(".preview-subtitle").inner_text() == "from Tuesday 12"
    assert preview.locator(".preview-badge").inner_text() == "2"
    assert page.locator("#board .drag-ghost").inner_text() == "2 meetings · 2"
    shot(page, "preview-from-protocol")
    page.keyboard.press("Escape")
    idle(page)
    watched.assert_clean()


def test_the_hosts_own_preview_names_the_first_item_and_counts_them(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    page.locator('.item[data-item-id="standup"]').click(modifiers=["Shift"])
    page.locator('.item[data-item-id="review"]').click(modifiers=["Shift"])
    page.locator('.item[data-item-id="standup"]').focus()
    page.keyboard.press("Enter")
    settled(page)
    answer = page.evaluate("() => window.droprulesPlay.state().preview")
    preview = page.locator("#drag-preview")
    if answer is None:  # a host from before previews: the page's own
        assert preview.inner_text().replace("\n", " ") == "Standup +1"
    else:
        assert preview.locator(".preview-title").inner_text() == answer["title"]
        if answer.get("badge") is not None:
            assert preview.locator(".preview-badge").inner_text() == str(answer["badge"])
    shot(page, "preview-from-host")
    page.keyboard.press("Escape")
    idle(page)
    watched.assert_clean()


FOLDER_ROW = ROOT / "rules" / "files" / "into-a-folder-row.scenario.json"
SPRING = ROOT / "rules" / "files" / "spring-open-a-folder.scenario.json"


def test_the_keys_drop_into_a_folder_row_not_only_between_rows(open_page, playground):
    server = playground(FOLDER_ROW)
    watched = open_playground(open_page, server)
    page = watched.page
    tab_to(page, "b.txt, in docs")
    page.keyboard.press("Space")
    settled(page)
    # b.txt starts at its own gap (3); one stop back is *into* the archive folder's row.
    page.keyboard.press("ArrowUp")
    announced(page, "Over docs: move into archive.")
    settled(page)
    assert "over-center" in page.locator('.item[data-item-id="archive-folder"]').get_attribute("class")
    shot(page, "keyboard-into-a-folder-row")
    page.keyboard.press("Enter")
    announced(page, "Dropped into docs.")
    idle(page)
    board = server.rpc("board")["result"]["targets"]
    assert board["archive"] == ["b"] and board["docs"] == ["a", "archive-folder"]
    watched.assert_clean()


def test_a_closed_folder_springs_open_while_the_keyboard_rests_on_its_row(open_page, playground):
    server = playground(SPRING)
    watched = open_playground(open_page, server)
    page = watched.page
    assert "closed" in page.locator('.target[data-target-id="archive"]').get_attribute("class")
    tab_to(page, "b.txt, in Documents")
    page.keyboard.press("Space")
    settled(page)
    stops = page.evaluate("() => window.droprulesPlay.state().stops.map(s => s.over || s.into || 'outside')")
    assert "archive" not in stops, "a closed folder is no stop"
    page.keyboard.press("ArrowUp")
    announced(page, "Over Documents: move into archive.")
    shot(page, "keyboard-resting-on-a-closed-folder")
    # The page tells the server that time passes; after the rule's 500 ms the folder opens.
    announced(page, "Over Documents: move into archive. Opened archive.")
    page.wait_for_function(
        "() => document.querySelector('[data-target-id=\"archive\"]').classList.contains('opened')")
    shot(page, "keyboard-folder-sprang-open")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
        settled(page)
    announced(page, "Over archive: move, position 1.")
    page.keyboard.press("Enter")
    announced(page, "Dropped into archive.")
    idle(page)
    assert server.rpc("board")["result"]["targets"]["archive"] == ["b", "old"]
    assert "closed" in page.locator('.target[data-target-id="archive"]').get_attribute("class")
    watched.assert_clean()
