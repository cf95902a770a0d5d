"""The log read by ranges (issue 19 item 2): pages of `GET /log` (`from`, `limit`, `next_from`) put
together are the whole log, from any first seq, and a turn excerpt is that turn's entries of the whole
log, in JSON and in the forum formats; with snapshots every few events, so pages start from them."""

from __future__ import annotations

from typing import Any

import aiohttp
import msgspec
import pytest

from events.envelope import Event
from projections.audit import commitment_timeline
from projections.forum_export import forum_posts, forum_text
from tests.golden.scripts import load, play, script_names
from tests.support.client import Encounter, RunningServer, TussleClient


async def log(enc: Encounter, query: str) -> Any:
    r = await enc.get(f"/log?{query}")
    assert r.status == 200, r.body
    return r.body


async def pages(enc: Encounter, first: int, limit: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while True:
        page = await log(enc, f"from={first}&limit={limit}")
        out += page["entries"]
        assert page["next_from"] == min(first + limit, page["at"] + 1)
        if page["next_from"] > page["at"]:
            return out
        first = page["next_from"]


@pytest.mark.parametrize("name", script_names())
async def test_pages_and_turn_excerpts_are_the_whole_log_cut(tmp_path, name):
    server = await RunningServer(
        str(tmp_path / "log.db"), snapshot_every=3, rate_reads=0, rate_commands=0
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            enc = await play(TussleClient(server.base_url, session, server.db_path), load(name))
            whole = await log(enc, "limit=10000")
            head = whole["head"]["seq"]
            assert whole["next_from"] == head + 1
            for limit in (1, 2, 5):
                assert await pages(enc, 1, limit) == whole["entries"], f"pages of {limit}"
            for first in range(1, head + 1):
                page = await log(enc, f"from={first}")
                assert page["entries"] == [e for e in whole["entries"] if e["seq"] >= first], f"from={first}"
            events = [msgspec.convert(e, Event) for e in await enc.events()]
            for turn in sorted({e["turn"] for e in whole["entries"]}):
                entries = [e for e in whole["entries"] if e["turn"] == turn]
                assert (await log(enc, f"turn={turn}"))["entries"] == entries, f"turn {turn}"
                text = (await enc.get(f"/log?format=markdown&turn={turn}")).body
                posts = forum_posts(
                    entries,
                    name=whole["name"],
                    commitments=commitment_timeline(events),
                    head=whole["head"],  # an excerpt's footer names the chain's real head (issue 18 item 4)
                    flavour="markdown",
                    max_chars=None,
                    verify_url=f"{server.base_url}/verifying",
                )
                assert text == forum_text(posts), f"turn {turn} in markdown"
    finally:
        await server.stop()
