"""Discord-style webhook bodies: `{"content": …, "username": …}` within Discord's limits, Markdown from the log.

Discord takes at most 2,000 characters of content and a username of 1 to 80 that does not contain
"discord" or "clyde" (its API refuses the message otherwise). A long message is split between
lines, then between words, never inside a word, a code span or a link; text from the table (names,
notes, questions) is escaped with the log's own Markdown escaping (`projections.forum_export`).
"""

from __future__ import annotations

import re

from projections.forum_export import MARKDOWN

LIMIT = 2000
USERNAME_LIMIT = 80
# Room kept at the end of a notice's last part for the link to the page, added when it is sent (the
# webhook's base URL is the store's): the link is never cut.
LINK_ROOM = 300
_FORBIDDEN_IN_USERNAME = re.compile(r"discord|clyde", re.IGNORECASE)
# What may not be split: a code span (its backticks escaped or not), a Markdown link [text](url), or
# any run of non-space characters (a word, a bare URL); a unit is a run of these with no space between.
_UNIT = re.compile(r"(?:\\?`[^`\n]*`|\\?\[[^\]\n]*\]\([^)\s]*\)|\S)+")


def escape(text: str) -> str:
    """Text from the table made plain in Markdown (the log's and the exports' one escaping)."""
    return MARKDOWN.escape(text)


def log_line(seq: int, text: str) -> str:
    return MARKDOWN.item(seq, escape(text))


def username(name: str) -> str:
    """A Discord username for a message: at most 80 characters, never "discord" or "clyde", never empty."""
    cleaned = " ".join(_FORBIDDEN_IN_USERNAME.sub("", name).split())
    if len(cleaned) > USERNAME_LIMIT:
        cleaned = cleaned[: USERNAME_LIMIT - 1].rstrip() + "…"
    return cleaned or "Tussle"


def _packed(pieces: list[str], sep: str, limit: int) -> list[str]:
    """The pieces (none longer than `limit`) joined by `sep` into as few strings of at most `limit` as fit."""
    out: list[str] = []
    for piece in pieces:
        if out and len(out[-1]) + len(sep) + len(piece) <= limit:
            out[-1] += sep + piece
        else:
            out.append(piece)
    return out


def _units(line: str, limit: int) -> list[str]:
    """A line's units (words, whole code spans and links); a unit longer than a message by itself is
    cut, between its words if it has any (a long code span), else where it must."""
    out: list[str] = []
    for m in _UNIT.finditer(line):
        unit = m.group()
        while len(unit) > limit:
            cut = unit.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            out.append(unit[:cut])
            unit = unit[cut:].lstrip(" ")
        out.append(unit)
    return out


def split_content(lines: list[str], limit: int = LIMIT) -> list[str]:
    """The lines joined into messages of at most `limit` characters, split between lines, and a line
    longer than a message between words."""
    pieces = [
        p
        for line in lines
        for p in (_packed(_units(line, limit), " ", limit) if len(line) > limit else [line])
    ]
    return _packed(pieces, "\n", limit)


def split_text(text: str, limit: int = LIMIT) -> list[str]:
    """Any long Discord message, split as `split_content` splits the log."""
    return split_content(text.split("\n"), limit)


def split_leaving_room(text: str, room: int = LINK_ROOM, limit: int = LIMIT) -> list[str]:
    """`split_text`, with `room` characters left free at the end of the last part (for the page link)."""
    parts = split_text(text, limit)
    if parts and len(parts[-1]) > limit - room:
        parts[-1:] = split_text(parts[-1], limit - room)
    return parts
