"""The players' guides: docs/playing/ is what the rulesets' metadata says today, GET /rulesets/{id} and its
page serve the same facts, and every guide's worked first turn plays on a live server as written."""

from __future__ import annotations

import re

import pytest

from server.guides.guide import GUIDES_DIR, guide_markdown, published
from server.guides.guide_turns import FRESH, curl_lines, first_turn_steps, sendable
from tests.support.guide_play import fresh, play_steps

RULESETS = sorted(published().rulesets)


def test_the_committed_guides_are_what_the_rulesets_say_now():
    registry = published()
    committed = {p.stem for p in GUIDES_DIR.glob("*.md")}
    assert committed == set(registry.rulesets), "run: .venv/bin/python -m server.guides.guide"
    for rid, rs in registry.rulesets.items():
        on_disk = (GUIDES_DIR / f"{rid}.md").read_text(encoding="utf-8")
        assert on_disk == guide_markdown(rs), (
            f"docs/playing/{rid}.md is stale: run .venv/bin/python -m server.guides.guide"
        )


def test_every_option_of_every_ruleset_says_what_it_does():
    for rs in published().rulesets.values():
        md = guide_markdown(rs)
        for name in rs.Options.__struct_fields__:
            row = next(line for line in md.splitlines() if line.startswith(f"| `{name}` |"))
            assert row.split("|")[4].strip(), f"{rs.id} option {name} has no description"


GUESSED = re.compile(r"\b(he|his|him|himself)\b|\bjoins, with its\b", re.IGNORECASE)


def test_a_guide_guesses_no_pronoun():
    """Issue 18: a figure is named or "they", never a guessed "he" (Ana is not a "him"), nor "its stats": in the
    worked turn, the options, the commands and their fields, and the events (skirmish's `pronoun` stat says "he")."""
    for rid, rs in published().rulesets.items():
        for line in guide_markdown(rs).splitlines():
            if not line.startswith("- `pronoun` —"):
                assert not GUESSED.search(line), f"docs/playing/{rid}.md: {line}"


@pytest.mark.parametrize("rid", RULESETS)
async def test_a_guides_first_turn_plays_on_a_live_server(tussle, rid):
    steps = first_turn_steps(published().rulesets[rid])
    assert steps, f"{rid} has no first_turn (rules/interface.py FirstTurn)"
    bodies = [s.body["type"] for s in steps if s.body and "type" in s.body]
    assert {"add_combatants", "start_turn"} <= set(bodies)
    assert "start_phase" in bodies or not published().rulesets[rid].phases, "the turn skips the phases"
    signature = [t for t in bodies if t.startswith(f"{rid}.")] if rid != "freeform" else ["roll"]
    assert signature, f"{rid}'s first turn sends none of its own commands"
    answers = await play_steps(tussle, steps)
    sent = [(s, status, body) for s, status, body in answers if s.body and s.body.get("type") in signature]
    assert sent and all(status == 201 for _, status, _ in sent)
    assert any(e["type"] != "ActionSpent" for _, _, body in sent for e in body["events"])
    log = answers[-1][2]
    assert isinstance(log, str) and log.strip(), "the markdown log is empty"
    # The guide shows the same steps, and the curl lines name every command sent.
    md = (GUIDES_DIR / f"{rid}.md").read_text(encoding="utf-8")
    for line in curl_lines(steps):
        assert line in md


