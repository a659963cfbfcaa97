"""The bot's reads of a board: GETs over the standard library's `http.client`, connections kept alive
and reused per host, as lean as a poll can be — an idle poll is one conditional GET.

Why not requests here (it stays for posting: cookies, the confirmation page, the form encodings):
measured on this machine against the local board, one conditional GET of a dat answered 304 cost
1.28 ms of CPU through a requests session, 0.90 ms with `trust_env = False` (requests reads the
whole environment for proxy settings on every request), 0.31–0.52 ms through urllib3 (a pool manager
or a connection pool), 0.18 ms through `http.client`. At 5,000 threads polled every 10 s the poll is
most of what the bot does, so the client is the one with the least of its own work.

`Reader.get` answers like `requests.Session.get` where `scraper.fetch` looks (`url`, `status_code`,
`headers`, `content`, `encoding`), follows a redirect only when asked (a thread's dat answering one
has fallen from the board; a board's SETTING.TXT may live behind one), decodes gzip and deflate as requests
does, and raises `ReadFailed` for anything the network does; `network_errors()` is what a read
through either client raises, so `fetch` treats both alike. The module does not load requests: a
bot that only reads never does (requests is about 5 MB of the process). A kept-alive connection the board closed meanwhile is retried
once on a new one (a GET changes nothing). Proxies: `make_reader` hands back a requests session
when the environment names one, since only requests honours them (read once, at start, not per
request).
"""

from __future__ import annotations

import functools
import http.client
import io
import socket
import ssl
import sys
import threading
import time
import urllib.request
import zlib
from collections import defaultdict
from dataclasses import dataclass
from email.message import Message
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

if TYPE_CHECKING:
    import requests

ACCEPT_ENCODING = "gzip, deflate"
MAX_REDIRECTS = 10
# The longest a whole answer may take: a read timeout bounds each wait for a byte, and an answer sent
# a byte at a time (a tarpit, a stuck proxy) would otherwise hold a poll for ever.
ANSWER_DEADLINE = 60.0
# The most an answer may hold, as sent and once decoded: a board's dat stops at 512 KB (BBS_DATMAX) and
# a page of a thousand posts at a few MB; an endless body or a gzip bomb must not take the bot's memory.
MAX_ANSWER = 32 * 1024 * 1024
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
Timeout = float | tuple[float, float]  # seconds, or (connect, read) as requests takes them
_STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


class ReadFailed(ConnectionError):
    """The board could not be read: no connection, a cut answer, a timeout, an unreadable body."""


def network_errors() -> tuple[type[Exception], ...]:
    """What a read raises for what the network did: the reader's `ReadFailed`, and requests' own
    errors once requests is loaded — a read through a requests session (a proxy, a post's session)
    has loaded it, and without it none of its errors can be raised."""
    loaded = sys.modules.get("requests")
    return (ReadFailed,) if loaded is None else (ReadFailed, loaded.RequestException)


class _Stale(Exception):
    """A kept-alive connection that the board had closed: the request may go again on a new one."""


@dataclass(frozen=True)
class Answer:
    url: str  # as asked (the last one asked, when redirects were followed)
    status_code: int
    reason: str
    headers: Message  # case-insensitive `get`, as requests' headers
    content: bytes  # decoded from gzip / deflate when the board sent it so

    @property
    def encoding(self) -> str | None:
        """The charset of Content-Type, as `requests.Response.encoding` gives it (asked of a page
        read as HTML only: requests is loaded then)."""
        from requests.utils import get_encoding_from_headers

        return get_encoding_from_headers(self.headers)


def _decoded(body: bytes, coding: str) -> bytes:
    coding = coding.strip().lower()
    if coding in ("", "identity"):
        return body
    if coding in ("gzip", "x-gzip"):
        return _inflated(body, 16 + zlib.MAX_WBITS)
    if coding == "deflate":
        try:
            return _inflated(body, zlib.MAX_WBITS)
        except zlib.error:  # what some servers send as deflate is the bare stream
            return _inflated(body, -zlib.MAX_WBITS)
    raise ReadFailed(f"unknown Content-Encoding {coding!r}")


def _inflated(body: bytes, wbits: int) -> bytes:
    """`body` decompressed, at most MAX_ANSWER of it (more is a bomb: ReadFailed); zlib.error for a
    body that is not the whole stream it says it is."""
    inflater = zlib.decompressobj(wbits)
    data = inflater.decompress(body, MAX_ANSWER + 1)
    if len(data) > MAX_ANSWER:
        raise ReadFailed(f"the answer decodes to more than {MAX_ANSWER} bytes")
    if not inflater.eof:
        raise zlib.error("incomplete or truncated stream")
    return data


