"""`tussle import FILE.jsonl`: an exported encounter restored on another server (docs/deploy.md).

The file is verified first (chain, server dice, trailer). Its events are then appended again command
by command through the store's one sealing path, each with the timestamp it was first stored with, so
every event gets back the seq and hash it had: the restored hashes are compared with the file's, and
anything different undoes the import. What a chain cannot carry — the unrevealed seed and the token
hashes — comes from the `secrets` line that `tussle export --with-secrets` adds.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import groupby
from typing import Any

import msgspec

from events.dice import commitment_of
from events.envelope import ZERO_HASH, Event, NewEvent
from events.store.port import Append, SeedRow, Store, StreamInfo, TokenRow
from projections.audit import commitment_timeline
from server.audit.verifying import parse_export, verify_export

SECRETS = "secrets"
_enc = msgspec.json.Encoder()


class ImportRefused(Exception):
    """The file cannot be restored; the message says why and what to do."""


class Secrets(msgspec.Struct, frozen=True):
    """What a chain cannot carry: unrevealed seeds (hex, by commitment) and the live token hashes."""

    seeds: dict[str, str] = {}
    tokens: list[TokenRow] = []


async def secrets_line(store: Store, stream: str, events: list[Event]) -> bytes:
    """The export's last line for `--with-secrets`: as secret as the database it comes from."""
    revealed = await store.revealed_seeds(stream)
    seeds = {}
    for commitment in [*(c["commitment"] for c in commitment_timeline(events)), *_hidden_commitment(events)]:
        if commitment not in revealed:
            seed = await store.seed(stream, commitment)
            if seed is not None:
                seeds[commitment] = seed.hex()
    tokens = await store.stream_tokens(stream)
    return _enc.encode({SECRETS: Secrets(seeds, tokens)}) + b"\n"


def split_secrets(raw: bytes) -> tuple[bytes, Secrets | None]:
    """The export without its secrets line, and the secrets (None when the file has none)."""
    lines = raw.split(b"\n")
    kept, secrets = [], None
    for line in lines:
        if line.startswith(b'{"secrets"'):
            try:
                secrets = msgspec.json.decode(line, type=dict[str, Secrets])[SECRETS]
            except (msgspec.DecodeError, msgspec.ValidationError, KeyError) as exc:
                raise ImportRefused(f"the secrets line is malformed: {exc}") from None
            continue
        kept.append(line)
    return b"\n".join(kept), secrets


def _hidden_commitment(events: list[Event]) -> list[str]:
    """The hidden seed's commitment (the GM's hidden rolls), if the encounter has one."""
    first = events[0] if events else None
    found = (
        first.data.get("hidden_commitment")
        if first is not None and first.type == "EncounterCreated"
        else None
    )
    return [found] if found else []


def _seeds_by_commitment(events: list[Event], secrets: Secrets | None) -> dict[str, bytes]:
    """Each commitment's seed: revealed ones from the chain itself, the rest from the secrets line."""
    timeline = commitment_timeline(events)
    seeds = {
        c["commitment"]: bytes.fromhex(c["revealed_seed"]) for c in timeline if c["revealed_seed"] is not None
    }
    seeds.update(
        {
            e.data["commitment"]: bytes.fromhex(e.data["revealed_seed"])
            for e in events
            if e.type == "HiddenSeedRevealed"
        }
    )
    current = timeline[-1]["commitment"] if timeline and timeline[-1]["replaced_at_seq"] is None else None
    for commitment, seed_hex in (secrets.seeds if secrets else {}).items():
        seeds.setdefault(commitment, bytes.fromhex(seed_hex))
    # A closed encounter that made no hidden roll never revealed its hidden seed, and needs it no more.
    closed = any(e.type == "EncounterClosed" for e in events)
    live = [c for c in [current, *([] if closed else _hidden_commitment(events))] if c is not None]
    if any(c not in seeds for c in live):
        raise ImportRefused(
            "this encounter is still live and the file holds no secrets: the new server could not roll the "
            "dice its chain committed to. Export it with `tussle export ID --with-secrets` on the old "
            "server (or close it first)"
        )
    for commitment, seed in seeds.items():
        if commitment_of(seed) != commitment:
            raise ImportRefused(f"the seed given for commitment {commitment} does not hash to it")
    return seeds


