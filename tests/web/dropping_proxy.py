"""A small TCP proxy between a browser and the server that loses answers on purpose: the first answer to a
POST whose body holds a marker (say `"type":"roll"`) is read from the server, after the server committed
it, and never forwarded: the browser's connection is closed instead, as a network failing at that moment
would. Everything else is passed through byte for byte (HTTP and the websocket alike)."""

from __future__ import annotations

import socket
import threading


class DroppingProxy:
    def __init__(self, upstream_port: int, marker: bytes, drops: int = 1):
        self.upstream_port = upstream_port
        self.marker = marker
        self.drops_left = drops
        self.requests_with_marker: list[bytes] = []  # every such request body seen, resends included
        self.dropped = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._closing = False
        threading.Thread(target=self._accept, name="dropping-proxy", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self._closing = True
        self._listener.close()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            drop_next = threading.Event()
            threading.Thread(target=self._up, args=(client, upstream, drop_next), daemon=True).start()
            threading.Thread(target=self._down, args=(upstream, client, drop_next), daemon=True).start()

    def _up(self, client: socket.socket, upstream: socket.socket, drop_next: threading.Event) -> None:
        """Browser -> server; a request with the marker arms the drop of its answer (HTTP/1.1 answers in
        order, and a browser does not pipeline, so the next answer on this connection is its own)."""
        try:
            while data := client.recv(65536):
                if self.marker in data:
                    with self._lock:
                        self.requests_with_marker.append(data)
                        if self.drops_left > 0:
                            self.drops_left -= 1
                            drop_next.set()
                upstream.sendall(data)
        except OSError:
            pass
        finally:
            _close(upstream)

    def _down(self, upstream: socket.socket, client: socket.socket, drop_next: threading.Event) -> None:
        try:
            while data := upstream.recv(65536):
                if drop_next.is_set():  # the server has answered (so it has committed): lose the answer
                    with self._lock:
                        self.dropped += 1
                    break
                client.sendall(data)
        except OSError:
            pass
        finally:
            _close(client)
            _close(upstream)


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
