"""`tussle serve` in a subprocess, for the tests of the real command.

The server binds `--port 0` (a port the system picks) and the test reads the port from its startup
line. Choosing a free port first and passing it on would leave the port unbound while the process
starts (a second or more on a busy machine): any other process, another test run included, could take
it in between, and the test would then fail to start its server or talk to someone else's.

Its stderr (the startup line, then the JSON request log) is drained by a thread as it comes: a pipe
nobody reads fills up and blocks the server's writes.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

# Generous bounds: they only decide how long a broken build takes to fail.
START_S = 60.0
STOP_S = 15.0

_SERVING = re.compile(r"^tussle: serving .* on http://(?P<host>[^\s]+):(?P<port>\d+)$", re.MULTILINE)


class ServeProcess:
    """`python -m server serve --port 0 *args`; once constructed it answers HTTP, unless it exited
    first (a refused start: then `port` is None and `stderr` says why)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", "0", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self._lines: list[str] = []
        self._drain = threading.Thread(target=self._read_stderr, name="tussle-serve-stderr", daemon=True)
        self._drain.start()
        self.host: str | None = None
        self.port: int | None = None
        try:
            self._wait_until_serving()
        except BaseException:
            self.stop()
            raise

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._lines.append(line)

    @property
    def stderr(self) -> str:
        """What the server wrote to stderr so far (all of it once stopped)."""
        return "".join(self._lines)

    @property
    def connect_host(self) -> str:
        """Where a client reaches it: the bound address, or loopback when it binds every address."""
        assert self.host is not None
        return "127.0.0.1" if self.host in ("0.0.0.0", "[::]", "::") else self.host

    @property
    def url(self) -> str:
        return f"http://{self.connect_host}:{self.port}"

    def _wait_until_serving(self) -> None:
        deadline = time.monotonic() + START_S
        while self.port is None:
            found = _SERVING.search(self.stderr)
            if found:
                self.host, self.port = found["host"], int(found["port"])
            elif self.proc.poll() is not None:
                self._drain.join(STOP_S)  # the rest of what it said before exiting
                return
            elif time.monotonic() > deadline:
                raise AssertionError(f"tussle serve did not start within {START_S:g} s: {self.stderr}")
            else:
                time.sleep(0.02)
        # The port is bound before the app starts: wait until the app answers.
        while not self._answers():
            if self.proc.poll() is not None:
                self._drain.join(STOP_S)
                raise AssertionError(f"tussle serve exited while starting: {self.stderr}")
            if time.monotonic() > deadline:
                raise AssertionError(f"tussle serve did not answer within {START_S:g} s: {self.stderr}")
            time.sleep(0.02)

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=5) as r:
                return r.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def stop(self, sig: int = signal.SIGINT) -> str:
        """Stop it (SIGINT, as Ctrl-C; killed if it does not exit in time) and return its stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=STOP_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._drain.join(STOP_S)
        return self.stderr
