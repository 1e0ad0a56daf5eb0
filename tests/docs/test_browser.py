"""The documentation site in a real browser: Debian's headless Chromium, driven over the
Chrome DevTools protocol (PyPI ``websocket-client``), against the site Sphinx built
(``site``, tests/docs/conftest.py) served on localhost.

A page of each kind: an API page (a record's fields, a cross-reference followed with the
mouse), an instruction page, an enum page, an extension page, and the search, typed into
the sidebar's box like a person (key events) and its first result clicked.  Each checks
that nothing was logged as an error and no request failed, and saves screenshots (paths
printed) under build/screenshots/.  Chromium comes from ``tests/browser/ensure_chromium.sh``.
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

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.source_tree]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1, a random port, in a thread."""
    handler = functools.partial(_QuietHandler, directory=str(site))
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
            " e.scrollIntoView({block: 'center', behavior: 'instant'}); const r = e.getBoundingClientRect();"
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


def _shown(browser: Browser, anchor: str) -> dict[str, Any]:
    """The element ``anchor`` once it is the page's target, scrolled into the viewport."""
    found: dict[str, Any] = browser.wait_for(
        f"(() => {{ const s = document.getElementById({json.dumps(anchor)});"
        " if (!s) return false; const r = s.getBoundingClientRect();"
        " return s.matches(':target') && r.top > -2 && r.bottom <= innerHeight &&"
        " {tag: s.tagName, text: s.textContent}; })()",
        f"#{anchor} in the viewport",
    )
    return found


def test_api_page_shows_a_record_with_its_fields_and_links(
    server: str, browser: Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    show = _show(capsys)
    record = "spvbuild.reflection.records.DescriptorBinding"
    browser.navigate(f"{server}/api/reflection.html#{record}")
    shown = _shown(browser, record)
    assert shown["tag"] == "DT" and "DescriptorBinding" in shown["text"], shown
    fields = browser.js(
        f"[...document.getElementById({json.dumps(record)}).nextElementSibling"
        ".querySelectorAll('dl.py.attribute > dt')].map(d => d.id.split('.').pop())"
    )
    assert fields[:4] == ["variable_id", "name", "set", "binding"], fields
    assert "block" in fields and "storage_class" in fields, fields
    assert browser.js("document.querySelectorAll('pre').length === 0 ||"
                      " ![...document.querySelectorAll('pre')].some(p => p.textContent.includes(':class:`'))")
    # The sidebar lists every API page and the reference.
    nav = browser.js(
        "[...document.querySelectorAll('.sphinxsidebar a.reference.internal')]"
        ".map(a => a.getAttribute('href'))"
    )
    assert {"module.html", "control-flow.html", "reader.html", "errors.html"} <= set(nav), nav
    assert "../reference/index.html" in nav, nav
    show(f"screenshot (API page): {browser.screenshot(SCREENSHOTS / 'docs_api.png')}")

    # A cross-reference of a docstring (:class:`~spvbuild.errors.BinaryError`), clicked.
    browser.navigate(f"{server}/api/reader.html")
    selector = 'a.reference.internal[href="errors.html#spvbuild.errors.BinaryError"]'
    since = len(browser.events)
    browser.click(selector)
    browser.wait_event("Page.loadEventFired", since)
    browser.wait_for("document.readyState === 'complete'", "the page to load")
    assert browser.js("location.pathname + location.hash") == (
        "/api/errors.html#spvbuild.errors.BinaryError"
    )
    _shown(browser, "spvbuild.errors.BinaryError")
    problems = browser.problems()
    assert not problems, problems


def test_instruction_enum_and_extension_pages(
    server: str, browser: Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    show = _show(capsys)
    browser.navigate(f"{server}/reference/core/arithmetic.html#opiadd")
    shown = _shown(browser, "opiadd")
    assert shown["text"].strip().startswith("OpIAdd"), shown
    signature = browser.js(
        "document.getElementById('opiadd').querySelector('div.highlight pre').textContent"
    )
    assert signature.startswith("builder.i_add(result_type: TypeId, "), signature
    show(f"screenshot (instruction): {browser.screenshot(SCREENSHOTS / 'docs_instruction.png')}")

    browser.navigate(f"{server}/reference/enums/Decoration.html#decoration-builtin")
    row = browser.wait_for(
        "(() => { const e = document.getElementById('decoration-builtin');"
        " return e && [...e.closest('tr').cells].map(c => c.textContent.trim()); })()",
        "the Decoration.BuiltIn row",
    )
    assert row[:3] == ["Decoration.BuiltIn", "11", "0xb"], row
    assert "DecorationBuiltIn(built_in: BuiltIn)" in row[3], row
    show(f"screenshot (enum): {browser.screenshot(SCREENSHOTS / 'docs_enum.png')}")

    browser.navigate(f"{server}/reference/extensions/SPV_INTEL_function_pointers.html")
    assert browser.js("document.title").startswith("SPV_INTEL_function_pointers")
    for rule in ("rule-fp-constant-result-type", "rule-fp-call-types"):
        assert browser.js(f"!!document.getElementById({json.dumps(rule)})"), rule
    # The enumerant it adds links to its row on the enum page.
    since = len(browser.events)
    browser.click('a.reference.internal[href$="Decoration.html#decoration-argumentattributeintel"]')
    browser.wait_event("Page.loadEventFired", since)
    _shown(browser, "decoration-argumentattributeintel")
    show(f"screenshot (extension link): {browser.screenshot(SCREENSHOTS / 'docs_extension.png')}")
    problems = browser.problems()
    assert not problems, problems


def test_search_finds_an_instruction_and_an_api_record(
    server: str, browser: Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    show = _show(capsys)
    for query, expected in [
        ("OpIAdd", "reference/core/arithmetic.html#opiadd"),
        ("DescriptorBinding", "api/reflection.html#spvbuild.reflection.records.DescriptorBinding"),
    ]:
        browser.navigate(f"{server}/index.html")
        browser.click(".sphinxsidebar input[name=q]")
        browser.type_text(query)
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
            "Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter",
            windowsVirtualKeyCode=13,
        )  # fmt: skip
        browser.wait_event("Page.loadEventFired", since)
        # Sphinx shows the results one at a time (a timer each) and writes its summary,
        # "Search finished, found N pages...", after the last: wait for the summary, or
        # the first results alone may be read.
        hrefs = browser.wait_for(
            "(() => { const done = document.querySelector('#search-results p.search-summary');"
            " if (!done || !done.innerText) return false;"
            " const a = [...document.querySelectorAll('#search-results ul.search li a')];"
            " return a.length > 0 && a.map(e => e.getAttribute('href')); })()",
            f"search results for {query}",
            timeout=30.0,
        )
        # The page that holds the name may come first (its text has the name as a title
        # term), the section or object itself with it.
        assert expected in hrefs[:3], (query, hrefs[:5])
        path = browser.screenshot(SCREENSHOTS / f"docs_search_{query}.png")
        show(f"screenshot (search {query}): {path}")
        since = len(browser.events)
        browser.click(f"#search-results ul.search li:nth-child({hrefs.index(expected) + 1}) a")
        browser.wait_event("Page.loadEventFired", since)
        browser.wait_for("document.readyState === 'complete'", "the page to load")
        assert browser.js("location.pathname.slice(1) + location.hash") == expected
    problems = browser.problems()
    assert not problems, problems
