"""POST /discord/interactions: Discord's interactions endpoint (docs/discord.md).

Every request's Ed25519 signature is checked (401 when bad or stale); a PING gets a PONG; a command or a
click is answered within Discord's 3 seconds: at once when its work is done within `defer_after_s`, else
deferred (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE for a command, DEFERRED_UPDATE_MESSAGE for a click) and
finished through the interaction's webhook. What it does, it asks of the encounter service.

A command sent from Discord is keyed by the interaction's id (a snowflake Discord chose) with the digest
of its token as entropy, and keeps Discord's signed request in its declaration (`keyed_by: "discord"`),
so anyone with the application's public key can check that Discord sent it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

import msgspec
import structlog
from aiohttp import web

from projections.view import acting_now_view, offers_view
from rules.offers import GM
from rules.pipeline import commanded_by
from server.discord import binding, signature
from server.discord.components import (
    choice_view,
    index,
    message,
    parse_picks,
    situation,
    turn_view,
    walk,
)
from server.discord.followups import DEFAULT_API, DiscordApi, DiscordApiError
from server.encounters.acting import reaction_deadlines
from server.encounters.log_reading import log_range, turn_range
from server.encounters.service import Encounters
from server.encounters.service_errors import NotFound, ServiceError, Unauthenticated, bad_request
from server.encounters.tokens import Principal
from server.http.context import ENCOUNTERS, SETTINGS, actor, gm, json_response
from server.http.input_checks import read_json
from server.webhooks.discord import escape, log_line, split_content, split_leaving_room

log = structlog.get_logger("tussle.discord")

PING, COMMAND, COMPONENT = 1, 2, 3
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 1, 4, 5, 6, 7
DEFER_AFTER_S = 2.0  # Discord waits 3 s for the first answer
# Commands whose answer is for the sender alone (their deferral is ephemeral too).
PRIVATE = {"bind", "link", "unlink", "turn", "log"}


class Discord:
    """The endpoint's settings and the work it finishes after answering."""

    def __init__(
        self,
        public_key: str,
        application_id: str,
        api_base: str = DEFAULT_API,
        defer_after_s: float = DEFER_AFTER_S,
    ):
        self.public_key = public_key
        self.key = signature.public_key(public_key)
        self.application_id = application_id
        self.api = DiscordApi(api_base, application_id)
        self.defer_after_s = defer_after_s
        self.tasks: set[asyncio.Task[Any]] = set()

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.api.close()


DISCORD = web.AppKey("discord", Discord)


class Reply(msgspec.Struct):
    first: dict[str, Any]
    update: bool = False  # replaces the message the clicked component is on
    more: list[dict[str, Any]] = []  # follow-ups, in order


class Signed(msgspec.Struct, frozen=True):
    signature: str
    timestamp: str
    raw: bytes


def private(text: str) -> Reply:
    return Reply(message(text))


# ---- the endpoint ------------------------------------------------------------------------------------


async def interactions(request: web.Request) -> web.StreamResponse:
    d = request.app.get(DISCORD)
    if d is None:
        raise NotFound(
            "Discord is not enabled on this server (tussle serve --discord-public-key HEX --discord-application-id ID)"
        )
    raw = await request.read()
    sig = request.headers.get("X-Signature-Ed25519", "")
    ts = request.headers.get("X-Signature-Timestamp", "")
    if not sig or not ts or not signature.valid(d.key, sig, ts, raw):
        raise Unauthenticated("invalid request signature")
    if not signature.fresh(ts, time.time()):
        raise Unauthenticated(
            f"stale request: signed more than {signature.MAX_AGE_S} s from the server's clock"
        )
    try:
        interaction = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        raise bad_request("the body is not JSON") from None
    if not isinstance(interaction, dict):
        raise bad_request("an interaction is a JSON object")
    kind = interaction.get("type")
    if kind == PING:
        return json_response({"type": PONG})
    if kind not in (COMMAND, COMPONENT) or not isinstance(interaction.get("token"), str):
        raise bad_request("this endpoint takes PING, APPLICATION_COMMAND and MESSAGE_COMPONENT interactions")
    base = request.app[SETTINGS].public_url or f"{request.scheme}://{request.host}"
    work = asyncio.create_task(handle(request.app[ENCOUNTERS], d, interaction, Signed(sig, ts, raw), base))
    done, _ = await asyncio.wait({work}, timeout=d.defer_after_s)
    token = interaction["token"]
    if work in done:
        reply = work.result()
        answer = {"type": UPDATE if reply.update else MESSAGE, "data": reply.first}
        resp = await _sent(request, answer)
        if reply.more:
            d.later(_follow_ups(d, token, reply.more))
        return resp
    if kind == COMPONENT:
        resp = await _sent(request, {"type": DEFERRED_UPDATE})
    else:
        flags = {"flags": 64} if _subcommand(interaction)[0] in PRIVATE else {}
        resp = await _sent(request, {"type": DEFERRED_MESSAGE, "data": flags})
    d.later(_finish(d, work, token, kind == COMPONENT))
    return resp


