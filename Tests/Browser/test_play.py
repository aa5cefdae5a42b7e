"""The playground of `droprules play`: real HTML5 drag and drop in headless Chromium."""
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import BINARY, BUNDLED_SCENARIOS, FIXTURES, ROOT, droprules

CALENDAR_RULES = ROOT / "rules" / "calendar" / "calendar.lua"


class Playground:
    """A `droprules play` process on a free port, stopped when the test ends."""

    def __init__(self, scenario, cwd):
        self.process = subprocess.Popen(
            [str(BINARY), "play", str(scenario), "--port", "0"], cwd=cwd,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:(\d+)/)", line)
        assert match, f"no address in {line!r}; stderr: {self.process.stderr.read() if self.process.poll() is not None else ''}"
        self.url = match.group(1)
        self.port = int(match.group(2))
        self.next_id = 0

    def rpc(self, method, params=None, headers=None):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        return self.post(json.dumps(request).encode(), headers)

    def post(self, body, headers=None):
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        request = urllib.request.Request(self.url + "rpc", data=body, headers=all_headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def week(tmp_path):
    """A copy of the calendar rules and a week of three days: a past one, one with an
    item, an empty one."""
    shutil.copy(CALENDAR_RULES, tmp_path / "calendar.lua")
    item = {"id": "standup", "name": "Standup",
            "representations": [["com.example.schedule-item", "{}"], ["public.plain-text", "Standup"]]}
    scenario = {
        "name": "a week to drag in", "rules": ["calendar.lua"],
        "board": {"targets": [
            {"id": "day-11", "type": "calendar.day", "frame": [0, 0, 200, 240], "data": {"past": True}},
            {"id": "day-12", "type": "calendar.day", "frame": [200, 0, 200, 240], "items": [item]},
            {"id": "day-13", "type": "calendar.day", "frame": [400, 0, 200, 240]}]},
        "drag": {"items": ["standup"]}, "steps": ["cancel"],
    }
    path = tmp_path / "week.scenario.json"
    path.write_text(json.dumps(scenario))
    return path


def open_playground(open_page, server):
    watched = open_page(server.url, allowed_origin=f"http://127.0.0.1:{server.port}/")
    watched.page.wait_for_selector("body[data-ready=true]")
    return watched


def drag(page, item, target):
    page.locator(f'.item[data-item-id="{item}"]').drag_to(page.locator(f'.target[data-target-id="{target}"]'), steps=8)
    # The page redraws the board from the server once the drop or cancel is answered.
    page.wait_for_function("() => !window.droprulesPlay.state().active")
    page.wait_for_timeout(200)


def items_in(page, target):
    return page.locator(f'.target[data-target-id="{target}"] .item[data-item-id]').evaluate_all(
        "nodes => nodes.map(node => node.dataset.itemId)")


def test_a_drop_the_rule_accepts_moves_the_item(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    assert items_in(page, "day-12") == ["standup"]
    assert page.locator('.item[data-item-id="standup"]').get_attribute("draggable") == "true"
    drag(page, "standup", "day-13")
    page.wait_for_function("() => document.querySelector('[data-target-id=\"day-13\"] [data-item-id=\"standup\"]')")
    assert items_in(page, "day-12") == []
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup"]
    trace = page.locator("#trace").inner_text()
    assert "performDrop  day-13  true" in trace and "outcome performed" in trace
    assert "proposal move" in trace
    # The live region says what happened, for a screen reader.
    announcer = page.get_by_role("status", name="Announcements")
    assert announcer.get_attribute("aria-live") == "polite"
    page.wait_for_function("() => document.getElementById('announcer').textContent === 'Dropped into day-13.'")
    page.screenshot(path=str(pathlib.Path(os.environ.get("SCREENSHOTS", "/tmp")) / "play-announcer.png"))
    watched.assert_clean()


def test_a_drop_the_rule_forbids_leaves_the_item(open_page, playground):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    drag(page, "standup", "day-11")
    assert items_in(page, "day-12") == ["standup"]
    assert items_in(page, "day-11") == []
    assert server.rpc("board")["result"]["targets"]["day-12"] == ["standup"]
    trace = page.locator("#trace").inner_text()
    assert "proposal forbidden" in trace
    assert "outcome cancelled" in trace
    assert "performDrop" not in trace
    watched.assert_clean()


def hold_over(page, item, target):
    """Presses on an item, moves over a target and waits there until the rules answered
    for that very point, so the next dragover sets the drop effect from the answer."""
    source = page.locator(f'.item[data-item-id="{item}"]').bounding_box()
    box = page.locator(f'.target[data-target-id="{target}"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(source["x"] + 10, source["y"] + 5)
    page.mouse.down()
    page.mouse.move(x, y, steps=6)
    page.wait_for_function("() => { const s = window.droprulesPlay.state(); return s.answered && !s.inflight && !s.pending; }")
    page.mouse.move(x, y)
    return page.evaluate("() => window.droprulesPlay.lastEffect()")


@pytest.mark.parametrize("target,effect,outcome,ending", [
    ("day-13", "move", "performed", "drop"), ("day-11", "none", "cancelled", "cancel")])
def test_the_drop_effect_follows_the_proposal(open_page, playground, target, effect, outcome, ending):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    assert hold_over(page, "standup", target) == effect
    page.mouse.up()
    page.wait_for_function("() => !window.droprulesPlay.state().active")
    entries = page.locator("#trace .entry").all_inner_texts()
    # With "none" the browser fires no drop event: the drag ends in dragend, as a cancel.
    assert entries[-1].splitlines()[0] == ending
    assert f"outcome {outcome}" in entries[-1]
    watched.assert_clean()


def test_a_saved_rule_file_is_loaded_before_the_next_drag(open_page, playground, week):
    server = playground()
    watched = open_playground(open_page, server)
    page = watched.page
    drag(page, "standup", "day-13")
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup"]
    rules = week.parent / "calendar.lua"
    text = rules.read_text()
    past = 'if day.data.past then return "forbidden" end'
    assert past in text
    rules.write_text(text.replace(past, 'print("closed for the day") do return "forbidden" end'))
    drag(page, "standup", "day-12")
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup"]
    assert items_in(page, "day-13") == ["standup"]
    assert "Rules reloaded" in page.locator("#message").inner_text()
    assert "print  closed for the day" in page.locator("#trace").inner_text()
    # A file saved with an error keeps the rules that loaded, and the page says why.
    rules.write_text("return {")
    drag(page, "standup", "day-12")
    assert "did not load" in page.locator("#message").inner_text()
    assert server.rpc("board")["result"]["targets"]["day-13"] == ["standup"]
    watched.assert_clean()


def test_a_drag_canDrag_refuses_while_moves_wait_ends_and_the_page_stays_responsive(open_page, playground):
    """Regression: positions queued before a refusing beginDrag answered made the page's
    settle loop spin forever (the page froze and the drag never ended)."""
    server = playground(FIXTURES / "refusing" / "refusing.scenario.json")
    watched = open_playground(open_page, server)
    page = watched.page
    drag(page, "thing", "open")
    trace = page.locator("#trace").inner_text()
    assert "outcome refused" in trace
    assert items_in(page, "locked") == ["thing"] and items_in(page, "open") == []
    assert server.rpc("board")["result"]["targets"]["locked"] == ["thing"]
    # The page still answers, and a second drag begins as the first did.
    drag(page, "thing", "open")
    assert page.locator("#trace").inner_text().count("outcome refused") == 2
    watched.assert_clean()


def test_hostile_names_and_prints_stay_text_in_the_playground(open_page, playground):
    server = playground(FIXTURES / "hostile" / "hostile.scenario.json")
    watched = open_playground(open_page, server)
    page = watched.page
    drag(page, "</style><b>item</b>", "box & <b>")
    assert page.title() == "droprules play"
    assert page.locator("img, b, .live-trace script").count() == 0
    assert "</script><script>document.title = 'pwned by print'</script>" in page.locator("#trace").inner_text()
    assert items_in(page, "box & <b>") == ["</style><b>item</b>"]
    watched.assert_clean()


def test_moves_faster_than_the_rule_answers_are_skipped_not_queued(playground):
    server = playground(FIXTURES / "slow" / "slow.scenario.json")
    assert "result" in server.rpc("beginDrag", {"items": ["thing"]})
    points = [[10 + n * 5, 100] for n in range(48)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda point: server.rpc("move", {"at": point}), points))
    ran = [answer["result"] for answer in answers if "result" in answer]
    skipped = [answer["error"] for answer in answers if "error" in answer]
    assert ran and skipped, f"{len(ran)} ran, {len(skipped)} skipped"
    assert all(error["code"] == -32000 and error["data"] == {"skipped": True} for error in skipped)
    # Exactly the moves that ran are in the trace: a skipped one called no rule.
    steps = [step for step in server.rpc("trace")["result"] if step["action"]["kind"] == "at"]
    assert sorted(step["pointer"] for step in steps) == sorted(step["pointer"] for step in ran)
    assert server.rpc("cancel")["result"]["outcome"] == "cancelled"


@pytest.mark.parametrize("headers,status", [
    ({"Host": "example.com"}, 403),
    ({"Origin": "http://evil.example"}, 403),
    ({"Content-Type": "text/plain"}, 415),
])
def test_requests_from_other_sites_are_refused(playground, headers, status):
    server = playground()
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.rpc("board", headers=headers)
    assert refused.value.code == status
    assert "result" in server.rpc("board")


def drop_target(scenario):
    """Where `droprules run` has the scenario's drag end: the target under the pointer at
    its last step on the board, else the first target that does not hold the item."""
    result = droprules("run", scenario, "--format", "json")
    steps = json.loads(result.stdout)["scenarios"][0]["steps"]
    entered = [step["target"] for step in steps if step["target"]]
    return entered[-1] if entered else None


@pytest.mark.parametrize("scenario", BUNDLED_SCENARIOS)
def test_every_bundled_scenario_plays(open_page, scenario):
    """The page draws every target and item of a bundled scenario, a mouse drag of its
    first dragged item toward where the scenario drops ends in an outcome, and the page
    then shows exactly the board the server holds."""
    spec = json.loads((ROOT / scenario).read_text())
    server = Playground(ROOT / scenario, ROOT)
    try:
        watched = open_playground(open_page, server)
        page = watched.page
        targets = page.locator(".target[data-target-id]").evaluate_all("nodes => nodes.map(n => n.dataset.targetId)")
        assert sorted(targets) == sorted(target["id"] for target in spec["board"]["targets"])
        for target in spec["board"]["targets"]:
            expected = [item["id"] if isinstance(item, dict) else item for item in target.get("items", [])]
            assert items_in(page, target["id"]) == expected
        item = next((entry for entry in spec["drag"]["items"] if isinstance(entry, str)), None)
        if item is not None:
            holder = next(t["id"] for t in spec["board"]["targets"] if item in [i["id"] for i in t.get("items", [])])
            target = drop_target(scenario) or next(t["id"] for t in spec["board"]["targets"] if t["id"] != holder)
            if target == holder:
                # Onto another row of the item's own list: its centre may be the item itself.
                other = next(i["id"] for t in spec["board"]["targets"] if t["id"] == holder
                             for i in t["items"] if i["id"] != item)
                page.locator(f'.item[data-item-id="{item}"]').drag_to(
                    page.locator(f'.item[data-item-id="{other}"]'), steps=8)
                page.wait_for_function("() => !window.droprulesPlay.state().active")
                page.wait_for_timeout(200)
            else:
                drag(page, item, target)
            assert re.search(r"outcome (performed|cancelled|failed|refused)", page.locator("#trace").inner_text())
            board = server.rpc("board")["result"]["targets"]
            for target_id, items in board.items():
                assert items_in(page, target_id) == items, target_id
        watched.assert_clean()
    finally:
        server.stop()
