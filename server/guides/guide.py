"""A player's guide to each ruleset, made from the ruleset's own metadata so that it cannot drift:
`GET /rulesets/{id}` (JSON), `GET /rulesets/{id}/guide` (HTML) and `docs/playing/<ruleset>.md`.

`python -m server.guides.guide` rewrites docs/playing/; tests/test_guides.py fails when a committed guide differs.
"""

from __future__ import annotations

import html
import importlib
import inspect
import json
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import msgspec

from events.common import COMMON_EVENTS
from rules.common.commands import COMMON_COMMANDS, COMMON_GM_ONLY, Move
from rules.common.field_meanings import COMMAND_FIELD_MEANINGS
from rules.common.options import EngineOptions
from rules.interface import Command, Ruleset
from rules.registry import Registry
from server.guides.guide_turns import Step, curl_lines, first_turn_steps

_ENVELOPE_FIELDS = set(Command.__struct_fields__)
GUIDES_DIR = Path(__file__).resolve().parents[2] / "docs" / "playing"


def _doc(obj: Any) -> str:
    """An object's own docstring as one paragraph ('' when it has none of its own)."""
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else obj.__doc__
    return " ".join(inspect.cleandoc(doc).split()) if doc else ""


def _described(t: Any) -> tuple[Any, str]:
    """The type without its Annotated wrapper, and the msgspec.Meta description it carries."""
    if get_origin(t) is Annotated:
        base, *meta = get_args(t)
        return base, next((m.description for m in meta if isinstance(m, msgspec.Meta) and m.description), "")
    return t, ""


def _type_name(t: Any) -> str:
    return (
        str(t.__name__) if get_origin(t) is None and hasattr(t, "__name__") else str(t).replace("typing.", "")
    )


def fields(cls: type[msgspec.Struct], skip: set[str] = _ENVELOPE_FIELDS) -> list[dict[str, Any]]:
    """Each field of a Struct: name, type, required, default and description (a command's field without its
    own: what a field of that name means in every command)."""
    out = []
    hints = msgspec.structs.fields(cls)
    common = COMMAND_FIELD_MEANINGS if issubclass(cls, Command) else {}
    for f in hints:
        if f.name in skip:
            continue
        base, about = _described(f.type)
        about = about or common.get(f.encode_name, "")
        required = f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT
        default = (
            None if required else (f.default if f.default is not msgspec.NODEFAULT else f.default_factory())
        )
        out.append(
            {
                "name": f.encode_name,
                "type": _type_name(base),
                "required": required,
                "default": None if default is msgspec.UNSET else msgspec.to_builtins(default),
                "description": about,
            }
        )
    return out


def _command(cls: type[Command], gm_only: frozenset[str]) -> dict[str, Any]:
    tag = cls.__struct_config__.tag
    return {"type": tag, "doc": _doc(cls), "gm_only": tag in gm_only, "fields": fields(cls)}


def _event(cls: type) -> dict[str, Any]:
    return {"type": cls.__name__, "doc": _doc(cls), "fields": [f["name"] for f in fields(cls, set())]}


def _acting(rs: Ruleset) -> dict[str, str]:
    """Whose turn it is in this ruleset (its acting module's docstring, else its acting_now's), and what the
    acting_now and next_slot fields hold."""
    package = sys.modules[type(rs).__module__].__package__ or ""
    try:
        own = _doc(importlib.import_module(f"{package}.acting"))
    except ModuleNotFoundError:
        own = ""
    return {
        "turn_order": own or _doc(type(rs).acting_now),
        **{name: _doc(getattr(Ruleset, name)) for name in ("acting_now", "next_slot")},
    }


