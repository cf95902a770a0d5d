"""Offers as Discord messages: buttons and select menus within Discord's limits.

Discord takes at most 5 action rows a message, 5 buttons a row (or one select menu), 25 options a menu,
80 characters a button label, 100 an option's label and value, and 100 a `custom_id`. A button carries,
in its custom_id, the seq its offers were made at and where the player is in them (figure, offer, and
the index of each option picked so far), never the values: the offers are the same at the same seq, so
the values are found again when it is clicked, and a button of an older seq is refused.

custom_id forms:  `o:<seq>:<figure>:<offer>:<picks>` (an offer, with picks "0.3.-", "-" a skipped
optional choice); `m:<seq>:<figure>:<offer>:<picks>:<page>` (more options of its next choice);
`t:<seq>:<page>` (the turn's offers, page `page`).
"""

from __future__ import annotations

from typing import Any

from rules.acting import name_of
from rules.offers import set_field
from rules.wording import answer_words
from server.webhooks.discord import LIMIT, escape
from server.webhooks.notices import without_command_names

ROWS = 5
BUTTONS = 5
OPTIONS = 25
LABEL = 80
OPTION_TEXT = 100
CUSTOM_ID = 100
EPHEMERAL = 64
BUTTON, SELECT, ACTION_ROW = 2, 3, 1
PRIMARY, SECONDARY, SUCCESS = 1, 2, 3


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def button(label: str, custom_id: str, style: int = SECONDARY) -> dict[str, Any]:
    assert len(custom_id) <= CUSTOM_ID, custom_id
    return {"type": BUTTON, "style": style, "label": cut(label, LABEL), "custom_id": custom_id}


def rows_of(buttons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"type": ACTION_ROW, "components": buttons[i : i + BUTTONS]} for i in range(0, len(buttons), BUTTONS)
    ]


def message(
    content: str, components: list[dict[str, Any]] | None = None, ephemeral: bool = True
) -> dict[str, Any]:
    out: dict[str, Any] = {"content": cut(content, LIMIT), "allowed_mentions": {"parse": []}}
    out["components"] = components or []
    if ephemeral:
        out["flags"] = EPHEMERAL
    return out


def flat(
    offers: dict[str, list[dict[str, Any]]], figures: list[str]
) -> list[tuple[int, int, str, dict[str, Any]]]:
    """(figure index, offer index, figure, offer) of every offer, reactions first."""
    out = [(f, o, cid, off) for f, cid in enumerate(figures) for o, off in enumerate(offers.get(cid, []))]
    return sorted(out, key=lambda x: x[3].get("reaction") is None)


def situation(state: dict[str, Any], acting: list[dict[str, Any]], seat: str | None) -> str:
    """Whose turn it is and what is asked of this seat, in words."""
    where = [f"turn {state.get('turn', 0)}"]
    if state.get("phase"):
        where.append(f"{str(state['phase']).replace('_', ' ')} phase")
    lines = [f"**{escape(state['name'] or state['stream'])}** — {', '.join(where)}, seq {state['seq']}."]
    for p in state["pending"]:
        if seat is not None and p["asked_of"] != seat:
            continue
        # As a notice says it (server/webhooks/notices.py): whom it is for first, the default in words.
        about = f" (for {escape(name_of(state, p['combatant']))})" if p.get("combatant") else ""
        question = p.get("question") or str(p["kind"]).replace("_", " ")
        default = answer_words(p["default"])
        lines.append(f"You are asked{about}: {escape(question)} (default: {escape(default)}).")
    for e in acting:
        why = without_command_names(e["why"]) if e.get("why") else name_of(state, e["combatant"]) + " acts"
        lines.append(f"• {escape(why)}")
    if not acting:
        lines.append("Nobody is asked to act now.")
    return "\n".join(lines)


def turn_view(
    state: dict[str, Any],
    offers: dict[str, list[dict[str, Any]]],
    figures: list[str],
    text: str,
    page: int = 0,
) -> dict[str, Any]:
    """The turn as an ephemeral message: `text`, then one button per offer (5 rows of 5), the rest behind
    "more…"."""
    seq = state["seq"]
    all_ = flat(offers, figures)
    room = ROWS * BUTTONS
    per_page = room if len(all_) <= room else room - 1
    shown = all_[page * per_page : (page + 1) * per_page]
    buttons = [
        button(
            f"{name_of(state, cid)}: {off['title']}" if len(figures) > 1 else off["title"],
            f"o:{seq}:{f}:{o}:",
            SUCCESS if off.get("reaction") else PRIMARY,
        )
        for f, o, cid, off in shown
    ]
    if (page + 1) * per_page < len(all_):
        buttons.append(button("more…", f"t:{seq}:{page + 1}"))
    elif page:
        buttons.append(button("back to the first", f"t:{seq}:0"))
    if not all_:
        text += "\nNothing for your figures to do now."
    return message(text, rows_of(buttons))


def index(text: str) -> int:
    """A seq, figure, offer, option or page number of a custom_id: ASCII digits only. `int` alone would
    take "-1" (Python's last item: an offer or option the button never named), "+1", " 1" or "1_0"."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"not an index: {text!r}")
    return int(text)


def parse_picks(picks: str) -> list[str]:
    return [p for p in picks.split(".") if p]


def walk(off: dict[str, Any], picks: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The command an offer makes with these picks, and the choices still open (the next first).
    IndexError or ValueError when the picks do not fit the offer."""
    command = {"type": off["type"], **off["fields"]}
    queue = list(off["choices"])
    for tok in picks:
        ch = queue.pop(0)
        if tok == "-":
            if ch["required"]:
                raise ValueError("a required choice was skipped")
            continue
        opt = ch["options"][index(tok)]
        command = set_field(command, ch["field"], opt["value"])
        queue = [*(opt.get("then") or []), *queue]
    return command, queue


def choice_view(
    state: dict[str, Any], off: dict[str, Any], where: str, picks: list[str], page: int = 0
) -> dict[str, Any] | None:
    """The next choice of an offer as buttons (up to 5 options) or a select menu (pages of 24, then
    "more…"); None when Discord cannot offer it (a point, number or text to type: the page's)."""
    _, queue = walk(off, picks)
    ch = queue[0]
    options = ch["options"]
    base = f"o:{where}:{'.'.join(picks)}"
    if not options or len(base) + 4 > CUSTOM_ID:
        return None
    title = f"**{escape(off['title'])}** — {escape(ch['title'])}"
    rows: list[dict[str, Any]] = []
    extra: list[dict[str, Any]] = []
    sep = "." if picks else ""
    if len(options) <= BUTTONS:
        rows = rows_of([button(o["title"], f"{base}{sep}{i}", PRIMARY) for i, o in enumerate(options)])
    else:
        per = OPTIONS - 1
        shown = list(enumerate(options))[page * per : (page + 1) * per]
        rows = [
            {
                "type": ACTION_ROW,
                "components": [
                    {
                        "type": SELECT,
                        "custom_id": base,
                        "placeholder": cut(ch["title"], 150),
                        "options": [
                            {"label": cut(o["title"], OPTION_TEXT), "value": str(i)} for i, o in shown
                        ],
                    }
                ],
            }
        ]
        if (page + 1) * per < len(options):
            extra.append(button("more…", f"m:{where}:{'.'.join(picks)}:{page + 1}"))
        elif page:
            extra.append(button("back to the first", f"m:{where}:{'.'.join(picks)}:0"))
    if not ch["required"]:
        extra.append(button("skip", f"{base}{sep}-"))
    extra.append(button("back to the turn", f"t:{state['seq']}:0"))
    return message(title, rows + rows_of(extra))
