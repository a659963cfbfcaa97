"""A server that answers as slowly as it likes: its headers at once, then the body a byte at a time
(or never), each byte well within any read timeout — a tarpit, a stuck proxy, a board on its knees.
Only a deadline on the whole answer ends such a read."""

from __future__ import annotations

import socket
import threading
import time


class TrickleServer:
    def __init__(
        self,
        body: bytes = b"x" * 400,
        pause: float = 0.05,
        status: str = "200 OK",
        *,
        slow_head: bool = False,
    ) -> None:
        self.body, self.pause, self.status, self.slow_head = body, pause, status, slow_head
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests = 0
        self.sent = 0  # body bytes sent before the client let go (or all of them)
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            length = next(
                (
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                0,
            )
            while len(rest) < length:  # the whole request first: a close before it would reset the answer
                chunk = conn.recv(65536)
                if not chunk:
                    return
                rest += chunk
            self.requests += 1
            head = f"HTTP/1.1 {self.status}\r\nContent-Length: {len(self.body)}\r\n"
            head += "Content-Type: text/html; charset=Shift_JIS\r\n\r\n"
            try:
                slow = head.encode() + self.body if self.slow_head else self.body  # (the head too)
                if not self.slow_head:
                    conn.sendall(head.encode())
                for byte in slow:
                    if self._stop.is_set():
                        return
                    conn.sendall(bytes([byte]))
                    self.sent += 1
                    time.sleep(self.pause)
            except OSError:
                return

    def close(self) -> None:
        self._stop.set()
        self.listener.close()
