"""Forum exports of the narrative log: Markdown and BBCode, one post per turn.

Each post has a title line, the turn's entries (each with its seq) and a footer holding the dice
commitment(s) published so far (with their seeds once revealed) and the chain position the post ends
at (seq and hash; the last post names the head). A forum thread of these posts is an outside copy of
the receipts. With `max_chars`, a turn too long for one post is split at entry boundaries.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from projections.log import group_by_turn

Entry = dict[str, Any]
POST_SEPARATOR = "\n\n-----8<-----\n\n"

# Every line break a renderer or a reader might honour: CommonMark's (LF, CR), and what Python's
# str.splitlines and Unicode call one (VT, FF, the information separators, NEL, LINE/PARAGRAPH SEPARATOR).
_LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
# What stands for a folded line break: visible, so the text's own breaks are not silently lost.
LINE_BREAK_MARK = " ↵ "


def one_line(text: str) -> str:
    """Text a user wrote, on one line: each line break becomes LINE_BREAK_MARK, so a note or a name can
    never start a line of its own in a post (a forged log entry, a heading, a `-----8<-----` separator)."""
    return _LINE_BREAK.sub(LINE_BREAK_MARK, text)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def escape_markdown(text: str) -> str:
    """Text from users inside Markdown (forum posts, Discord notices): on one line (`one_line`), with what
    Markdown would read as markup backslash-escaped. The one Markdown escaping: use it, never a twin."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", one_line(text))


_BBCODE_TAG = re.compile(r"\[(?=/?[A-Za-z*])")


def escape_bbcode(text: str) -> str:
    """Text from users inside BBCode: on one line (`one_line`), every `[` that could open a tag (`[url`,
    `[/b`, `[*`) broken, so text from the table stays text."""
    return _BBCODE_TAG.sub("[[b][/b]", one_line(text))


class Flavour:
    """How one markup spells a post's parts."""

    def __init__(
        self,
        escape: Callable[[str], str],
        title: Callable[[str], str],
        item: Callable[[int, str], str],
        list_open: str,
        list_close: str,
        code: Callable[[str], str],
        footer: Callable[[list[str]], str],
        link: Callable[[str, str], str],
    ):
        self.escape, self.title, self.item, self.code, self.footer = escape, title, item, code, footer
        self.link = link
        self.list_open, self.list_close = list_open, list_close


MARKDOWN = Flavour(
    escape=escape_markdown,
    title=lambda t: f"**{t}**",
    item=lambda seq, text: f"- `#{seq}` {text}",
    list_open="",
    list_close="",
    code=lambda t: f"`{t}`",
    footer=lambda lines: "---\n\n" + "\n\n".join(lines),
    link=lambda url, text: f"[{text}](<{url}>)",
)

BBCODE = Flavour(
    escape=escape_bbcode,
    title=lambda t: f"[b]{t}[/b]",
    item=lambda seq, text: f"[*][i]#{seq}[/i] {text}",
    list_open="[list]",
    list_close="[/list]",
    code=lambda t: f"[i]{t}[/i]",
    footer=lambda lines: "[size=85]" + "\n".join(lines) + "[/size]",
    link=lambda url, text: f"[url={url}]{text}[/url]",
)

FLAVOURS = {"markdown": MARKDOWN, "bbcode": BBCODE}
VERIFY_TEXT = "How to check every roll and the chain yourself"
# Where the checks are written down when no server URL is known (`tussle export`): the document in the
# Tussle sources, which a server serves at GET /verifying.
VERIFYING_DOC = "docs/verifying.md in the Tussle sources (a Tussle server serves it at /verifying)"


def _turn_label(turn: int) -> str:
    return "Setup" if turn == 0 else f"Turn {turn}"


