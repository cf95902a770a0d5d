"""Stall benchmark: commands on a small encounter while a 100,000-event encounter is read every way.

    python bench/stalls.py                   # 100,000 events, 8 s per phase
    python bench/stalls.py --events 20000 --seconds 4

Builds the freeform encounter of bench/replay.py (public, so the reader needs no token) and lets a
first load save its snapshots, then starts a real `tussle serve` on it (rate limits off). One client
sends `note` commands to a small encounter one after another and times each answer: first alone
(the ceiling: the same commands with nothing else running, measured in the same run), then while
another client reads the big encounter back to back in every way — GET /encounters/{id}, /state,
/state?at=N/2, /log (a page), /log?limit=10000, /log?format=markdown, a turn excerpt, /events,
/events as NDJSON (the whole export), /audit, /verify?full=1 and a websocket `log` subscription's snapshot.
It prints the commands' p50/p99/max in
both phases, the p99's ratio to the ceiling's and to the 20 ms target, and how long each read took.
With `--trace` the server runs asyncio's debug mode (TUSSLE_LOOP_PROBE=trace) and the script lists
the slowest steps it logged: which callback or task held the loop. With `--steps` the server runs under
bench/step_probe.py, which lists each loop step over 8 ms of CPU with the await points it ran between.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import aiohttp

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay import build  # noqa: E402
from events.store.sqlite import SqliteStore  # noqa: E402
from rules.registry import Registry  # noqa: E402
from server.encounters.service import Encounters  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def warm(path: str, stream: str) -> None:
    """A first load: it saves the snapshots (a stream written straight to the store has none)."""
    store = SqliteStore(path)
    await store.open()
    try:
        await Encounters(store, Registry.discover()).state(stream)
    finally:
        await store.close()


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")


async def commands(
    session: aiohttp.ClientSession, base: str, enc: dict, seconds: float, until: asyncio.Event | None = None
) -> list[float]:
    """Commands one after another for `seconds`, and on until `until` is set (the reads' full round)."""
    out = []
    url = f"{base}/encounters/{enc['id']}/commands"
    headers = {"Authorization": f"Bearer {enc['gm_token']}"}
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end or (until is not None and not until.is_set()):
        n += 1
        t0 = time.perf_counter()
        async with session.post(url, json={"type": "note", "text": f"note {n}"}, headers=headers) as r:
            await r.read()
            assert r.status == 201, r.status
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def reads(
    session: aiohttp.ClientSession,
    base: str,
    stream: str,
    total: int,
    stop: asyncio.Event,
    took: dict[str, list[float]],
    held: dict[str, list[float]],
    cycled: asyncio.Event,
) -> None:
    e = f"{base}/encounters/{stream}"
    kinds = [
        ("GET /encounters/{id}", e, {}),
        ("/state", f"{e}/state", {}),
        ("/state?at=N/2", f"{e}/state?at={total // 2}", {}),
        ("/log", f"{e}/log", {}),
        ("/log?limit=10000", f"{e}/log?limit=10000", {}),
        ("/log?format=markdown", f"{e}/log?format=markdown", {}),
        ("/log?format=markdown&turn=", f"{e}/log?format=markdown&turn={total // 100}", {}),
        ("/events?limit=10000", f"{e}/events?limit=10000", {}),
        ("/events NDJSON (export)", f"{e}/events", {"Accept": "application/x-ndjson"}),
        ("/audit", f"{e}/audit", {}),
        ("/verify?full=1", f"{e}/verify?full=1", {}),  # the whole check: an incremental one reads little
    ]
    kinds.append(("ws log subscription", f"{e}/ws", {}))
    while not stop.is_set():
        for name, url, headers in kinds:
            if stop.is_set():
                return
            t0 = time.perf_counter()
            if url.endswith("/ws"):
                await log_snapshot(session, url)
            else:
                async with session.get(url, headers=headers) as r:
                    body = await r.read()
                    assert r.status == 200, (name, r.status, body[:200])
            took.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
            held.setdefault(name, []).append((await loop_slices(session, base))[1])
        cycled.set()


async def log_snapshot(session: aiohttp.ClientSession, url: str) -> None:
    """Subscribe to the log, take its snapshot and caught_up, and leave (the hub goes: each run builds it)."""
    async with session.ws_connect(url, max_msg_size=0) as ws:
        await ws.send_json({"op": "subscribe", "projection": "log", "after": 0})
        kinds = []
        while "caught_up" not in kinds:
            kinds.append(json.loads((await ws.receive(timeout=120)).data)["type"])
        assert kinds == ["snapshot", "caught_up"], kinds


GC_PAUSES: dict[str, list[float]] = {"0": [], "1": [], "2": []}  # longest per scrape, CPU ms


async def loop_slices(session: aiohttp.ClientSession, base: str) -> tuple[float, float]:
    """(p99, longest) CPU ms the server's loop held between two probe turns since the last scrape; the
    longest garbage collection of each generation since then goes to GC_PAUSES."""
    async with session.get(f"{base}/metrics") as r:
        text = await r.text()
    for line in text.splitlines():
        if line.startswith("tussle_gc_pause_seconds{"):
            gen = line.split('generation="')[1].split('"')[0]
            GC_PAUSES[gen].append(float(line.split()[1]) * 1000)
    values = {
        line.split()[0]: float(line.split()[1])
        for line in text.splitlines()
        if line.startswith("tussle_loop_slice_seconds{")
    }
    if not values:
        raise SystemExit("the server shows no tussle_loop_slice_seconds (is TUSSLE_LOOP_PROBE honoured?)")
    return (
        values['tussle_loop_slice_seconds{quantile="0.99"}'] * 1000,
        values['tussle_loop_slice_seconds{quantile="1"}'] * 1000,
    )


async def run(base: str, stream: str, total: int, seconds: float) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{base}/encounters", json={"name": "Small", "ruleset": "freeform"}) as r:
            enc = await r.json()
        await commands(session, base, enc, 1.0)  # warm-up
        await loop_slices(session, base)
        alone = await commands(session, base, enc, seconds)
        slices_alone = await loop_slices(session, base)
        stop, cycled, took, held = asyncio.Event(), asyncio.Event(), {}, {}
        reader = asyncio.create_task(reads(session, base, stream, total, stop, took, held, cycled))
        await asyncio.sleep(0.5)
        await loop_slices(session, base)
        busy = await commands(session, base, enc, seconds, until=cycled)
        slices_busy = await loop_slices(session, base)
        stop.set()
        await reader
    for label, xs in (("alone (ceiling)", alone), ("while reading", busy)):
        print(
            f"commands {label:<16} n={len(xs):5}  p50 {pct(xs, 0.5):6.1f} ms  p99 {pct(xs, 0.99):6.1f} ms  "
            f"max {max(xs):7.1f} ms"
        )
    p99, ceiling = pct(busy, 0.99), pct(alone, 0.99)
    print(
        f"p99 while reading: {p99:.1f} ms, {p99 / ceiling:.2f}x the ceiling's p99 ({ceiling:.1f} ms); "
        f"target < 20 ms: {'met' if p99 < 20 else 'NOT met'}"
    )
    print(
        f"the server's event loop, CPU ms between two turns (p99 / longest): alone {slices_alone[0]:.1f} / "
        f"{slices_alone[1]:.1f}, while reading - / {max([slices_busy[1], *(x for v in held.values() for x in v)]):.1f} "
        "(CPU time: what the loop held, whatever else the machine was doing)"
    )
    print(
        "the longest garbage collection (CPU ms) by generation 0 / 1 / 2: "
        + " / ".join(f"{max(GC_PAUSES[g], default=0.0):.1f}" for g in ("0", "1", "2"))
        + " (a loop stretch longer than these is not the collector's)"
    )
    print("reads of the big encounter: wall ms (median / max over the runs), and the longest CPU ms the loop")
    print("held while each ran:")
    for name, xs in took.items():
        print(
            f"  {name:<28} {pct(xs, 0.5):8.1f} / {max(xs):8.1f}   loop held {max(held[name]):6.1f}   ({len(xs)} runs)"
        )


def slowest(log_path: str, most: int = 15) -> None:
    """The slowest loop steps asyncio's debug mode logged ("Executing <handle> took 0.012 seconds")."""
    steps = []
    with open(log_path) as f:
        for raw in f:
            try:
                message = json.loads(raw).get("event", "")
            except ValueError:
                continue
            if message.startswith("Executing ") and " took " in message:
                what, took = message[len("Executing ") :].rsplit(" took ", 1)
                steps.append((float(took.split()[0]) * 1000, what))
    print(
        f"loop steps over 5 ms (asyncio debug mode, wall ms; debug mode itself slows the loop): {len(steps)}"
    )
    for ms, what in sorted(steps, reverse=True)[:most]:
        print(f"  {ms:7.1f}  {what[:300]}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, default=100_000)
    p.add_argument("--seconds", type=float, default=8.0, help="length of each phase (8 s)")
    p.add_argument("--db-dir", default=None)
    p.add_argument(
        "--trace", action="store_true", help="list the slowest loop steps asyncio's debug mode logged"
    )
    p.add_argument(
        "--steps",
        action="store_true",
        help="run the server under bench/step_probe.py and list the loop steps over 8 ms of CPU with the "
        "await points each ran between",
    )
    args = p.parse_args()
    workdir = tempfile.mkdtemp(prefix="tussle-stalls-", dir=args.db_dir)
    path = os.path.join(workdir, "stalls.db")
    server = None
    try:
        t0 = time.perf_counter()
        stream = asyncio.run(build(path, args.events, public=True))
        asyncio.run(warm(path, stream))
        print(
            f"built and loaded a {args.events:,}-event encounter in {time.perf_counter() - t0:.1f} s; "
            f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}"
        )
        port = free_port()
        steps = os.path.join(workdir, "steps.txt")
        launcher = (
            [os.path.join(ROOT, "bench", "step_probe.py"), steps, "8"] if args.steps else ["-m", "server"]
        )
        server = subprocess.Popen(
            [
                sys.executable,
                *launcher,
                "serve",
                "--db",
                path,
                "--port",
                str(port),
                "--rate-commands",
                "0",
                "--rate-reads",
                "0",
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(workdir, "server.log"), "w"),  # noqa: SIM115 - closed with the process
            env={**os.environ, "TUSSLE_LOOP_PROBE": "trace" if args.trace else "1"},
        )
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    break
            except OSError:
                time.sleep(0.1)
        asyncio.run(run(base, stream, args.events, args.seconds))
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if args.trace:
            slowest(os.path.join(workdir, "server.log"))
        if args.steps:
            with open(steps) as f:
                found = sorted(f, key=lambda line: -float(line.split()[0]))
            print(
                f"loop steps over 8 ms of CPU under bench/step_probe.py (its Python tasks slow each a little): {len(found)}"
            )
            for line in found[:25]:
                print("   ", line.rstrip()[:300])
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
