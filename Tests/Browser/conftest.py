"""Browser tests of droprules' pages: headless Chromium (Debian's) driven by Playwright.

Every page is opened with all network access blocked except the droprules server under
test on 127.0.0.1, and every console error or uncaught exception fails the test.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("DROPRULES_BIN", ROOT / ".build" / "debug" / "droprules"))
# A Chromium or Chrome: $CHROMIUM, else the first of the usual names on PATH, else the
# macOS application bundles. Playwright's own download is never used.
MACOS_BROWSERS = [
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
]


def find_chromium():
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    for path in MACOS_BROWSERS:
        if os.path.exists(path):
            return path
    raise RuntimeError("no Chromium or Chrome found: install one, put it on PATH, or set CHROMIUM to its path")


CHROMIUM = find_chromium()
BUNDLED_SCENARIOS = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("rules/*/*.scenario.json"))
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"


def droprules(*arguments, cwd=ROOT, check=True):
    """Runs the built droprules binary and returns the completed process."""
    result = subprocess.run([str(BINARY), *arguments], cwd=cwd, capture_output=True, text=True, timeout=120)
    if check and result.returncode not in (0, 1):
        raise AssertionError(f"droprules {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result


def page_data(html):
    """The JSON the replay page embeds, read back the way the page reads it."""
    match = re.search(r'<script type="application/json" id="droprules-data">(.*?)</script>', html, re.S)
    assert match, "no data element"
    return json.loads(match.group(1))


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


class Watched:
    """A page whose console errors, page errors and network attempts are recorded."""

    def __init__(self, page):
        self.page = page
        self.errors = []
        self.blocked = []

    def assert_clean(self):
        assert self.errors == [], f"console errors: {self.errors}"
        assert self.blocked == [], f"network requests: {self.blocked}"


@pytest.fixture
def open_page(browser):
    """Opens pages in a fresh context where only file:// and the given local origin load."""
    contexts = []

    def opener(url, allowed_origin=None, width=1400, height=900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        watched = Watched(page)

        def route(route):
            url = route.request.url
            if url.startswith("file://") or url.startswith("data:") or (allowed_origin and url.startswith(allowed_origin)):
                route.continue_()
            else:
                watched.blocked.append(url)
                route.abort()

        context.route("**/*", route)
        page.on("console", lambda message: watched.errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: watched.errors.append(str(error)))
        page.goto(url)
        return watched

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture
def playground(week):
    """Starts `droprules play` servers, on `week` (each test module's own board) unless a
    scenario is given, and stops them after the test."""
    from test_play import Playground

    servers = []

    def start(scenario=week):
        server = Playground(scenario, scenario.parent)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
