"""The browser pages: `GET /`, `GET /encounters/{id}/view` and their static files (issue 14).

The pages are plain files shipped inside the package (server/static/) and run as ES modules: there is
no build step. Every response carries a strict Content-Security-Policy: scripts, styles and
connections only from this origin, no inline script, nothing remote. Tokens never reach these
handlers: the page reads them from the URL fragment, which browsers do not send.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

STATIC_DIR = Path(__file__).parent.parent / "static"

# 'self' covers the same-origin websocket too (CSP level 3), which Chromium and Firefox follow.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# Pages are small and name the scripts: revalidate them every time so an upgrade is seen at once. The
# scripts and styles may be kept a while (an ETag / Last-Modified check after that).
PAGE_CACHE = "no-cache"
ASSET_CACHE = "public, max-age=300"
CONTENT_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain",
    ".png": "image/png",
}


def _file(path: Path, cache: str) -> web.FileResponse:
    headers = {**SECURITY_HEADERS, "Cache-Control": cache}
    ctype = CONTENT_TYPES.get(path.suffix)
    if ctype:
        headers["Content-Type"] = f"{ctype}; charset=utf-8" if ctype.startswith("text/") else ctype
    return web.FileResponse(path, headers=headers)


async def landing_page(request: web.Request) -> web.FileResponse:
    """GET /"""
    return _file(STATIC_DIR / "index.html", PAGE_CACHE)


async def encounter_page(request: web.Request) -> web.FileResponse:
    """GET /encounters/{id}/view — one page for GM, players and observers (the token says which)."""
    return _file(STATIC_DIR / "view.html", PAGE_CACHE)


async def static_file(request: web.Request) -> web.FileResponse:
    """GET /static/{path}: a file under server/static/, nothing outside it."""
    root = STATIC_DIR.resolve()
    try:
        path = (root / request.match_info["path"]).resolve()
        found = path.is_relative_to(root) and path.is_file()
    except (ValueError, OSError):  # a NUL or an over-long name: no such file either
        found = False
    if not found:
        raise web.HTTPNotFound()
    return _file(path, ASSET_CACHE)


# docs/verifying.md, every rule a verifier needs: read from the sources beside the package (a checkout,
# an editable install), else from the copy the container image puts among the static files.
VERIFYING_DOCS = (Path(__file__).parents[2] / "docs" / "verifying.md", STATIC_DIR / "verifying.md")


def verifying_url(request: web.Request) -> str:
    """Where this server serves docs/verifying.md: every export links to it."""
    return f"{request.url.origin()}/verifying"


async def verifying_page(request: web.Request) -> web.FileResponse:
    """GET /verifying: docs/verifying.md as Markdown, the document every export links to."""
    found = next((p for p in VERIFYING_DOCS if p.is_file()), None)
    if found is None:
        raise web.HTTPNotFound(
            text="docs/verifying.md is not installed with this server; see the Tussle sources"
        )
    headers = {
        **SECURITY_HEADERS,
        "Cache-Control": PAGE_CACHE,
        "Content-Type": "text/markdown; charset=utf-8",
    }
    return web.FileResponse(found, headers=headers)


def setup(app: web.Application) -> None:
    """Add the page routes to the app."""
    app.router.add_get("/", landing_page)
    app.router.add_get("/verifying", verifying_page)
    app.router.add_get("/encounters/{id}/view", encounter_page)
    app.router.add_get("/static/{path:.+}", static_file)