async def test_get_ruleset_and_its_page(tussle):
    r = await tussle.request("GET", "/rulesets/tft")
    assert r.status == 200
    pins = next(o for o in r.body["options"] if o["name"] == "pins")
    assert pins["default"] is False and pins["off_by_default"] and "pin" in pins["description"]
    assert r.body["phases"] == ["movement", "action"]
    assert "tft.set_back_to_wall" in r.body["gm_commands"]
    assert {s["name"] for s in r.body["stats"]} >= {"st", "adj_dx", "ma"}
    assert any(c["type"] == "tft.enter_hth" and c["doc"] for c in r.body["commands"])
    assert next(c for c in r.body["common_commands"] if c["type"] == "start_turn")["gm_only"]
    assert any(e["type"] == "HthEntryResolved" and e["doc"] for e in r.body["events"])
    assert r.body["acting"]["acting_now"] and r.body["acting"]["next_slot"]
    page = await tussle.session.get(tussle.base_url + "/rulesets/tft/guide")
    text = await page.text()
    assert page.status == 200 and page.content_type == "text/html"
    assert "<script" not in text and "tft.enter_hth" in text and "Off by default" in text
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    for path in ("/rulesets/chess", "/rulesets/chess/guide"):
        missing = await tussle.request("GET", path)
        assert missing.status == 404 and missing.body["error"]["code"] == "not_found"
        assert missing.body["error"]["details"] == {"ruleset": "chess"}


def _readme_session() -> list[tuple[str, str, str | None, object]]:
    """The README's curl session as (method, path, token variable, body), in order."""
    import json
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = text.split("## A session with curl", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands, current = [], ""
    for line in block.splitlines():
        if line.startswith("curl "):
            current and commands.append(current)
            current = line
        elif current and line.startswith("  "):
            current += " " + line.strip()
        else:
            current and commands.append(current)
            current = ""
    current and commands.append(current)
    out = []
    for c in commands:
        words = shlex.split(c.replace("\\ ", " "))  # "$CID" stays a literal command id
        method = next((w[2:] for w in words if w.startswith("-X")), "GET")
        url = next(w for w in words if w.startswith("$B"))
        header = words[words.index("-H") + 1] if "-H" in words else None
        token = "gm" if header == "$H" else ("player" if header and header.endswith("$P") else None)
        body = json.loads(words[words.index("-d") + 1]) if "-d" in words else None
        if isinstance(body, dict) and body.get("command_id") == "$CID":
            body["command_id"] = FRESH  # CID=$(fresh)
        out.append((method, re.sub(r"^\$B", "", url).replace("$ID", "{id}"), token, body))
    return out


async def test_the_readme_session_plays_a_tft_turn_on_a_live_server(tussle):
    session = _readme_session()
    types_sent = [b["type"] for _, _, _, b in session if isinstance(b, dict) and "type" in b]
    assert {"start_turn", "start_phase", "tft.enter_hth"} <= set(types_sent)
    ids: dict[str, str] = {}
    for method, path, who, body in session:
        sent = sendable(body, ids.get("commitment"), fresh) if isinstance(body, dict) else body
        r = await tussle.request(
            method, path.replace("{id}", ids.get("id", "")), sent, token=ids.get(who or "")
        )
        assert r.status in (200, 201), (method, path, r.status, r.body)
        if path == "/encounters":
            ids["id"], ids["gm"], ids["commitment"] = r.body["id"], r.body["gm_token"], r.body["commitment"]
        elif path.endswith("/seats"):
            ids["player"] = r.body["token"]
    assert isinstance(r.body, str) and "Simeth" in r.body  # the last step: the Markdown log


def test_a_group_field_says_where_its_ids_are():
    """Playing rogue-trader's guide a step further, resolve_round wants `group`: the guide says where to read one."""
    md = guide_markdown(published().rulesets["rogue-trader"])
    assert (
        "`group` (str, required) — The id of a close-combat group (GET /encounters/{id}/state lists them in "
        "`groups`), or of any model in it." in md
    )


async def test_the_tft_first_turn_warns_that_server_dice_may_knock_simeth_back(tussle):
    """The guide's turn plays with server dice: a new user's own entry may fail, and the guide says so there."""
    steps = first_turn_steps(published().rulesets["tft"])
    create = next(s for s in steps if s.keeps == "encounter")
    r = await tussle.request("POST", "/encounters", create.body)
    assert r.status == 201 and r.body["dice"] == "server"
    entry = next(s for s in steps if s.body and s.body.get("type") == "tft.enter_hth")
    assert "server dice" in entry.note and "knocked back" in entry.note
    assert f"# {entry.note}" in (GUIDES_DIR / "tft.md").read_text(encoding="utf-8")
