"""`GET /metrics` in the Prometheus text format (0.0.4), and the websocket connection counts.

A few counters, gauges and one histogram are all Tussle needs, so they are written here rather than
through a client library: one `Metrics` per app, no process-wide registry (the tests run several
servers in one process).

Websocket API (for `server/live/websocket.py`):

    key = ws_key(request, token)        # per token; per IP when anonymous
    if not ws_allowed(request.app, key): refuse with 429 rate_limited before the upgrade
    ws_opened(request.app, key)         # after a successful upgrade
    ...
    ws_closed(request.app, key)         # in a `finally`, exactly once per ws_opened
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from aiohttp import web

from server.encounters.tokens import token_hash
from server.http.context import ENCOUNTERS, SETTINGS

# Seconds; commands are fsynced appends, so the interesting range is sub-millisecond to a second.
APPEND_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Histogram:
    """Cumulative buckets, a sum and a count."""

    def __init__(self, buckets: tuple[float, ...]):
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.buckets, value)] += 1
        self.sum += value
        self.count += 1


class Metrics:
    """Everything /metrics shows for one app."""

    def __init__(self) -> None:
        self.requests: dict[tuple[str, str, str], int] = defaultdict(int)  # (route, method, status)
        self.commands: dict[tuple[str, str], int] = defaultdict(int)  # (type, outcome)
        self.append_seconds = Histogram(APPEND_BUCKETS)
        self.events_appended = 0
        self.websockets: dict[str, int] = defaultdict(int)  # client key -> open connections
        self.websockets_opened = 0
        self.websockets_lagging = 0
        self.sections: list[
            Callable[[], list[str]]
        ] = []  # more families, e.g. the webhooks' (server/webhooks/)

    def websocket_count(self) -> int:
        return sum(self.websockets.values())

    def render(self, cache_size: int) -> str:
        """The text exposition format."""
        out: list[str] = []

        def family(name: str, kind: str, help_: str) -> None:
            out.append(f"# HELP {name} {help_}")
            out.append(f"# TYPE {name} {kind}")

        family("tussle_http_requests_total", "counter", "HTTP requests by route, method and status.")
        for (route, method, status), n in sorted(self.requests.items()):
            out.append(f"tussle_http_requests_total{_labels(route=route, method=method, status=status)} {n}")
        family(
            "tussle_commands_total",
            "counter",
            "Commands by type and outcome (appended, duplicate, or the error code).",
        )
        for (ctype, outcome), n in sorted(self.commands.items()):
            out.append(f"tussle_commands_total{_labels(type=ctype, outcome=outcome)} {n}")
        family(
            "tussle_append_seconds", "histogram", "Latency of commands that appended, request to response."
        )
        h = self.append_seconds
        cumulative = 0
        for bound, n in zip(h.buckets, h.counts, strict=False):
            cumulative += n
            out.append(f'tussle_append_seconds_bucket{{le="{bound}"}} {cumulative}')
        out.append(f'tussle_append_seconds_bucket{{le="+Inf"}} {h.count}')
        out.append(f"tussle_append_seconds_sum {h.sum}")
        out.append(f"tussle_append_seconds_count {h.count}")
        family("tussle_events_appended_total", "counter", "Events appended to any encounter.")
        out.append(f"tussle_events_appended_total {self.events_appended}")
        family("tussle_websocket_connections", "gauge", "Open websocket connections.")
        out.append(f"tussle_websocket_connections {self.websocket_count()}")
        family("tussle_websocket_connections_opened_total", "counter", "Websocket connections ever opened.")
        out.append(f"tussle_websocket_connections_opened_total {self.websockets_opened}")
        family(
            "tussle_websocket_lagging_total",
            "counter",
            "Websocket connections closed with 4008 lagging (a full queue, or a send past its deadline).",
        )
        out.append(f"tussle_websocket_lagging_total {self.websockets_lagging}")
        family("tussle_state_cache_encounters", "gauge", "Encounter states held in memory.")
        out.append(f"tussle_state_cache_encounters {cache_size}")
        for section in self.sections:
            out += section()
        return "\n".join(out) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(**labels: Any) -> str:
    return "{" + ",".join(f'{k}="{_escape(str(v))}"' for k, v in labels.items()) + "}"


METRICS = web.AppKey("metrics", Metrics)


async def metrics_handler(request: web.Request) -> web.Response:
    """GET /metrics."""

    text = request.app[METRICS].render(request.app[ENCOUNTERS].cache_size())
    return web.Response(
        text=text, content_type="text/plain", charset="utf-8", headers={"X-Content-Type-Options": "nosniff"}
    )


# ---- websockets -------------------------------------------------------------------------------


def ws_key(request: web.Request, token: str | None) -> str:
    """Whose websockets these are: the token's (by hash; never the token itself), else the IP's."""
    if token:
        return "token:" + token_hash(token)[:32]
    return "ip:" + (request.remote or "unknown")


def ws_allowed(app: web.Application, key: str) -> bool:
    """Whether `key` may open one more websocket (`--max-ws`, default 100 per token)."""

    limit = app[SETTINGS].max_ws
    return not limit or app[METRICS].websockets.get(key, 0) < limit


def ws_opened(app: web.Application, key: str) -> None:
    """Count a websocket that was upgraded."""
    m = app[METRICS]
    m.websockets[key] += 1
    m.websockets_opened += 1


def ws_closed(app: web.Application, key: str) -> None:
    """Count a websocket that ended (call once per `ws_opened`)."""
    m = app[METRICS]
    left = m.websockets.get(key, 0) - 1
    if left > 0:
        m.websockets[key] = left
    else:
        m.websockets.pop(key, None)
