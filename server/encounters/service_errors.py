"""What the service refuses, in its own words: a code, a sentence and details, no HTTP status.

The HTTP layer maps each kind to its status in one place (server/http/errors.py); the websocket
and the reaction timer read the code alone.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refusal a client can act on: `code` (API.md), a sentence, details."""

    code = "error"

    def __init__(self, message: str, details: dict[str, Any] | None = None, *, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.details = details or {}


class BadRequest(ServiceError):
    """Input that is not what the API takes; nothing was appended."""

    code = "bad_request"


class Unauthenticated(ServiceError):
    """No token, or one that is not valid here."""

    code = "unauthenticated"


class NotPermitted(ServiceError):
    """A valid principal whose role may not do this."""

    code = "forbidden"


class NotFound(ServiceError):
    """No such encounter, seat, token, webhook or ruleset."""

    code = "not_found"


class Conflict(ServiceError):
    """The encounter is not in the state the request assumed."""


class SeqMoved(Conflict):
    """The encounter is at another seq than the one expected, or kept moving while deciding again."""

    code = "seq_conflict"


class CommandIdTaken(Conflict):
    """A command_id already used for a different command (or creation)."""

    code = "command_id_reused"


class ResolutionPending(Conflict):
    """`rotate_seed` while a reaction waits: a resolution's dice keep the seed it began with."""

    code = "resolution_pending"


class CommitmentMoved(Conflict):
    """`expected_commitment` given and the dice seed was rotated since: nothing was rolled."""

    code = "commitment_moved"


class Closed(Conflict):
    """A closed encounter can be read but not changed."""

    code = "closed"


class RuleRefusal(ServiceError):
    """The rules refuse the command now (`rule_violation`, `dice_needed` or a ruleset's own code)."""

    code = "rule_violation"


class RateLimited(ServiceError):
    """Too many of something for this token or address."""

    code = "rate_limited"


def bad_request(message: str, field: str | None = None) -> BadRequest:
    """A 400 naming the field at fault, when there is one."""
    return BadRequest(message, {"field": field} if field else {})


__all__ = [
    "ServiceError",
    "BadRequest",
    "Unauthenticated",
    "NotPermitted",
    "NotFound",
    "Conflict",
    "SeqMoved",
    "CommandIdTaken",
    "Closed",
    "ResolutionPending",
    "CommitmentMoved",
    "RuleRefusal",
    "RateLimited",
    "bad_request",
]