def ruleset_detail(rs: Ruleset) -> dict[str, Any]:
    """Everything a player needs of one ruleset, as JSON (GET /rulesets/{id})."""
    gm_only = frozenset(rs.gm_commands)
    common_gm = COMMON_GM_ONLY | (frozenset() if rs.players_may_move else {str(Move.__struct_config__.tag)})
    options = fields(rs.Options)
    for o in options:
        o["off_by_default"] = o["default"] is False
    engine = fields(EngineOptions)
    own_events = [e for e in rs.events if e not in COMMON_EVENTS]
    return {
        "id": rs.id,
        "title": rs.title,
        "version": rs.version,
        "about": _doc(type(rs)),
        "geometry": rs.geometry,
        "options": options,
        "engine_options": engine,
        "stats": [{"name": k, "description": v} for k, v in rs.stats.items()],
        "item_fields": [{"name": k, "description": v} for k, v in rs.item_fields.items()],
        "phases": list(rs.phases),
        "commands": [_command(c, gm_only) for c in rs.commands],
        "common_commands": [_command(c, common_gm) for c in COMMON_COMMANDS],
        "gm_commands": sorted(gm_only),
        "players_may_move": rs.players_may_move,
        "reactions": [{"kind": k, **v} for k, v in rs.reactions.items()],
        "events": [_event(e) for e in own_events],
        "common_events": [_event(e) for e in COMMON_EVENTS],
        "acting": _acting(rs),
        "first_turn": [msgspec.to_builtins(s) for s in first_turn_steps(rs)],
    }


# ---- Markdown ----------------------------------------------------------------------------------


def _code(value: Any) -> str:
    return "`" + json.dumps(value) + "`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _field_line(f: dict[str, Any]) -> str:
    need = "required" if f["required"] else f"default {_code(f['default'])}"
    about = f" — {f['description']}" if f["description"] else ""
    return f"  - `{f['name']}` ({f['type']}, {need}){about}"


