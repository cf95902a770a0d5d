"""Websocket fan-out benchmark: N subscribers over E encounters while commands arrive at a fixed rate.

    python bench/fanout.py                       # starts `tussle serve` on a temporary database
    python bench/fanout.py --url http://127.0.0.1:8080 --subscribers 200 --rate 20 --seconds 30
    python bench/fanout.py --preset host         # 10,000 subscribers over 1,000 encounters, 200 events/s in all
    python bench/fanout.py --preset crowd        # 2,000 subscribers on one encounter at 20 events/s (40,000 frames/s)

Subscribers are spread evenly over the encounters and the commands go round-robin over them, so
each encounter gets rate/E commands per second and each command's frame goes to N/E subscribers.
The started server runs with the websocket caps off (`--max-ws 0`: per token and per IP) and this
script raises its own open-file limit to the hard limit first (children inherit it). With two or
more CPUs the server is pinned to CPU 0 and the load client (the subscriber processes and the
commander, this process) to the others (os.sched_setaffinity), so that the client does not take the
server's core; each process of the client reports its own CPU use over the run, since a saturated
client measures itself, not the server (and the server's CPU is printed beside it).

Reports delivery latency p50/p99 from "append acknowledged" (the 201 arrived at the commander) to "frame
received" by each subscriber, the same from "command sent", frames/s, and how many subscribers were
closed early (a healthy run closes none). Subscribers run in `--client-procs` worker processes; the
commander in this one. CLOCK_MONOTONIC is system-wide, so times compare across processes.

The same load then goes to a minimal broadcaster (bench/bare_broadcaster.py: one prebuilt frame of the
same size written to every subscriber's transport, nothing else), in `--rounds` rounds alternating
with Tussle, and the script prints the server CPU per delivered frame of both and their ratio, in all
and in user mode (where per-subscriber Python shows; the kernel's send is the same for both).

A frame can arrive before its 201 does (the server publishes right after the commit, before it writes
the HTTP answer); such latencies count as 0 from the acknowledgement.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import gc
import multiprocessing as mp
import os
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import aiohttp
import msgspec


class Frame(msgspec.Struct):
    type: str
    seq: int = 0


_decode = msgspec.json.Decoder(Frame).decode


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- subscriber processes ---------------------------------------------------------------------


async def _subscribers(
    url: str,
    streams: list[str],
    after: int,
    wanted: list[int],
    ready: mp.Queue,
    stop: mp.Event,
    results: mp.Queue,
) -> None:
    """Subscribers to `streams[i]` for each index i in `wanted` (one socket per entry)."""
    # Flat arrays, not a list of tuples: hundreds of thousands of tracked objects would make the
    # collector's full passes stall this process and show up as delivery latency.
    gc.disable()
    which, seqs, times = array.array("i"), array.array("q"), array.array("d")
    closed_early = 0
    event_bytes = 0
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        sockets: list[tuple[int, aiohttp.ClientWebSocketResponse]] = []
        for start in range(0, len(wanted), 100):
            part = wanted[start : start + 100]
            batch = await asyncio.gather(
                *(
                    session.ws_connect(f"{url}/encounters/{streams[i]}/ws", autoping=True, max_msg_size=0)
                    for i in part
                )
            )
            sockets += zip(part, batch, strict=True)
        for _, ws in sockets:
            await ws.send_json({"op": "subscribe", "projection": "events", "after": after})
        caught = asyncio.Event()
        pending = len(sockets)

        async def read(index: int, ws: aiohttp.ClientWebSocketResponse) -> None:
            nonlocal pending, closed_early, event_bytes
            now = time.monotonic
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                f = _decode(msg.data)
                if f.type == "event":
                    event_bytes += len(msg.data)
                    which.append(index)
                    seqs.append(f.seq)
                    times.append(now())
                elif f.type == "caught_up":
                    pending -= 1
                    if pending == 0:
                        caught.set()
            if not stopping:
                closed_early += 1

        stopping = False
        readers = [asyncio.create_task(read(i, ws)) for i, ws in sockets]
        await caught.wait()
        ready.put(len(sockets))
        cpu0, wall0 = time.process_time(), time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
        stopping = True
        for _, ws in sockets:
            await ws.close()
        for t in readers:
            t.cancel()
    results.put((which.tobytes(), seqs.tobytes(), times.tobytes(), closed_early, cpu, wall, event_bytes))


def subscriber_process(
    url: str,
    streams: list[str],
    after: int,
    wanted: list[int],
    ready: mp.Queue,
    stop: mp.Event,
    results: mp.Queue,
    cpus: set[int] | None,
) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    asyncio.run(_subscribers(url, streams, after, wanted, ready, stop, results))


# ---- the commander ----------------------------------------------------------------------------


async def command_at_rate(
    url: str, encounters: list[tuple[str, str]], rate: float, seconds: float
) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], float], float]:
    """Commands at `rate` in all, round-robin over the encounters; sent and acknowledged times by
    (encounter index, seq)."""
    sent: dict[tuple[int, int], float] = {}
    acked: dict[tuple[int, int], float] = {}
    interval = 1.0 / rate
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

        async def one(i: int) -> None:
            index = i % len(encounters)
            stream, token = encounters[index]
            body = {
                "type": "note",
                "text": f"fan-out note {i}",
                "command_id": f"bench-{i}-{secrets.token_hex(4)}",
            }
            t0 = time.monotonic()
            async with session.post(
                f"{url}/encounters/{stream}/commands", json=body, headers={"Authorization": f"Bearer {token}"}
            ) as r:
                data = await r.json()
                t1 = time.monotonic()
                if r.status != 201:
                    raise RuntimeError(f"command failed: {r.status} {data}")
            sent[index, data["seq"]], acked[index, data["seq"]] = t0, t1

        start = time.monotonic()
        tasks = []
        i = 0
        while (now := time.monotonic()) - start < seconds:
            due = start + i * interval
            if now < due:
                await asyncio.sleep(due - now)
            tasks.append(asyncio.create_task(one(i)))
            i += 1
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - start
    return sent, acked, elapsed


async def create(url: str, count: int) -> tuple[list[tuple[str, str]], int]:
    """`count` public encounters: (id, GM token) of each, and their head (the creation)."""
    async with aiohttp.ClientSession() as session:

        async def one(i: int) -> tuple[str, str]:
            async with session.post(
                f"{url}/encounters",
                json={"name": f"fan-out bench {i}", "ruleset": "freeform", "public": True},
            ) as r:
                body = await r.json()
                assert r.status == 201, body
            return body["id"], body["gm_token"]

        made: list[tuple[str, str]] = []
        for start in range(0, count, 50):
            made += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
        return made, 1


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def listening(proc: subprocess.Popen, port: int, what: str) -> subprocess.Popen:
    """`proc` once it accepts connections on `port` (killed after 10 s without)."""
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{what} did not start")


def start_server(port: int, db: str, cpus: set[int] | None) -> subprocess.Popen:
    log = open(db + ".log", "w")  # noqa: SIM115 - closed with the process; its tail is printed if it dies
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--db",
            db,
            "--port",
            str(port),
            "--max-ws",
            "0",
            "--rate-commands",
            "0",
            "--rate-reads",
            "0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
    )
    return listening(proc, port, "the server")


PRESETS = {
    "host": {
        "subscribers": 10_000,
        "encounters": 1_000,
        "rate": 200.0,
        "client_procs": 4,
        "target_p99_ms": 50.0,
    },
    "crowd": {"subscribers": 2_000, "encounters": 1, "rate": 20.0, "client_procs": 2, "target_p99_ms": 100.0},
}


def raise_open_files() -> int:
    """The soft open-file limit raised to the hard one (a socket per subscriber, on both sides)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def process_cpu_s(pid: int) -> tuple[float, float]:
    """The process's user-mode and kernel-mode CPU seconds so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def run_and_wait_s(pid: int) -> tuple[float, float]:
    """Seconds the process's threads ran, and waited runnable for a CPU (/proc/PID/task/*/schedstat)."""
    ran = waited = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                on_cpu, on_queue, _ = f.read().split()
        except OSError:
            continue
        ran, waited = ran + int(on_cpu), waited + int(on_queue)
    return ran / 1e9, waited / 1e9


