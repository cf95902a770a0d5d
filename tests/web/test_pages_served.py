"""The pages as files: served with a strict CSP and cache headers, no inline script, shipped in the wheel."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from html.parser import HTMLParser
from pathlib import Path

from server.http.web import STATIC_DIR

ROOT = Path(__file__).resolve().parents[2]


def csp_directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


async def test_pages_and_assets_carry_a_strict_csp_and_cache_headers(tussle):
    enc = await tussle.create()
    for path, cache in [
        ("/", "no-cache"),
        (f"{enc.path}/view", "no-cache"),
        ("/static/js/view.js", "max-age"),
        ("/static/css/tussle.css", "max-age"),
        ("/static/vendor/noble-hashes/sha2.js", "max-age"),
    ]:
        r = await tussle.session.get(tussle.base_url + path)
        assert r.status == 200, path
        csp = csp_directives(r.headers["Content-Security-Policy"])
        assert csp["default-src"] == ["'none'"] and csp["script-src"] == ["'self'"], path
        assert csp["connect-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
        every = " ".join(v for values in csp.values() for v in values)
        assert "unsafe" not in every and "http" not in every and "*" not in every
        assert cache in r.headers["Cache-Control"], path
        assert r.headers.get("ETag") and r.headers["X-Content-Type-Options"] == "nosniff"
    r = await tussle.session.get(tussle.base_url + "/static/js/verify.js")
    assert r.headers["Content-Type"].startswith("text/javascript")  # module scripts need a JavaScript type


async def test_nothing_outside_the_static_folder_is_served(tussle):
    for path in [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
        "/static/js/nothing.js",
        "/static/js",
        "/static/js/%00.js",
        "/static/" + "a" * 5000,
    ]:
        r = await tussle.session.get(tussle.base_url + path)
        assert r.status in ((400, 404) if "%00" in path else (404,)), path  # a NUL in any text is a 400
        assert (await r.json())["error"]["code"] in ("not_found", "bad_request")


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for name in names:
            if name.startswith("on") or name == "style":
                self.problems.append(f"<{tag} {name}=…>: inline code or style, which the CSP refuses")
        if tag == "script":
            if "src" not in names:
                self.problems.append("an inline <script>")
            else:
                self.scripts.append(names["src"])
            self._in_script = True
        for name in ("src", "href"):
            if re.match(r"^(https?:)?//", names.get(name) or ""):
                self.problems.append(f"<{tag} {name}={names[name]}>: a remote origin")

    def handle_endtag(self, tag):
        self._in_script = False


def test_the_pages_hold_no_inline_script_style_or_remote_origin():
    for page in ["index.html", "view.html"]:
        scan = _Scan()
        scan.feed((STATIC_DIR / page).read_text())
        assert scan.problems == [], page
        assert scan.scripts and all(s.startswith("/static/") for s in scan.scripts)
    for js in STATIC_DIR.rglob("*.js"):
        text = js.read_text()
        assert not re.search(r"""(from|import\()\s*["'](https?:)?//""", text), js  # no module from elsewhere
        assert "innerHTML" not in text and "eval(" not in text, js


def test_a_built_wheel_contains_the_pages(tmp_path):
    # What the Dockerfile's `pip install .` installs: the wheel must carry every static file.
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    wheel = next(tmp_path.glob("tussle-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {
        f"server/{p.relative_to(STATIC_DIR.parent).as_posix()}" for p in STATIC_DIR.rglob("*") if p.is_file()
    }
    assert wanted and wanted <= names, sorted(wanted - names)
    assert "server/static/vendor/noble-hashes/LICENSE" in names
