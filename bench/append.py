"""Append benchmark: roll commands over HTTP from K concurrent connections, against its ceiling.

    python bench/append.py                                  # starts tussle serve on a temporary database
    python bench/append.py --connections 16 --encounters 1 --seconds 10
    python bench/append.py --url http://127.0.0.1:8080 --admin-token TOKEN   # a server already running
    python bench/append.py --store postgres   # CPU per command on PostgreSQL vs SQLite, 2 processes vs 1

Each request is `{"type": "roll", "expression": "3d6", ...}` with a fresh command_id, spread round-robin
over `--encounters` encounters (default: one per connection). The load comes from wrk with
bench/append.lua when wrk is on PATH, otherwise from an aiohttp client in this process; the script
says which. The same load goes to bench/bare_handler.py (decode the body with msgspec, answer 201),
in rounds alternating between the two, and the script prints commands/s, p50 and p99 of both (medians
of the rounds) and their ratio. Appends are durable: the
SQLite store runs WAL with synchronous=FULL, one fsynced commit per command.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import aiohttp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int, *store: str) -> list[str]:
    """`tussle serve` on `port` with rate limits off, over the store named by `store` (e.g. --db PATH)."""
    return [
        sys.executable, "-m", "server", "serve", *store,
        "--port", str(port), "--rate-commands", "0", "--rate-reads", "0",
    ]  # fmt: skip


def wait_until_up(port: int, proc: subprocess.Popen | None) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


async def make_encounters(url: str, count: int, admin: str | None) -> list[tuple[str, str]]:
    """(path, GM token) of `count` fresh freeform encounters."""
    headers = {"Authorization": f"Bearer {admin}"} if admin else {}
    out = []
    async with aiohttp.ClientSession() as s:
        for i in range(count):
            async with s.post(
                f"{url}/encounters", json={"name": f"bench {i}", "ruleset": "freeform"}, headers=headers
            ) as r:
                body = await r.json()
                assert r.status == 201, body
            out.append((f"/encounters/{body['id']}/commands", body["gm_token"]))
    return out


RUNS = iter(range(1, 1_000_000))  # each load run's command_ids are its own: never a resend


async def appended(url: str, targets: list[tuple[str, str]]) -> int:
    """Rolls appended in all the encounters (their heads, less the creation)."""
    total = 0
    async with aiohttp.ClientSession() as s:
        for path, token in targets:
            async with s.get(url + path.rsplit("/", 1)[0], headers={"Authorization": f"Bearer {token}"}) as r:
                total += (await r.json())["seq"] - 1
    return total


def run_wrk(url: str, targets_file: str, connections: int, seconds: float, threads: int) -> dict[str, Any]:
    env = dict(os.environ, TUSSLE_BENCH_TARGETS=targets_file, TUSSLE_BENCH_RUN=str(next(RUNS)))
    out = subprocess.run(
        [
            "wrk",
            "-t",
            str(threads),
            "-c",
            str(connections),
            "-d",
            f"{seconds:g}s",
            "--timeout",
            "10s",
            "-s",
            os.path.join(HERE, "append.lua"),
            url,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("{"))
    r = json.loads(line)
    seconds_run = r["duration_us"] / 1e6
    return {
        "requests": r["requests"],
        "per_s": r["requests"] / seconds_run,
        "p50_ms": r["p50_us"] / 1000,
        "p99_ms": r["p99_us"] / 1000,
        "errors": r["non2xx"] + r["socket_errors"],
    }


async def run_aiohttp(
    url: str, targets: list[tuple[str, str]], connections: int, seconds: float
) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0
    run = next(RUNS)
    connector = aiohttp.TCPConnector(limit=connections)
    async with aiohttp.ClientSession(connector=connector) as s:
        end = time.perf_counter() + seconds

        async def worker(n: int) -> None:
            nonlocal errors
            i = 0
            while time.perf_counter() < end:
                i += 1
                path, token = targets[(n + i * connections) % len(targets)]
                body = {
                    "type": "roll",
                    "expression": "3d6",
                    "purpose": "bench",
                    "command_id": f"a{run}-{n}-{i}",
                    "entropy": "bench-entropy-0123456789",
                }
                t0 = time.perf_counter()
                async with s.post(url + path, json=body, headers={"Authorization": f"Bearer {token}"}) as r:
                    await r.read()
                    if r.status != 201:
                        errors += 1
                latencies.append(time.perf_counter() - t0)

        started = time.perf_counter()
        await asyncio.gather(*(worker(n) for n in range(connections)))
        elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "per_s": len(latencies) / elapsed,
        "p50_ms": latencies[len(latencies) // 2] * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "errors": errors,
    }


def load(
    client: str, url: str, targets: list[tuple[str, str]], targets_file: str, args: argparse.Namespace
) -> dict[str, Any]:
    if client == "wrk":
        return run_wrk(url, targets_file, args.connections, args.seconds, args.threads)
    return asyncio.run(run_aiohttp(url, targets, args.connections, args.seconds))


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of a process, all its threads (Linux /proc), or nan when unknown."""
    if pid is None:
        return float("nan")
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(
    client: str,
    url: str,
    targets: list[tuple[str, str]],
    targets_file: str,
    args: argparse.Namespace,
    pid: int | None,
) -> dict[str, Any]:
    """A load run, with the server's CPU time per request (robust to a shared machine's load: the wall
    figures measure the queue for a core as well, the CPU per request only what the server spent)."""
    before = cpu_seconds(pid)
    r = load(client, url, targets, targets_file, args)
    r["cpu_ms"] = (cpu_seconds(pid) - before) * 1000 / max(1, r["requests"])
    return r


