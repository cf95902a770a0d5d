"""Pausing CPython's cyclic garbage collector while a large batch of long-lived objects is built.

Reading an encounter's 100,000 events and folding them into a state allocates millions of container
objects that all survive; each time the collector's thresholds trip it walks the young ones, and as
they pile up it walks the old ones too, only to free nothing. Reference counting still frees what
dies meanwhile. Use it only around synchronous code (no `await` inside), so nothing else runs while
the collector is paused.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector for the block (re-enabled after it if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
