"""Record the golden scripts' streams: `python -m tests.golden.record` writes tests/golden/scripts/<name>.jsonl.

Run it only in a commit that changes stored bytes on purpose, naming the reason (issue 13 item 1);
tests/golden/test_golden.py compares every script's stream with its file byte for byte. Never touch
tests/golden/frozen/: those are streams as an earlier version stored them.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import aiohttp

from server.encounters.ids import CountingIds
from tests.golden.scripts import SCRIPTS, load, play, script_names
from tests.support.client import RunningServer, TussleClient


async def stream_bytes(db_path: str, name: str) -> bytes:
    """The script's stream as `tussle export` gives it, less the trailer (its `exported_at` is today)."""
    server = await RunningServer(db_path, ids=CountingIds("golden")).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, db_path)
            enc = await play(client, load(name))
            async with session.get(
                f"{server.base_url}{enc.path}/events",
                headers={"Authorization": f"Bearer {enc.gm_token}", "Accept": "application/x-ndjson"},
            ) as r:
                assert r.status == 200, await r.text()
                lines = (await r.read()).splitlines(keepends=True)
    finally:
        await server.stop()
    assert lines[-1].startswith(b'{"trailer"'), lines[-1]
    return b"".join(lines[:-1])


async def record(out: Path = SCRIPTS) -> list[Path]:
    written = []
    for name in script_names():
        with tempfile.TemporaryDirectory() as tmp:
            path = out / f"{name}.jsonl"
            path.write_bytes(await stream_bytes(str(Path(tmp) / "golden.db"), name))
            written.append(path)
    return written


if __name__ == "__main__":
    for p in asyncio.run(record()):
        print(p)