def guide_markdown(rs: Ruleset) -> str:
    """docs/playing/<ruleset>.md."""
    d = ruleset_detail(rs)
    out = [
        f"# Playing {d['id']}: {d['title']}",
        "",
        "<!-- Written by `python -m server.guides.guide` from the ruleset's metadata; do not edit by hand. -->",
        "",
    ]
    if d["about"]:
        out += [d["about"], ""]
    out += [
        f"Ruleset `{d['id']}` version {d['version']}. Geometry: {d['geometry']['kind']} in "
        f"{d['geometry']['unit']}, facing {d['geometry']['facing']}"
        + (", every combatant needs a position." if d["geometry"]["position_required"] else "."),
        "",
        f"The same facts as JSON: `GET /rulesets/{d['id']}`; as a web page: `GET /rulesets/{d['id']}/guide`.",
        "",
    ]
    out += [
        "## Options",
        "",
        "Set them in `POST /encounters` (`options`) or later with `set_options` (GM).",
        "",
        "| option | type | default | what it does |",
        "|---|---|---|---|",
    ]
    for o in d["options"]:
        off = " **Off by default.**" if o["off_by_default"] else ""
        out.append(
            f"| `{o['name']}` | {_cell(o['type'])} | {_code(o['default'])} | {_cell(o['description'])}{off} |"
        )
    if not d["options"]:
        out.append("| (none of its own) | | | |")
    out += [
        "",
        "Engine options (every ruleset):",
        "",
        "| option | type | default | what it does |",
        "|---|---|---|---|",
    ]
    out += [
        f"| `{o['name']}` | {_cell(o['type'])} | {_code(o['default'])} | {_cell(o['description'])} |"
        for o in d["engine_options"]
    ]
    out.append("")
    out += ["## Combatant stats", "", "`add_combatant` takes `combatant.stats`:", ""]
    out += [f"- `{s['name']}` — {s['description']}" for s in d["stats"]] or [
        "- any: this ruleset reads none."
    ]
    if d["item_fields"]:
        out += ["", "## Item fields", "", "Each of `combatant.items` is an object with:", ""]
        out += [f"- `{s['name']}` — {s['description']}" for s in d["item_fields"]]
    out += ["", "## Turns and phases", ""]
    if d["phases"]:
        out.append(
            "The GM sends `start_turn`, then `start_phase` with each phase in order: "
            + ", ".join(f"`{p}`" for p in d["phases"])
            + "."
        )
    else:
        out.append(
            "This ruleset has no phases of its own: the GM sends `start_turn`, and the turn order below "
            "says who acts."
        )
    out += [
        "",
        d["acting"]["turn_order"],
        "",
        "Who acts now: `GET /encounters/{id}/state` (`acting_now`) and `GET /encounters/{id}/me` "
        "(`your_turn`, `acting_now`, `next_slot`).",
        "",
        f"- `acting_now`: {d['acting']['acting_now']}",
        f"- `next_slot`: {d['acting']['next_slot']}",
        "",
    ]
    out += [f"## Commands of {d['id']}", ""]
    if not d["commands"]:
        out += ["None of its own: the common commands below.", ""]
    for c in d["commands"]:
        gm = " (GM only)" if c["gm_only"] else ""
        out += [f"### `{c['type']}`{gm}", "", c["doc"] or "(no description)", ""]
        out += [_field_line(f) for f in c["fields"]] or ["  (no fields)"]
        out.append("")
    common_gm = [c["type"] for c in d["common_commands"] if c["gm_only"]]
    out += [
        "GM-only commands: "
        + (", ".join(f"`{g}`" for g in d["gm_commands"]) or "none of its own")
        + "; of the common ones "
        + ", ".join(f"`{g}`" for g in common_gm)
        + "."
        + (" Players may `move` their own combatants." if d["players_may_move"] else ""),
        "",
    ]
    out += [
        "## Reactions",
        "",
        "A rule that needs someone's choice asks it with `ReactionRequested`; answer with "
        '`{"type": "respond", "reaction": ID, "choice": ...}` (or a standing order).',
        "",
    ]
    for r in d["reactions"]:
        out.append(f"- `{r['kind']}` — asked of {r['asked']}:")
        out += [f"  - `{k}`: {v}" for k, v in r["choices"].items()]
        out += [f"  - with `params.{k}`: {v}" for k, v in (r.get("params") or {}).items()]
    if not d["reactions"]:
        out.append("- none of its own (the common `ask` lets the GM ask anything).")
    out += ["", f"## Events of {d['id']}", ""]
    out += [f"- `{e['type']}` — {e['doc'] or '(no description)'}" for e in d["events"]] or [
        "- none of its own."
    ]
    out += ["", "## Common commands", "", "Every ruleset takes these (`field?`: optional).", ""]
    for c in d["common_commands"]:
        fs = ", ".join(f"`{f['name']}`" + ("" if f["required"] else "?") for f in c["fields"])
        gm = " GM only." if c["gm_only"] else ""
        out.append(f"- `{c['type']}` ({fs or 'no fields'}) — {c['doc'] or '(no description)'}{gm}")
    out += ["", "## Common events", ""]
    out += [f"- `{e['type']}` — {e['doc'] or '(no description)'}" for e in d["common_events"]]
    out += [
        "",
        "## A first turn with curl",
        "",
        "Start a server (`.venv/bin/tussle serve`, in the foreground) and in another shell:",
        "",
        "```sh",
    ]
    out += curl_lines(first_turn_steps(rs))
    out += ["```", ""]
    return "\n".join(out)


# ---- HTML --------------------------------------------------------------------------------------

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;vertical-align:top}"
    "code,pre{font-family:ui-monospace,monospace}pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}"
)
# The page runs no script and loads nothing: its one stylesheet is allowed by its hash.
_STYLE_HASH = __import__("base64").b64encode(__import__("hashlib").sha256(_STYLE.encode()).digest()).decode()
CSP = f"default-src 'none'; style-src 'sha256-{_STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"


def _e(text: Any) -> str:
    return html.escape(str(text))


