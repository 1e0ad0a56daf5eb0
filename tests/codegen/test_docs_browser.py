"""The reference site in a real browser: Debian's headless Chromium, driven over the Chrome
DevTools protocol (PyPI ``websocket-client``), against generated/docs/ served on localhost.

It types into the search box like a person (key events), clicks the first result with the
mouse, checks that the instruction's section is the one shown, that nothing was logged as
an error and no request failed, and saves screenshots (paths printed) under
build/screenshots/.  Chromium comes from ``tests/browser/ensure_chromium.sh``.
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import os
import signal
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "generated" / "docs"
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",  # the port chosen is written to DevToolsActivePort
    "--window-size=1280,900",
    "--hide-scrollbars",
]
TIMEOUT = 30.0

pytestmark = [pytest.mark.slow, pytest.mark.browser]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """generated/docs/ over HTTP on 127.0.0.1, a random port, in a thread."""
    if not (DOCS / "index.html").is_file():
        pytest.fail("generated/docs/index.html missing: run `python -m codegen`")
    handler = functools.partial(_QuietHandler, directory=str(DOCS))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, name="docs-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


class Browser:
    """One headless Chromium and a DevTools session on its first tab."""

    def __init__(self, profile: Path) -> None:
        try:
            import websocket
        except ImportError:
            pytest.fail(
                "websocket-client missing: pip install websocket-client (in the dev extras)"
            )
        self.profile = profile
        self.log = profile.parent / "chromium.log"
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as one below
            )
        try:
            port = self._devtools_port()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                targets = json.load(r)
            page = next(t for t in targets if t.get("type") == "page")
            self.ws = websocket.create_connection(
                page["webSocketDebuggerUrl"], timeout=TIMEOUT, suppress_origin=True
            )
        except BaseException:
            self.close()
            raise
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.timeout_error: type[Exception] = websocket.WebSocketTimeoutException

    def _devtools_port(self) -> int:
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"chromium exited {self.proc.returncode}: {self.log_tail()}")
            if marker.is_file():
                lines = marker.read_text().split()
                if lines:
                    return int(lines[0])
            time.sleep(0.05)
        pytest.fail(f"chromium wrote no DevToolsActivePort in {TIMEOUT}s: {self.log_tail()}")

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Call a DevTools method and return its result; events are kept in self.events."""
        self.next_id += 1
        call_id = self.next_id
        self.ws.send(json.dumps({"id": call_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == call_id:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self.events.append(message)

    def wait_event(self, method: str, since: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first event ``method`` at or after index ``since`` of self.events."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events[since:]:
                if event.get("method") == method:
                    return event
            if time.monotonic() > deadline:
                raise AssertionError(f"no {method} within {timeout}s")
            self.ws.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                self.events.append(json.loads(self.ws.recv()))
            except self.timeout_error:
                pass  # loop and check the deadline
            finally:
                self.ws.settimeout(TIMEOUT)

    def js(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, what: str, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what} ({expression})")
            time.sleep(0.05)

    def navigate(self, url: str) -> None:
        since = len(self.events)
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", since)

    def type_text(self, text: str) -> None:
        """Key events one character at a time, as a keyboard would send them."""
        for char in text:
            self.send(
                "Input.dispatchKeyEvent", type="keyDown", text=char, key=char, unmodifiedText=char
            )
            self.send("Input.dispatchKeyEvent", type="keyUp", key=char)

    def click(self, selector: str) -> None:
        """A left click with the mouse in the middle of the element."""
        box = self.js(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        x, y = box
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        self.send(
            "Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1
        )
        self.send(
            "Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1
        )

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", format="png")["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions, failed requests and HTTP errors so far."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
            elif method == "Network.loadingFailed":
                found.append(f"request failed: {params.get('errorText')}")
            elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
                found.append(f"HTTP {params['response']['status']}: {params['response']['url']}")
        return found

    def close(self) -> None:
        ws = getattr(self, "ws", None)
        if ws is not None:
            try:
                ws.close()
            except Exception:
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)  # the group started above, by its id
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} missing: run tests/browser/ensure_chromium.sh (make test does)")
    tab = Browser(tmp_path_factory.mktemp("chromium") / "profile")
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            tab.send(f"{domain}.enable")
        yield tab
    finally:
        tab.close()


def _show(capsys: pytest.CaptureFixture[str]) -> Callable[[str], None]:
    def show(line: str) -> None:
        with capsys.disabled():
            print(f"\n{line}", flush=True)

    return show


def test_search_box_finds_an_instruction_and_opens_its_section(
    server: str, browser: Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    show = _show(capsys)
    browser.navigate(f"{server}/index.html")
    assert browser.js("document.title").startswith("spvbuild SPIR-V reference")

    browser.click("#search-input")
    assert browser.js("document.activeElement.id") == "search-input"
    browser.type_text("OpIAdd")
    assert browser.js("document.getElementById('search-input').value") == "OpIAdd"
    first = browser.wait_for(
        "(() => { const l = document.getElementById('search-results');"
        " const a = l.querySelector('a'); return !l.hidden && a &&"
        " [a.querySelector('.r-name').textContent, a.getAttribute('href')]; })()",
        "search results",
    )
    assert first == ["OpIAdd", "core/arithmetic.html#OpIAdd"], first
    assert "result" in browser.js("document.getElementById('search-status').textContent")
    results = browser.screenshot(SCREENSHOTS / "docs_search_results.png")
    show(f"screenshot (search results): {results}")

    since = len(browser.events)
    browser.click("#search-results li:first-child a")
    browser.wait_event("Page.loadEventFired", since)
    browser.wait_for("document.readyState === 'complete'", "the page to load")
    assert browser.js("location.pathname + location.hash") == "/core/arithmetic.html#OpIAdd"
    shown = browser.wait_for(
        "(() => { const s = document.getElementById('OpIAdd'); const r = s.getBoundingClientRect();"
        " return s.matches(':target') && r.top >= 0 && r.top < innerHeight / 2 &&"
        " {top: r.top, height: innerHeight, heading: s.querySelector('h2').textContent,"
        "  signature: s.querySelector('pre.sig').textContent,"
        "  highlighted: getComputedStyle(s).backgroundColor}; })()",
        "the OpIAdd section at the top of the viewport",
    )
    assert shown["heading"].startswith("OpIAdd"), shown
    assert shown["signature"].startswith("builder.i_add(result_type: TypeId, "), shown
    assert shown["highlighted"] not in ("rgba(0, 0, 0, 0)", "transparent"), shown
    assert browser.js("document.getElementById('search-results').hidden") is True
    path = browser.screenshot(SCREENSHOTS / "docs_search.png")
    show(f"screenshot (instruction page): {path}")
    assert path.stat().st_size > 10_000

    problems = browser.problems()
    assert not problems, problems


def test_search_by_method_name_and_ext_set_method(server: str, browser: Browser) -> None:
    browser.navigate(f"{server}/enums/Decoration.html")
    for query, expected in [
        ("i_add", "../core/arithmetic.html#OpIAdd"),
        ("glsl.f_abs", "../extinst/glsl.html#FAbs"),
        ("Decoration.BuiltIn", "../enums/Decoration.html#Decoration-BuiltIn"),
        ("SPV_INTEL_function_pointers", "../extensions/SPV_INTEL_function_pointers.html"),
    ]:
        browser.js(
            "(() => { const i = document.getElementById('search-input'); i.value = ''; i.focus(); })()"
        )
        browser.type_text(query)
        href = browser.wait_for(
            "(() => { const a = document.querySelector('#search-results a');"
            f" return document.getElementById('search-input').value === {json.dumps(query)}"
            " && a && a.getAttribute('href'); })()",
            f"results for {query}",
        )
        assert href == expected, (query, href)
    # Enter opens the first result.
    since = len(browser.events)
    browser.send(
        "Input.dispatchKeyEvent",
        type="keyDown",
        key="Enter",
        code="Enter",
        windowsVirtualKeyCode=13,
        text="\r",
    )
    browser.send(
        "Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13
    )
    browser.wait_event("Page.loadEventFired", since)
    assert (
        browser.wait_for("location.pathname", "navigation")
        == "/extensions/SPV_INTEL_function_pointers.html"
    )
    problems = browser.problems()
    assert not problems, problems
