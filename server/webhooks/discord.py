"""Discord-style webhook bodies: `{"content": …}` of at most 2,000 characters, Markdown from the log."""

from __future__ import annotations

from projections.forum_export import MARKDOWN

LIMIT = 2000


def log_line(seq: int, text: str) -> str:
    return MARKDOWN.item(seq, MARKDOWN.escape(text))


def split_content(lines: list[str], limit: int = LIMIT) -> list[str]:
    """The lines joined into messages of at most `limit` characters, split between lines (a line longer
    than a message is cut into pieces of its own)."""
    messages: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                messages.append(current)
                current = ""
            messages.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages
