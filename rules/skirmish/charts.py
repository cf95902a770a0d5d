"""The GM-supplied charts (spec 6 rows 1-2): the seed's DAMAGE CHART and fall rules are missing, so a chart
comes in the options or the GM reads the real one."""

from __future__ import annotations

from typing import Any

RESULTS: tuple[str, ...] = ("no_effect", "light", "serious", "critical", "mortal", "unconscious", "dead")
# What the GM is asked for a chart result: the options and the default.
CHART_CHOICES: tuple[list[str], str] = (list(RESULTS), "no_effect")


def look_up(chart: list[dict[str, Any]] | None, total: int) -> str | None:
    """The first row whose [min, max] holds `total` (an absent bound is open); None when there is no chart or
    no row fits, and then the GM is asked (DECISION)."""
    for row in chart or []:
        low, high = row.get("min"), row.get("max")
        if (low is None or total >= low) and (high is None or total <= high):
            return row["result"]
    return None
