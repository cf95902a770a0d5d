"""Webhooks end to end: a real server, real receivers on 127.0.0.1, real signatures (standardwebhooks)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import msgspec
import pytest
from standardwebhooks import Webhook

from projections.forum_export import escape_markdown
from server.settings import WebhookSettings
from tests.support.client import Encounter, RunningServer, TussleClient, serving
from tests.support.receivers import Answer, Receiver

# The schedule shortened: retries after 50-200 ms instead of seconds to an hour.
FAST = WebhookSettings(
    allow_private=True, retry_base_s=0.05, retry_cap_s=0.2, read_timeout_s=0.5, poll_s=0.05
)


@pytest.fixture
async def hooked(tmp_path) -> AsyncIterator[TussleClient]:
    async with serving(str(tmp_path / "tussle.db"), webhook_allow_private=True, webhooks=FAST) as client:
        yield client


@pytest.fixture
async def giving_up(tmp_path) -> AsyncIterator[TussleClient]:
    """A server that disables an endpoint after half a second of failures (24 hours in production)."""
    quick = msgspec.structs.replace(FAST, give_up_s=0.5)
    async with serving(str(tmp_path / "t.db"), webhook_allow_private=True, webhooks=quick) as client:
        yield client


@pytest.fixture
async def receivers() -> AsyncIterator[list[Receiver]]:
    made: list[Receiver] = []
    yield made
    for r in made:
        await r.stop()


async def receiver(made: list[Receiver], answer: Any = None) -> Receiver:
    r = await Receiver(answer).start()
    made.append(r)
    return r


async def subscribe(enc: Encounter, url: str, token: str | None = None, **fields: Any) -> dict[str, Any]:
    r = await enc.client.request(
        "POST", f"{enc.path}/webhooks", {"url": url, **fields}, token=token or enc.gm_token
    )
    assert r.status == 201, r.body
    return r.body


async def notes(enc: Encounter, n: int, token: str | None = None) -> list[int]:
    seqs = []
    for i in range(n):
        r = await enc.command("note", token=token, text=f"note {i}")
        assert r.status == 201, r.body
        seqs.append(r.body["seq"])
    return seqs


async def test_deliveries_are_signed_per_standard_webhooks_and_the_stream_keeps_no_url_or_secret(
    hooked, receivers
):
    rx = await receiver(receivers)
    enc = await hooked.create()
    made = await subscribe(enc, rx.url, deliver=["events", "log", "notices"])
    assert made["secret"].startswith("whsec_") and made["host"] == "127.0.0.1" and made["status"] == "active"
    (seq,) = await notes(enc, 1)
    got = await rx.until_processed(2)  # the event, then its log entry
    verifier = Webhook(made["secret"])
    for r in got:
        assert verifier.verify(r.body, r.headers)  # raises unless the signature is the spec's
    event, entry = got[0].json, got[1].json
    assert event["type"] == "tussle.event" and event["data"]["event"]["seq"] == seq
    assert event["data"]["event"]["type"] == "NotePosted" and event["data"]["encounter"] == enc.id
    assert entry["type"] == "tussle.log" and "note 0" in entry["data"]["entries"][0]["text"]
    assert got[0].id == f"{made['id']}.{seq}.0"
    # The stream records who is told what, never where exactly nor the secret.
    events = await enc.events()
    created = next(e for e in events if e["type"] == "WebhookCreated")
    assert created["data"] == {
        "webhook": made["id"],
        "seat": None,
        "deliver": ["events", "log", "notices"],
        "format": "json",
        "host": "127.0.0.1",
    }
    everything = str(events) + str((await enc.get("/webhooks")).body) + str((await enc.get("/log")).body)
    assert "s3cr3t-path" not in everything and "q5" not in everything and made["secret"] not in everything
    # A rotated secret signs the next deliveries; the old one no longer verifies them.
    rotated = await enc.client.request("POST", f"{enc.path}/webhooks/{made['id']}/secret", token=enc.gm_token)
    assert rotated.status == 201 and rotated.body["secret"] != made["secret"]
    await notes(enc, 1)
    later = (await rx.until_processed(4))[-1]
    assert Webhook(rotated.body["secret"]).verify(later.body, later.headers)
    with pytest.raises(Exception, match="signature"):
        verifier.verify(later.body, later.headers)


async def deliveries_when(enc: Encounter, wid: str, ok: Any, wait_s: float = 30.0) -> list[dict[str, Any]]:
    """GET the webhook's deliveries until `ok(deliveries)` (then them), failing after `wait_s`."""
    deadline = asyncio.get_running_loop().time() + wait_s
    while True:
        deliveries = (await enc.get(f"/webhooks/{wid}/deliveries")).body["deliveries"]
        if (deliveries and ok(deliveries)) or asyncio.get_running_loop().time() > deadline:
            return deliveries
        await asyncio.sleep(0.05)


