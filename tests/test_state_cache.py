"""The bounded state cache (issue 19 item 4): with room for N encounters, N+1 in use keep at most N
loaded, evict the least recently used, and an evicted encounter answers as before when used again."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.support.client import RunningServer, TussleClient

N = 3


def metric(text: str, name: str) -> int:
    return int(next(line.split()[1] for line in text.splitlines() if line.startswith(name + " ")))


async def test_n_plus_one_encounters_keep_n_in_memory_and_all_answer(tmp_path):
    server = await RunningServer(
        str(tmp_path / "cache.db"), cache_encounters=N, rate_commands=0, rate_reads=0
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            encounters = [await client.create(name=f"Fight {i}") for i in range(N + 1)]
            for enc in encounters:
                for n in range(3):
                    r = await enc.command("note", text=f"{enc.id} note {n}")
                    assert r.status == 201, r.body
            states = {enc.id: await enc.state() for enc in encounters}
            async with session.get(f"{server.base_url}/metrics") as r:
                text = await r.text()
            assert metric(text, "tussle_state_cache_encounters") <= N
            assert metric(text, "tussle_state_cache_capacity") == N
            assert metric(text, "tussle_state_cache_evictions_total") >= 1
            # Every encounter, evicted or not, still takes commands and reads the same state.
            for enc in encounters:
                assert await enc.state() == states[enc.id]
                r = await enc.command("note", text="after")
                assert r.status == 201 and r.body["seq"] == states[enc.id]["seq"] + 1, r.body
    finally:
        await server.stop()


async def test_an_encounter_with_commands_at_work_is_not_evicted(tmp_path):
    server = await RunningServer(
        str(tmp_path / "busy.db"), cache_encounters=1, rate_commands=0, rate_reads=0
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            encounters = [await client.create(name=f"Fight {i}") for i in range(4)]
            # Commands on all of them at once: each is at work while the others want room.
            results = await asyncio.gather(
                *[enc.command("note", text=f"n{k}") for k in range(5) for enc in encounters]
            )
            assert all(r.status == 201 for r in results), [r.body for r in results if r.status != 201]
            for enc in encounters:
                events = await enc.events()
                assert [e["seq"] for e in events] == list(range(1, len(events) + 1)) and len(events) == 6
    finally:
        await server.stop()
