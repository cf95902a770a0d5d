"""Golden streams (issue 13): scripted fights whose stored streams are compared byte for byte
(`scripts/`), and streams stored by earlier versions that must still fold, verify and render
(`frozen/`). Re-record the scripted ones with `python -m tests.golden.record`."""
