"""The narrative log, its forum exports, and the dice audit, over HTTP."""

from __future__ import annotations

ANN = {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]}
TROLL = {"id": "troll", "name": "Troll", "side": "monsters", "position": [1, 0]}


async def short_encounter(tussle):
    """Setup, turn 1 with a roll and a note, turn 2 with a close (the seed is revealed)."""
    enc = await tussle.create(name="Bridge")
    await enc.add(ANN)
    await enc.add(TROLL)
    await enc.ok("start_turn")
    await enc.ok(
        "roll",
        expression="2d6+1",
        purpose="Ann's DX check",
        combatant="ann",
        command_id="roll-1",
        entropy="0123456789abcdefXYZ",
    )
    await enc.ok("note", text="Ann *leaps* [url=x]")
    await enc.ok("start_turn")
    await enc.ok("close", reason="the troll flees")
    return enc, await enc.events()


def _faces(events, seq):
    d = events[seq - 1]["data"]
    return d["faces"], d["total"]


async def test_markdown_of_a_short_encounter(tussle):
    enc, ev = await short_encounter(tussle)
    c, seed = ev[0]["data"]["commitment"], ev[7]["data"]["revealed_seed"]
    h = {e["seq"]: e["hash"] for e in ev}
    (f1, f2), total = _faces(ev, 5)
    expected = f"""**Bridge — Setup**

- `#1` The encounter “Bridge” opens (freeform rules, server dice, dice commitment {c}).
- `#2` Ann joins the fight on side heroes at \\[0, 0\\].
- `#3` Troll joins the fight on side monsters at \\[1, 0\\].

---

Dice commitment: `{c}` (in force)

Chain: seq 3, hash `{h[3]}`

-----8<-----

**Bridge — Turn 1**

- `#4` Turn 1 begins.
- `#5` Ann rolls 2d6 for Ann's DX check: {f1}, {f2} + 1 (constant in the expression) = {total}.
- `#6` The GM notes: “Ann \\*leaps\\* \\[url=x\\]”

---

Dice commitment: `{c}` (in force)

Chain: seq 6, hash `{h[6]}`

-----8<-----

**Bridge — Turn 2**

- `#7` Turn 2 begins.
- `#8` The dice seed behind commitment {c} is revealed: {seed}; every server roll can now be checked.
- `#9` The encounter is closed: the troll flees.

---

Dice commitment: `{c}` (seed revealed: `{seed}`)

Head: seq 9, hash `{h[9]}`

[How to check every roll and the chain yourself](<{tussle.base_url}/verifying>) (`tussle verify`)
"""
    r = await enc.get("/log?format=markdown")
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/markdown")
    assert r.body == expected


async def test_bbcode_of_a_short_encounter_turn_1(tussle):
    """A turn excerpt's footer says where it ends and names the chain's real head (issue 18 item 4)."""
    enc, ev = await short_encounter(tussle)
    c = ev[0]["data"]["commitment"]
    seed = next(e["data"]["revealed_seed"] for e in ev if e["type"] == "DiceSeedRotated")
    h = {e["seq"]: e["hash"] for e in ev}
    (f1, f2), total = _faces(ev, 5)
    expected = f"""[b]Bridge — Turn 1[/b]

[list]
[*][i]#4[/i] Turn 1 begins.
[*][i]#5[/i] Ann rolls 2d6 for Ann's DX check: {f1}, {f2} + 1 (constant in the expression) = {total}.
[*][i]#6[/i] The GM notes: “Ann *leaps* [[b][/b]url=x]”
[/list]

[size=85]Dice commitment: [i]{c}[/i] (seed revealed: [i]{seed}[/i])
Chain: seq 6, hash [i]{h[6]}[/i]
Head: seq 9, hash [i]{h[9]}[/i]
[url={tussle.base_url}/verifying]How to check every roll and the chain yourself[/url] ([i]tussle verify[/i])[/size]
"""
    r = await enc.get("/log?format=bbcode&turn=1")
    assert r.status == 200
    assert r.body == expected


async def test_max_chars_splits_at_entry_boundaries(tussle):
    enc, _ = await short_encounter(tussle)
    r = await tussle.request(
        "GET",
        f"{enc.path}/log?format=markdown&max_chars=450",
        token=enc.gm_token,
        headers={"Accept": "application/json"},
    )
    posts = r.body["posts"]
    whole = (await enc.get("/log?format=json")).body["entries"]
    assert len(posts) > 3
    for p in posts:
        assert len(p) <= 450 or p.count("- `#") == 1
    # Every entry appears exactly once, in order, across the posts.
    seqs = [
        int(line.split("`#")[1].split("`")[0])
        for p in posts
        for line in p.splitlines()
        if line.startswith("- `#")
    ]
    assert seqs == [e["seq"] for e in whole]
    assert "(part 1 of" in "".join(posts)
    # The last post ends on the head, then the link to the verifying docs (issue 25 item 8).
    head, link = posts[-1].rstrip().rsplit("\n\n", 1)
    assert head.endswith(f"`{whole[-1]['hash']}`")
    assert link.startswith("[How to check every roll and the chain yourself](<")


