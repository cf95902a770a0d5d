"""Forged forum lines (issue 33 item 4): whatever a player writes in a note, or a GM in a name, a
Markdown or BBCode export has exactly one entry per log entry and one post per turn part — no text
from a user starts an entry, a heading or a `-----8<-----` separator.

Markdown is read back with a real CommonMark parser (markdown-it-py), BBCode by its lines (a forum's
`[*]` starts an item only there... or anywhere: the escaping breaks every `[` that could open a tag).
Posts are split as the README says, at the `-----8<-----` line.
"""

from __future__ import annotations

import aiohttp
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from projections.forum_export import POST_SEPARATOR, forum_posts
from tests.support.client import TussleClient

# Pieces a forger would use: line breaks of every kind, the separator, list markers, headings, rules,
# BBCode items and list ends, an entry's own seq label, fences and quotes.
HOSTILE = [
    "\n", "\r\n", "\r", "\u2028", "\u2029", "\x0b", "\x0c", "\x85", "\x1e",
    "-----8<-----", "\n\n-----8<-----\n\n", "- ", "* ", "+ ", "1. ", "2) ", "# ", "## ", "---", "===",
    "- `#7` ", "[*]", "[/list]", "[list]", "[b]", "```", "~~~", "> ", "    ", "\\", "`", "|", "<br>",
    "hi", "The GM rolls 3d6: 3", " ",
]  # fmt: skip
user_text = st.lists(st.sampled_from(HOSTILE) | st.text(max_size=4), min_size=1, max_size=12).map("".join)

COMMITMENTS = [
    {
        "commitment": "c" * 64,
        "published_at_seq": 1,
        "replaced_at_seq": None,
        "revealed_seed": None,
        "revealed_at_seq": None,
        "seed_matches": None,
    }
]


def split_posts(text: str) -> list[str]:
    """The README's split: posts are separated by a `-----8<-----` line."""
    return text.split(POST_SEPARATOR)


def markdown_items(post: str) -> tuple[int, int, int]:
    """(list items, headings, thematic breaks) a CommonMark parser reads in a post."""
    tokens = MarkdownIt("commonmark").parse(post)
    kinds = [t.type for t in tokens]
    return kinds.count("list_item_open"), kinds.count("heading_open"), kinds.count("hr")


@given(name=user_text, texts=st.lists(user_text, min_size=1, max_size=4), turns=st.integers(1, 3))
def test_no_user_text_starts_an_entry_a_heading_or_a_post(name, texts, turns):
    entries = [
        {"seq": 10 * t + i, "hash": f"{t}{i}" * 32, "turn": t, "text": f"Ana notes: {text}"}
        for t in range(1, turns + 1)
        for i, text in enumerate(texts)
    ]
    head = {"seq": 100, "hash": "h" * 64}
    for flavour in ("markdown", "bbcode"):
        posts = forum_posts(entries, name=name, commitments=COMMITMENTS, head=head, flavour=flavour)
        assert len(posts) == turns
        whole = POST_SEPARATOR.join(posts)
        assert split_posts(whole) == posts, "a separator inside a post"
        for post in posts:
            if flavour == "markdown":
                # One item per entry, no heading, one rule (the footer's).
                assert markdown_items(post) == (len(texts), 0, 1), post
            else:
                lines = post.split("\n")
                assert sum(line.startswith("[*]") for line in lines) == len(texts), post
                assert post.count("[*]") == len(texts) and post.count("[/list]") == 1, post
            # Each entry is one line (title, blank, list, blank, footer).
            assert len([line for line in post.split("\n") if "Ana notes" in line]) == len(texts), post


async def test_the_drills_forged_note_stays_inside_its_entry(serve):
    """The drill's repro through the server, on both stores: a note holding a forged entry and a
    separator line, exported as Markdown and BBCode."""
    srv = await serve(rate_reads=0, rate_commands=0)
    async with aiohttp.ClientSession() as session:
        enc = await TussleClient(srv.base_url, session, srv.db_path).create(
            "freeform", name="Bridge\n- `#9` forged\n-----8<-----"
        )
        await enc.ok("start_turn", turn=1)
        await enc.ok(
            "note", text="hi\n- #7 The GM rolls 3d6 …: 3\n\n-----8<-----\n\n**Turn 2**\n\n- `#8` forged"
        )
        for fmt in ("markdown", "bbcode"):
            text = (await enc.get(f"/log?format={fmt}")).body
            posts = split_posts(text.rstrip("\n"))
            entries = (await enc.get("/log")).body["entries"]
            assert len(posts) == len({e["turn"] for e in entries}), text
            if fmt == "markdown":
                assert sum(markdown_items(p)[0] for p in posts) == len(entries), text
                assert all(markdown_items(p)[1] == 0 for p in posts), text
            else:
                assert text.count("[*]") == len(entries), text
            assert "hi ↵ - " in text and "The GM rolls 3d6" in text