def line(name: str, r: dict[str, Any]) -> str:
    return (
        f"{name:<24} {r['per_s']:>9.0f} commands/s   p50 {r['p50_ms']:7.2f} ms   p99 {r['p99_ms']:7.2f} ms"
        f"   CPU {r['cpu_ms']:.3f} ms/request   ({r['requests']:.0f} requests, {r['errors']:.0f} errors)"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running tussle server (default: start one on a temporary database)")
    p.add_argument("--admin-token", help="the running server's admin token, if it has one")
    p.add_argument("--connections", "-k", type=int, default=16, help="concurrent connections K (16)")
    p.add_argument(
        "--encounters",
        type=int,
        default=None,
        help="encounters the load is spread over (default: one per connection)",
    )
    p.add_argument("--seconds", type=float, default=5.0, help="duration of each run (5)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of (tussle, ceiling) runs (3)")
    p.add_argument(
        "--threads", type=int, default=1, help="wrk threads (1: leave the other core to the server)"
    )
    p.add_argument("--client", choices=["auto", "wrk", "aiohttp"], default="auto")
    p.add_argument("--db-dir", default=None, help="where the temporary database goes (default: a temp dir)")
    p.add_argument(
        "--store",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="postgres: the load on PostgreSQL (one and two processes) against SQLite, by CPU per "
        "command (bench/append_postgres.py)",
    )
    p.add_argument(
        "--pg", default=None, help="with --store postgres: a PostgreSQL DSN (default: start a private one)"
    )
    args = p.parse_args()
    if args.store == "postgres":
        import append_postgres

        append_postgres.main(args)
        return
    client = args.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "aiohttp"
    encounters = args.encounters or args.connections
    print(
        f"load client: {client}"
        + ("" if client == "wrk" else " (wrk is not on PATH)" if args.client == "auto" else "")
    )
    print(
        f"K = {args.connections} connections, {encounters} encounter(s), {args.rounds} rounds of "
        f"{args.seconds:g} s per server, {os.cpu_count()} CPUs, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )

    workdir = tempfile.mkdtemp(prefix="tussle-bench-", dir=args.db_dir)
    procs: list[subprocess.Popen] = []
    rounds: list[tuple[dict[str, Any], dict[str, Any]]] = []
    try:
        url = args.url
        server_pid = None  # a server already running: its CPU is not measured
        if url is None:
            port = free_port()
            log = open(os.path.join(workdir, "server.log"), "w")  # noqa: SIM115 - closed with the process
            server = subprocess.Popen(
                serve_command(port, "--db", os.path.join(workdir, "bench.db")),
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
            procs.append(server)
            server_pid = server.pid
            wait_until_up(port, server)
            url = f"http://127.0.0.1:{port}"
        bare_port = free_port()
        bare = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "bare_handler.py"), str(bare_port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(bare)
        wait_until_up(bare_port, bare)
        bare_url = f"http://127.0.0.1:{bare_port}"
        targets = asyncio.run(make_encounters(url, encounters, args.admin_token))
        targets_file = os.path.join(workdir, "targets.txt")
        with open(targets_file, "w") as f:
            f.writelines(f"{path} {token}\n" for path, token in targets)

        warm = argparse.Namespace(**{**vars(args), "seconds": 1.0})
        load(client, url, targets, targets_file, warm)
        load(client, bare_url, targets, targets_file, warm)
        # Rounds alternate between the two servers, so that both see the same machine (a shared
        # machine's load drifts); the ratio is the median of the rounds' ratios.
        for n in range(args.rounds):
            tussle = measured(client, url, targets, targets_file, args, server_pid)
            ceiling = measured(client, bare_url, targets, targets_file, args, bare.pid)
            rounds.append((tussle, ceiling))
            print(
                f"round {n + 1}: {tussle['per_s']:.0f} vs {ceiling['per_s']:.0f} commands/s, "
                f"ratio {tussle['per_s'] / ceiling['per_s']:.3f}; CPU {tussle['cpu_ms']:.3f} vs "
                f"{ceiling['cpu_ms']:.3f} ms/request; p99 {tussle['p99_ms']:.1f} vs {ceiling['p99_ms']:.1f} ms"
            )
        # Every 201 was an append: the heads account for every counted request (and the warm-up's).
        stored = asyncio.run(appended(url, targets))
    finally:
        for proc in procs:
            stop(proc)
        shutil.rmtree(workdir, ignore_errors=True)

    print(
        f"rolls in the store: {stored}; 201s counted in the timed runs: {sum(t['requests'] for t, _ in rounds)}"
    )

    def median_of(results: list[dict[str, Any]]) -> dict[str, Any]:
        return {k: statistics.median(r[k] for r in results) for k in results[0]}

    print(line("tussle (durable appends)", median_of([t for t, _ in rounds])))
    print(line("bare handler (ceiling)", median_of([c for _, c in rounds])))
    ratio = statistics.median(t["per_s"] / c["per_s"] for t, c in rounds)
    print(f"ratio: {ratio:.3f} of the ceiling (median of {len(rounds)} paired rounds; target >= 0.35)")
    p99 = statistics.median(t["p99_ms"] / c["p99_ms"] for t, c in rounds)
    print(f"p99: {p99:.2f}x the ceiling's (median of the rounds; target <= 4 at --connections 50)")
    cpu = statistics.median(c["cpu_ms"] / t["cpu_ms"] for t, c in rounds)
    print(
        f"CPU per request: the ceiling's is {cpu:.3f} of Tussle's (median of the rounds): the throughput "
        "ratio one core would give when both are CPU-bound"
    )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
