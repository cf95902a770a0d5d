"""The `tussle` command line: serve, export, import, verify, demo."""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from rules.registry import RegistryError
from server.encounters.encounter_cache import DEFAULT_CAPACITY
from server.ops.forwarded import trusted_networks
from server.settings import DiscordSettings, Settings, WebhookSettings, WebsocketSettings


def settings_from(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> Settings:
    """The server's one configuration, from `tussle serve`'s flags and the environment (TUSSLE_ADMIN_TOKEN,
    TUSSLE_LOOP_PROBE); 0 turns a rate or the websocket cap off."""
    return Settings(
        admin_token=args.admin_token or environ.get("TUSSLE_ADMIN_TOKEN") or None,
        max_body=args.max_body,
        header_timeout_s=args.header_timeout,
        body_timeout_s=args.body_timeout,
        max_events=args.max_events,
        max_dice=args.max_dice,
        cache_encounters=args.cache_encounters,
        max_sides=args.max_sides,
        max_ws=args.max_ws,
        rate_commands=args.rate_commands,
        rate_reads=args.rate_reads,
        rate_burst=args.rate_burst,
        cors_origins=tuple(args.cors_origin or ()),
        trusted_proxies=tuple(args.trusted_proxy or ()),
        public_url=args.public_url,
        loop_probe=environ.get("TUSSLE_LOOP_PROBE") or None,
        webhooks=WebhookSettings(
            allow_private=args.webhook_allow_private,
            retry_base_s=args.webhook_retry_s,
            retry_cap_s=max(args.webhook_retry_s, args.webhook_retry_cap_s),
            give_up_s=args.webhook_give_up_s,
        ),
        ws=WebsocketSettings(queue_bytes=args.ws_queue_bytes, send_timeout_s=args.ws_send_timeout),
        discord=discord_settings(args, environ),
    )


def discord_settings(args: argparse.Namespace, environ: Mapping[str, str]) -> DiscordSettings:
    """The interactions endpoint's settings (docs/discord.md); the flags win over the environment."""
    return DiscordSettings(
        public_key=args.discord_public_key or environ.get("TUSSLE_DISCORD_PUBLIC_KEY") or None,
        application_id=args.discord_application_id or environ.get("TUSSLE_DISCORD_APPLICATION_ID") or None,
        api_base=args.discord_api_base
        or environ.get("TUSSLE_DISCORD_API_BASE")
        or DiscordSettings().api_base,
    )


def _discord_key(text: str) -> str:
    from server.discord.signature import BadPublicKey, public_key

    try:
        public_key(text)
    except BadPublicKey as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


def _proxy_spec(spec: str) -> str:
    """A `--trusted-proxy` value, refused by argparse with its reason when it is no address or block."""
    try:
        trusted_networks([spec])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def _freeze_startup_objects() -> None:
    """What is alive at start lives as long as the server (modules, rulesets, the app): put it out of
    the cyclic collector's sight, so that a full collection, which runs on the event loop, walks only
    what requests made (over the modules' objects it took tens of milliseconds: issue 19 item 1)."""
    import gc

    gc.collect()
    gc.freeze()


def _at_least_one(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def _seconds(text: str) -> float:
    n = float(text)
    if not n > 0:  # also refuses nan
        raise argparse.ArgumentTypeError("must be a number of seconds above 0")
    return n


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the app is built: the startup line then names the port really
    bound (with --port 0, one the system chose) and a port in use is reported at once. Connections that
    arrive while the app starts wait in the backlog."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=128)


def _listen_or_say_why(host: str, port: int) -> socket.socket | None:
    try:
        return _listen(host, port)
    except OSError as exc:
        print(f"tussle: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return None


def _say_once_started(app: web.Application, line: str) -> None:
    """Print the startup line once the app has started (its store open, the schema migrated, the seed
    key checked), never before: whoever waits for the line (README, a supervisor) then knows the server
    serves, not merely that its socket is bound (issue 33 item 7)."""

    async def say(_: web.Application) -> None:
        print(line, file=sys.stderr, flush=True)

    app.on_startup.append(say)  # after every startup step make_app registered (the store's first)


def _serve(args: argparse.Namespace) -> int:
    from events.store.opening import Unusable, backend
    from server.app import make_app
    from server.ops.logging import configure_logging

    configure_logging()
    settings = settings_from(args)
    host = args.host or ("0.0.0.0" if settings.admin_token else "127.0.0.1")
    where = backend(args.db, args.pg)
    try:
        where.preflight()
    except Unusable as exc:
        print(f"tussle: {exc.message}", file=sys.stderr)
        return exc.exit_code
    sock = _listen_or_say_why(host, args.port)
    if sock is None:
        return 2
    # PostgreSQL's app has the feed listener: other processes append too.
    app = make_app(where.store("serve"), settings=settings)
    _freeze_startup_objects()
    _say_once_started(app, f"tussle: serving {where.where_served} on http://{host}:{sock.getsockname()[1]}")
    try:
        web.run_app(app, sock=sock, access_log=None, print=None)
    except Exception as exc:
        failure = where.serving_failure(exc)
        if failure is None:
            raise
        print(f"tussle: {failure.message}", file=sys.stderr)
        return failure.exit_code
    return 0


def _store_of(args: argparse.Namespace, *, lock: bool) -> tuple[Any, str]:
    """The store named by --pg (or TUSSLE_PG_DSN), else --db; and where it is, for messages."""
    from events.store.opening import backend

    where = backend(args.db, args.pg)
    return where.store("write" if lock else "read"), where.where


async def _export(args: argparse.Namespace) -> int:
    from server.transfer.exporting import ndjson_lines
    from server.transfer.importing import secrets_line

    if args.turn is not None and args.format == "jsonl":
        print("tussle: --turn needs --format markdown or bbcode", file=sys.stderr)
        return 2
    if args.with_secrets and args.format != "jsonl":
        print("tussle: --with-secrets needs --format jsonl", file=sys.stderr)
        return 2
    store, where = _store_of(args, lock=False)
    try:
        await store.open()
    except Exception as exc:  # noqa: BLE001 - an unusable database or a wrong seed key is said in one line
        print(f"tussle: cannot open {where}: {exc}", file=sys.stderr)
        return 1
    try:
        if await store.stream_info(args.id) is None:
            print(f"tussle: there is no encounter {args.id!r} in {where}", file=sys.stderr)
            return 1
        out = sys.stdout.buffer
        if args.format == "jsonl":
            from projections.forum_export import VERIFYING_DOC
            from server.http.context import ReceiptSigner

            signer = ReceiptSigner()
            signer.load(store)
            verifying = f"{args.base_url.rstrip('/')}/verifying" if args.base_url else VERIFYING_DOC
            async for line in ndjson_lines(store, args.id, receipt_keys=signer.public(), verifying=verifying):
                out.write(line)
            if args.with_secrets:
                out.write(await secrets_line(store, args.id, await store.read(args.id)))
        else:
            from rules.registry import Registry
            from server.encounters.service import Encounters
            from server.transfer.exporting import forum_chunks

            enc = Encounters(store, Registry.discover())
            enc.snapshots.writes = (
                False  # a reader beside the server: the snapshots are the server's to write
            )
            url = f"{args.base_url.rstrip('/')}/verifying" if args.base_url else None
            async for text in forum_chunks(
                enc, args.id, args.format, args.turn, args.max_chars, verify_url=url
            ):
                out.write(text.encode())
        out.flush()
    finally:
        await store.close()
    return 0


async def _import(args: argparse.Namespace) -> int:
    from server.transfer.importing import ImportRefused, import_stream

    try:
        with open(args.file, "rb") as f:
            raw = f.read()
    except OSError as exc:
        print(f"tussle: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    store, where = _store_of(args, lock=True)
    try:
        await store.open()
    except Exception as exc:  # noqa: BLE001 - a locked or unusable database is said in one line
        print(f"tussle: cannot open {where}: {exc}", file=sys.stderr)
        return 1
    try:
        done = await import_stream(store, raw)
    except ImportRefused as exc:
        print(f"tussle: {args.file}: not imported: {exc}", file=sys.stderr)
        return 1
    finally:
        await store.close()
    secrets = (
        f"{done['seeds']} seed(s) and {done['tokens']} token(s) restored"
        if done["tokens"] or done["seeds"]
        else "no secrets"
    )
    print(
        f"tussle: imported encounter {done['stream']} into {where}: head {done['head_seq']} "
        f"{done['head_hash']}, {secrets}"
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tussle", description="Tussle: an event-sourced combat-log server.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve",
        help="run the HTTP and websocket server",
        description="Run the server on a SQLite file (one server process per file).",
    )
    serve.add_argument("--db", default="./tussle.db", help="SQLite database file (default ./tussle.db)")
    serve.add_argument(
        "--host",
        default=None,
        help="address to bind (default 127.0.0.1 without an admin token, else 0.0.0.0)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=8080,
        help="port (default 8080; 0: any free port, named in the startup line)",
    )
    serve.add_argument(
        "--pg",
        default=None,
        metavar="DSN",
        help="serve from PostgreSQL instead of --db (or TUSSLE_PG_DSN), e.g. "
        "postgresql://user@host/db; several processes may share one database",
    )
    serve.add_argument(
        "--admin-token",
        default=None,
        help="admin token (or TUSSLE_ADMIN_TOKEN); when set, only the admin may create encounters",
    )
    serve.add_argument(
        "--max-body", type=int, default=256 * 1024, help="largest request body in bytes (256 KiB)"
    )
    serve.add_argument(
        "--max-events", type=int, default=1000, help="most events one command may append (1000)"
    )
    serve.add_argument(
        "--header-timeout",
        type=_seconds,
        default=20.0,
        metavar="S",
        help="seconds a connection has to send a request's headers after it opens or after its previous "
        "answer; then it is closed (20)",
    )
    serve.add_argument(
        "--body-timeout",
        type=_seconds,
        default=60.0,
        metavar="S",
        help="seconds a request's body has to arrive whole; then 408 and the connection closed (60)",
    )
    serve.add_argument(
        "--cache-encounters",
        type=_at_least_one,
        default=DEFAULT_CAPACITY,
        metavar="N",
        help=f"most encounters whose state is kept in memory, least recently used out first "
        f"(default {DEFAULT_CAPACITY}, about 10 KB each); the others are loaded again from "
        "their latest snapshot when next used",
    )
    serve.add_argument("--max-dice", type=int, default=100, help="most dice in one roll command (100)")
    serve.add_argument(
        "--max-sides", type=int, default=1000, help="largest die of a roll command (1000 sides)"
    )
    serve.add_argument(
        "--max-ws",
        type=int,
        default=100,
        help="most open websockets per token, per IP when anonymous (100; 0: no cap)",
    )
    serve.add_argument(
        "--ws-queue-bytes",
        type=int,
        default=1024 * 1024,
        help="bytes a websocket may have "
        "waiting for its client before it is closed with 4008 lagging (1 MiB)",
    )
    serve.add_argument(
        "--ws-send-timeout",
        type=float,
        default=10.0,
        help="seconds a websocket client may take none of a frame before it is closed with 4008 lagging (10)",
    )
    serve.add_argument(
        "--rate-commands",
        type=float,
        default=20.0,
        help="writes per second per token, per IP when anonymous (20; 0: no limit)",
    )
    serve.add_argument(
        "--rate-reads",
        type=float,
        default=100.0,
        help="reads per second per token, per IP when anonymous (100; 0: no limit)",
    )
    serve.add_argument(
        "--rate-burst", type=float, default=2.0, help="burst allowed, as a multiple of the rate (2)"
    )
    serve.add_argument(
        "--webhook-allow-private",
        action="store_true",
        help="let webhooks reach loopback, private and link-local addresses (tests, a LAN bot)",
    )
    serve.add_argument(
        "--webhook-retry-s",
        type=float,
        default=5.0,
        help="first retry of a failed webhook delivery after about this long, doubling (5 s)",
    )
    serve.add_argument(
        "--webhook-retry-cap-s",
        type=float,
        default=3600.0,
        help="longest wait between two tries of a webhook delivery (3600 s)",
    )
    serve.add_argument(
        "--webhook-give-up-s",
        type=float,
        default=86400.0,
        help="disable a webhook endpoint that has failed this long, and tell the GM (86400 s)",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the server's address as people reach it, for the links in notices "
        "(default: the address the webhook was created through)",
    )
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        metavar="ADDRESS",
        type=_proxy_spec,
        help="believe X-Forwarded-For "
        "and X-Forwarded-Proto from this address or CIDR block (repeatable; docs/deploy.md)",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        metavar="ORIGIN",
        help="let browser pages of this origin call the server (repeatable; * for any); default: none",
    )
    serve.add_argument(
        "--discord-public-key",
        metavar="HEX",
        type=_discord_key,
        help="answer Discord's interactions at POST /discord/interactions, checking their signatures with "
        "this application public key (or TUSSLE_DISCORD_PUBLIC_KEY; docs/discord.md)",
    )
    serve.add_argument(
        "--discord-application-id",
        metavar="ID",
        help="the Discord application's id (or TUSSLE_DISCORD_APPLICATION_ID)",
    )
    serve.add_argument(
        "--discord-api-base",
        metavar="URL",
        help="Discord's API (default https://discord.com/api/v10, or TUSSLE_DISCORD_API_BASE)",
    )
    discord = sub.add_parser(
        "discord",
        help="the Discord application's slash commands",
        description="Register /tussle with a Discord application (docs/discord.md).",
    )
    dsub = discord.add_subparsers(dest="discord_command", required=True)
    register = dsub.add_parser(
        "register",
        help="bulk-overwrite the application's commands with /tussle",
        description="Bulk-overwrite the application's global commands with /tussle, with the bot token "
        "in DISCORD_BOT_TOKEN.",
    )
    register.add_argument("--application-id", default=os.environ.get("TUSSLE_DISCORD_APPLICATION_ID"))
    register.add_argument("--api-base", default=os.environ.get("TUSSLE_DISCORD_API_BASE"))
    register.add_argument("--dry-run", action="store_true", help="print what would be sent, send nothing")
    export = sub.add_parser(
        "export",
        help="export an encounter's events",
        description="Print an encounter, read from its database (a server may be running on it): "
        "its envelopes as JSONL then a trailer line, or its log as forum posts, written as it "
        "is read.",
    )
    export.add_argument("id", help="encounter id")
    export.add_argument(
        "--format",
        choices=["jsonl", "markdown", "bbcode"],
        default="jsonl",
        help="jsonl: the envelopes and a trailer (for tussle verify); markdown or bbcode: the log "
        "as forum posts, as GET /log?format= gives them (default jsonl)",
    )
    export.add_argument("--turn", type=int, default=None, help="only this turn's posts (markdown and bbcode)")
    export.add_argument(
        "--max-chars", type=int, default=None, help="split forum posts to fit this many characters"
    )
    export.add_argument("--db", default="./tussle.db", help="SQLite database file (default ./tussle.db)")
    export.add_argument(
        "--pg", default=None, metavar="DSN", help="read from PostgreSQL instead (or TUSSLE_PG_DSN)"
    )
    export.add_argument(
        "--base-url",
        default=None,
        metavar="URL",
        help="the server's public URL: the export links to URL/verifying (how to verify it), as the "
        "server's own exports do; else it names docs/verifying.md",
    )
    export.add_argument(
        "--with-secrets",
        action="store_true",
        help="add a last line with the unrevealed seeds and "
        "token hashes, for `tussle import` on another server (keep the file as secret as the database)",
    )
    imp = sub.add_parser(
        "import",
        help="restore an exported encounter into this server's database",
        description="Verify an export, then write its events exactly as they were (same seqs and "
        "hashes) into the database; a live encounter needs an export made --with-secrets.",
    )
    imp.add_argument("file", help="the exported JSONL file")
    imp.add_argument(
        "--db",
        default="./tussle.db",
        help="SQLite database file (default ./tussle.db; stop its server first)",
    )
    imp.add_argument(
        "--pg", default=None, metavar="DSN", help="write to PostgreSQL instead (or TUSSLE_PG_DSN)"
    )
    verify = sub.add_parser(
        "verify",
        help="verify an exported stream offline",
        description="Recompute the hash chain and every server die of an exported stream "
        "(tussle export / GET /events as NDJSON); exit 1 if anything is wrong.",
    )
    verify.add_argument("file", help="the exported JSONL file")
    verify.add_argument(
        "--receipts",
        default=None,
        help="JSONL of receipts to check against the stream: {seq, hash}, or the signed `receipt` of a "
        "command answer (or the whole answer), whose signature must verify under the server's keys",
    )
    verify.add_argument(
        "--keys",
        default=None,
        metavar="FILE",
        help="the server's public receipt keys as GET /keys answered (else the export trailer's)",
    )
    verify.add_argument(
        "--head",
        default=None,
        metavar="SEQ:HASH",
        help="a head you kept (a 201's seq and hash): a stream that ends before it was cut",
    )
    verify.add_argument(
        "--commitment",
        default=None,
        metavar="HEX",
        help="the first commitment, from the create answer: the stream must start with it",
    )
    verify.add_argument(
        "--sent",
        action="append",
        default=None,
        metavar="FILE",
        help="JSONL of the {command_id, entropy} you sent (the page's sent record, refusals included): your "
        "dice must be keyed by them; give it once per file (a player on several devices)",
    )
    verify.add_argument(
        "--replay",
        action="store_true",
        help="also decide every declared command again with this installation's rulesets: "
        "every total, outcome and state change must be what the rules give",
    )
    verify.add_argument(
        "--discord-key",
        action="append",
        metavar="HEX",
        help="the Discord application's public key the commands sent from Discord must verify under "
        "(repeatable; else the export trailer's; docs/verifying.md)",
    )
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    keys = sub.add_parser(
        "keys",
        help="the server's receipt-signing keys",
        description='Rotate the Ed25519 key that signs receipts (docs/verifying.md "Signed receipts"): the '
        "old key is retired, still published at GET /keys and in exports, so old receipts keep verifying. "
        "Restart the server to sign with the new key.",
    )
    keys.add_argument(
        "action", choices=["rotate"], help="rotate: add a new signing key, retiring the current one"
    )
    keys.add_argument("--db", default="./tussle.db", help="SQLite database file whose key file to rotate")
    keys.add_argument(
        "--pg",
        action="store_true",
        help="PostgreSQL (or TUSSLE_RECEIPT_KEYS set): print the new TUSSLE_RECEIPT_KEYS value to give "
        "every process, instead of writing a file",
    )
    fh = sub.add_parser(
        "firehose-tokens",
        help="the firehose's server-level reader tokens",
        description='Make, list or revoke firehose tokens (docs/websocket.md "The firehose") in a database, '
        "as POST/GET/DELETE /firehose-tokens do with the admin token: for a server without one. SQLite: "
        "with the server stopped (it keeps its tokens cached); PostgreSQL: any time (every process hears).",
    )
    fh.add_argument("action", choices=["create", "list", "revoke"])
    fh.add_argument("token_id", nargs="?", help="revoke: the token's id")
    fh.add_argument("--db", default="./tussle.db", help="SQLite database file (default ./tussle.db)")
    fh.add_argument("--pg", default=None, help="PostgreSQL DSN (or TUSSLE_PG_DSN)")
    demo = sub.add_parser(
        "demo",
        help="play a short scripted freeform encounter",
        description="Create an encounter on a running server (or in a database no server "
        "holds), play a short scripted exchange, print its URLs.",
    )
    demo.add_argument(
        "--url", default="http://127.0.0.1:8080", help="the running server (default http://127.0.0.1:8080)"
    )
    demo.add_argument("--db", default=None, help="write into this SQLite file instead of talking to a server")
    demo.add_argument("--admin-token", default=None, help="admin token, if the server requires one to create")
    demo.add_argument("--private", action="store_true", help="make the encounter private (default public)")
    return parser


def _verify(args: argparse.Namespace) -> int:
    import json

    import msgspec

    from server.audit.verifying import parse_head, parse_receipts, report_text, verify_export

    try:
        head = parse_head(args.head) if args.head else None
    except ValueError as exc:
        print(f"tussle verify: --head: {exc}", file=sys.stderr)
        return 2
    try:
        with open(args.file, "rb") as f:
            raw = f.read()
        receipts = sent = keys = None
        if args.keys:
            with open(args.keys, "rb") as f:
                keys = f.read()
        if args.receipts:
            with open(args.receipts, "rb") as f:
                receipts = f.read()
        if args.sent:
            kept: list[Any] = []
            for name in args.sent:
                with open(name, "rb") as f:
                    kept += parse_receipts(f.read())
            sent = msgspec.json.encode(kept)
    except OSError as exc:
        print(f"tussle verify: {exc}", file=sys.stderr)
        return 2
    registry = None
    if args.replay:
        from rules.registry import Registry

        registry = Registry.discover()
    report = verify_export(
        raw,
        receipts,
        head=head,
        commitment=args.commitment,
        sent=sent,
        replay=registry,
        receipt_keys=keys,
        discord_keys=args.discord_key,
    )
    print(json.dumps(report, indent=2) if args.json else report_text(report, args.file))
    return 0 if report["ok"] else 1


def _demo(args: argparse.Namespace) -> int:
    from server import demo

    admin = args.admin_token or os.environ.get("TUSSLE_ADMIN_TOKEN") or None
    if args.db:
        return asyncio.run(demo.demo_in_database(args.db, args.url, public=not args.private))
    return asyncio.run(demo.demo_over_http(args.url, public=not args.private, admin_token=admin))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `tussle` console script."""
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except RegistryError as exc:  # two rulesets claim one name: nothing may start on that (issue 26 item 4)
        print(f"tussle: the installed rulesets clash: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        return _serve(args)
    if args.command == "export":
        return asyncio.run(_export(args))
    if args.command == "import":
        return asyncio.run(_import(args))
    if args.command == "verify":
        return _verify(args)
    if args.command == "demo":
        return _demo(args)
    if args.command == "keys":
        return _rotate_keys(args)
    if args.command == "firehose-tokens":
        return asyncio.run(_firehose_tokens(args))
    if args.command == "discord":
        from server.discord.register import main as register

        return register(args, os.environ.get("DISCORD_BOT_TOKEN") or None)
    return 2


async def _firehose_tokens(args: argparse.Namespace) -> int:
    """`tussle firehose-tokens create|list|revoke`: one line per token, the new token shown once."""
    import secrets

    from server.encounters import reader_tokens

    store, where = _store_of(args, lock=True)
    try:
        await store.open()
    except Exception as exc:  # noqa: BLE001 - a database in use (a server holds it) or unusable, in one line
        print(f"tussle: cannot open {where}: {exc}", file=sys.stderr)
        return 1
    try:
        if args.action == "create":
            token_id, token = await reader_tokens.made(
                store, reader_tokens.TOKEN_ID_PREFIX + secrets.token_hex(6)
            )
            print(f"token_id {token_id}\ntoken {token}")
        elif args.action == "list":
            for row in await store.server_tokens():
                print(row.token_id, *sorted(await store.granted_streams(row.token_id or "")))
        elif not args.token_id or not await store.revoke_server_token(args.token_id):
            print(f"tussle: there is no firehose token {args.token_id!r}", file=sys.stderr)
            return 1
        return 0
    finally:
        await store.close()


def _rotate_keys(args: argparse.Namespace) -> int:
    """Append a new receipt key: to the key file beside the database, or to the value of the variable."""
    from events.store import receipt_key as rk

    env = os.environ.get(rk.ENV, "").strip()
    if args.pg or env:
        old = env or rk.derived_from_seed_key()
        if old is None:
            print(f"tussle keys: neither {rk.ENV} nor TUSSLE_SEED_KEY is set", file=sys.stderr)
            return 2
        value = ",".join([*old.replace(",", " ").split(), rk.new_key_line()])
        new = rk.ReceiptKeys([bytes.fromhex(k) for k in value.split(",")], rk.ENV).current_id
        print(f"# new receipt key {new}: give every process this value (keep it as secret as the seed key)")
        print(f"{rk.ENV}={value}")
        return 0
    try:
        before = rk.for_sqlite(args.db)  # made now if the server never started, so there is one to retire
        with open(args.db + rk.KEY_FILE_SUFFIX, "a", encoding="ascii") as f:
            f.write(rk.new_key_line() + "\n")
        after = rk.for_sqlite(args.db)
    except (OSError, rk.ReceiptKeyError) as exc:
        print(f"tussle keys: {exc}", file=sys.stderr)
        return 1
    print(
        f"tussle keys: {args.db}{rk.KEY_FILE_SUFFIX}: key {before.current_id} retired, {after.current_id} "
        "signs from the next server start"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
