"""Worker processes end with their server (issue 33 item 6), on SQLite and PostgreSQL: a `tussle serve`
that made an audit and a verify report (in its spawn worker) and is then killed with SIGKILL — no
atexit, no cleanup — leaves no process behind: neither the worker nor multiprocessing's resource
tracker lives on with PPID 1.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path

from tests.support.serving import ServeProcess

GONE_WITHIN_S = 30.0  # a bound for a broken build to fail in, not a speed


def children_of(pid: int) -> set[int]:
    """Every live descendant of `pid`, from /proc."""
    parents: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            parents[int(d.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def get(url: str, token: str) -> int:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=120) as r:
        r.read()
        return r.status


def test_a_killed_server_leaves_no_worker_behind(serve_args):
    proc = ServeProcess(*serve_args, "--host", "127.0.0.1")
    assert proc.port is not None, proc.stderr
    try:
        req = urllib.request.Request(
            f"{proc.url}/encounters",
            data=b'{"name": "x", "ruleset": "freeform"}',
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            created = json.loads(r.read())
        base = f"{proc.url}/encounters/{created['id']}"
        assert get(f"{base}/audit", created["gm_token"]) == 200
        assert get(f"{base}/verify", created["gm_token"]) == 200
        workers = children_of(proc.proc.pid)
        assert workers, "the reports ran in no worker process"
        os.kill(proc.proc.pid, signal.SIGKILL)
        proc.proc.wait()
        deadline = time.monotonic() + GONE_WITHIN_S
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if alive(p)]
        assert not left, [Path(f"/proc/{p}/cmdline").read_bytes()[:120] for p in left if alive(p)]
    finally:
        proc.stop()
