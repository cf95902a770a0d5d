"""Client frames must be masked (RFC 6455 section 5.1): a server MUST close the connection on an unmasked one.

aiohttp's websocket reader unmasks a frame when it is masked and takes it as it is when not, with no
hook to refuse it (it does not know which side it reads for). So `MaskedOnlyResponse` puts a small
check in front of it: the bytes the connection receives go through `MaskedFrames`, which follows
the frame headers (their lengths tell where the next one starts; payloads are only counted, never
copied) and hands every byte to aiohttp's reader until a frame without the mask bit begins. Then it
passes nothing more and raises a protocol error in the response's queue: aiohttp's own `receive`
answers it with Close 1002 and ends the connection, as it does for any frame it cannot parse.

It reaches into aiohttp where no API exists (`_post_start`, the handler's `_payload_parser` and
`_message_tail`); tests/test_ws_unmasked_frames.py fails if an aiohttp upgrade moves them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, web
from aiohttp.http_websocket import WebSocketError


class MaskedFrames:
    """Stands where aiohttp's websocket reader stood in the connection, passing it masked frames only."""

    __slots__ = ("_reader", "_refuse", "_head", "_payload_left", "refused")  # one per connection

    def __init__(self, reader: Any, refuse: Callable[[], None]):
        self._reader = reader
        self._refuse = refuse
        self._head = bytearray()  # the current frame's header so far
        self._payload_left = 0  # bytes of the current frame's payload still to come
        self.refused = False

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        if self.refused:
            return False, b""
        at, n = 0, len(data)
        while at < n:
            if self._payload_left:
                step = min(self._payload_left, n - at)
                self._payload_left -= step
                at += step
                continue
            self._head.append(data[at])
            at += 1
            if len(self._head) == 2 and not self._head[1] & 0x80:
                self.refused = True
                start = at - 2  # the unmasked frame began here (or in the data before, already passed)
                if start > 0:
                    self._reader.feed_data(data[:start])
                self._refuse()
                return False, b""
            length = _payload_length(self._head)
            if length is not None:
                self._payload_left = length
                self._head.clear()
        return self._reader.feed_data(data)

    def feed_eof(self) -> None:
        self._reader.feed_eof()


def _payload_length(head: bytearray) -> int | None:
    """The payload length once `head` holds the frame's whole header (masked: 2 + 0/2/8 + 4 bytes)."""
    if len(head) < 2:
        return None
    short = head[1] & 0x7F
    extra = 2 if short == 126 else 8 if short == 127 else 0
    if len(head) < 2 + extra + 4:
        return None
    return int.from_bytes(head[2 : 2 + extra], "big") if extra else short


class MaskedOnlyResponse(web.WebSocketResponse):
    """A websocket response that closes the connection (1002) on the first unmasked client frame."""

    def _post_start(self, request: web.BaseRequest, protocol: str | None, writer: Any) -> None:
        handler: Any = request.protocol
        # Bytes that came behind the upgrade request: checked too, not handed to aiohttp's reader unseen.
        tail, handler._message_tail = handler._message_tail, b""
        super()._post_start(request, protocol, writer)
        check = MaskedFrames(handler._payload_parser, self._refuse_unmasked)
        handler._payload_parser = check
        if tail:
            check.feed_data(tail)

    def _refuse_unmasked(self) -> None:
        self._reader.set_exception(  # type: ignore[union-attr]
            WebSocketError(WSCloseCode.PROTOCOL_ERROR, "client frames must be masked (RFC 6455 section 5.1)")
        )


__all__ = ["MaskedFrames", "MaskedOnlyResponse"]