async def _sent(request: web.Request, answer: dict[str, Any]) -> web.StreamResponse:
    """The answer, written whole before any follow-up is sent: Discord takes follow-ups only after it."""
    resp = json_response(answer)
    await resp.prepare(request)
    await resp.write_eof()
    return resp


async def _follow_ups(d: Discord, token: str, messages: list[dict[str, Any]]) -> None:
    for m in messages:
        try:
            await d.api.follow_up(token, m)
        except (TimeoutError, DiscordApiError, OSError) as exc:
            log.warning("discord_follow_up_failed", error=str(exc))
            return


async def _finish(d: Discord, work: asyncio.Task[Reply], token: str, component: bool) -> None:
    """A deferred interaction's answer, through its webhook once the work is done."""
    reply = await work
    first = reply.first
    try:
        if component and not reply.update:
            await d.api.follow_up(token, first)  # a new (ephemeral) message beside the clicked one
        else:
            await d.api.edit_original(token, {k: v for k, v in first.items() if k != "flags"})
    except (TimeoutError, DiscordApiError, OSError) as exc:
        log.warning("discord_deferred_answer_failed", error=str(exc))
        return
    await _follow_ups(d, token, reply.more)


def _subcommand(interaction: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    data = interaction.get("data") or {}
    subs = data.get("options") or []
    if not subs or not isinstance(subs[0], dict):
        return "", {}
    return str(subs[0].get("name")), {o["name"]: o.get("value") for o in subs[0].get("options") or []}


def _user(interaction: dict[str, Any]) -> tuple[str, str]:
    user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    return str(user.get("id")), str(user.get("global_name") or user.get("username") or user.get("id"))


def _channel(interaction: dict[str, Any]) -> str:
    return str(interaction.get("channel_id") or (interaction.get("channel") or {}).get("id"))


async def handle(
    enc: Encounters, d: Discord, interaction: dict[str, Any], signed: Signed, base: str
) -> Reply:
    """What an interaction does, as the reply to it; a refusal in the service's words, to the sender only."""
    try:
        if interaction["type"] == COMMAND:
            return await _command(enc, interaction, signed, base)
        return await _click(enc, interaction, signed, base)
    except ServiceError as exc:
        return private(f"Not done: {exc.message}")
    except Exception as exc:  # noqa: BLE001 - the sender is told; the error is logged for the operator
        log.exception("discord_interaction_failed")
        return private(f"The server failed on this ({type(exc).__name__}); nothing was sent")


# ---- slash commands ----------------------------------------------------------------------------------


async def _command(enc: Encounters, interaction: dict[str, Any], signed: Signed, base: str) -> Reply:
    sub, opts = _subcommand(interaction)
    channel = _channel(interaction)
    uid, uname = _user(interaction)
    now = time.time()
    if sub == "bind":
        bound = await binding.bind(enc, str(opts.get("code") or ""), channel, now)
        state = await enc.state(bound)
        return private(
            f"This channel now plays **{state['name']}** ({base}/encounters/{bound}/view). Players link "
            "their seats with `/tussle link <code>`, a code their page makes."
        )
    stream = await binding.channel_stream(enc, channel)
    if stream is None:
        return private(
            "This channel plays no encounter: the GM binds it with `/tussle bind <code>` (the GM page makes the code)."
        )
    if sub == "link":
        linked = await binding.link(enc, stream, str(opts.get("code") or ""), uid, uname, now)
        return private(
            f"You are linked to {_whom(await enc.state(stream), linked)}. `/tussle turn` shows what you may do."
        )
    if sub == "unlink":
        gone = await binding.unlink(enc, stream, uid)
        return private("You are unlinked." if gone else "You were not linked to this channel's encounter.")
    if sub == "log":
        return await _log(enc, stream, opts.get("turn"))
    who = await binding.linked(enc, stream, uid)
    if who is None:
        return private(
            "You are not linked to a seat here: `/tussle link <code>`, with the code your seat's page makes."
        )
    if sub == "turn":
        return Reply(await _turn(enc, stream, who))
    if sub == "roll":
        body = {
            "type": "roll",
            "expression": str(opts.get("expression") or ""),
            "purpose": str(opts.get("purpose") or ""),
        }
        results = await _send(enc, stream, who, body, interaction, signed, base)
        return Reply(results[0], more=results[1:])
    raise bad_request(f"there is no /tussle {sub}")


def _whom(state: dict[str, Any], who: Principal) -> str:
    """ "seat **Alice** (Rolf)", or "the GM"."""
    return "the GM" if who.role == "gm" else f"seat {_speaker(state, who)}"


def _speaker(state: dict[str, Any], who: Principal) -> str:
    """ "**Alice** (Rolf)": the seat (escaped, bold) and its figures, as the channel's results name it."""
    if who.role == "gm":
        return "**The GM**"
    seat = state["seats"].get(who.seat or "", {})
    figures = ", ".join(state["combatants"][c].get("name") or c for c in commanded_by(state, who.seat))
    return f"**{escape(str(seat.get('name', who.seat)))}**" + (f" ({escape(figures)})" if figures else "")


async def _log(enc: Encounters, stream: str, turn: Any) -> Reply:
    state = await enc.state(stream)
    turn = state["turn"] if not isinstance(turn, int) else turn
    first, last = await turn_range(enc, stream, turn, state["seq"])
    r = await log_range(enc, stream, first, last, state["seq"])
    lines = [log_line(e["seq"], e["text"]) for e in r.log.entries if e["turn"] == turn and e["text"]]
    parts = split_content([f"**Turn {turn}**", *lines]) if lines else [f"Turn {turn} has no entries yet."]
    return Reply(message(parts[0]), more=[message(p) for p in parts[1:]])


def _figures(state: dict[str, Any], who: Principal) -> list[str]:
    return [*commanded_by(state, None), GM] if who.role == "gm" else commanded_by(state, who.seat)


async def _turn(
    enc: Encounters, stream: str, who: Principal, page: int = 0, before: str = ""
) -> dict[str, Any]:
    state = await enc.state(stream)
    ruleset = enc.ruleset_of(state)
    figures = _figures(state, who)
    acting = acting_now_view(state, ruleset, reaction_deadlines(enc.reaction_deadlines, stream, state))
    seat = None if who.role == "gm" else who.seat
    if seat is not None:
        acting = [e for e in acting if e["asked_of"] == seat or e["combatant"] in figures]
    text = (before + "\n" if before else "") + situation(state, acting, seat)
    return turn_view(state, offers_view(state, ruleset, figures), figures, text, page)


# ---- clicks ------------------------------------------------------------------------------------------


async def _click(enc: Encounters, interaction: dict[str, Any], signed: Signed, base: str) -> Reply:
    stream = await binding.channel_stream(enc, _channel(interaction))
    if stream is None:
        return private("This channel plays no encounter any more.")
    who = await binding.linked(enc, stream, _user(interaction)[0])
    if who is None:
        return private(
            "You are not linked to a seat here: `/tussle link <code>`, with the code your seat's page makes."
        )
    data = interaction.get("data") or {}
    parts = str(data.get("custom_id") or "").split(":")
    state = await enc.state(stream)
    try:
        if parts[0] == "t":
            return Reply(await _turn(enc, stream, who, index(parts[2])), update=True)
        seq, f, o = index(parts[1]), index(parts[2]), index(parts[3])
        picks = parse_picks(parts[4])
        page = index(parts[5]) if parts[0] == "m" and len(parts) > 5 else 0
    except (IndexError, ValueError):
        raise bad_request("this button is not one of Tussle's") from None
    if seq != state["seq"]:
        return private(
            f"Not sent: this button was made at seq {seq}, but the encounter is at seq {state['seq']}: the "
            "fight has moved on since. `/tussle turn` shows what you may do now."
        )
    values = data.get("values") or []
    if parts[0] == "o" and values:
        picks.append(str(values[0]))
    figures = _figures(state, who)
    try:
        off = offers_view(state, enc.ruleset_of(state), [figures[f]])[figures[f]][o]
        command, queue = walk(off, picks)
    except (IndexError, ValueError, KeyError):
        return private(
            "Not sent: this button does not match the offers at this seq. `/tussle turn` shows them."
        )
    where = f"{seq}:{f}:{o}"
    if queue:
        view = choice_view(state, off, where, picks, page)
        if view is None:
            return private(
                f"{queue[0]['title']}: this choice is made on the page, {base}/encounters/{stream}/view"
            )
        return Reply(view, update=True)
    results = await _send(enc, stream, who, {**command, "expected_seq": seq}, interaction, signed, base)
    return Reply(await _turn(enc, stream, who, before="Sent."), update=True, more=results)


# ---- sending a command --------------------------------------------------------------------------------


async def _send(
    enc: Encounters,
    stream: str,
    who: Principal,
    body: dict[str, Any],
    interaction: dict[str, Any],
    signed: Signed,
    base: str,
) -> list[dict[str, Any]]:
    """Send the command as the linked seat, keyed by the interaction; the log of its events as the
    channel's messages (split as the notices are, the page link whole at the end)."""
    body = {
        **body,
        "command_id": str(interaction["id"]),
        "entropy": signature.token_digest(interaction["token"]),
    }
    out = await enc.execute(
        stream, who, body, signed=signature.kept(signed.signature, signed.timestamp, signed.raw)
    )
    first, last = out.events[0].seq, out.events[-1].seq
    r = await log_range(enc, stream, first, last, last)
    state = r.end.state
    lines = [log_line(e["seq"], e["text"]) for e in r.log.entries if e["text"]]
    speaker = _speaker(state, who)
    parts = split_leaving_room("\n".join([f"{speaker}:", *lines]))
    parts[-1] += f"\n<{base}/encounters/{stream}/view>"
    return [message(p, ephemeral=False) for p in parts]


# ---- the page's endpoints: codes and links ----------------------------------------------------------------


async def make_code(request: web.Request) -> web.Response:
    """POST /encounters/{id}/discord/codes: a one-time bind code (GM) or link code (a seat, or the GM)."""
    stream = request.match_info["id"]
    body = await read_json(request) if request.can_read_body else {}
    kind = body.get("kind") if isinstance(body, dict) else None
    if kind not in (None, "bind", "link"):
        raise bad_request("kind is bind or link", "kind")
    who = await actor(request, stream)
    return json_response(
        await binding.make_code(request.app[ENCOUNTERS], stream, who, kind, time.time()), status=201
    )


async def list_links(request: web.Request) -> web.Response:
    """GET /encounters/{id}/discord/links: the Discord users linked to the encounter's seats (GM)."""
    stream = request.match_info["id"]
    await gm(request, stream)
    return json_response({"links": await binding.links(request.app[ENCOUNTERS], stream)})


async def revoke_link(request: web.Request) -> web.Response:
    """DELETE /encounters/{id}/discord/links/{user}: end a Discord user's link (GM)."""
    stream = request.match_info["id"]
    await gm(request, stream)
    if not await binding.unlink(request.app[ENCOUNTERS], stream, request.match_info["user"]):
        raise NotFound(f"no Discord user {request.match_info['user']!r} is linked to this encounter")
    return web.Response(status=204)


def setup(app: web.Application) -> None:
    """The endpoint (answering only when `discord_public_key` and `discord_application_id` are set) and
    the page's code and link endpoints."""
    settings = app[SETTINGS].discord
    if settings.public_key:
        app[DISCORD] = Discord(
            settings.public_key, settings.application_id or "", settings.api_base, settings.defer_after_s
        )

        async def closing(app: web.Application) -> None:
            await app[DISCORD].close()

        app.on_cleanup.append(closing)
    app.router.add_post("/discord/interactions", interactions)
    app.router.add_post("/encounters/{id}/discord/codes", make_code)
    app.router.add_get("/encounters/{id}/discord/links", list_links)
    app.router.add_delete("/encounters/{id}/discord/links/{user}", revoke_link)
