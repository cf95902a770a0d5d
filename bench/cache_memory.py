"""Memory per cached encounter (issue 19 item 4): bytes the service's cache holds per encounter.

    python bench/cache_memory.py              # 200 encounters of 4 combatants and 40 events each

Creates the encounters through the service (a real SQLite file), forgets every state, then loads
them all again (from their snapshots) and measures with tracemalloc what the cache took. The ceiling
is the size of the same states as compact JSON (what the snapshot table stores); it prints both and
their ratio, then the cache's capacity at that size for 10 MB and 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import sys
import tempfile
import tracemalloc

import msgspec

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.store.sqlite import SqliteStore  # noqa: E402
from rules.registry import Registry  # noqa: E402
from server.encounters.service import Encounters  # noqa: E402
from server.encounters.tokens import Principal  # noqa: E402

COMBATANTS = ["ann", "bob", "cid", "dee"]


async def measure(path: str, n: int) -> tuple[float, float]:
    store = SqliteStore(path)
    await store.open()
    try:
        enc = Encounters(store, Registry.discover(), cache_encounters=n + 1)
        ids = []
        for i in range(n):
            info, _, _ = await enc.create({"name": f"Fight {i}", "ruleset": "freeform"}, "gm")
            gm = Principal("gm", info.id)
            for k, cid in enumerate(COMBATANTS):
                await enc.execute(
                    info.id,
                    gm,
                    {
                        "type": "add_combatant",
                        "combatant": {
                            "id": cid,
                            "name": cid.title(),
                            "side": "red" if k % 2 else "blue",
                            "position": [k, 0],
                            "stats": {"st": 12, "dx": 11},
                            "items": [{"id": f"{cid}-sword", "name": "sword"}],
                        },
                    },
                )
            for j in range(35):
                await enc.execute(info.id, gm, {"type": "note", "text": f"turn note {j}"})
            ids.append(info.id)
        for stream in ids:
            enc.forget(stream)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for stream in ids:
            await enc.state(stream)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        json_size = sum(len(msgspec.json.encode(enc.cache.state(s))) for s in ids) / n
        return (after - before) / n, json_size
    finally:
        await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--encounters", type=int, default=200)
    args = p.parse_args()
    workdir = tempfile.mkdtemp(prefix="tussle-cache-")
    try:
        per, json_size = asyncio.run(measure(os.path.join(workdir, "cache.db"), args.encounters))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(
        f"{args.encounters} encounters of 4 combatants and 40 events: {per / 1024:.1f} KB each in the cache "
        f"(target <= 10 KB); as JSON {json_size / 1024:.1f} KB, ratio {json_size / per:.2f}"
    )
    print(
        f"--cache-encounters at this size: {10 * 2**20 / per:,.0f} in 10 MB, {100 * 2**20 / per:,.0f} in 100 MB"
    )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
