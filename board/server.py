"""Serving the board over HTTP with waitress (a production-grade pure-Python WSGI server).

`BoardServer` runs in a background thread for the demo, the game page and end-to-end tests (port 0
picks a free port); `serve` blocks, for `threadgm board`. Behind a reverse proxy on a LAN,
`trust_proxy` makes waitress take the client address from X-Forwarded-For, so IDs and samba see real
clients.

A crowd of idle or slow connections must not stop the board (waitress's defaults let 100 do so, and
then the bot could not read its own board): up to `CONNECTION_LIMIT` connections are held at once,
one that sends nothing for `CHANNEL_TIMEOUT` seconds — idle, or trickling a request — is closed
(looked for every `CLEANUP_INTERVAL` seconds), the event loop uses poll(2) (select(2) stops at file
descriptor 1024), and the process's limit of open files is raised to what that many connections need.
A connection costs a socket, not a worker thread: the `THREADS` workers only run whole requests —
except an idle poll the board answers 304 from one stat, which the event loop serves itself (the
hand-over to a worker and back cost more than the answer; a stat that stalled would stall the loop,
which on the local disk of a board it does not).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

from board.app import BoardApp
from board.posting import PostingService
from board.storage import BoardStore

log = logging.getLogger(__name__)

THREADS = 8
CONNECTION_LIMIT = 4096
CHANNEL_TIMEOUT = 30  # seconds
CLEANUP_INTERVAL = 5  # seconds
_READS = frozenset({"GET", "HEAD"})


def make_app(
    data: Path,
    boards: Iterable[str],
    *,
    defaults: Mapping[str, str] | None = None,
    clock: Callable[[], datetime] | None = None,
) -> BoardApp:
    """The board application; `clock` (JST datetimes) stamps posts and times samba, for tests that
    move time."""
    store = BoardStore(Path(data), defaults=defaults)
    posting = (
        PostingService(store, clock=clock, monotonic=lambda: clock().timestamp())
        if clock is not None
        else PostingService(store)
    )
    return BoardApp(store, boards, posting)


class _BodilessKeepAlive(WSGITask):
    """waitress closes the connection after every 304 and 204: it keeps a connection open only for an
    answer with a Content-Length, which a bodiless answer must not carry. Such an answer ends at its
    headers, so the connection can serve the next request — a reader polling with If-Modified-Since
    keeps one connection instead of opening one per poll (as Apache does)."""

    _building = False

    def build_response_header(self) -> bytes:
        self._building = True
        try:
            return super().build_response_header()
        finally:
            self._building = False

    def set_close_on_finish(self) -> None:
        asked = self.request.headers.get("CONNECTION", "").lower() == "close"
        if self._building and not self.has_body and self.version == "1.1" and not asked:
            return
        super().set_close_on_finish()

    def write(self, data: bytes) -> None:
        """The headers leave with the body's first bytes, in one send: waitress sends them on their
        own (its send_bytes is 1), which costs every answer a second send and TCP segment — on
        loopback the receiving side's work is done in the sender's send as well."""
        if self.wrote_header or not data or not self.complete:
            super().write(data)
            return
        header = self.build_response_header()
        self.wrote_header = True
        room = None if self.content_length is None else self.content_length - self.content_bytes_written
        if self.has_body and not self.chunked_response and room is not None and len(data) <= room:
            self.content_bytes_written += len(data)
            self.channel.write_soon(header + data)
            return
        # Anything else (chunked, no body, more than the Content-Length) as waitress writes it.
        self.channel.write_soon(header)
        super().write(data)


class _Channel(HTTPChannel):
    """A connection whose idle polls are answered in the event loop itself (see `_answer_idle_polls`):
    the server's `add_task` marks such a request instead of queueing it, and it is served here, once
    `received` has let go of the channel's lock."""

    task_class = _BodilessKeepAlive
    _receiver: int | None = None  # the thread inside `received`, while it is
    _inline = False

    def received(self, data: bytes) -> bool:
        self._receiver = threading.get_ident()
        try:
            answered = super().received(data)
            while self._inline:  # service() marks the next pipelined request the same way
                self._inline = False
                self.service()
        finally:
            self._receiver = None
        return answered


