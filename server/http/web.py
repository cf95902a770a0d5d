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


# The guides a page or an export links to, as Markdown: read from the sources beside the package (a
# checkout, an editable install), else from the copies the container image puts under static/docs/
# (the Dockerfile). No other name is served: docs/ also holds notes for the project's own developers.
SERVED_DOCS = ("notifications", "discord", "websocket", "verifying")


def verifying_url(request: web.Request) -> str:
    """Where this server serves docs/verifying.md: every export links to it."""
    return f"{request.url.origin()}/verifying"


def _doc_response(name: str) -> web.FileResponse:
    found = next(
        (
            p
            for p in (Path(__file__).parents[2] / "docs" / f"{name}.md", STATIC_DIR / "docs" / f"{name}.md")
            if p.is_file()
        ),
        None,
    )
    if found is None:
        raise web.HTTPNotFound(
            text=f"docs/{name}.md is not installed with this server; see the Tussle sources"
        )
    headers = {
        **SECURITY_HEADERS,
        "Cache-Control": PAGE_CACHE,
        "Content-Type": "text/markdown; charset=utf-8",
    }
    return web.FileResponse(found, headers=headers)


async def verifying_page(request: web.Request) -> web.FileResponse:
    """GET /verifying: docs/verifying.md as Markdown, the document every export links to."""
    return _doc_response("verifying")


async def doc_page(request: web.Request) -> web.FileResponse:
    """GET /docs/{doc}: one of SERVED_DOCS as Markdown (the GM page links to docs/notifications.md)."""
    stem, dot, ext = request.match_info["doc"].rpartition(".")
    if not dot or ext != "md" or stem not in SERVED_DOCS:
        raise web.HTTPNotFound(text=f"served here: {', '.join(f'{n}.md' for n in SERVED_DOCS)}")
    return _doc_response(stem)


def setup(app: web.Application) -> None:
    """Add the page routes to the app."""
    app.router.add_get("/", landing_page)
    app.router.add_get("/verifying", verifying_page)
    app.router.add_get("/docs/{doc}", doc_page)
    app.router.add_get("/encounters/{id}/view", encounter_page)
    app.router.add_get("/static/{path:.+}", static_file)
