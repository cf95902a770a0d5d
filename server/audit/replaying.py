"""The replay audit (`tussle verify --replay`, `GET /verify?replay=1`): every declared command decided again.

Each command's first event holds its declaration (rules/pipeline.py `declaration`). The replay folds the
stored stream command by command and, before each declared command, decides it again through the same
`decide_command` the service uses, on the state folded from the stored events before it, with the
revealed seeds and the manual faces its `DieRolled` events recorded. The events it gets must equal the
stored ones in `type`, `data`, `actor` and `command_id`. Events without a declaration (the creation,
seats, tokens, webhooks) are facts the rules take as given. docs/verifying.md §8 says it all in prose.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import Dice, DiceNeeded, commitment_of
from events.envelope import Event, NewEvent, by_command
from projections.audit import commitment_timeline, seed_bytes
from rules.common import commands as c
from rules.interface import BadCommand, Command, Forbidden
from rules.pipeline import Context, decide_command
from rules.registry import Registry
from rules.state import EventNotFoldable, fold_onto, initial_state, replay
from rules.supplied_dice import check_supplied_dice

NO_DECLARATIONS = "no declarations: faces and chain only"
SEED_UNREVEALED = "not yet replayable (seed unrevealed)"
# The events of the GM's hidden rolls: deciding them again needs the hidden seed, revealed only at close.
HIDDEN = frozenset({"HiddenRollMade", "HiddenRollRevealed", "HiddenSeedRevealed"})

# Appended outside the command pipeline (the creation, and the seat, token and webhook endpoints):
# facts a replay takes as given. Any other event comes from a command, which declares itself.
GIVEN = frozenset(
    {
        "EncounterCreated",
        "RulesetUpgraded",
        "SeatCreated",
        "SeatChanged",
        "SeatRevoked",
        "SeatTokenRotated",
        "ReadTokenCreated",
        "ReadTokenRevoked",
        "FirehoseGranted",
        "FirehoseRevoked",
        "GmTokenRotated",
        "WebhookCreated",
        "WebhookDeleted",
        "WebhookSecretRotated",
        "WebhookDisabled",
        "WebhookEnabled",
    }
)


class Different(msgspec.Struct, frozen=True):
    """A command whose events the rules do not give again: the first seq that differs, and how."""

    seq: int
    message: str


class Skipped(msgspec.Struct, frozen=True):
    """A declared command that cannot be decided again here (not a tamper): where, and why."""

    seq: int
    command_id: str
    reason: str


def _shown(value: Any) -> str:
    """A value as JSON, so a text reads as one (`text "the bridge falls", the rules give "the bridge holds"`)."""
    if value is _ABSENT:
        return "absent"
    return msgspec.json.encode(value).decode()


_ABSENT = object()


def first_difference(stored: Any, given: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place two JSON values differ, as (path, stored value, the rules' value), or None."""
    if isinstance(stored, dict) and isinstance(given, dict):
        for key in [*stored, *(k for k in given if k not in stored)]:
            found = first_difference(
                stored.get(key, _ABSENT), given.get(key, _ABSENT), f"{path}.{key}" if path else key
            )
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(given, list) and len(stored) == len(given):
        for i, (a, b) in enumerate(zip(stored, given, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if stored == given and type(stored) is type(given):
        return None
    return path, stored, given


def compare(stored: list[Event], given: list[NewEvent], actor: str) -> Different | None:
    """The first difference between a command's stored events and the ones the rules give, or None."""
    for i in range(max(len(stored), len(given))):
        if i >= len(stored):
            seq = stored[-1].seq + 1
            return Different(
                seq,
                f"seq {seq}: the rules give one more event here, {given[i].type}, "
                "which the stream does not hold",
            )
        e = stored[i]
        if i >= len(given):
            return Different(e.seq, f"seq {e.seq}: the stream has {e.type}, the rules give no such event")
        if e.type != given[i].type:
            return Different(e.seq, f"seq {e.seq}: the stream has {e.type}, the rules give {given[i].type}")
        if e.actor != actor:
            return Different(e.seq, f"seq {e.seq} ({e.type}): actor {e.actor}, the declaration says {actor}")
        if e.command_id != stored[0].command_id:
            return Different(
                e.seq,
                f"seq {e.seq} ({e.type}): command_id {e.command_id}, the command's is {stored[0].command_id}",
            )
        found = first_difference(e.data, given[i].data)
        if found:
            path, was, rules = found
            return Different(
                e.seq, f"seq {e.seq} ({e.type}): {path} {_shown(was)}, the rules give {_shown(rules)}"
            )
    return None


def _declared(e: Event) -> dict[str, Any] | None:
    d = e.data.get("declaration") if isinstance(e.data, dict) else None
    return d if isinstance(d, dict) else None


def _void_targets(prefix: list[Event], cmd: Command) -> list[tuple[int, str]]:
    """What a void names, looked up in the stored stream before it, as the service looks it up in the store."""
    if not isinstance(cmd, c.Void):
        return []
    if cmd.seq is not None:
        return [(e.seq, e.type) for e in prefix if e.seq == cmd.seq]
    return [(e.seq, e.type) for e in prefix if e.command_id == cmd.target_command_id]


def _behind_screen(cmd: Command, stored: list[Event]) -> bool:
    """Whether deciding `cmd` needs the hidden seed, as the service hands it (server/encounters/service.py `_context`):
    a hidden roll, a reveal, and a close that revealed hidden rolls. Not any command whose stored events
    merely include a hidden roll's: a forger could add one to a forged command to have it skipped."""
    if isinstance(cmd, c.RollDice):
        return cmd.hidden
    if isinstance(cmd, c.Close):
        return any(e.type in HIDDEN for e in stored)
    return isinstance(cmd, c.RevealRoll)


class Replay:
    """One replay of one stream; `run()` gives the problems (as Different) and the skipped commands."""

    def __init__(self, events: list[Event], registry: Registry):
        unique = {e.seq: e for e in reversed(events)}  # a repeated seq is the chain's problem: keep the first
        self.events = [unique[s] for s in sorted(unique)]
        self.registry = registry
        self.seeds = {
            t["commitment"]: bytes.fromhex(t["revealed_seed"])
            for t in commitment_timeline(self.events)
            if t["seed_matches"]
        }
        # The hidden seed behind the GM's hidden rolls, once close revealed it (and it hashes to seq 1's commitment).
        hidden = self.events[0].data.get("hidden_commitment") if self.events else None
        self.hidden_seed = next(
            (
                seed
                for e in self.events
                if e.type == "HiddenSeedRevealed"
                if hidden and commitment_of(seed := seed_bytes(e.data.get("revealed_seed")) or b"") == hidden
            ),
            None,
        )
        self.declared = self.agreed = self.given = 0
        # Given commands other than the creation, seats, tokens and webhooks, before the first declaration:
        # a stream written before declarations, or a forger who stripped every one up to a forged command.
        self.undeclared = 0
        self.differences: list[Different] = []
        self.skipped: list[Skipped] = []

    def _ruleset_for(self, e: Event) -> Any:
        return self.registry.get(e.data.get("ruleset", ""))

    def run(self) -> None:
        state, ruleset, done = initial_state(), None, 0
        for command in by_command(self.events):
            declared = _declared(command[0])
            if declared is not None:
                self.declared += 1
                self._check(state, ruleset, command, declared, done)
            elif self.declared and not all(e.type in GIVEN for e in command):
                kinds = sorted({e.type for e in command} - GIVEN)
                self.differences.append(
                    Different(
                        command[0].seq,
                        f"seq {command[0].seq}: {', '.join(kinds)} "
                        "without a declaration, after commands that declare themselves: "
                        "the rules cannot check it",
                    )
                )
            else:
                self.given += 1
                self.undeclared += not all(e.type in GIVEN for e in command)
            done += len(command)
            try:
                if any(e.type == "EventVoided" for e in command):  # the state is read again without them
                    state = replay(self.events[:done], self._ruleset_for)
                else:
                    state = fold_onto(state, ruleset, command, self._ruleset_for, set())
            except EventNotFoldable as exc:
                self.differences.append(
                    Different(
                        exc.seq,
                        f"seq {exc.seq}: the stored events cannot be folded ({exc}); the replay stops here",
                    )
                )
                return
            if command[0].type == "EncounterCreated":
                ruleset = self._ruleset_for(command[0])

    def _skip(self, command: list[Event], reason: str) -> None:
        self.skipped.append(Skipped(command[0].seq, command[0].command_id, reason))

    def _check(
        self, state: dict[str, Any], ruleset: Any, command: list[Event], declared: dict[str, Any], before: int
    ) -> None:
        """Decide one declared command again on `state` (the stream's first `before` events folded)."""
        first = command[0]
        body, rs_id, version = declared.get("command"), declared.get("ruleset"), declared.get("version")
        if not isinstance(body, dict) or not isinstance(body.get("actor"), str):
            self.differences.append(
                Different(first.seq, f"seq {first.seq}: its declaration holds no command with an actor")
            )
            return
        installed = self.registry.get(rs_id) if isinstance(rs_id, str) else None
        if installed is None:
            return self._skip(command, f"decided by ruleset {rs_id!r}, which this installation does not have")
        if installed.version != version:
            return self._skip(
                command,
                f"decided by {rs_id} version {version}; this installation has version {installed.version}",
            )
        if ruleset is None or rs_id != ruleset.id:
            self.differences.append(
                Different(
                    first.seq,
                    f"seq {first.seq}: declared under ruleset {rs_id}, but "
                    f"the encounter plays {state.get('ruleset')}",
                )
            )
            return
        manual: list[Any] = [  # as stored: a forged stream's faces are judged by Dice, not here
            e.data.get("faces") for e in command if e.type == "DieRolled" and e.data.get("source") == "manual"
        ]
        actor = body["actor"]
        if manual:
            try:
                check_supplied_dice(state, actor)
            except (BadCommand, Forbidden) as exc:
                roll = next(e for e in command if e.type == "DieRolled" and e.data.get("source") == "manual")
                self.differences.append(
                    Different(roll.seq, f"seq {roll.seq} (DieRolled): faces the command supplied, but {exc}")
                )
                return
        fields = {k: v for k, v in body.items() if k != "actor"}
        try:
            cmd = self.registry.command(
                rs_id, {**fields, "command_id": first.command_id, **({"dice": manual} if manual else {})}
            )
        except BadCommand as exc:
            self.differences.append(
                Different(
                    first.seq,
                    f"seq {first.seq}: the declared command is not one "
                    f"{rs_id} version {version} takes: {exc.message}",
                )
            )
            return
        if self.hidden_seed is None and _behind_screen(cmd, command):
            return self._skip(command, SEED_UNREVEALED)
        rotated = next((e.data for e in command if e.type == "DiceSeedRotated"), {})
        ctx = Context(
            first.stream,
            actor,
            first.command_id,
            rotated.get("revealed_seed"),
            rotated.get("commitment"),
            _void_targets(self.events[:before], cmd),
            self.hidden_seed,
            signed_request=declared.get("signed_request"),
        )
        if manual or state["dice"] == "manual":
            dice = Dice(
                stream=first.stream,
                command_id=first.command_id,
                entropy=cmd.entropy,
                keyed_by=str(declared.get("keyed_by")),
                supplied=manual,
            )
        else:
            dice = Dice(
                stream=first.stream,
                command_id=first.command_id,
                entropy=cmd.entropy,
                keyed_by=str(declared.get("keyed_by")),
                seed=self.seeds.get(state["commitment"]),
            )
        try:
            given = decide_command(state, ruleset, cmd, ctx, dice, max_events=max(1000, len(command) + 1))
        except DiceNeeded as exc:
            if dice.manual:
                self.differences.append(
                    Different(
                        first.seq,
                        f"seq {first.seq}: the rules draw more dice than "
                        f"the command's DieRolled events hold ({exc})",
                    )
                )
            else:
                self._skip(command, SEED_UNREVEALED)
            return
        except Exception as exc:  # noqa: BLE001 - any refusal (or failure) of a stored command is the finding
            self.differences.append(
                Different(
                    first.seq,
                    f"seq {first.seq}: the rules refuse this command now ({type(exc).__name__}: {exc})",
                )
            )
            return
        different = compare(command, given, actor)
        if different is None:
            self.agreed += 1
        else:
            self.differences.append(different)

    def summary(self) -> dict[str, Any]:
        """The report's `replay` part (docs/verifying.md §8)."""
        unrevealed = sum(1 for s in self.skipped if s.reason == SEED_UNREVEALED)
        if not self.declared:
            text = NO_DECLARATIONS
        else:
            parts = [f"{self.agreed} agree"]
            if self.differences:
                parts.append(f"{len(self.differences)} differ")
            if unrevealed:
                parts.append(f"{unrevealed} {SEED_UNREVEALED}")
            if len(self.skipped) > unrevealed:
                parts.append(
                    f"{len(self.skipped) - unrevealed} not replayable here (a ruleset version this "
                    "installation does not have)"
                )
            text = f"{self.declared} declared commands decided again: " + ", ".join(parts)
            if self.undeclared:
                text += (
                    f"; {self.undeclared} command{'s' if self.undeclared > 1 else ''} before the first "
                    "declaration taken as given (not decided again)"
                )
        return {
            "declared": self.declared,
            "agreed": self.agreed,
            "differed": len(self.differences),
            "seed_unrevealed": unrevealed,
            "not_replayable": len(self.skipped) - unrevealed,
            "given": self.given,
            "undeclared": self.undeclared,
            "skipped": [msgspec.to_builtins(s) for s in self.skipped],
            "summary": text,
        }


def replay_stream(events: list[Event], registry: Registry) -> Replay:
    """Replay a stream: the finished `Replay` (its differences, skipped commands and summary)."""
    r = Replay(events, registry)
    r.run()
    return r
