"""JSONL export: one envelope per line, then the trailer (API.md "Exports")."""

from __future__ import annotations

from collections.abc import AsyncIterator

import msgspec

from events.envelope import timestamp
from events.store.port import Store

_enc = msgspec.json.Encoder()
PAGE = 5000


async def ndjson_lines(store: Store, stream: str, start: int = 1) -> AsyncIterator[bytes]:
    """The stream from `start` as NDJSON lines, ending with the trailer line."""
    head_seq, head_hash, commitments = 0, "0" * 64, []
    seq = 1
    while True:
        page = await store.read(stream, seq, PAGE)
        for e in page:
            if e.type == "EncounterCreated" and e.data.get("commitment"):
                commitments.append(e.data["commitment"])
            elif e.type == "DiceSeedRotated" and e.data.get("commitment"):
                commitments.append(e.data["commitment"])
            head_seq, head_hash = e.seq, e.hash
            if e.seq >= start:
                yield _enc.encode(e) + b"\n"
        if len(page) < PAGE:
            break
        seq = page[-1].seq + 1
    trailer = {"stream": stream, "head_seq": head_seq, "head_hash": head_hash, "commitments": commitments,
               "exported_at": timestamp()}
    yield _enc.encode({"trailer": trailer}) + b"\n"