def guide_html(rs: Ruleset) -> str:
    """GET /rulesets/{id}/guide: the guide as one self-contained page."""
    d = ruleset_detail(rs)
    h = [
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Playing {_e(d['id'])}</title>"
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Playing {_e(d['id'])}: {_e(d['title'])}</h1><p>{_e(d['about'])}</p>",
        f'<p>JSON: <a href="/rulesets/{_e(d["id"])}"><code>GET /rulesets/{_e(d["id"])}</code></a></p>',
        "<h2>Options</h2><table><tr><th>option</th><th>type</th><th>default</th><th>what it does</th></tr>",
    ]
    for o in d["options"]:
        off = " <strong>Off by default.</strong>" if o["off_by_default"] else ""
        h.append(
            f"<tr><td><code>{_e(o['name'])}</code></td><td>{_e(o['type'])}</td>"
            f"<td><code>{_e(json.dumps(o['default']))}</code></td><td>{_e(o['description'])}{off}</td></tr>"
        )
    h.append("</table><h2>Combatant stats</h2><ul>")
    h += [f"<li><code>{_e(s['name'])}</code> — {_e(s['description'])}</li>" for s in d["stats"]]
    h.append("</ul><h2>Turns and phases</h2><p>")
    h.append(
        ("Phases in order: " + ", ".join(f"<code>{_e(p)}</code>" for p in d["phases"]))
        if d["phases"]
        else "No phases of its own: the GM sends start_turn."
    )
    h.append(
        f"</p><p>{_e(d['acting']['turn_order'])}</p><p><code>acting_now</code>: {_e(d['acting']['acting_now'])}</p>"
        f"<p><code>next_slot</code>: {_e(d['acting']['next_slot'])}</p><h2>Commands</h2>"
    )
    for c in [*d["commands"], *d["common_commands"]]:
        gm = " (GM only)" if c["gm_only"] else ""
        h.append(f"<h3><code>{_e(c['type'])}</code>{gm}</h3><p>{_e(c['doc'])}</p><ul>")
        h += [
            f"<li><code>{_e(f['name'])}</code> ({_e(f['type'])}, "
            f"{'required' if f['required'] else 'default ' + _e(json.dumps(f['default']))})"
            f"{' — ' + _e(f['description']) if f['description'] else ''}</li>"
            for f in c["fields"]
        ]
        h.append("</ul>")
    h.append("<h2>Reactions</h2><ul>")
    for r in d["reactions"]:
        h.append(
            f"<li><code>{_e(r['kind'])}</code> — asked of {_e(r['asked'])}<ul>"
            + "".join(f"<li><code>{_e(k)}</code>: {_e(v)}</li>" for k, v in r["choices"].items())
            + "".join(
                f"<li>with <code>params.{_e(k)}</code>: {_e(v)}</li>"
                for k, v in (r.get("params") or {}).items()
            )
            + "</ul></li>"
        )
    h.append("</ul><h2>Events</h2><ul>")
    h += [
        f"<li><code>{_e(e['type'])}</code> — {_e(e['doc'])}</li>" for e in [*d["events"], *d["common_events"]]
    ]
    h.append("</ul><h2>A first turn with curl</h2><pre>")
    h.append(_e("\n".join(curl_lines(first_turn_steps(rs)))))
    h.append("</pre></body></html>")
    return "".join(h)


def write_guides(registry: Registry, directory: Path = GUIDES_DIR) -> list[Path]:
    """Write every ruleset's guide; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for rs in registry.rulesets.values():
        path = directory / f"{rs.id}.md"
        path.write_text(guide_markdown(rs), encoding="utf-8")
        written.append(path)
    return written


def published() -> Registry:
    """The rulesets installed as entry points (not TUSSLE_EXTRA_RULESETS': the tests' probe has no guide)."""
    return Registry([ep.load() for ep in entry_points(group="tussle.rulesets")])


def main() -> None:
    for path in write_guides(published(), Path(sys.argv[1]) if len(sys.argv) > 1 else GUIDES_DIR):
        print(path)


if __name__ == "__main__":
    main()

__all__ = ["Step", "guide_html", "guide_markdown", "ruleset_detail", "write_guides", "CSP"]
