"""Issue 25 item 3: no doc teaches inputs a reader would copy. A copied command_id and entropy are inputs
someone else knows (the audit re-created an encounter 19 times with the README's and got snake eyes), so
every example makes its own; a fixed worked example uses entropy too short to pass for a real one."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

from server.guides.guide import published
from server.guides.guide_turns import FRESH, first_turn_steps

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# An entropy written out: "entropy": "…" in JSON, entropy=… or entropy: … in code and prose.
LITERAL = re.compile(r"""["']?entropy["']?\s*[:=]\s*["'`]?([A-Za-z0-9_.:=+/-]{16,})""")


def test_no_doc_carries_a_literal_entropy_of_16_characters_or_more():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {m.group(1)}"
        for path in DOCS
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for m in LITERAL.finditer(line)
        if not m.group(1).startswith(("command.", "secrets."))  # code reading a value, not a value
    ]
    assert not found, found


def test_the_pattern_finds_the_inputs_the_audit_copied():
    for line in ('"command_id": "alice-0001", "entropy": "k3J9vQ2mXz81LpTa"', "entropy=Zt4nW8yB1qH6sD0fAA"):
        assert LITERAL.search(line), line


def test_every_players_command_in_a_guide_makes_its_own_id_and_entropy_and_binds_the_commitment():
    for rid, rs in published().rulesets.items():
        for step in first_turn_steps(rs):
            if step.who == "player" and step.body and "type" in step.body:
                assert step.body["command_id"] == FRESH and step.body["entropy"] == FRESH, rid
                assert step.body["expected_commitment"] == "$C", rid


def test_the_worked_example_of_verifying_md_computes():
    text = (ROOT / "docs" / "verifying.md").read_text(encoding="utf-8")
    seed = bytes(range(32))
    rows = re.findall(
        r"\| (\d) \| `(\[.*?\])` \| `([0-9a-f]{64})` \| `[0-9a-f]{16}` → (\d+) \| \*\*(\d)\*\* \|", text
    )
    assert len(rows) == 3
    for _, msg, h, u, face in rows:
        assert hmac.new(seed, msg.encode(), hashlib.sha256).hexdigest() == h
        assert int(h[:16], 16) == int(u) and int(u) % 6 + 1 == int(face)
        assert len(json.loads(msg)[-1]) < 16  # too short to be anyone's real entropy
    body = re.search(r'\n(\{"actor":"seat:seat-1".*\})\n', text).group(1)
    want = hashlib.sha256(("9b1c" + "0" * 60 + body).encode()).hexdigest()
    assert f"`{want}`" in text


def test_the_example_verifier_takes_as_given_what_the_replay_does():
    from server.audit.replaying import GIVEN

    text = (ROOT / "docs" / "verifying.md").read_text(encoding="utf-8")
    listed = re.search(r"GIVEN = \((.*?)\)\n", text, re.S).group(1)
    assert set(re.findall(r'"(\w+)"', listed)) == set(GIVEN)
    # §8's replay example and the page's verifier (verify.js) take the same facts as given.
    replay = re.search(r"GIVEN = \{(.*?)\}\n", text, re.S).group(1)
    assert set(re.findall(r'"(\w+)"', replay)) == set(GIVEN)
    page = (ROOT / "server" / "static" / "js" / "verify.js").read_text(encoding="utf-8")
    assert set(
        re.findall(r'"(\w+)"', re.search(r"const GIVEN = new Set\(\[(.*?)\]\)", page, re.S).group(1))
    ) == set(GIVEN)
