"""The one check-and-seal plan both backends run for a batch of appends.

A backend reads what the batch depends on — the heads of its encounters, the commands whose ids it
uses, the creation command_ids it names — under its write lock, in a fixed number of statements. The
plan then checks and seals every request in Python, in request order, each accepted request moving
its encounter's head for the next: exactly the checks of one command at a time. It decides without
I/O; the backend writes what it says (new streams, events, commands, heads, each accepted request's
side rows in request order, since a later command may revoke a token an earlier one created) and
fills in the stored events of resends.

The checks, in order, for each request:
0. when the backend read the live tokens (`tokens`), the request's token (`Append.token_hash`) must
   be one of them, of its stream, and not revoked by a command earlier in the batch (`TokenRevoked`);
1. its command_id already stored (or sealed earlier in the batch): the same identity and actor is a
   resend (answered with the stored events), another is `CommandIdReused`;
2. a creation: the stream must not exist (`StreamExists`) nor its creation command_id be taken
   (`CreationExists`); it then starts at seq 0 and ZERO_HASH;
3. the stream's head must be at the request's `expected_seq` (`SeqConflict`, at 0 for no stream).
A request that fails writes nothing; the others go on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from events.envelope import ZERO_HASH, Event, sealed_with_data
from events.store.port import (
    Append,
    AppendResult,
    CommandIdReused,
    CreationExists,
    SeqConflict,
    StreamExists,
    StreamInfo,
    TokenRevoked,
    TokenRow,
)


class Prior(NamedTuple):
    """A command already stored: who sent what, and the seqs of its events."""

    identity: str
    actor: str
    first_seq: int
    last_seq: int


class Resend(NamedTuple):
    """A resend of a stored command: the backend answers it with these stored events."""

    stream: str
    first_seq: int
    last_seq: int


class CommandRow(NamedTuple):
    stream: str
    command_id: str
    identity: str
    actor: str
    first_seq: int
    last_seq: int


class HeadRow(NamedTuple):
    """An encounter's head after the batch; `closes` when a command of the batch closed it."""

    seq: int
    hash: str
    closes: bool


class Plan:
    """What a batch writes, and each request's answer (a `Resend` for the backend to fill in)."""

    def __init__(self) -> None:
        self.results: list[AppendResult | Exception | Resend] = []
        self.accepted: list[Append] = []  # in request order: their side rows are written in this order
        self.created: list[StreamInfo] = []  # new streams, in request order
        self.events: list[Event] = []
        self.data_texts: list[str] = []  # events[i]'s data as canonical JSON: what was hashed, as stored
        self.commands: list[CommandRow] = []
        self.heads: dict[str, HeadRow] = {}


def plan_batch(
    requests: list[Append],
    heads: dict[str, tuple[int, str]],
    priors: dict[tuple[str, str], Prior],
    taken_creations: set[str],
    clock: Callable[[], str],
    tokens: dict[str, tuple[str, TokenRow]] | None = None,
) -> Plan:
    """Check and seal `requests` against what the store holds: `heads` (stream -> (seq, hash)), `priors`
    ((stream, command_id) -> Prior), the creation command_ids already used and, unless None (then the
    backend checks them itself), the live tokens among the requests' (hash -> (stream, row)). None of
    the arguments is changed."""
    heads = dict(heads)
    live = dict(tokens) if tokens is not None else None
    taken = set(taken_creations)
    sealed_here: dict[tuple[str, str], tuple[Prior, list[Event]]] = {}
    out = Plan()
    for req in requests:
        if live is not None and req.token_hash is not None:
            found = live.get(req.token_hash)
            if found is None or found[0] != req.stream:
                out.results.append(TokenRevoked())
                continue
        key = (req.stream, req.command_id)
        here = sealed_here.get(key)
        prior = here[0] if here is not None else priors.get(key)
        if prior is not None:
            if prior.identity != req.identity or prior.actor != req.actor:
                out.results.append(CommandIdReused(req.command_id))
            elif here is not None:
                out.results.append(AppendResult(here[1], duplicate=True))
            else:
                out.results.append(Resend(req.stream, prior.first_seq, prior.last_seq))
            continue
        head = heads.get(req.stream)
        if req.create is not None:
            if head is not None:
                out.results.append(StreamExists(req.stream))
                continue
            if req.create_key is not None and req.create_key in taken:
                out.results.append(CreationExists(req.create_key))
                continue
            head = (0, ZERO_HASH)
        if head is None:
            out.results.append(SeqConflict(req.expected_seq, 0))
            continue
        seq, prev = head
        if seq != req.expected_seq:
            out.results.append(SeqConflict(req.expected_seq, seq))
            continue
        if req.create is not None:
            out.created.append(req.create)
            if req.create_key is not None:
                taken.add(req.create_key)
        ts = clock()
        sealed: list[Event] = []
        for new in req.events:
            seq += 1
            ev, data = sealed_with_data(req.stream, seq, new, req.actor, req.command_id, ts, prev)
            prev = ev.hash
            sealed.append(ev)
            out.data_texts.append(data.decode())
        if sealed:
            out.commands.append(
                CommandRow(req.stream, req.command_id, req.identity, req.actor, sealed[0].seq, sealed[-1].seq)
            )
            sealed_here[key] = (Prior(req.identity, req.actor, sealed[0].seq, sealed[-1].seq), sealed)
            out.events += sealed
        heads[req.stream] = (seq, prev)
        moved = out.heads.get(req.stream)
        out.heads[req.stream] = HeadRow(seq, prev, req.closes or (moved is not None and moved.closes))
        out.accepted.append(req)
        out.results.append(AppendResult(sealed))
        if live is not None and req.revoke:
            for h in [h for h, (stream, row) in live.items() if stream == req.stream and _revokes(req, row)]:
                del live[h]
    return out


def _revokes(req: Append, row: TokenRow) -> bool:
    """Whether one of the request's revocations names this token of its stream (as the backends' UPDATEs do)."""
    return any(
        row.token_id == r.token_id if r.token_id is not None else (row.role == r.role and row.seat == r.seat)
        for r in req.revoke
    )