def _answer_idle_polls(server: object, answers: Callable[[Mapping[str, object]], bool]) -> None:
    """Serve in the event loop the requests `answers` says the app answers from one stat (a 304 to an
    idle poll): handing one to a worker thread and back costs more than the answer. Anything else
    goes to the workers as before."""
    dispatch = server.add_task

    def add_task(channel: HTTPChannel) -> None:
        request = channel.requests[0] if channel.requests else None
        if (
            request is not None
            and request.command in _READS  # a post is never one: no environ built for it
            and getattr(channel, "_receiver", None) == threading.get_ident()
            and not request.error
            and answers(_environ_of(request))
        ):
            channel._inline = True
        else:
            dispatch(channel)

    server.add_task = add_task


def _environ_of(request: object) -> dict[str, object]:
    """What `answers` looks at, as the WSGI environ will hold it."""
    environ: dict[str, object] = {"REQUEST_METHOD": request.command, "PATH_INFO": request.path}
    environ.update((f"HTTP_{name}", value) for name, value in request.headers.items())
    return environ


def _create(app: Callable, host: str, port: int, trust_proxy: bool, channel_timeout: float = CHANNEL_TIMEOUT):
    raise_open_files_limit(CONNECTION_LIMIT + 64)
    server = create_server(
        app,
        host=host,
        port=port,
        threads=THREADS,
        connection_limit=CONNECTION_LIMIT,
        channel_timeout=channel_timeout,
        cleanup_interval=min(CLEANUP_INTERVAL, channel_timeout),
        asyncore_use_poll=True,
        ident="threadgm-board",
        **_proxy_options(trust_proxy),
    )
    server.channel_class = _Channel
    answers = getattr(app, "answers_from_one_stat", None)
    if answers is not None:
        _answer_idle_polls(server, answers)
    return server


def raise_open_files_limit(wanted: int) -> None:
    """Raise the soft limit of open files towards `wanted` (never past the hard limit)."""
    try:
        import resource
    except ImportError:  # not on this platform: its own limits stand
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError) as error:
            log.warning("could not raise the limit of open files to %d (%s)", target, error)


def _proxy_options(trust_proxy: bool) -> dict[str, object]:
    if not trust_proxy:
        return {}
    return {
        "trusted_proxy": "*",
        "trusted_proxy_headers": {"x-forwarded-for"},
        "clear_untrusted_proxy_headers": True,
    }


class BoardServer:
    """A board (or any WSGI app) listening in a daemon thread until `close()`."""

    def __init__(
        self,
        app: Callable,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        trust_proxy: bool = False,
        channel_timeout: float = CHANNEL_TIMEOUT,
    ) -> None:
        self.app = app
        self._server = _create(app, host, port, trust_proxy, channel_timeout)
        self._thread = threading.Thread(target=self._server.run, name="board-server", daemon=True)

    @property
    def port(self) -> int:
        return self._server.effective_port

    @property
    def url(self) -> str:
        return f"http://{self._server.effective_host}:{self.port}"

    def start(self) -> BoardServer:
        self._thread.start()
        return self

    def close(self) -> None:
        # waitress has no stop(), and its channels may only be closed from its own loop thread. So:
        # stop accepting (in the loop), let the workers finish what they are serving — a finished
        # request wakes the loop through the trigger, so the trigger must still be open then — and
        # only then close every channel, the trigger last; an empty map ends run(). Closing twice,
        # or after the loop has ended, does nothing.
        server = self._server
        self._in_loop(lambda: wasyncore.dispatcher.close(server))  # the listener alone
        server.task_dispatcher.shutdown()

        def close_all() -> None:
            channels = [c for c in list(server._map.values()) if c is not server.trigger]
            for channel in [*channels, server.trigger]:
                channel.close()

        self._in_loop(close_all)
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _in_loop(self, thunk: Callable[[], object]) -> None:
        trigger = self._server.trigger
        if trigger._closed or not self._thread.is_alive():
            return
        with contextlib.suppress(OSError):  # the loop closed its trigger meanwhile: it serves nothing more
            trigger.pull_trigger(thunk)

    def __enter__(self) -> BoardServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(app: BoardApp, host: str, port: int, *, trust_proxy: bool = False) -> None:
    _create(app, host, port, trust_proxy).run()