class Run(msgspec.Struct):
    """One load against one server: what the clients saw and what the server spent."""

    commands: int
    elapsed: float
    connected: int
    frames: int
    expected: int
    frames_per_s: float
    from_ack: list[float]
    from_send: list[float]
    closed_early: int
    client_cpu: list[tuple[float, float]]
    commander_cpu: float
    server_user: float  # CPU seconds over the run, NaN for a server this script did not start
    server_system: float
    waited: float
    ran: float
    frame_bytes: float  # mean size of an event frame received


def run_load(
    args: argparse.Namespace, url: str, server: subprocess.Popen | None, client_cpus: set[int] | None
) -> Run:
    """Subscribe, send commands at the rate, and gather what every subscriber received."""
    encounters, head = asyncio.run(create(url, args.encounters))
    streams = [e for e, _ in encounters]
    ctx = mp.get_context("spawn")
    ready, results, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    wanted = [i % args.encounters for i in range(args.subscribers)]
    parts = [wanted[k :: args.client_procs] for k in range(args.client_procs)]
    procs = [
        ctx.Process(
            target=subscriber_process, args=(url, streams, head, part, ready, stop, results, client_cpus)
        )
        for part in parts
        if part
    ]
    t_connect = time.monotonic()
    for p in procs:
        p.start()
    connected = sum(ready.get(timeout=600) for _ in procs)
    print(f"{connected} subscribers caught up in {time.monotonic() - t_connect:.1f} s", flush=True)
    nan = float("nan")
    cpu0 = process_cpu_s(server.pid) if server is not None else (nan, nan)
    sched0 = run_and_wait_s(server.pid) if server is not None else (0.0, 0.0)
    commander_cpu0 = time.process_time()
    sent, acked, elapsed = asyncio.run(command_at_rate(url, encounters, args.rate, args.seconds))
    commander_cpu = time.process_time() - commander_cpu0
    time.sleep(2.0)  # let the last frames arrive
    cpu1 = process_cpu_s(server.pid) if server is not None else (nan, nan)
    sched1 = run_and_wait_s(server.pid) if server is not None else (0.0, 0.0)
    stop.set()
    outcomes = [results.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=30)

    from_ack, from_send = [], []
    frames = closed_early = event_bytes = 0
    last_recv = 0.0
    client_cpu: list[tuple[float, float]] = []
    for which_b, seqs_b, times_b, closed, cpu, wall, nbytes in outcomes:
        which, seqs, times = array.array("i"), array.array("q"), array.array("d")
        which.frombytes(which_b)
        seqs.frombytes(seqs_b)
        times.frombytes(times_b)
        closed_early += closed
        event_bytes += nbytes
        client_cpu.append((cpu, wall))
        frames += len(seqs)
        for index, seq, t in zip(which, seqs, times, strict=True):
            key = (index, seq)
            if key in acked:
                from_ack.append(max(0.0, t - acked[key]))
                from_send.append(t - sent[key])
                last_recv = max(last_recv, t)
    per_encounter = [0] * args.encounters
    for i in wanted:
        per_encounter[i] += 1
    return Run(
        commands=len(acked),
        elapsed=elapsed,
        connected=connected,
        frames=frames,
        expected=sum(per_encounter[index] for index, _ in acked),
        frames_per_s=frames / max(last_recv - min(sent.values()), 1e-9),
        from_ack=from_ack,
        from_send=from_send,
        closed_early=closed_early,
        client_cpu=client_cpu,
        commander_cpu=commander_cpu,
        server_user=cpu1[0] - cpu0[0],
        server_system=cpu1[1] - cpu0[1],
        waited=sched1[1] - sched0[1],
        ran=sched1[0] - sched0[0],
        frame_bytes=event_bytes / max(frames, 1),
    )