async def metrics_when(client: TussleClient, line: str, wait_s: float = 30.0) -> str:
    """GET /metrics until it holds `line` (then its text), failing after `wait_s`."""
    deadline = asyncio.get_running_loop().time() + wait_s
    while True:
        metrics = (await client.request("GET", "/metrics")).body
        if line in metrics or asyncio.get_running_loop().time() > deadline:
            assert line in metrics
            return metrics
        await asyncio.sleep(0.05)


async def test_an_endpoint_that_fails_three_times_gets_everything_in_order_under_stable_ids(
    hooked, receivers
):
    rx = await receiver(receivers, lambda n: Answer(500) if n < 3 else Answer(200))
    enc = await hooked.create()
    made = await subscribe(enc, rx.url, deliver=["events"])
    seqs = await notes(enc, 5)
    got = await rx.until_processed(5)
    assert [r.json["data"]["seq"] for r in got] == seqs  # per-endpoint order kept across the retries
    first = f"{made['id']}.{seqs[0]}.0"
    assert [r.id for r in rx.requests[:4]] == [first] * 4  # the same id on every try, for deduplication
    assert len(rx.requests) == 8  # nothing sent twice once acknowledged
    page = (await enc.get(f"/webhooks/{made['id']}/deliveries")).body
    by_id = {d["id"]: d for d in page["deliveries"]}
    assert by_id[first]["attempts"] == 4 and by_id[first]["status"] == "delivered"
    assert by_id[first]["last_status"] == 200 and by_id[first]["last_error"] is None
    assert page["webhook"]["failing_since"] is None and page["webhook"]["status"] == "active"
    # The receiver has answered the fifth delivery; the dispatcher counts it once it has recorded it.
    metrics = await metrics_when(hooked, 'tussle_webhook_deliveries_total{outcome="delivered"} 5')
    assert 'tussle_webhook_deliveries_total{outcome="failed"} 3' in metrics


async def test_a_hanging_endpoint_times_out_and_holds_up_no_other(hooked, receivers):
    release = asyncio.Event()
    stuck = await receiver(receivers, lambda n: Answer(hang=release) if n < 2 else Answer())
    fine = await receiver(receivers)
    enc = await hooked.create()
    slow = await subscribe(enc, stuck.url, deliver=["events"])
    await subscribe(enc, fine.url, deliver=["events"])
    seqs = await notes(enc, 3)
    assert [r.json["data"]["seq"] for r in await fine.until_processed(3)] == seqs
    await stuck.until(lambda: len(stuck.requests) >= 2, "second try after the timeout")
    page = (await enc.get(f"/webhooks/{slow['id']}/deliveries")).body
    head = min(page["deliveries"], key=lambda d: d["seq"])  # the second webhook's creation, seen by the first
    assert head["attempts"] >= 1 and "Timeout" in head["last_error"]
    release.set()
    assert [r.json["data"]["seq"] for r in await stuck.until_processed(4)] == [seqs[0] - 1, *seqs]