async def test_log_json_grouped_by_turn_with_at_and_turn(tussle):
    enc, ev = await short_encounter(tussle)
    log = (await enc.get("/log")).body
    assert [t["turn"] for t in log["turns"]] == [0, 1, 2]
    assert [e["seq"] for e in log["entries"]] == list(range(1, 10))
    assert log["head"] == {"seq": 9, "hash": ev[-1]["hash"]}
    at5 = (await enc.get("/log?at=5")).body
    assert [e["seq"] for e in at5["entries"]] == [1, 2, 3, 4, 5] and at5["head"]["seq"] == 5
    turn1 = (await enc.get("/log?turn=1")).body
    assert [e["seq"] for e in turn1["entries"]] == [4, 5, 6]
    assert (await enc.get("/log?at=99")).status == 400
    assert (await enc.get("/log?format=html")).status == 400


async def test_roll_sentence_has_faces_modifiers_target_and_outcome(tussle):
    enc = await tussle.create("probe")
    await enc.add(ANN)
    await enc.add(TROLL)
    await enc.ok("probe.grab", combatant="ann", target="troll")
    await enc.ok("respond", reaction=(await enc.state())["pending"][0]["id"], choice="resist")
    roll = next(e for e in await enc.events() if e["type"] == "DieRolled")
    face, target = roll["data"]["faces"][0], roll["data"]["target"]
    text = next(e["text"] for e in (await enc.get("/log")).body["entries"] if e["type"] == "DieRolled")
    assert text == (
        f"Troll rolls 1d6 for escape: {face} (no modifiers) = {face} vs {target} — {roll['data']['outcome']}."
    )


async def test_manual_rolls_say_they_are_not_verifiable(tussle):
    enc = await tussle.create(dice="manual")
    await enc.add(ANN)
    await enc.ok("roll", expression="3d6", purpose="a table roll", combatant="ann", dice=[[1, 2, 3]])
    text = (await enc.get("/log")).body["entries"][-1]["text"]
    assert text == "Ann rolls 3d6 for a table roll: 1, 2, 3 (no modifiers) = 6 (manual dice, not verifiable)."
    audit = (await enc.get("/audit")).body
    assert audit["rolls"][0]["mark"] == "manual" and audit["commitments"] == []


async def test_audit_marks_rolls_verified_once_their_seed_is_revealed(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    await enc.ok("roll", expression="1d20", purpose="first", command_id="c-1", entropy="short")
    await enc.ok("roll", expression="1d20", purpose="server keyed")
    audit = (await enc.get("/audit")).body
    first, second = audit["rolls"]
    c0 = audit["commitments"][0]["commitment"]
    assert first["mark"] == second["mark"] == "not_yet_revealed"
    assert first["commitment"] == c0 and first["command_id"] == "c-1" and first["draws"] == [0]
    assert first["entropy"] == "short" and first["entropy_weak"] is True and first["client_keyed"] is True
    # Both are the GM's own rolls, which nobody answered: the GM could aim them (DESIGN.md "Dice").
    assert first["keyed_by"] == second["keyed_by"] == "gm" and second["client_keyed"] is False
    assert audit["commitment_in_force"] == c0 and audit["revealed_seeds"] == {}
    rotated = await enc.ok("rotate_seed")
    await enc.ok("roll", expression="1d20", purpose="after rotation", command_id="c-2", entropy="e" * 20)
    audit = (await enc.get("/audit")).body
    assert [r["mark"] for r in audit["rolls"]] == ["verified", "verified", "not_yet_revealed"]
    c1 = rotated["events"][-1]["data"]["commitment"]
    assert audit["rolls"][2]["commitment"] == c1 != c0
    assert audit["revealed_seeds"] == {c0: rotated["events"][-1]["data"]["revealed_seed"]}
    assert audit["commitments"][0]["seed_matches"] is True
    assert audit["head"]["seq"] == (await enc.get("")).body["seq"]
    # The log shows the rotation too.
    texts = [e["text"] for e in (await enc.get("/log")).body["entries"]]
    assert any(f"behind commitment {c0} is revealed" in t and c1 in t for t in texts)