def report(name: str, args: argparse.Namespace, run: Run, target: float | None) -> None:
    print(f"-- {name}")
    print(
        f"commands: {run.commands} in {run.elapsed:.1f} s ({run.commands / run.elapsed:.1f}/s); subscribers: {run.connected}"
    )
    print(
        f"frames received: {run.frames} of {run.expected} expected ({run.frame_bytes:.0f} bytes each); "
        f"{run.frames_per_s:.0f} frames/s delivered"
    )
    p99 = percentile(run.from_ack, 99) * 1000
    print(
        f"latency from append acknowledged: p50 {percentile(run.from_ack, 50) * 1000:.1f} ms, "
        f"p99 {p99:.1f} ms, max {max(run.from_ack, default=float('nan')) * 1000:.1f} ms"
    )
    print(
        f"latency from command sent:        p50 {percentile(run.from_send, 50) * 1000:.1f} ms, "
        f"p99 {percentile(run.from_send, 99) * 1000:.1f} ms"
    )
    print(f"subscribers closed early: {run.closed_early}")
    busy = ", ".join(f"{cpu / wall:.0%}" for cpu, wall in run.client_cpu)
    server_cpu = run.server_user + run.server_system
    print(
        f"CPU, share of one core over the run: server {server_cpu / (run.elapsed + 2.0):.0%}; subscriber processes "
        f"{busy}; commander {run.commander_cpu / run.elapsed:.0%} (a client near 100% measures itself)"
    )
    if server_cpu == server_cpu:  # not NaN: a server this script started
        print(
            f"server CPU per frame delivered {server_cpu / max(run.frames, 1) * 1e6:.1f} us, user-mode "
            f"{run.server_user / max(run.frames, 1) * 1e6:.1f} us (with its share of the commands: "
            f"{server_cpu / max(run.commands, 1) * 1000:.2f} ms per command); its threads waited "
            f"{run.waited:.1f} s runnable for a CPU while they ran {run.ran:.1f} s (the machine's other work)"
        )
    if target is not None:
        print(
            f"p99 from acknowledged {p99:.1f} ms vs target {target:g} ms: ratio {p99 / target:.2f} "
            f"({'met' if p99 < target else 'NOT met'})"
        )


