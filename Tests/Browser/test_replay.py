"""The replay page of `droprules run --format html`, in a browser."""
import json

import pytest

from conftest import BUNDLED_SCENARIOS, FIXTURES, droprules, page_data


def write_replay(tmp_path, *scenarios, name="replay.html"):
    result = droprules("run", *scenarios, "--format", "html")
    path = tmp_path / name
    path.write_text(result.stdout)
    return path, page_data(result.stdout)


def moments(steps):
    """What the page should show at each step, carried over as the page documents it."""
    state = {"pointer": None, "target": None, "proposal": None}
    shown = []
    for step in steps:
        if step["pointer"] is not None:
            state["pointer"] = step["pointer"]
        elif step["action"]["kind"] == "outside":
            state["pointer"] = None
        if step["proposal"] is not None:
            state["target"], state["proposal"] = step["target"], step["proposal"]
        shown.append(dict(state))
    return shown


@pytest.mark.parametrize("scenario", BUNDLED_SCENARIOS)
def test_every_step_of_a_bundled_scenario_renders(open_page, tmp_path, scenario):
    path, data = write_replay(tmp_path, scenario)
    watched = open_page(path.as_uri())
    page = watched.page
    steps = data["scenarios"][0]["trace"]["steps"]
    section = page.locator("#scenario-1")
    slider = section.locator("input[type=range]")
    assert slider.get_attribute("max") == str(len(steps) - 1)
    for position, (step, moment) in enumerate(zip(steps, moments(steps))):
        slider.fill(str(position))
        last = position == len(steps) - 1
        assert section.locator(".step-count").inner_text() == f"step {step['number']} of {steps[-1]['number']}"
        assert section.locator(".step-list li.current .number").inner_text() == str(step["number"])
        details = section.locator(".side")
        assert details.locator("h3", has_text=f"Step {step['number']}").count() == 1
        calls = details.locator("table.calls td.handler")
        assert calls.all_inner_texts() == [call["handler"] for call in step["calls"]]
        if step["proposal"] is not None:
            assert details.locator(f".facts .badge.p-{step['proposal']}").count() == 1
        # The board: the target entered is highlighted in the proposal's colour, the
        # pointer drawn where the trace says.
        if moment["target"] is not None:
            highlighted = section.locator(".target.highlight")
            assert highlighted.count() == 1
            assert highlighted.get_attribute("data-target-id") == moment["target"]
            assert f"p-{moment['proposal']}" in highlighted.get_attribute("class")
        else:
            assert section.locator(".target.highlight").count() == 0
        assert section.locator("circle.pointer").count() == (1 if moment["pointer"] is not None else 0)
        # What the step says to a screen reader, and the preview on the begin step.
        facts = dict(zip(details.locator(".facts dt").all_inner_texts(), details.locator(".facts dd").all_inner_texts()))
        assert facts.get("says") == step.get("announcement")
        if step.get("preview"):
            assert facts.get("preview", "").startswith(step["preview"]["title"])
        if step.get("springLoaded"):
            assert step["springLoaded"][0] in facts.get("opened", "")
        if step["errors"]:
            assert details.locator(".diagnostic").count() == len(step["errors"])
        # Targets the hit test passed over are dashed on the board and named with why.
        skipped = section.locator(".target.skipped").evaluate_all("nodes => nodes.map(node => node.dataset.targetId)")
        assert sorted(skipped) == sorted(entry["target"] for entry in step["skipped"])
        for entry in step["skipped"]:
            assert f"{entry['target']}: {entry['detail']}" in details.locator(".facts").inner_text()
        if last:
            assert details.locator("h3", has_text="Board after the drop").count() == 1
            board = data["scenarios"][0]["after"]
            for target in board["targets"]:
                shown = section.locator(f'.target[data-target-id="{target["id"]}"] .item[data-item-id]')
                ids = shown.evaluate_all("nodes => nodes.map(node => node.dataset.itemId)")
                assert ids == target["items"][: len(ids)]
    watched.assert_clean()


def test_several_scenarios_get_one_section_each_and_play_runs_the_steps(open_page, tmp_path):
    path, data = write_replay(tmp_path, *BUNDLED_SCENARIOS[:3])
    watched = open_page(path.as_uri())
    page = watched.page
    assert page.locator("section.scenario").count() == 3
    assert page.locator("#scenario-index a").count() == 3
    section = page.locator("#scenario-2")
    steps = data["scenarios"][1]["trace"]["steps"]
    section.locator("button.play").click()
    last = f"step {steps[-1]['number']} of {steps[-1]['number']}"
    page.wait_for_function(
        "([selector, text]) => document.querySelector(selector).textContent === text",
        arg=["#scenario-2 .step-count", last], timeout=(len(steps) + 3) * 1500)
    assert section.locator("button.play").inner_text() == "▶ play"
    watched.assert_clean()


