"""Websocket fan-out benchmark: N subscribers on one encounter while commands arrive at a fixed rate.

    python bench/fanout.py                       # starts `tussle serve` on a temporary database
    python bench/fanout.py --url http://127.0.0.1:8080 --subscribers 200 --rate 20 --seconds 30

Reports delivery latency p50/p99 from "append acknowledged" (the 201 arrived at the commander) to "frame
received" by each subscriber, the same from "command sent", frames/s, and how many subscribers were
closed early (a healthy run closes none). Subscribers run in `--client-procs` worker processes; the
commander in this one. CLOCK_MONOTONIC is system-wide, so times compare across processes.

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
import secrets
import socket
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


async def _subscribers(url: str, stream: str, after: int, count: int, ready: mp.Queue, stop: mp.Event,
                       results: mp.Queue) -> None:
    # Flat arrays, not a list of tuples: hundreds of thousands of tracked objects would make the
    # collector's full passes stall this process and show up as delivery latency.
    gc.disable()
    seqs, times = array.array("q"), array.array("d")
    closed_early = 0
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        sockets = []
        for start in range(0, count, 100):
            batch = await asyncio.gather(*(session.ws_connect(f"{url}/encounters/{stream}/ws", autoping=True,
                                                              max_msg_size=0)
                                           for _ in range(start, min(count, start + 100))))
            sockets += batch
        for ws in sockets:
            await ws.send_json({"op": "subscribe", "projection": "events", "after": after})
        caught = asyncio.Event()
        pending = len(sockets)

        async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
            nonlocal pending, closed_early
            now = time.monotonic
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                f = _decode(msg.data)
                if f.type == "event":
                    seqs.append(f.seq)
                    times.append(now())
                elif f.type == "caught_up":
                    pending -= 1
                    if pending == 0:
                        caught.set()
            if not stopping:
                closed_early += 1

        stopping = False
        readers = [asyncio.create_task(read(ws)) for ws in sockets]
        await caught.wait()
        ready.put(len(sockets))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        stopping = True
        for ws in sockets:
            await ws.close()
        for t in readers:
            t.cancel()
    results.put((list(zip(seqs, times, strict=True)), closed_early))


def subscriber_process(url: str, stream: str, after: int, count: int, ready: mp.Queue, stop: mp.Event,
                       results: mp.Queue) -> None:
    asyncio.run(_subscribers(url, stream, after, count, ready, stop, results))


# ---- the commander ----------------------------------------------------------------------------


async def command_at_rate(url: str, stream: str, token: str, rate: float, seconds: float
                          ) -> tuple[dict[int, float], dict[int, float], float]:
    sent: dict[int, float] = {}
    acked: dict[int, float] = {}
    interval = 1.0 / rate
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as session:
        async def one(i: int) -> None:
            body = {"type": "note", "text": f"fan-out note {i}", "command_id": f"bench-{i}-{secrets.token_hex(4)}"}
            t0 = time.monotonic()
            async with session.post(f"{url}/encounters/{stream}/commands", json=body, headers=headers) as r:
                data = await r.json()
                t1 = time.monotonic()
                if r.status != 201:
                    raise RuntimeError(f"command failed: {r.status} {data}")
            sent[data["seq"]], acked[data["seq"]] = t0, t1

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


async def create(url: str) -> tuple[str, str, int]:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{url}/encounters", json={"name": "fan-out bench", "ruleset": "freeform",
                                                           "public": True}) as r:
            body = await r.json()
            assert r.status == 201, body
        return body["id"], body["gm_token"], 1


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def start_server(port: int, db: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--db", db, "--port", str(port),
                             "--max-ws", "0", "--rate-commands", "0", "--rate-reads", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default=None, help="a running server (default: start one on a temporary database)")
    ap.add_argument("--subscribers", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=20.0, help="commands per second")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--client-procs", type=int, default=1, help="subscriber processes")
    args = ap.parse_args()

    server = None
    url = args.url
    if url is None:
        port = free_port()
        server = start_server(port, os.path.join(tempfile.mkdtemp(), "bench.db"))
        url = f"http://127.0.0.1:{port}"
    try:
        stream, token, head = asyncio.run(create(url))
        ctx = mp.get_context("spawn")
        ready, results, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        per = [args.subscribers // args.client_procs + (1 if i < args.subscribers % args.client_procs else 0)
               for i in range(args.client_procs)]
        procs = [ctx.Process(target=subscriber_process, args=(url, stream, head, n, ready, stop, results))
                 for n in per if n]
        t_connect = time.monotonic()
        for p in procs:
            p.start()
        connected = sum(ready.get(timeout=300) for _ in procs)
        print(f"{connected} subscribers caught up in {time.monotonic() - t_connect:.1f} s", flush=True)
        sent, acked, elapsed = asyncio.run(command_at_rate(url, stream, token, args.rate, args.seconds))
        time.sleep(2.0)  # let the last frames arrive
        stop.set()
        outcomes = [results.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)

    from_ack, from_send = [], []
    frames = 0
    closed_early = 0
    last_recv = 0.0
    for received, closed in outcomes:
        closed_early += closed
        frames += len(received)
        for seq, t in received:
            if seq in acked:
                from_ack.append(max(0.0, t - acked[seq]))
                from_send.append(t - sent[seq])
                last_recv = max(last_recv, t)
    expected = len(acked) * connected
    first_send = min(sent.values())
    print(f"commands: {len(acked)} in {elapsed:.1f} s ({len(acked) / elapsed:.1f}/s); subscribers: {connected}")
    print(f"frames received: {frames} of {expected} expected; "
          f"{frames / (last_recv - first_send):.0f} frames/s delivered")
    print(f"latency from append acknowledged: p50 {percentile(from_ack, 50) * 1000:.1f} ms, "
          f"p99 {percentile(from_ack, 99) * 1000:.1f} ms, max {max(from_ack) * 1000:.1f} ms")
    print(f"latency from command sent:        p50 {percentile(from_send, 50) * 1000:.1f} ms, "
          f"p99 {percentile(from_send, 99) * 1000:.1f} ms")
    print(f"subscribers closed early: {closed_early}")
    return 0 if closed_early == 0 and frames == expected else 1


if __name__ == "__main__":
    sys.exit(main())
