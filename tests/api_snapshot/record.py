"""Record the API snapshot: `python -m tests.api_snapshot.record` writes tests/api_snapshot/*.json.

The snapshot exists to prove that moving code (issue 26's reorganisation of `server/`) changes no
path, code or field of the API: tests/api_snapshot/test_api_snapshot.py diffs a live server's
`/openapi.json` and `/asyncapi.json` against these files. Work that changes the API on purpose (a new
endpoint, a new ruleset command, a reworded description) re-records them with this one command in the
same commit, whose diff then shows the API change for review.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

from tests.support.client import RunningServer

HERE = Path(__file__).parent
DOCUMENTS = ("openapi.json", "asyncapi.json")


async def served() -> dict[str, Any]:
    """Each document as a real server on a fresh SQLite file serves it, parsed."""
    with tempfile.TemporaryDirectory() as tmp:
        server = await RunningServer(str(Path(tmp) / "snapshot.db")).start()
        try:
            async with aiohttp.ClientSession() as session:
                docs = {}
                for name in DOCUMENTS:
                    async with session.get(f"{server.base_url}/{name}") as r:
                        assert r.status == 200, await r.text()
                        docs[name] = await r.json()
                return docs
        finally:
            await server.stop()


def canonical(doc: Any) -> str:
    """Sorted keys and a fixed indent, so a diff of the files shows only what changed."""
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


async def record() -> list[Path]:
    written = []
    for name, doc in (await served()).items():
        path = HERE / name
        path.write_text(canonical(doc), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    import os
    import secrets

    # As the suite runs (tests/conftest.py): the test-only probe ruleset is installed, and a seed key set.
    os.environ.setdefault("TUSSLE_EXTRA_RULESETS", "tests.support.probe_ruleset:ruleset")
    os.environ.setdefault("TUSSLE_SEED_KEY", secrets.token_hex(32))
    for p in asyncio.run(record()):
        print(p)
