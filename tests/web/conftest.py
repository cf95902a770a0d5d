"""Fixtures for the browser tests: a real `tussle serve` on port 0 and a real headless Chromium
(Debian's /usr/bin/chromium, driven by Playwright; never a browser Playwright downloads).

Every page a test opens records its console errors, uncaught exceptions and request URLs, so a test
can assert on what a user (and a proxy between them and the server) would see.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.serving import ServeProcess

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 20_000  # generous bounds: they only decide how long a broken page takes to fail


# One browser per module, not per session: Playwright's sync API keeps its event loop running in this
# thread while it is open, and the async tests of other modules need the thread's loop free.
@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    playwright_sync = pytest.importorskip("playwright.sync_api")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@dataclass
class Api:
    """A small synchronous HTTP client for setting a fight up around the pages."""

    base: str

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        accept: str = "application/json",
    ) -> tuple[int, Any]:
        headers = {"Accept": accept}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        if accept != "application/json":
            return status, raw
        return status, json.loads(raw) if raw else None

    def ok(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        status, out = self.call(method, path, body, token)
        assert status in (200, 201), (method, path, status, out)
        return out

    def command(self, enc: dict[str, Any], type: str, token: str | None = None, **fields: Any) -> Any:
        return self.ok(
            "POST", f"/encounters/{enc['id']}/commands", {"type": type, **fields}, token or enc["gm_token"]
        )

    def tft_movement(
        self, create: dict[str, Any], figures: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], str]:
        """A TFT encounter with these figures, a seat "Alice" for the first, in turn 1's movement phase:
        the encounter and the seat's token."""
        enc = self.ok("POST", "/encounters", {"ruleset": "tft", **create})
        for fig in figures:
            self.command(enc, "add_combatant", combatant=fig)
        seat = self.ok(
            "POST",
            f"/encounters/{enc['id']}/seats",
            {"name": "Alice", "combatants": [figures[0]["id"]]},
            enc["gm_token"],
        )
        self.command(enc, "start_turn", turn=1)
        self.command(enc, "start_phase", phase="movement")
        return enc, seat["token"]


@pytest.fixture
def served(tmp_path) -> Iterator[ServeProcess]:
    srv = ServeProcess("--db", str(tmp_path / "tussle.db"))
    assert srv.port is not None, srv.stderr
    yield srv
    srv.stop()


@pytest.fixture
def api(served: ServeProcess) -> Api:
    return Api(served.url)


@dataclass
class Watched:
    """A page and what it did: console errors, uncaught errors, every request URL."""

    page: Any
    errors: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    def script_errors(self, allow_status: tuple[int, ...] = ()) -> list[str]:
        """Console errors and exceptions, less the network lines for statuses the test caused on purpose."""
        allowed = tuple(f"status of {s}" for s in allow_status)
        return [
            e
            for e in self.errors
            if not (allowed and "Failed to load resource" in e and any(a in e for a in allowed))
        ]


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """open_page(url) -> Watched: a fresh browser context (own storage) per call."""
    contexts = []

    def _open(url: str, width: int = 1280, height: int = 900, context: Any = None) -> Watched:
        if context is None:
            context = browser.new_context(viewport={"width": width, "height": height})
            contexts.append(context)
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        w = Watched(page)
        page.on("console", lambda m: w.errors.append(f"console: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda exc: w.errors.append(f"exception: {exc}"))
        page.on("request", lambda r: w.urls.append(r.url))
        page.goto(url)
        return w

    yield _open
    for c in contexts:
        c.close()


def screenshots_dir() -> str | None:
    """With TUSSLE_SCREENSHOTS=1 the tests save their screenshots under docs/ (for the README)."""
    if os.environ.get("TUSSLE_SCREENSHOTS"):
        return os.path.join(os.path.dirname(__file__), "..", "..", "docs")
    return None


AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands, every <details> opened (the generated forms too)."""
    for d in page.locator("details").all():
        d.evaluate("d => { d.open = true; }")
    page.evaluate(AXE.read_text())  # through the devtools protocol: the page's CSP allows no injected script
    return json.loads(
        page.evaluate(
            "async () => JSON.stringify((await axe.run(document)).violations.map(v => "
            "({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.html)})))"
        )
    )