async def test_a_429_is_retried_no_sooner_than_its_retry_after(hooked, receivers):
    rx = await receiver(receivers, lambda n: Answer(429, {"Retry-After": "1"}) if n == 0 else Answer())
    enc = await hooked.create()
    await subscribe(enc, rx.url, deliver=["events"])
    await notes(enc, 1)
    await rx.until_processed(1)
    assert rx.requests[1].at - rx.requests[0].at >= 1.0
    assert rx.requests[0].id == rx.requests[1].id


async def test_a_redirect_is_a_failure_and_is_not_followed(hooked, receivers):
    elsewhere = await receiver(receivers)
    rx = await receiver(receivers, lambda n: Answer(302, {"Location": elsewhere.url}) if n == 0 else Answer())
    enc = await hooked.create()
    made = await subscribe(enc, rx.url, deliver=["events"])
    await notes(enc, 1)
    await rx.until_processed(1)
    assert elsewhere.requests == [] and len(rx.requests) == 2
    # The receiver has answered; the dispatcher records the attempt just after.
    (d,) = await deliveries_when(enc, made["id"], lambda ds: ds[0]["status"] == "delivered")
    assert d["attempts"] == 2 and d["status"] == "delivered"


async def test_private_addresses_and_userinfo_are_refused_without_the_flag(tussle, receivers):
    rx = await receiver(receivers)
    enc = await tussle.create()
    for url, why in (
        (rx.url, "loopback"),
        (f"http://localhost:{rx.port}/hook", "loopback"),
        # Issue 33 item 11: refused by name and by form, not only where they happen to resolve.
        (f"http://localhost.:{rx.port}/hook", "loopback"),
        (f"http://ip6-localhost:{rx.port}/hook", "loopback"),
        (f"http://a.b.localhost:{rx.port}/hook", "loopback"),
        (f"http://%31%32%37.0.0.1:{rx.port}/hook", "percent-encoded"),
        ("http://10.1.2.3/hook", "private"),
        ("http://169.254.169.254/latest/meta-data", "metadata"),
        ("https://user:pass@example.com/hook", "user name or password"),
        ("ftp://example.com/x", "http or https"),
    ):
        r = await tussle.request("POST", f"{enc.path}/webhooks", {"url": url}, token=enc.gm_token)
        assert r.status == 400 and r.body["error"]["details"] == {"field": "url"}, (url, r.body)
        assert why in r.body["error"]["message"]
    assert (await enc.get("/webhooks")).body == {"webhooks": []}
    assert not [e for e in await enc.events() if e["type"] == "WebhookCreated"]


