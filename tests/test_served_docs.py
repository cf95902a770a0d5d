"""GET /docs/{doc}: the guides the pages link to, as Markdown; nothing else of docs/ (issue 28 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.http.web import SERVED_DOCS

DOCS = Path(__file__).parents[1] / "docs"


@pytest.mark.parametrize("name", SERVED_DOCS)
async def test_each_linked_guide_is_served_as_markdown(tussle, name):
    r = await tussle.request("GET", f"/docs/{name}.md")
    assert r.status == 200, r.body
    assert r.headers["Content-Type"].startswith("text/markdown")
    assert r.body == (DOCS / f"{name}.md").read_text()


@pytest.mark.parametrize(
    "path", ["/docs/performance.md", "/docs/notifications", "/docs/..%2FREADME.md", "/docs/notifications.txt"]
)
async def test_no_other_file_is_served(tussle, path):
    r = await tussle.request("GET", path)
    assert r.status == 404, r.body


async def test_the_openapi_document_lists_exactly_the_served_guides(tussle):
    doc = (await tussle.request("GET", "/openapi.json")).body
    (param,) = doc["paths"]["/docs/{doc}"]["get"]["parameters"]
    assert param["schema"]["enum"] == [f"{n}.md" for n in SERVED_DOCS]
