"""Issue 25 'Done when': every case of the forged corpus (tests/support/forged_corpus.py) is named at its
seq by the real `tussle verify` command line and by docs/verifying.md's example verifier, each given the
player's kept files as a player would give them: the signed receipts, and the sent records of two devices
(several --sent files). The page is fed the same corpus in tests/web/test_browser_forged_corpus.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.forged_corpus import CASES, UNLIMITED, fight, jsonl
from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse
from tests.test_verify_cases import doc_verifier
from tests.web.conftest import Api


def _run(*args: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def _kept_args(tmp_path: Path, name: str, kept: dict) -> list[str]:
    args = []
    if "receipts" in kept:
        (tmp_path / f"{name}.receipts.jsonl").write_text(jsonl(kept["receipts"]))
        args += ["--receipts", str(tmp_path / f"{name}.receipts.jsonl")]
    if "sent" in kept:  # the player's phone and laptop, each its own record
        half = len(kept["sent"]) // 2
        for device, rows in (("phone", kept["sent"][:half]), ("laptop", kept["sent"][half:])):
            (tmp_path / f"{name}.{device}.jsonl").write_text(jsonl(rows))
            args += ["--sent", str(tmp_path / f"{name}.{device}.jsonl")]
    return args


def test_every_case_is_named_at_its_seq_by_tussle_verify_and_the_documented_verifier(tmp_path):
    served = ServeProcess("--db", str(tmp_path / "tussle.db"), *UNLIMITED)
    try:
        assert served.port is not None, served.stderr
        fights = [fight(Api(served.url)) for _ in CASES]
    finally:
        served.stop()
    verifier = str(doc_verifier(tmp_path))
    (tmp_path / "honest.jsonl").write_bytes(fights[0].raw)
    whole = _kept_args(tmp_path, "honest", {"receipts": fights[0].receipts, "sent": fights[0].sent})
    code, out = _run("-m", "server.cli", "verify", str(tmp_path / "honest.jsonl"), *whole, "--json")
    assert code == 0, out
    assert _run(verifier, str(tmp_path / "honest.jsonl"), *whole) == (0, "OK\n")
    for (tamper, keep), played in zip(CASES, fights, strict=True):
        name = tamper.__name__
        events, trailer = parse(played.raw)
        seq = tamper(events, trailer)
        kept = keep(played, events)
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(encode(events, trailer))
        args = _kept_args(tmp_path, name, kept)
        code, out = _run("-m", "server.cli", "verify", str(path), *args, "--json")
        report = json.loads(out)
        assert code == 1 and report["first_bad_seq"] == seq, (name, report["problems"])
        code, out = _run(verifier, str(path), *args)
        assert code == 1 and out.startswith(f"FAILED at seq {seq}:"), (name, out)