def _commitments_as_of(commitments: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """The commitments published by `seq`, each with its seed if revealed by then."""
    out = []
    for c in commitments:
        if c["published_at_seq"] > seq:
            continue
        revealed = (
            c["revealed_seed"] if c["revealed_at_seq"] is not None and c["revealed_at_seq"] <= seq else None
        )
        out.append({"commitment": c["commitment"], "revealed_seed": revealed})
    return out


def _footer(
    f: Flavour,
    commitments: list[dict[str, Any]],
    seq: int,
    hash_: str,
    is_head: bool,
    excerpt_end: tuple[int, str] | None = None,
    verify_url: str | None = None,
) -> str:
    lines = []
    if commitments:
        parts = []
        for c in commitments:
            seed = f" (seed revealed: {f.code(c['revealed_seed'])})" if c["revealed_seed"] else " (in force)"
            parts.append(f.code(c["commitment"]) + seed)
        lines.append("Dice commitment" + ("s" if len(parts) > 1 else "") + ": " + ", ".join(parts))
    else:
        lines.append("Dice: manual (no commitment)")
    if excerpt_end is not None:  # an excerpt that ends before the head: where it ends, then the real head
        lines.append(f"Chain: seq {excerpt_end[0]}, hash {f.code(excerpt_end[1])}")
    lines.append(f"{'Head' if is_head else 'Chain'}: seq {seq}, hash {f.code(hash_)}")
    if is_head:  # the export's last post says where the checks are written down
        where = f.link(verify_url, VERIFY_TEXT) if verify_url else f"{VERIFY_TEXT}: {VERIFYING_DOC}"
        lines.append(f"{where} ({f.code('tussle verify')})")
    return f.footer(lines)


def _post(f: Flavour, name: str, turn: int, part: str, entries: list[Entry], footer: str) -> str:
    title = f.title(f.escape(f"{name} — {_turn_label(turn)}{part}"))
    items = [f.item(e["seq"], f.escape(e["text"])) for e in entries]
    body = "\n".join([x for x in (f.list_open, *items, f.list_close) if x])
    return f"{title}\n\n{body}\n\n{footer}"


def forum_posts(
    entries: list[Entry],
    *,
    name: str,
    commitments: list[dict[str, Any]],
    head: dict[str, Any],
    flavour: str = "markdown",
    max_chars: int | None = None,
    verify_url: str | None = None,
) -> list[str]:
    """The log as forum posts: one per turn, split at entry boundaries to fit `max_chars`.

    `commitments` is `projections.audit.commitment_timeline(events)`; `head` the {seq, hash} the export
    is taken at, named in the last post's footer, with a link to how to verify it (`verify_url`:
    docs/verifying.md as the server serves it, GET /verifying).
    """
    f = FLAVOURS[flavour]
    # Bookkeeping a ruleset marks as an aside is said by the action's own sentence: a post leaves it out.
    groups = group_by_turn([e for e in entries if not e.get("aside")])
    chunks: list[tuple[int, list[Entry]]] = []
    for g in groups:
        chunks += [(g["turn"], part) for part in _split(f, name, g, commitments, head, max_chars, verify_url)]
    posts = []
    for i, (turn, part_entries) in enumerate(chunks):
        is_last = i == len(chunks) - 1
        label = _part_label(chunks, i)
        posts.append(_render(f, name, turn, part_entries, commitments, head, is_last, label, verify_url))
    return posts


def _part_label(chunks: list[tuple[int, list[Entry]]], i: int) -> str:
    turn = chunks[i][0]
    same = [j for j, (t, _) in enumerate(chunks) if t == turn]
    if len(same) == 1:
        return ""
    return f" (part {same.index(i) + 1} of {len(same)})"


def _render(
    f: Flavour,
    name: str,
    turn: int,
    entries: list[Entry],
    commitments: list[dict[str, Any]],
    head: dict[str, Any],
    is_last: bool,
    part: str,
    verify_url: str | None = None,
) -> str:
    seq, hash_ = (head["seq"], head["hash"]) if is_last else (entries[-1]["seq"], entries[-1]["hash"])
    end = (
        (entries[-1]["seq"], entries[-1]["hash"])
        if is_last and entries and entries[-1]["seq"] < seq
        else None
    )
    footer = _footer(f, _commitments_as_of(commitments, seq), seq, hash_, is_last, end, verify_url)
    return _post(f, name, turn, part, entries, footer)


def _split(
    f: Flavour,
    name: str,
    group: dict[str, Any],
    commitments: list[dict[str, Any]],
    head: dict[str, Any],
    max_chars: int | None,
    verify_url: str | None = None,
) -> list[list[Entry]]:
    """Greedy split of one turn's entries; a single entry longer than the limit gets a post of its own."""
    entries = group["entries"]
    if max_chars is None:
        return [entries]
    parts: list[list[Entry]] = []
    current: list[Entry] = []
    for e in entries:
        trial = current + [e]
        # Measure with the longest labels the post could get, so the final render never grows past it.
        text = _render(
            f, name, group["turn"], trial, commitments, head, True, " (part 999 of 999)", verify_url
        )
        if current and len(text) > max_chars:
            parts.append(current)
            current = [e]
        else:
            current = trial
    if current:
        parts.append(current)
    return parts


def forum_text(posts: list[str]) -> str:
    """Posts joined into one paste-able text, a cut line between posts."""
    return POST_SEPARATOR.join(posts) + "\n"