async def test_a_players_webhook_gets_its_seats_notices_only_and_stops_with_its_seat(hooked, receivers):
    mine, table = await receiver(receivers), await receiver(receivers)
    enc = await hooked.create(options={"reaction_timeout_s": 3600})
    await enc.add({"id": "simeth", "name": "Simeth", "side": "a", "stats": {}, "position": [0, 0]})
    await enc.add({"id": "troll", "name": "Troll", "side": "b", "stats": {}, "position": [1, 0]})
    ana = await enc.seat_full("Ana", ["simeth"])
    await enc.seat_full("Bo", ["troll"])
    for body in ({"deliver": ["events"]}, {"seat": "seat-2"}):
        r = await hooked.request(
            "POST", f"{enc.path}/webhooks", {"url": mine.url, **body}, token=ana["token"]
        )
        assert r.status == 403, r.body
    own = await subscribe(enc, mine.url, token=ana["token"])
    assert own["seat"] == ana["seat"] and own["deliver"] == ["notices"]
    await subscribe(enc, table.url, deliver=["notices"])  # the GM's: every notice
    await enc.ok("ask", combatant="troll", kind="hth_defence", options=["parry", "dodge"], default="parry")
    await enc.ok("ask", combatant="simeth", kind="entry_dagger", options=["yes", "no"], default="no")
    await table.until_processed(2)
    got = await mine.until_processed(1)
    notice = got[0].json["data"]
    assert notice["to"] == ana["seat"] and notice["kind"] == "asked"
    assert notice["reaction"] == (await enc.state())["pending"][1]["id"]  # what a bot answers with `respond`
    assert notice["text"].startswith("you are asked (for Simeth): entry dagger — choose yes or no by ")
    assert notice["text"].endswith(" UTC (default: no)")
    assert notice["link"] == f"{hooked.base_url}/encounters/{enc.id}/view"
    assert [r.json["data"]["to_name"] for r in table.processed] == ["Bo", "Ana"]
    listed = (await hooked.request("GET", f"{enc.path}/webhooks", token=ana["token"])).body["webhooks"]
    assert [w["id"] for w in listed] == [own["id"]] and len(
        (await enc.get("/webhooks")).body["webhooks"]
    ) == 2
    # The seat is revoked: its webhook stops, and says so.
    r = await hooked.request("DELETE", f"{enc.path}/seats/{ana['seat']}", token=enc.gm_token)
    assert r.status == 204
    await enc.ok("close")
    await table.until(
        lambda: sum(r.json["data"]["kind"] == "closed" for r in table.processed) >= 2, "closed notices"
    )
    closed = [r.json["data"] for r in table.processed if r.json["data"]["kind"] == "closed"]
    assert {c["to"] for c in closed} == {"gm", "seat-2"}
    assert closed[0]["text"] == "the fight is closed; the seed is revealed — verify"
    assert len(mine.requests) == 1
    states = {w["id"]: w["status"] for w in (await enc.get("/webhooks")).body["webhooks"]}
    assert states[own["id"]] == "revoked"


