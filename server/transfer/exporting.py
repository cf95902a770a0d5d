"""JSONL export: one envelope per line, then the trailer (API.md "Exports")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from events.envelope import timestamp
from events.store.port import EventStore
from projections.forum_export import VERIFYING_DOC

_enc = msgspec.json.Encoder()
# Events read, encoded and written between yields to the event loop (a few milliseconds of work).
PAGE = 250

# Seqs of the log read at once by a forum export (log_range yields while it describes them).
LOG_PAGE = 2000


async def ndjson_lines(
    store: EventStore,
    stream: str,
    start: int = 1,
    earlier: tuple[list[str], int, str] | None = None,
    receipt_keys: list[dict[str, Any]] | None = None,
    verifying: str = VERIFYING_DOC,
    discord_keys: list[str] | None = None,
) -> AsyncIterator[bytes]:
    """The stream from `start` as NDJSON lines, ending with the trailer line. `earlier`: the commitments
    published before `start` and the seq and hash of event `start - 1` (else the events before `start`
    are read for them); `receipt_keys`: the server's public receipt keys, current and retired (GET /keys);
    `verifying`: where the rules of verifying it are written (the trailer links to them)."""
    head_seq, head_hash, commitments = 0, "0" * 64, []
    seq = 1
    if earlier is not None:
        commitments, head_seq, head_hash = list(earlier[0]), earlier[1], earlier[2]
        seq = start
    while True:
        page = await store.read(stream, seq, PAGE)
        chunk = []
        for e in page:
            if e.type == "EncounterCreated" and e.data.get("commitment"):
                commitments.append(e.data["commitment"])
            elif e.type == "DiceSeedRotated" and e.data.get("commitment"):
                commitments.append(e.data["commitment"])
            head_seq, head_hash = e.seq, e.hash
            if e.seq >= start:
                chunk.append(_enc.encode(e) + b"\n")
        if chunk:
            yield b"".join(chunk)
        if len(page) < PAGE:
            break
        seq = page[-1].seq + 1
        await asyncio.sleep(0)  # a long stream is written in pieces, never holding the loop
    # The head the store records, not the last event read: rows cut from the tail of the events table
    # then show as a trailer head the stream does not reach (docs/verifying.md §3).
    info = await store.stream_info(stream)
    if info is not None and info.seq > head_seq:
        head_seq, head_hash = info.seq, info.hash
    trailer = {
        "stream": stream,
        "head_seq": head_seq,
        "head_hash": head_hash,
        "commitments": commitments,
        "exported_at": timestamp(),
        "verifying": verifying,
    }
    if receipt_keys is not None:
        trailer["receipt_keys"] = receipt_keys
    if discord_keys:  # the Discord application's, for the commands sent from Discord (docs/discord.md)
        trailer["discord_public_keys"] = discord_keys
    yield _enc.encode({"trailer": trailer}) + b"\n"


async def forum_chunks(
    enc: Any,
    stream: str,
    flavour: str,
    turn: int | None = None,
    max_chars: int | None = None,
    span: tuple[int, int, int] | None = None,
    verify_url: str | None = None,
) -> AsyncIterator[str]:
    """The log as forum posts (GET /log?format=markdown|bbcode), the whole encounter or one turn, written
    turn by turn as the log is read page by page: memory holds one page and one turn, never the stream.
    The posts are those of the whole log at once (a turn's posts are rendered once its last entry is known).
    `span`: (first, last, at), the seqs of a page of the log as of `at`, instead of the whole or the turn;
    `verify_url`: the link the last post gives to docs/verifying.md (GET /verifying)."""
    from projections.forum_export import POST_SEPARATOR, forum_posts
    from server.encounters.log_reading import LogRange, log_range, timeline, turn_range

    if span is not None:  # (first, last, at): a page of GET /log
        first, last, at = span
    else:
        at = (await enc.store.stream_info(stream)).seq
        first, last = (await turn_range(enc, stream, turn, at)) if turn is not None else (1, at)
    revealed = await enc.store.revealed_seeds(stream)
    head: dict[str, Any] = {}
    pending: list[dict[str, Any]] = []  # the entries of the turn being read
    written = 0

    def posts(entries: list[dict[str, Any]], commitments: list[dict[str, Any]], is_last: bool) -> str:
        nonlocal written
        out = forum_posts(
            entries,
            name=name,
            commitments=commitments,
            head=head,
            flavour=flavour,
            max_chars=max_chars,
            verify_url=verify_url,
        )
        if not is_last:  # rendered with the next turn's first entry after it, so its posts are not the last
            out = out[:-1]
        text = (POST_SEPARATOR if written else "") + POST_SEPARATOR.join(out)
        written += len(out)
        return text

    seq = first
    name = stream
    start: Any = None  # the first page: what was published before the export's first seq
    seed_events: list[Any] = []  # the publications and reveals of commitments read so far
    while True:  # once at least: an empty range (a turn not begun as of `at`) still has its footer
        page_last = min(last, seq + LOG_PAGE - 1)
        r = await log_range(enc, stream, seq, page_last, at)
        name = r.end.state["name"] or stream
        head = head or {"seq": r.end.state["seq"], "hash": r.end.state["hash"]}
        start = start or r
        seed_events += [e for e in r.events if e.type in ("EncounterCreated", "DiceSeedRotated")]
        commitments = timeline(
            LogRange(start.end, start.log, seed_events, first, page_last, start.earlier), revealed
        )
        entries = r.log.entries if turn is None else [e for e in r.log.entries if e["turn"] == turn]
        for entry in entries:
            if pending and entry["turn"] != pending[-1]["turn"]:
                yield posts([*pending, entry], commitments, is_last=False)
                pending = []
            pending.append(entry)
        seq = page_last + 1
        if seq > last:
            break
    yield posts(pending, commitments, is_last=True) + "\n"
