"""The loop probe (bench/stalls.py's instrument): with it on, /metrics shows the loop's longest stretch
and the garbage collector's pauses by generation, so a long stretch can be ruled in or out as a
collection (issue 32 item 2)."""

from __future__ import annotations

import gc

import aiohttp

from tests.support.client import RunningServer


def values(text: str, name: str) -> dict[str, float]:
    return {
        line.split()[0]: float(line.split()[1]) for line in text.splitlines() if line.startswith(name + "{")
    }


async def test_metrics_show_the_collectors_pauses_by_generation(tmp_path):
    server = await RunningServer(str(tmp_path / "probe.db"), loop_probe="1").start()
    try:
        async with aiohttp.ClientSession() as session:
            await session.get(f"{server.base_url}/metrics")  # a fresh scrape window
            gc.collect(2)  # on the loop's thread, as the server's own collections run
            async with session.get(f"{server.base_url}/metrics") as r:
                text = await r.text()
        pauses = values(text, "tussle_gc_pause_seconds")
        assert set(pauses) == {f'tussle_gc_pause_seconds{{generation="{g}",quantile="1"}}' for g in "012"}
        assert pauses['tussle_gc_pause_seconds{generation="2",quantile="1"}'] > 0
        counts = values(text, "tussle_gc_pause_seconds_count")
        assert counts['tussle_gc_pause_seconds_count{generation="2"}'] >= 1
        assert values(text, "tussle_loop_slice_seconds")
    finally:
        await server.stop()