async def test_a_timed_out_reaction_is_a_notice_to_the_seat_asked(tmp_path, receivers):
    srv = await RunningServer(
        str(tmp_path / "t.db"), webhook_allow_private=True, webhooks=FAST, timeout_poll_s=0.05
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(srv.base_url, session, srv.db_path)
            rx = await receiver(receivers)
            enc = await client.create(options={"reaction_timeout_s": 1})
            await enc.add({"id": "simeth", "name": "Simeth", "side": "a", "stats": {}, "position": [0, 0]})
            seat = await enc.seat_full("Ana", ["simeth"])
            await subscribe(enc, rx.url, token=seat["token"])
            await enc.ok(
                "ask", combatant="simeth", kind="parry_or_dodge", options=["parry", "dodge"], default="dodge"
            )
            got = await rx.until_processed(2)
            assert [r.json["data"]["kind"] for r in got] == ["asked", "timed_out"]
            assert (
                got[1].json["data"]["text"]
                == "your reaction timed out; the default was applied (parry or dodge: dodge)"
            )
    finally:
        await srv.stop()


def discord_limits(rx_holder: list[Receiver]) -> Any:
    """A receiver's answer that refuses, as Discord's API does (400), content over 2,000 characters and
    a username outside 1-80 characters or containing "discord" or "clyde"."""

    def answer(n: int) -> Answer:
        body = rx_holder[0].requests[n].json
        name = body.get("username", "x")
        fine = (
            0 < len(body.get("content", "")) <= 2000
            and 1 <= len(name) <= 80
            and "discord" not in name.lower()
            and "clyde" not in name.lower()
            and body.get("allowed_mentions") == {"parse": []}
        )
        return Answer(204 if fine else 400)

    return answer


async def test_discord_format_splits_a_long_note_between_words_keeping_spans_links_and_the_page_link(
    hooked, receivers
):
    holder: list[Receiver] = []
    rx = await receiver(receivers, discord_limits(holder))
    holder.append(rx)
    enc = await hooked.create()
    await enc.add({"id": "bo", "name": "Bo *the* _Bold_", "side": "a", "stats": {}})
    await enc.seat("Ann **discord** Clyde", ["bo"])
    avatar = "https://example.org/avatars/bo.png"
    r = await hooked.request(
        "POST",
        f"{enc.path}/webhooks",
        {"url": rx.url, "avatar_url": "http://example.org/a.png"},
        token=enc.gm_token,
    )
    assert r.status == 400 and r.body["error"]["details"] == {"field": "avatar_url"}, r.body
    made = await subscribe(enc, rx.url, deliver=["log", "notices"], format="discord", avatar_url=avatar)
    assert made["avatar_url"] == avatar
    chunk = "a `code span here` and [the rules](https://example.org/rules) then https://example.com/x_y ok; "
    long = (chunk * 60)[:5000].rsplit(" ", 1)[0]
    note = (await enc.ok("note", text=long))["seq"]
    asked = (
        await enc.ok("ask", combatant="bo", kind="k", question=long, options=["yes", "no"], default="no")
    )["seq"]
    # The receiver answers 400, as Discord does, to a message past its limits: all must be accepted.
    owed = await deliveries_when(enc, made["id"], lambda ds: all(d["status"] == "delivered" for d in ds))
    assert {d["status"] for d in owed} == {"delivered"} and len(rx.requests) == len(owed)
    kinds = {d["id"]: d["kind"] for d in owed}
    by_seq: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for r in rx.processed:
        assert Webhook(made["secret"]).verify(r.body, r.headers)
        by_seq.setdefault((int(r.id.split(".")[1]), kinds[r.id]), []).append(r.json)
    link = f"{hooked.base_url}/encounters/{enc.id}/view"
    escaped = " ".join(escape_markdown(long).split())
    notices = by_seq[(asked, "notice")]
    for parts in (by_seq[(note, "log")], by_seq[(asked, "log")], notices):
        assert len(parts) == 3, [len(p["content"]) for p in parts]  # 5,000 characters in as few as fit
        contents = [p["content"] for p in parts]
        assert escaped in " ".join(" ".join(contents).split())  # every word whole, none cut across parts
        for c in contents:
            assert c.count("`") % 2 == 0, c[-80:]  # no code span split across parts
            assert c.count("\\[the rules\\]") == c.count("](https://example.org/rules)"), c[-80:]
    assert {p["username"] for p in by_seq[(note, "log")]} == {"the GM"}
    assert {m["avatar_url"] for ms in by_seq.values() for m in ms} == {avatar}
    assert notices[-1]["content"].endswith("\n" + link) and all(
        link not in p["content"] for p in notices[:-1]
    )
    assert notices[0]["content"].startswith(
        "**Ann \\*\\*discord\\*\\* Clyde**: you are asked (for Bo \\*the\\* \\_Bold\\_): a \\`code"
    )
    assert "— choose yes or no (default: no)" in notices[-1]["content"]
    name = notices[0]["username"]
    assert (
        name.startswith("Bo *the* _Bold_ (Ann")
        and "discord" not in name.lower()
        and "clyde" not in name.lower()
    )


async def test_it_is_your_turn_reaches_the_seat_whose_figure_acts_now(hooked, receivers):
    from tests.tft.helpers import simeth, troll

    simeths, trolls = await receiver(receivers), await receiver(receivers)
    enc = await hooked.create("tft", dice="manual")
    await enc.add(simeth())
    await enc.add(troll())
    ana = await enc.seat("Simeth's player", ["simeth"])
    bo = await enc.seat("Troll's player", ["troll"])
    await subscribe(enc, simeths.url, token=ana)
    await subscribe(enc, trolls.url, token=bo)
    await enc.ok("start_turn", turn=1)
    # Forced past the movement phase (tft's sequence), so the first notice is the action phase's.
    await enc.ok("start_phase", phase="action", force=True)  # Simeth's DX is the highest: Simeth acts first
    (first,) = await simeths.until_processed(1)
    assert first.json["data"]["kind"] == "your_turn"
    assert first.json["data"]["text"].startswith(
        "it is your turn (Simeth, turn 1, action phase): Simeth acts: "
    )
    assert "token" not in first.json["data"]["link"] and first.json["data"]["link"].endswith("/view")
    r = await enc.command("tft.pass", token=ana, combatant="simeth")
    assert r.status == 201, r.body
    (second,) = await trolls.until_processed(1)
    assert second.json["data"]["text"].startswith("it is your turn (Troll, turn 1, action phase)")
    assert len(simeths.requests) == 1


async def test_a_notice_says_the_gms_step_in_words_without_the_commands_api_name(hooked, receivers):
    """The rulesets' sentences name the command for API readers ("the GM starts the movement phase
    (start_phase movement)"); a notice, read by people, leaves the name out as the page does."""
    from tests.tft.helpers import simeth, troll

    table = await receiver(receivers)
    enc = await hooked.create("tft", dice="manual")
    await enc.add(simeth())
    await enc.add(troll())
    await subscribe(enc, table.url, deliver=["notices"])
    await enc.ok("start_turn", turn=1)
    told = [r.json["data"] for r in await table.until_processed(1)]
    waits = next(n for n in told if n["to"] == "gm" and n["kind"] == "your_turn")
    assert waits["text"].startswith("the table waits for you (turn 1)"), waits["text"]
    assert "movement phase" in waits["text"] and "start_phase" not in waits["text"], waits["text"]


async def test_an_endpoint_failing_past_the_give_up_time_is_disabled_and_the_gm_told(giving_up, receivers):
    client = giving_up
    broken = await receiver(receivers, lambda n: Answer(500))
    gm = await receiver(receivers)
    enc = await client.create()
    dead = await subscribe(enc, broken.url, deliver=["events"])
    await subscribe(enc, gm.url, deliver=["notices"])
    await notes(enc, 1)
    (told,) = await gm.until_processed(1)
    assert told.json["data"]["kind"] == "webhook_disabled" and told.json["data"]["to"] == "gm"
    assert told.json["data"]["text"].startswith("your webhook to 127.0.0.1 was disabled: it failed for ")
    listed = {w["id"]: w for w in (await enc.get("/webhooks")).body["webhooks"]}
    assert listed[dead["id"]]["status"] == "disabled" and "HTTP 500" in listed[dead["id"]]["last_error"]
    disabled = [e for e in await enc.events() if e["type"] == "WebhookDisabled"]
    assert [(e["actor"], e["data"]["webhook"]) for e in disabled] == [("system", dead["id"])]
    (later,) = await notes(enc, 1)
    owed = (await enc.get(f"/webhooks/{dead['id']}/deliveries")).body["deliveries"]
    assert later not in [d["seq"] for d in owed] and {d["status"] for d in owed} == {"cancelled"}


async def test_redeliver_re_enables_a_disabled_webhook_in_the_stream_and_sends_in_order(giving_up, receivers):
    client = giving_up
    healthy = [False]
    flaky = await receiver(receivers, lambda n: Answer(204 if healthy[0] else 500))
    gm = await receiver(receivers)
    enc = await client.create()
    hook = await subscribe(enc, flaky.url, deliver=["events"])
    table = await subscribe(enc, gm.url, deliver=["notices"])
    owed = await notes(enc, 2)
    await gm.until_processed(1)  # told of the disabling
    assert (await enc.get("/webhooks")).body["webhooks"][0]["status"] == "disabled"
    healthy[0] = True
    seat = await enc.seat("Ann", [])
    r = await client.request("POST", f"{enc.path}/webhooks/{hook['id']}/redeliver", token=seat)
    assert r.status in (403, 404), r.body
    r = await client.request("POST", f"{enc.path}/webhooks/{hook['id']}/redeliver", token=enc.gm_token)
    assert r.status == 200, r.body
    assert r.body["enabled"] is True and r.body["webhook"]["status"] == "active"
    assert r.body["redelivering"] >= len(owed)
    (later,) = await notes(enc, 1)
    # In order from the first undelivered, with no gap (issue 28 item 4): the GM's second webhook, the
    # notes, its own disabling, the seat made while it was disabled, its re-enabling, and what followed.
    assert later == owed[-1] + 4
    got = [x.json["data"]["seq"] for x in await flaky.until_processed(len(owed) + 5)]
    assert got == list(range(owed[0] - 1, later + 1))
    types = [x.json["data"]["event"]["type"] for x in flaky.processed[-3:]]
    assert types == ["SeatCreated", "WebhookEnabled", "NotePosted"], types
    changes = [(e["type"], e["actor"]) for e in await enc.events() if e["type"].startswith("WebhookDi")]
    changes += [(e["type"], e["actor"]) for e in await enc.events() if e["type"] == "WebhookEnabled"]
    assert changes == [("WebhookDisabled", "system"), ("WebhookEnabled", "gm")]
    log = (await enc.get("/log")).body
    assert "re-enables the webhook to 127.0.0.1" in str(log)
    # Disabled again, then the encounter closes: re-enabling would be an event, which it takes no more.
    healthy[0] = False
    await notes(enc, 1)
    await gm.until_processed(2)
    await enc.ok("close")
    r = await client.request("POST", f"{enc.path}/webhooks/{hook['id']}/redeliver", token=enc.gm_token)
    assert r.status == 409 and r.body["error"]["code"] == "closed", r.body
    assert "takes no more events" in r.body["error"]["message"]
    # An active webhook's deliveries are still retried in a closed encounter.
    r = await client.request("POST", f"{enc.path}/webhooks/{table['id']}/redeliver", token=enc.gm_token)
    assert r.status == 200 and r.body["enabled"] is False, r.body


async def test_a_test_delivery_is_signed_recorded_in_deliveries_and_appends_nothing(hooked, receivers):
    rx, own = await receiver(receivers), await receiver(receivers)
    enc = await hooked.create()
    await enc.add({"id": "bo", "name": "Bo", "side": "a", "stats": {}})
    ann = await enc.seat_full("Ann", ["bo"])
    made = await subscribe(enc, rx.url, deliver=["log", "notices"], format="discord")
    mine = await subscribe(enc, own.url, token=ann["token"])
    head = (await enc.state())["seq"]
    r = await hooked.request("POST", f"{enc.path}/webhooks/{made['id']}/test", token=enc.gm_token)
    assert r.status == 202, r.body
    await rx.until(lambda: any(x.id == r.body["delivery"] for x in rx.processed), "the test delivery")
    got = rx.processed[-1]
    assert rx.processed[0].json["username"] == "Ann"  # the log of Ann's own webhook, posted as Ann
    assert Webhook(made["secret"]).verify(got.body, got.headers) and got.id == r.body["delivery"]
    assert got.json["username"] == "Tussle" and got.json["content"].startswith(
        "Test message from Tussle, sent by the GM"
    )
    assert got.json["content"].endswith(f"/encounters/{enc.id}/view")
    assert (await enc.state())["seq"] == head  # nothing appended
    d = (await deliveries_when(enc, made["id"], lambda ds: ds[0]["status"] == "delivered"))[0]  # newest first
    assert (d["id"], d["kind"], d["status"], d["seq"]) == (got.id, "test", "delivered", head)
    # A player tests its own webhook, and cannot reach the GM's.
    assert (
        await hooked.request("POST", f"{enc.path}/webhooks/{made['id']}/test", token=ann["token"])
    ).status == 404
    r = await hooked.request("POST", f"{enc.path}/webhooks/{mine['id']}/test", token=ann["token"])
    assert r.status == 202, r.body
    (theirs,) = await own.until_processed(1)
    assert theirs.json["type"] == "tussle.test" and "sent by Ann" in theirs.json["data"]["text"]
    assert Webhook(mine["secret"]).verify(theirs.body, theirs.headers)


async def test_a_delivery_refused_at_connection_keeps_the_reason():
    """Issue 33 item 11: last_error said only `ClientConnectorDNSError … [None]`; the resolver's reason
    (resolves to a loopback/private address) is what the GM needs to read."""
    import socket as socket_module

    import aiohttp

    from server.webhooks.dispatcher import _reason
    from server.webhooks.safety import CheckingResolver, forbidden_address

    host = socket_module.gethostname()
    try:
        address = socket_module.gethostbyname(host)
    except OSError:
        pytest.skip("this machine's name does not resolve")
    if forbidden_address(address) is None:
        pytest.skip("this machine's name resolves to a public address")
    connector = aiohttp.TCPConnector(resolver=CheckingResolver(False), use_dns_cache=False)
    async with aiohttp.ClientSession(connector=connector) as session:
        with pytest.raises(aiohttp.ClientError) as caught:
            await session.post(f"http://{host}:9/hook", data=b"{}")
    assert f"{host} resolves to a" in _reason(caught.value), _reason(caught.value)


async def test_a_webhooks_rotation_and_removal_take_the_clients_command_id(hooked, receivers):
    """WebhookSecretRotated and WebhookDeleted are in the sender's name: they take its command_id (a POST's
    body, a DELETE's query), so a page or bot can keep them in its sent record; a resend answers as one."""
    rx = await receiver(receivers)
    enc = await hooked.create()
    hook = await subscribe(enc, rx.url, deliver=["notices"])
    path = f"{enc.path}/webhooks/{hook['id']}"
    first = await enc.client.request("POST", f"{path}/secret", {"command_id": "rot-1"}, token=enc.gm_token)
    assert first.status == 201 and first.body["secret"] != hook["secret"], first.body
    again = await enc.client.request("POST", f"{path}/secret", {"command_id": "rot-1"}, token=enc.gm_token)
    assert again.status == 200 and again.body == first.body, again.body  # not a second rotation
    other = await enc.client.request("DELETE", f"{path}?command_id=rot-1", token=enc.gm_token)
    assert other.status == 409 and other.body["error"]["code"] == "command_id_reused", other.body
    bad = await enc.client.request("POST", f"{path}/secret", {"command_id": "x", "y": 1}, token=enc.gm_token)
    assert bad.status == 400, bad.body
    gone = await enc.client.request("DELETE", f"{path}?command_id=del-1", token=enc.gm_token)
    assert gone.status == 204
    events = [e for e in await enc.events() if e["type"] in ("WebhookSecretRotated", "WebhookDeleted")]
    assert [(e["type"], e["command_id"]) for e in events] == [
        ("WebhookSecretRotated", "rot-1"),
        ("WebhookDeleted", "del-1"),
    ]


async def test_an_asked_notice_lists_the_answers_offered_not_the_ones_the_rules_refuse_now(hooked, receivers):
    """ap-grapple: after a pull off balance with no barrier there, the seat's page offered Left, Right and
    Own hex, while its notice said "choose left or right or own hex or in place" ("in place" needs a
    barrier). The notice now lists the answers offered for the question."""
    from tests.ap_grapple.ap_grapple_world import ALDO, ALDO_HEX, BERK, BERK_HEX

    rx = await receiver(receivers)
    enc = await hooked.create("ap-grapple", dice="manual")
    for cid, name, side, at, stats in (
        ("aldo", "Aldo", "a", ALDO_HEX, ALDO),
        ("berk", "Berk", "b", BERK_HEX, BERK),
    ):
        await enc.add(
            {"id": cid, "name": name, "side": side, "position": at, "facing": 0, "stats": dict(stats)}
        )
    ana = await enc.seat("Aldo's player", ["aldo"])
    await subscribe(enc, rx.url, token=ana)
    await enc.ok("start_turn")
    await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    await rx.until(lambda: any(r.json["data"]["kind"] == "asked" for r in rx.processed), "the swing question")
    asked = next(r.json["data"] for r in rx.processed if r.json["data"]["kind"] == "asked")
    assert "— choose left or right or own hex" in asked["text"] and "in place" not in asked["text"], asked[
        "text"
    ]