class Reader:
    """GETs with kept-alive connections, up to `pool` idle ones per host, safe across threads."""

    def __init__(self, user_agent: str, pool: int = 10) -> None:
        self.user_agent = user_agent
        self.pool = pool
        self._idle: dict[tuple[str, str, int], list[http.client.HTTPConnection]] = defaultdict(list)
        self._lock = threading.Lock()
        self._tls: ssl.SSLContext | None = None

    def get(
        self,
        url: str,
        headers: dict[str, str] | None = None,
        timeout: Timeout = 20,
        allow_redirects: bool = False,
    ) -> Answer:
        """`url`'s answer; with `allow_redirects`, the answer at the end of its redirects (GETs, at
        most MAX_REDIRECTS of them, as requests follows them)."""
        answer = self._get(url, headers, timeout)
        for _ in range(MAX_REDIRECTS if allow_redirects else 0):
            location = answer.headers.get("Location")
            if answer.status_code not in _REDIRECTS or not location:
                return answer
            answer = self._get(urljoin(answer.url, location), headers, timeout)
        if allow_redirects and answer.status_code in _REDIRECTS and answer.headers.get("Location"):
            raise ReadFailed(f"{url}: more than {MAX_REDIRECTS} redirects")
        return answer

    def _get(self, url: str, headers: dict[str, str] | None, timeout: Timeout) -> Answer:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ReadFailed(f"not an http(s) URL: {url}")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        key = (parts.scheme, parts.hostname, port)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        sent = {"User-Agent": self.user_agent, "Accept-Encoding": ACCEPT_ENCODING, **(headers or {})}
        connect, read = timeout if isinstance(timeout, tuple) else (timeout, timeout)
        reused = self._take(key)
        if reused is not None:
            try:
                return self._exchange(url, key, reused, target, sent, read)
            except _Stale:  # the board closed it while it was idle: once more, on a new connection
                pass
        try:
            return self._exchange(url, key, self._open(key, connect), target, sent, read)
        except _Stale as stale:
            raise ReadFailed(f"{url}: {stale}") from stale.__cause__

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, defaultdict(list)
        for connections in idle.values():
            for connection in connections:
                connection.close()

    # -- inside ----------------------------------------------------------------------------------

    def _take(self, key: tuple[str, str, int]) -> http.client.HTTPConnection | None:
        with self._lock:
            idle = self._idle.get(key)
            return idle.pop() if idle else None

    def _give_back(self, key: tuple[str, str, int], connection: http.client.HTTPConnection) -> None:
        with self._lock:
            idle = self._idle[key]
            if len(idle) < self.pool:
                idle.append(connection)
                return
        connection.close()

    def _open(self, key: tuple[str, str, int], connect: float) -> http.client.HTTPConnection:
        scheme, host, port = key
        try:
            if scheme == "https":
                connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                    host, port, timeout=connect, context=self._context()
                )
            else:
                connection = http.client.HTTPConnection(host, port, timeout=connect)
            connection.connect()
        except (OSError, http.client.HTTPException) as error:
            raise ReadFailed(f"{scheme}://{host}:{port}: {type(error).__name__}: {error}") from error
        return connection

    def _context(self) -> ssl.SSLContext:
        if self._tls is None:
            # The same certificates requests trusts (certifi, its dependency), not the system's.
            import certifi

            self._tls = ssl.create_default_context(cafile=certifi.where())
        return self._tls

    def _exchange(
        self,
        url: str,
        key: tuple[str, str, int],
        connection: http.client.HTTPConnection,
        target: str,
        headers: dict[str, str],
        read: float,
    ) -> Answer:
        """One request and its whole answer, within ANSWER_DEADLINE; the connection goes back to the
        pool when it may."""
        deadline = time.monotonic() + ANSWER_DEADLINE
        try:
            if connection.sock is not None:
                connection.sock.settimeout(read)
            connection.request("GET", target, headers=headers)
            # The answer — its status line and headers too — is read through _Deadline.
            connection.response_class = functools.partial(_deadlined_response, read=read, deadline=deadline)
            response = connection.getresponse()
            body = _read_whole(response)
        except _STALE as error:
            connection.close()
            raise _Stale(f"{type(error).__name__}: {error}") from error
        except (OSError, http.client.HTTPException) as error:  # socket.timeout is an OSError
            connection.close()
            where = f"{key[0]}://{key[1]}:{key[2]}{target}"
            raise ReadFailed(f"{where}: {type(error).__name__}: {error}") from error
        if response.will_close:
            connection.close()
        else:
            self._give_back(key, connection)
        try:
            content = _decoded(body, response.headers.get("Content-Encoding", ""))
        except zlib.error as error:
            raise ReadFailed(f"{key[1]}{target}: the body does not decode ({error})") from error
        return Answer(url, response.status, response.reason, response.headers, content)


