"""Regenerates docs/playground.md's screenshots of the replay page and the playground.

    swift build && python3 docs/images/screenshots.py

Needs Debian's chromium and Playwright for Python (`pip install playwright`), as the
browser tests do. Writes docs/images/replay.png and docs/images/playground.png.
"""
import pathlib
import re
import subprocess
import tempfile

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "droprules"
IMAGES = ROOT / "docs" / "images"
VIEWPORT = {"width": 1280, "height": 760}


def replay(browser):
    """The files scenario at its second step: plan.md over the read-only folder."""
    html = subprocess.run(
        [str(BINARY), "run", "rules/files/plan-to-usb-stick.scenario.json", "--format", "html"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    with tempfile.TemporaryDirectory() as folder:
        page_file = pathlib.Path(folder) / "replay.html"
        page_file.write_text(html)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(page_file.as_uri())
        page.locator("#scenario-1 input[type=range]").fill("2")
        page.evaluate("() => document.activeElement.blur()")
        page.screenshot(path=IMAGES / "replay.png")
        page.close()


def playground(browser):
    """The kanban board mid-drag: spike carried over Done (forbidden), then to Todo's top."""
    server = subprocess.Popen(
        [str(BINARY), "play", "rules/kanban/spike-through-the-workflow.scenario.json", "--port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", server.stdout.readline()).group(1)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        card = page.locator('.item[data-item-id="spike"]').bounding_box()
        done = page.locator('.target[data-target-id="done"]').bounding_box()
        todo = page.locator('.target[data-target-id="todo"]').bounding_box()
        settled = "() => { const s = window.droprulesPlay.state(); return s.answered && !s.inflight && !s.pending; }"
        page.mouse.move(card["x"] + 20, card["y"] + 10)
        page.mouse.down()
        page.mouse.move(done["x"] + done["width"] / 2, done["y"] + 90, steps=8)
        page.wait_for_function(settled)
        page.mouse.move(todo["x"] + todo["width"] / 2, todo["y"] + 24, steps=8)
        page.wait_for_function(settled)
        page.screenshot(path=IMAGES / "playground.png")
        page.mouse.up()
        page.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def main():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        replay(browser)
        playground(browser)
        browser.close()


if __name__ == "__main__":
    main()