def _appends(events: list[Event], secrets: Secrets | None) -> Iterator[tuple[Append, str]]:
    """One append (and its original timestamp) per stored command, in order."""
    seeds = _seeds_by_commitment(events, secrets)
    created = events[0].data
    info = StreamInfo(
        events[0].stream,
        created["name"],
        created["ruleset"],
        bool(created.get("public")),
        0,
        ZERO_HASH,
        False,
    )
    current = created.get("commitment")
    hidden = created.get("hidden_commitment")
    expected = 0
    runs = groupby(events, key=lambda e: (e.command_id, e.actor, e.ts))
    for n, ((command_id, actor, ts), run) in enumerate(runs):
        group = list(run)
        new_seeds, reveal = [], []
        if n == 0 and current is not None:
            new_seeds.append(SeedRow(current, seeds[current]))
        if n == 0 and hidden is not None and hidden in seeds:
            new_seeds.append(SeedRow(hidden, seeds[hidden]))
        for e in group:
            if e.type == "HiddenSeedRevealed":
                reveal.append(e.data["commitment"])
            if e.type == "DiceSeedRotated":
                if current is not None:
                    reveal.append(current)
                current = e.data.get("commitment")
                if current is not None:
                    new_seeds.append(SeedRow(current, seeds[current]))
        yield (
            Append(
                info.id,
                expected,
                command_id,
                f"imported:{group[0].hash}",
                actor,
                [NewEvent(e.type, e.data) for e in group],
                seeds=new_seeds,
                reveal=reveal,
                tokens=list(secrets.tokens) if (n == 0 and secrets) else [],
                create=info if n == 0 else None,
                closes=any(e.type == "EncounterClosed" for e in group),
            ),
            ts,
        )
        expected += len(group)


def checked_events(raw: bytes) -> tuple[list[Event], Secrets | None]:
    """The file's events once they verify, and its secrets; ImportRefused otherwise."""
    export, secrets = split_secrets(raw)
    report = verify_export(export)
    if not report["ok"]:
        first = report["problems"][0]["message"] if report["problems"] else "it does not verify"
        raise ImportRefused(
            f"the file does not verify ({first}); run `tussle verify` on it for the whole report"
        )
    events, trailer, _ = parse_export(export)
    if trailer is None:
        raise ImportRefused(
            "the file has no trailer line: import a whole export (tussle export, or "
            "GET /encounters/{id}/events?format=ndjson)"
        )
    if events[0].seq != 1 or events[0].type != "EncounterCreated" or len({e.stream for e in events}) != 1:
        raise ImportRefused(
            "the file must hold one encounter's whole stream, from its EncounterCreated at seq 1"
        )
    return events, secrets


async def import_stream(store: Store, raw: bytes) -> dict[str, Any]:
    """Restore one exported encounter into `store`: {stream, head_seq, head_hash, seeds, tokens}."""
    events, secrets = checked_events(raw)
    return await restore(store, events, secrets)


async def restore(store: Store, events: list[Event], secrets: Secrets | None) -> dict[str, Any]:
    """Append a whole stream's `events` as they were stored (the commands' own timestamps, so every hash
    comes back); the caller has checked them (`checked_events`, or a test's own golden stream)."""
    stream = events[0].stream
    if await store.stream_info(stream) is not None:
        raise ImportRefused(f"this server already has an encounter {stream}")
    plan = list(_appends(events, secrets))
    original_clock = store.clock
    restored: list[Event] = []
    try:
        for request, ts in plan:
            store.clock = functools.partial(str, ts)  # the command's first timestamp: its hash comes back
            restored += (await store.append(request)).events
        differs = next((a for a, b in zip(restored, events, strict=True) if a.hash != b.hash), None)
        if differs is not None:
            raise ImportRefused(f"seq {differs.seq} did not come back with its hash; nothing was imported")
    except BaseException:
        await store.delete_stream(stream)
        raise
    finally:
        store.clock = original_clock
    return {
        "stream": stream,
        "head_seq": restored[-1].seq,
        "head_hash": restored[-1].hash,
        "seeds": len({s.commitment for r, _ in plan for s in r.seeds}),
        "tokens": len(secrets.tokens) if secrets else 0,
    }