def test_hostile_prints_ids_and_names_stay_text(open_page, tmp_path):
    path, data = write_replay(tmp_path, str(FIXTURES / "hostile" / "hostile.scenario.json"))
    watched = open_page(path.as_uri())
    page = watched.page
    section = page.locator("#scenario-1")
    for position in range(len(data["scenarios"][0]["trace"]["steps"])):
        section.locator("input[type=range]").fill(str(position))
        assert page.title() == "droprules replay"
        assert page.locator("img, b, main script").count() == 0
    steps = data["scenarios"][0]["trace"]["steps"]
    raised = next(position for position, step in enumerate(steps) if step["errors"])
    section.locator("input[type=range]").fill(str(raised))
    assert section.locator(".step-list li.current.has-error .error-mark").count() == 1
    printed = section.locator("table.calls tr.printed td").all_inner_texts()
    assert "</script><script>document.title = 'pwned by print'</script>" in printed
    assert section.locator(".diagnostic").inner_text().count("<img src=x onerror=") == 1
    assert page.locator("h2").inner_text() == "</script><script>document.title = 'pwned by name'</script>"
    hostile_id = "<img src=x onerror=\"document.title='pwned by id'\">"
    assert page.evaluate(
        "id => [...document.querySelectorAll('.target')].some(node => node.dataset.targetId === id)", hostile_id)
    watched.assert_clean()


def board_scenario(tmp_path, width, columns):
    """A scenario whose board is `width` px wide: `columns` days in a row, one item each."""
    rules = (FIXTURES.parent.parent.parent / "rules" / "calendar" / "calendar.lua").read_text()
    (tmp_path / "calendar.lua").write_text(rules)
    day = width / columns
    targets = [
        {"id": f"day-{n}", "type": "calendar.day", "frame": [n * day, 0, day, day],
         "items": [{"id": f"event-{n}", "name": f"Event {n}",
                    "representations": [["com.example.schedule-item", "{}"]]}]}
        for n in range(columns)]
    scenario = {
        "name": f"a board {width} px wide", "rules": ["calendar.lua"], "board": {"targets": targets},
        "drag": {"items": ["event-0"]},
        "steps": [{"over": f"day-{columns // 2}"}, {"over": f"day-{columns - 1}"}, "drop"],
    }
    path = tmp_path / f"wide-{width}.scenario.json"
    path.write_text(json.dumps(scenario))
    return str(path)


@pytest.mark.parametrize("width,columns", [(200, 2), (20000, 200)])
def test_boards_from_200_to_20000_px_fit_the_viewport_with_readable_labels(open_page, tmp_path, width, columns):
    path, _ = write_replay(tmp_path, board_scenario(tmp_path, width, columns))
    watched = open_page(path.as_uri(), width=1280, height=800)
    page = watched.page
    viewport = page.locator(".board-viewport")
    board = page.locator(".board")
    box = viewport.bounding_box()
    assert box["width"] <= 1280
    day = page.locator('.target[data-target-id="day-0"]')
    if width == 200:
        # A small board is fitted and drawn larger than life.
        assert board.bounding_box()["width"] <= box["width"] + 1
        assert day.bounding_box()["width"] > 100
    else:
        # A huge board opens at a scale where labels have room, and scrolls to the pointer.
        assert day.bounding_box()["width"] >= 96
        assert page.locator('.target[data-target-id="day-0"] .target-label').is_visible()
        page.locator("input[type=range]").fill("1")
        pointer = page.locator("circle.pointer").bounding_box()
        assert box["x"] <= pointer["x"] <= box["x"] + box["width"]
        # "fit" shows the whole board in the viewport's width.
        page.locator("button[title='fit the board']").click()
        assert board.bounding_box()["width"] <= box["width"] + 1
    size = page.locator(".target-label").first.evaluate("node => parseFloat(getComputedStyle(node).fontSize)")
    assert size >= 11
    page.locator("input[type=range]").fill("1")
    assert page.locator(".target.highlight").get_attribute("data-target-id") == f"day-{columns - 1}"
    watched.assert_clean()


def test_64_bit_integers_are_shown_exactly(open_page, tmp_path):
    path, _ = write_replay(tmp_path, str(FIXTURES / "bigint" / "bigint.scenario.json"))
    page = open_page(path.as_uri()).page
    section = page.locator("#scenario-1")
    slider = section.locator("input[type=range]")
    slider.fill(slider.get_attribute("max"))
    text = section.inner_text()
    for exact in ["9223372036854775807", "-9223372036854775808", "9007199254740993", "9223372036854775806"]:
        assert exact in text, f"{exact} not shown exactly"
    assert "9223372036854776000" not in text