class _Deadline(io.RawIOBase):
    """A socket's reads for one answer: each wait for bytes no longer than `read`, none past
    `deadline` — a board sending its status line, its headers or its body a byte at a time is cut."""

    def __init__(self, sock: socket.socket, read: float, deadline: float) -> None:
        self.sock, self.read, self.deadline = sock, read, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        left = self.deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            self.sock.settimeout(min(self.read, left))
            return self.sock.recv_into(buffer)
        except TimeoutError as error:
            if time.monotonic() < self.deadline:
                raise  # a wait for bytes longer than `read`: the read timeout's own failure
            raise TimeoutError(
                f"the answer took longer than its deadline of {ANSWER_DEADLINE:g} s"
            ) from error


class _Answering:
    """What http.client's answer reads from (it asks only for `makefile`): the connection's socket
    through `_Deadline`; the connection keeps the socket itself."""

    def __init__(self, sock: socket.socket, read: float, deadline: float) -> None:
        self.sock, self.read, self.deadline = sock, read, deadline

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_Deadline(self.sock, self.read, self.deadline))


def _deadlined_response(
    sock: socket.socket, *, read: float, deadline: float, **options: object
) -> http.client.HTTPResponse:
    return http.client.HTTPResponse(_Answering(sock, read, deadline), **options)  # type: ignore[arg-type]


def _read_whole(response: http.client.HTTPResponse) -> bytes:
    """The answer's body, at most MAX_ANSWER of it; the answer closed once read (read1 leaves it open
    at its end, as read() would not)."""
    parts, size = [], 0
    while part := response.read1(65536):
        parts.append(part)
        size += len(part)
        if size > MAX_ANSWER:
            response.close()
            raise ReadFailed(f"the answer holds more than {MAX_ANSWER} bytes")
    response.close()
    return b"".join(parts)


def get(
    session: Reader | requests.Session,
    url: str,
    headers: dict[str, str] | None = None,
    timeout: Timeout = 20,
    allow_redirects: bool = False,
) -> Answer | requests.Response:
    """`url` through either client, within ANSWER_DEADLINE: a Reader keeps it itself; a requests
    session (a proxy, `threadgm verify`) streams the answer and reads it as it arrives (read1), so a
    body sent a byte at a time is cut too (`ReadFailed`). The answer as the Reader gives it."""
    if isinstance(session, Reader):
        return session.get(url, headers, timeout, allow_redirects)
    from urllib3.exceptions import HTTPError as TransportError

    deadline = time.monotonic() + ANSWER_DEADLINE
    response = session.get(
        url, headers=headers, timeout=timeout, allow_redirects=allow_redirects, stream=True
    )
    try:
        body = streamed_body(response, deadline, ANSWER_DEADLINE)
    except (TransportError, OSError, zlib.error) as error:  # TimeoutError is an OSError
        raise ReadFailed(f"{url}: {type(error).__name__}: {error}") from error
    return Answer(response.url, response.status_code, response.reason, response.headers, body)  # type: ignore[arg-type]


def streamed_body(response: requests.Response, deadline: float, limit: float) -> bytes:
    """A streamed requests answer's body, read as it arrives (read1: whatever came, not a full
    buffer — a body sent a byte at a time would otherwise fill 64 KiB first), until the monotonic
    `deadline` (then TimeoutError, naming the `limit` in seconds); the connection is let go either way."""
    parts, size = [], 0
    try:
        while part := response.raw.read1(65536, decode_content=True):
            parts.append(part)
            size += len(part)
            if time.monotonic() > deadline:
                raise TimeoutError(f"the answer took longer than its deadline of {limit:g} s")
            if size > MAX_ANSWER:
                raise ReadFailed(f"the answer holds more than {MAX_ANSWER} bytes")
    finally:
        response.close()
    return b"".join(parts)


def make_reader(
    user_agent: str, pool: int = 10, fallback: requests.Session | None = None
) -> Reader | requests.Session:
    """The reader for a bot process: a `Reader`, or — when the environment names an HTTP proxy,
    which only requests honours — the requests session `fallback`."""
    if fallback is not None and any(
        scheme in ("http", "https", "all") for scheme in urllib.request.getproxies()
    ):
        return fallback
    return Reader(user_agent, pool)


__all__ = ["Answer", "ReadFailed", "Reader", "get", "make_reader", "network_errors", "streamed_body"]
