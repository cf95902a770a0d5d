"""Per-token request rates (API.md "Limits"): token buckets, 429 `rate_limited` with Retry-After.

Writes (POST, PATCH, DELETE) count against `--rate-commands` (20/s), reads (GET) against
`--rate-reads` (100/s), each with a burst of `--rate-burst` (x2) times the rate. A request is
counted against its bearer token once the server's auth has accepted that token; until then (and when
anonymous) against its IP address, so that inventing tokens does not buy fresh buckets.
`/healthz` and `/metrics` are not limited: they are the operator's probes.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from aiohttp import web

from server.encounters.tokens import token_hash
from server.http.context import PRINCIPAL
from server.http.errors import error_response
from server.settings import Settings

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
UNLIMITED_PATHS = frozenset({"/healthz", "/metrics"})
MAX_BUCKETS = 50_000
MAX_KNOWN_TOKENS = 100_000


class TokenBucket:
    """`capacity` requests at once, refilled at `rate` per second."""

    __slots__ = ("tokens", "updated")

    def __init__(self, capacity: float, now: float):
        self.tokens = capacity
        self.updated = now


class RateLimiter:
    """Token buckets by client key; `take` answers how long to wait (0: go ahead)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.capacity = max(1.0, rate * burst)
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float:
        now = self.clock()
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= MAX_BUCKETS:
                self._drop_full(now)
            b = self.buckets[key] = TokenBucket(self.capacity, now)
        else:
            b.tokens = min(self.capacity, b.tokens + (now - b.updated) * self.rate)
            b.updated = now
        if b.tokens >= 1.0:
            b.tokens -= 1.0
            return 0.0
        return (1.0 - b.tokens) / self.rate

    def _drop_full(self, now: float) -> None:
        """Forget clients whose bucket has refilled: they lose nothing by it."""
        for key, b in list(self.buckets.items()):
            if b.tokens + (now - b.updated) * self.rate >= self.capacity:
                del self.buckets[key]


class RateLimits:
    """The app's two limiters and the tokens seen accepted."""

    def __init__(self, commands_per_s: float | None, reads_per_s: float | None, burst: float):
        self.commands = RateLimiter(commands_per_s, burst) if commands_per_s else None
        self.reads = RateLimiter(reads_per_s, burst) if reads_per_s else None
        self.known_tokens: OrderedDict[str, None] = OrderedDict()

    def client_key(self, request: web.Request) -> tuple[str, str | None]:
        """(the key requests are counted under, the token's key if a token was sent)."""
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header.startswith("Bearer ") else ""
        ip_key = "ip:" + (request.remote or "unknown")
        if not token:
            return ip_key, None
        key = "token:" + token_hash(token)[:32]
        return (key if key in self.known_tokens else ip_key), key

    def learn(self, token_key: str, accepted: bool) -> None:
        if accepted:
            self.known_tokens[token_key] = None
            self.known_tokens.move_to_end(token_key)
            if len(self.known_tokens) > MAX_KNOWN_TOKENS:
                self.known_tokens.popitem(last=False)
        else:
            self.known_tokens.pop(token_key, None)


RATE_LIMITS = web.AppKey("rate_limits", RateLimits)


def rate_limits_from(settings: Settings) -> RateLimits:
    """Rates from the app settings; None or 0 means unlimited (make_app's default; the CLI
    passes API.md's 20 and 100 per second)."""
    return RateLimits(settings.rate_commands, settings.rate_reads, settings.rate_burst)


def rate_limited(request: web.Request) -> tuple[web.Response | None, str | None]:
    """(the 429, if the request is over its rate; the token key whose answer teaches the limits)."""
    if request.method == "OPTIONS" or request.path in UNLIMITED_PATHS:
        return None, None
    limits = request.app[RATE_LIMITS]
    limiter = limits.commands if request.method in WRITE_METHODS else limits.reads
    if limiter is None:
        return None, None
    key, token_key = limits.client_key(request)
    wait = limiter.take(key)
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        kind = "commands" if limiter is limits.commands else "reads"
        who = "this token" if key.startswith("token:") else "this address"
        answer = error_response(
            429,
            "rate_limited",
            f"too many {kind} from {who}: at most {limiter.rate:g} per second; try again in {seconds} s",
            {"retry_after": seconds, "limit_per_s": limiter.rate},
            headers={"Retry-After": str(seconds)},
        )
        return answer, None
    return None, token_key


def learn(request: web.Request, token_key: str, status: int) -> None:
    """A token is good once the auth helpers accepted it (they set the request's principal), and
    forgotten on a 401; a request that failed before auth (a 400, a 413) teaches nothing."""
    limits = request.app[RATE_LIMITS]
    if status == 401:
        limits.learn(token_key, False)
    elif request.get(PRINCIPAL) is not None:
        limits.learn(token_key, True)
