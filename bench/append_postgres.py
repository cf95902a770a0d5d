"""`python bench/append.py --store postgres`: the append load on PostgreSQL against SQLite, by CPU per command.

Three set-ups take the same load (roll commands from K connections over K encounters, aiohttp client),
in alternating rounds so that all see the same machine:

- **sqlite**: one `tussle serve --db` (WAL, synchronous=FULL);
- **pg x1**: one `tussle serve --pg` on its own schema;
- **pg x2**: two `tussle serve --pg` processes on one schema, each connection sticking to one process
  (connection n to process n % 2) and to its encounter, as a load balancer with sticky sessions would.

Per round and set-up: commands/s, p50/p99, the Tussle processes' CPU time per command (utime + stime
from /proc, divided by the 201s counted) and, when this script started the PostgreSQL server itself,
the CPU of that server's processes per command. The figures printed are the medians of the rounds;
the ratios are PostgreSQL's CPU per command to SQLite's (the target is <= 1.3) and the two-process
throughput to the one-process throughput (the target is >= 1.6 where cores allow: on two cores shared
with PostgreSQL and the load client it cannot be).

Without `--pg DSN` a private PostgreSQL is started from the installed binaries (as the tests do) and
removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import aiohttp
from append import ROOT, appended, free_port, make_encounters, serve_command, stop, wait_until_up

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def children_of(parent: int) -> list[int]:
    """The PostgreSQL postmaster and its backends (every process whose parent is the postmaster)."""
    out = [parent]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == parent:
                        out.append(int(entry))
            except OSError:
                pass
    return out


def pg_cpu_s(postmaster: int | None) -> float:
    if postmaster is None:
        return 0.0
    pids = children_of(postmaster)
    total = 0.0
    for pid in pids:  # a backend may exit between the listing and the read
        try:
            total += cpu_s([pid])
        except OSError:
            pass
    return total


class Setup:
    """One or more Tussle servers on one store, and the encounters the load goes to."""

    def __init__(self, name: str, commands: list[list[str]], env: dict[str, str], workdir: str):
        self.name = name
        self.procs: list[subprocess.Popen] = []
        self.urls: list[str] = []
        for i, extra in enumerate(commands):
            port = free_port()
            log = open(os.path.join(workdir, f"{name.replace(' ', '-')}-{i}.log"), "w")  # noqa: SIM115 - closed with the process
            proc = subprocess.Popen(
                serve_command(port, *extra),
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env=env,
            )
            self.procs.append(proc)
            wait_until_up(port, proc)
            self.urls.append(f"http://127.0.0.1:{port}")
        self.targets: list[tuple[str, str, str]] = []

    async def make_targets(self, count: int) -> None:
        made = await make_encounters(self.urls[0], count, None)
        self.targets = [(self.urls[i % len(self.urls)], path, token) for i, (path, token) in enumerate(made)]

    def stored(self) -> int:
        return asyncio.run(appended(self.urls[0], [(path, token) for _, path, token in self.targets]))

    def stop(self) -> None:
        for proc in self.procs:
            stop(proc)


RUNS = iter(range(1, 1_000_000))


async def load(targets: list[tuple[str, str, str]], connections: int, seconds: float) -> dict[str, Any]:
    """Connection n sends to targets[n % len(targets)] (its server and encounter) for `seconds`."""
    latencies: list[float] = []
    errors = 0
    run = next(RUNS)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=connections)) as s:
        end = time.perf_counter() + seconds

        async def worker(n: int) -> None:
            nonlocal errors
            base, path, token = targets[n % len(targets)]
            headers = {"Authorization": f"Bearer {token}"}
            i = 0
            while time.perf_counter() < end:
                i += 1
                body = {
                    "type": "roll",
                    "expression": "3d6",
                    "purpose": "bench",
                    "command_id": f"p{run}-{n}-{i}",
                    "entropy": "bench-entropy-0123456789",
                }
                t0 = time.perf_counter()
                async with s.post(base + path, json=body, headers=headers) as r:
                    await r.read()
                    ok = r.status == 201
                if ok:
                    latencies.append(time.perf_counter() - t0)
                else:
                    errors += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker(n) for n in range(connections)))
        elapsed = time.perf_counter() - started
    latencies.sort()
    n = len(latencies)
    return {
        "requests": n,
        "per_s": n / elapsed,
        "p50_ms": latencies[n // 2] * 1000 if n else 0.0,
        "p99_ms": latencies[min(n - 1, int(n * 0.99))] * 1000 if n else 0.0,
        "errors": errors,
    }


def measured(setup: Setup, postmaster: int | None, args: argparse.Namespace) -> dict[str, Any]:
    pids = [p.pid for p in setup.procs]
    cpu0, pg0 = cpu_s(pids), pg_cpu_s(postmaster)
    r = asyncio.run(load(setup.targets, args.connections, args.seconds))
    cpu1, pg1 = cpu_s(pids), pg_cpu_s(postmaster)
    done = max(r["requests"], 1)
    return {**r, "cpu_ms": (cpu1 - cpu0) * 1000 / done, "pg_cpu_ms": (pg1 - pg0) * 1000 / done}


def start_postgres() -> Any:
    sys.path.insert(0, ROOT)
    from tests.support.postgres import PrivateServer, server_bindir

    bindir = server_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL server binaries: apt-get install postgresql, or give --pg DSN")
    return PrivateServer(bindir).start()


def postmaster_of(server: Any) -> int:
    with open(os.path.join(server.executor.datadir, "postmaster.pid")) as f:
        return int(f.readline())


def with_schema(dsn: str, schema: str) -> str:
    return f"{dsn}{'&' if '?' in dsn else '?'}search_path={schema}"


def main(args: argparse.Namespace) -> None:
    encounters = args.encounters or args.connections
    print(
        f"load client: aiohttp, in this process; K = {args.connections} connections over {encounters} "
        f"encounter(s), {args.rounds} rounds of {args.seconds:g} s per set-up, {os.cpu_count()} CPUs, "
        f"load average {open('/proc/loadavg').read().strip()}"
    )
    workdir = tempfile.mkdtemp(prefix="tussle-bench-pg-", dir=args.db_dir)
    server = None if args.pg else start_postgres()
    dsn = args.pg or server.dsn
    postmaster = postmaster_of(server) if server is not None else None
    run_id = secrets.token_hex(3)
    env = dict(os.environ, TUSSLE_SEED_KEY=os.environ.get("TUSSLE_SEED_KEY") or secrets.token_hex(32))
    setups: list[Setup] = []
    rounds: dict[str, list[dict[str, Any]]] = {}
    try:
        setups = [
            Setup("sqlite", [["--db", os.path.join(workdir, "bench.db")]], env, workdir),
            Setup("pg x1", [["--pg", with_schema(dsn, f"bench_one_{run_id}")]], env, workdir),
            Setup("pg x2", [["--pg", with_schema(dsn, f"bench_two_{run_id}")]] * 2, env, workdir),
        ]
        for s in setups:
            asyncio.run(s.make_targets(encounters))
            rounds[s.name] = []
        warm = argparse.Namespace(**{**vars(args), "seconds": 1.0})
        for s in setups:
            measured(s, postmaster, warm)
        for n in range(args.rounds):
            for s in setups:
                r = measured(s, postmaster, args)
                rounds[s.name].append(r)
                pg = (
                    f"  postgres CPU {r['pg_cpu_ms']:.3f} ms/command"
                    if postmaster and s.name != "sqlite"
                    else ""
                )
                print(
                    f"round {n + 1} {s.name:<6}: {r['per_s']:6.0f} commands/s  p50 {r['p50_ms']:6.1f} ms  "
                    f"p99 {r['p99_ms']:6.1f} ms  tussle CPU {r['cpu_ms']:.3f} ms/command{pg}  ({r['errors']} errors)"
                )
        for s in setups:
            counted = sum(r["requests"] for r in rounds[s.name])
            print(f"{s.name}: rolls in the store {s.stored()}, 201s counted in the timed runs {counted}")
    finally:
        for s in setups:
            s.stop()
        if server is not None:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in rounds[name])

    print()
    for name in rounds:
        print(
            f"{name:<6} {med(name, 'per_s'):7.0f} commands/s   p50 {med(name, 'p50_ms'):6.1f} ms   "
            f"p99 {med(name, 'p99_ms'):6.1f} ms   tussle CPU {med(name, 'cpu_ms'):.3f} ms/command"
            + (
                f"   postgres CPU {med(name, 'pg_cpu_ms'):.3f} ms/command"
                if postmaster and name != "sqlite"
                else ""
            )
        )
    # Paired by round, as the load drifts: each round's ratio, then their median.
    cpu_ratio = statistics.median(
        p["cpu_ms"] / q["cpu_ms"] for p, q in zip(rounds["pg x1"], rounds["sqlite"], strict=True)
    )
    both_ratio = statistics.median(
        (p["cpu_ms"] + p["pg_cpu_ms"]) / q["cpu_ms"]
        for p, q in zip(rounds["pg x1"], rounds["sqlite"], strict=True)
    )
    two_ratio = statistics.median(
        p["per_s"] / q["per_s"] for p, q in zip(rounds["pg x2"], rounds["pg x1"], strict=True)
    )
    print(f"CPU per command, tussle on PostgreSQL / on SQLite: {cpu_ratio:.2f} (target <= 1.3)")
    if postmaster:
        print(f"CPU per command, tussle + PostgreSQL / tussle on SQLite: {both_ratio:.2f}")
    print(
        f"throughput, two processes / one on PostgreSQL: {two_ratio:.2f} (target >= 1.6 where cores allow; "
        f"{os.cpu_count()} CPUs here, shared with PostgreSQL and this client)"
    )
    print(f"load average at the end: {open('/proc/loadavg').read().strip()}")
