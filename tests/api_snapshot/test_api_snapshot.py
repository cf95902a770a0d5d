"""The API a live server publishes is the recorded one (tests/api_snapshot/*.json).

Moving modules (issue 26 item 1) must not change `/openapi.json` or `/asyncapi.json`: this diff proves
it. Other work changes the API on purpose; it re-records the snapshot with
`python -m tests.api_snapshot.record` in the same commit, so the change is visible in review.
"""

from __future__ import annotations

import difflib

from tests.api_snapshot.record import HERE, canonical, served

RERECORD = "python -m tests.api_snapshot.record"


async def test_served_documents_are_the_recorded_ones():
    failures = []
    for name, doc in (await served()).items():
        recorded = (HERE / name).read_text(encoding="utf-8")
        live = canonical(doc)
        if live != recorded:
            diff = difflib.unified_diff(
                recorded.splitlines(keepends=True),
                live.splitlines(keepends=True),
                f"recorded/{name}",
                f"served/{name}",
            )
            failures.append("".join(diff)[:6000])
    assert not failures, (
        f"the served API differs from tests/api_snapshot/. If it changed on purpose, re-record with `{RERECORD}` "
        "in the same commit; if not, the change broke the API:\n" + "\n".join(failures)
    )