def start_broadcaster(port: int, frame_bytes: int, cpus: set[int] | None) -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            sys.executable,
            os.path.join(os.path.dirname(os.path.abspath(__file__)), "bare_broadcaster.py"),
            str(port),
            str(frame_bytes),
        ],
        stdout=subprocess.DEVNULL,
        preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
    )
    return listening(proc, port, "the broadcaster")


def per_frame(run: Run) -> tuple[float, float]:
    """Server CPU seconds per delivered frame: all, and user-mode only."""
    n = max(run.frames, 1)
    return (run.server_user + run.server_system) / n, run.server_user / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--url", default=None, help="a running server (default: start one on a temporary database)"
    )
    ap.add_argument(
        "--preset", choices=sorted(PRESETS), help="issue 19 item 7's loads (the flags below override)"
    )
    ap.add_argument("--subscribers", type=int, default=None, help="websockets in all (1000)")
    ap.add_argument("--encounters", type=int, default=None, help="encounters they are spread over (1)")
    ap.add_argument("--rate", type=float, default=None, help="commands per second, in all (20)")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--client-procs", type=int, default=None, help="subscriber processes (1)")
    ap.add_argument("--no-pin", action="store_true", help="leave the processes on any CPU")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds of Tussle then the minimal broadcaster (bench/bare_broadcaster.py) under the same load; "
        "0: Tussle only",
    )
    args = ap.parse_args()
    preset = PRESETS.get(args.preset or "", {})
    for name, default in (("subscribers", 1000), ("encounters", 1), ("rate", 20.0), ("client_procs", 1)):
        if getattr(args, name) is None:
            setattr(args, name, preset.get(name, default))
    target = preset.get("target_p99_ms")

    open_files = raise_open_files()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus = client_cpus = None
    if len(cpus) >= 2 and not args.no_pin:
        server_cpus, client_cpus = {cpus[0]}, set(cpus[1:])
    print(
        f"{args.subscribers} subscribers over {args.encounters} encounter(s), {args.rate:g} commands/s in all, "
        f"{args.seconds:g} s; {args.client_procs} subscriber process(es); open files {open_files}; "
        f"server on CPU {sorted(server_cpus) if server_cpus else 'any'}, client on CPU "
        f"{sorted(client_cpus) if client_cpus else 'any'}; load average {open('/proc/loadavg').read().strip()}",
        flush=True,
    )
    if client_cpus:
        os.sched_setaffinity(0, client_cpus)
    if args.url is not None:
        run = run_load(args, args.url, None, client_cpus)
        report("Tussle at " + args.url, args, run, target)
        return 0 if run.closed_early == 0 and run.frames == run.expected else 1

    ours: list[Run] = []
    bare: list[Run] = []
    for _ in range(max(args.rounds, 1)):
        port = free_port()
        server = start_server(port, os.path.join(tempfile.mkdtemp(), "bench.db"), server_cpus)
        try:
            ours.append(run_load(args, f"http://127.0.0.1:{port}", server, client_cpus))
        finally:
            if server.poll() is not None:
                with open(server.args[4] + ".log") as f:
                    print(f"the server exited with {server.returncode}:\n{f.read()[-3000:]}")
            server.terminate()
            server.wait(timeout=10)
        report(f"Tussle, round {len(ours)}", args, ours[-1], target)
        if args.rounds == 0:
            break
        port = free_port()
        broadcaster = start_broadcaster(port, round(ours[-1].frame_bytes), server_cpus)
        try:
            bare.append(run_load(args, f"http://127.0.0.1:{port}", broadcaster, client_cpus))
        finally:
            broadcaster.terminate()
            broadcaster.wait(timeout=10)
        report(f"minimal broadcaster, round {len(bare)}", args, bare[-1], None)
    if bare:
        ratios = [per_frame(a)[0] / per_frame(b)[0] for a, b in zip(ours, bare, strict=True)]
        user = [per_frame(a)[1] / per_frame(b)[1] for a, b in zip(ours, bare, strict=True)]
        print(
            f"server CPU per delivered frame, Tussle / minimal broadcaster: {statistics.median(ratios):.2f} "
            f"(target <= 1.15), user-mode {statistics.median(user):.2f} (target <= 1.3); rounds "
            + ", ".join(f"{r:.2f}/{u:.2f}" for r, u in zip(ratios, user, strict=True))
        )
    print(f"load average at the end: {open('/proc/loadavg').read().strip()}")
    return 0 if all(r.closed_early == 0 and r.frames == r.expected for r in ours) else 1


if __name__ == "__main__":
    sys.exit(main())
