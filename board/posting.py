"""What happens to a post between the form and the dat, in ex0ch's order of checks:

board read-only → thread exists / stopped / full → cookie confirmation (2ch dialect, a client
without NAME/MAIL cookies) → name, mail and subject (tripcode, escaping, limits) → body (limits) →
samba and 連投 regulation → date, ID and the dat line → the 1001 line after the last allowed post.

The result is a `Written`, a `NeedsConfirmation` or a `PostError`; pages are made elsewhere.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import lru_cache

import regex

from board import text
from board.dat import DatPost, format_date, over_limit
from board.errors import SAMBA, PostError
from board.ids import daily_id
from board.settings import Settings
from board.storage import THREAD_KEY, Board, BoardNotFound, BoardStore
from board.tripcode import dat_name, key_bytes, split_name, trip_for_key

JST = timezone(timedelta(hours=9), "JST")
# The `#` that starts a cap password, not the one of a character reference (`&#9829;`), as in names.
_CAP_PASSWORD = regex.compile(r"(?<!&)#")
# A crypt trip costs about 0.3 ms of pure-Python DES, and the same few posters (the GM bot above all)
# post with the same key again and again: the last keys' trips are kept, in this process only.
_trip = lru_cache(maxsize=256)(trip_for_key)


def jst_now() -> datetime:
    return datetime.now(JST)


@dataclass(frozen=True)
class WriteForm:
    """The fields of bbs.cgi / write.cgi, already decoded to text."""

    board: str
    key: str | None  # None opens a new thread
    name: str = ""
    mail: str = ""
    message: str = ""
    subject: str = ""


@dataclass(frozen=True)
class Client:
    address: str
    cookies: Mapping[str, str] = field(default_factory=dict)
    confirm_cookies: bool = True  # the 2ch dialect asks a new client to confirm; したらば does not


@dataclass(frozen=True)
class Written:
    board: str
    key: str
    number: int
    new_thread: bool


@dataclass(frozen=True)
class NeedsConfirmation:
    """The 書き込み確認 page: the client must re-send the form with the cookies it is given."""

    form: WriteForm


Outcome = Written | NeedsConfirmation | PostError


# The board's owner (board-admin): like an ex0ch cap, not held to the new-thread limits.
ADMIN_ADDRESS = "board-admin"


class _Regulation:
    """Samba (seconds between one client's posts on a board), 連投 (share of a thread's last posts) and
    スレッド立てすぎ (share of a board's last new threads, or too many new threads in the last hours).

    Kept in memory: a restart forgets who posted a moment ago.
    """

    def __init__(self, monotonic: Callable[[], float]) -> None:
        self._monotonic = monotonic
        self._last_attempt: dict[tuple[str, str], tuple[float, int]] = {}
        self._recent_hosts: dict[tuple[str, str], deque[str]] = defaultdict(lambda: deque(maxlen=64))
        self._new_threads: dict[str, deque[tuple[str, float]]] = defaultdict(lambda: deque(maxlen=256))
        self._lock = threading.Lock()

    def too_many_threads(self, board: str, client: str, settings: Settings) -> bool:
        """ex0ch's two checks: the client opened COUNT2 of the board's last THREAD_TATESUGI threads, or
        the board got TATESUGI_COUNT new threads in the last TATESUGI_HOUR hours (0 = off)."""
        last, share = settings.number("BBS_THREAD_TATESUGI"), settings.number("BBS_TATESUGI_COUNT2")
        hours, count = settings.number("BBS_TATESUGI_HOUR"), settings.number("BBS_TATESUGI_COUNT")
        with self._lock:
            opened = list(self._new_threads[board])
        if last and share and [host for host, _ in opened[-last:]].count(client) >= share:
            return True
        since = self._monotonic() - hours * 3600
        return bool(hours and count) and sum(1 for _, at in opened if at >= since) >= count

    def opened(self, board: str, client: str) -> None:
        with self._lock:
            self._new_threads[board].append((client, self._monotonic()))

    def samba(self, board: str, client: str, window: int) -> PostError | None:
        """ex0ch counts every attempt, refused ones too: hammering the button keeps the door shut."""
        now = self._monotonic()
        with self._lock:
            last, refused = self._last_attempt.get((board, client), (float("-inf"), 0))
            waited = now - last
            if window and waited < window:
                self._last_attempt[board, client] = (now, refused + 1)
                return PostError(SAMBA, samba=window, count=refused + 1, waited=int(waited))
            self._last_attempt[board, client] = (now, 0)
            return None

    def consecutive(self, board: str, key: str, client: str, count: int, close: int) -> bool:
        with self._lock:
            recent = list(self._recent_hosts[board, key])[-count:] if count else []
        return bool(close) and recent.count(client) >= close

    def wrote(self, board: str, key: str, client: str) -> None:
        with self._lock:
            self._recent_hosts[board, key].append(client)


class PostingService:
    def __init__(
        self,
        store: BoardStore,
        *,
        clock: Callable[[], datetime] = jst_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.clock = clock
        self._regulation = _Regulation(monotonic)

    def write(self, form: WriteForm, client: Client) -> Outcome:
        try:
            board = self.store.open(form.board)
        except BoardNotFound:
            return PostError(999)
        with board.locked():
            return self._write(board, form, client)

    def _write(self, board: Board, form: WriteForm, client: Client) -> Outcome:
        settings = board.settings  # read once: the post is judged by one version of SETTING.TXT
        refused = self._closed_to_posts(board, settings, form.key)
        if refused is not None:
            return refused
        if client.confirm_cookies and self._needs_confirmation(settings, client):
            return NeedsConfirmation(form)

        amp_pass = settings.get("BBS_UNICODE") == "pass"
        name, trip = self._name(form.name, amp_pass=amp_pass)
        mail = self._mail(form.mail, amp_pass=amp_pass)
        # A title is read as words: a tab or a line separator between two stays a space.
        subject = text.strip_controls(text.single_line(form.subject), separator=" ")
        subject = text.escape(subject, amp=not amp_pass).strip()
        body = text.body_to_dat(form.message, amp_pass=amp_pass)
        # In ex0ch's order, and short-circuited: the regulation records an attempt only when it is reached.
        refused = (
            _header_too_long(settings, form.key, name, mail, subject)
            or _body_refused(settings, body)
            or self._regulated(board.name, settings, form.key, client)
        )
        if refused is not None:
            return refused

        now = self.clock()
        shown_name = dat_name(name, trip) if trip else name or settings.get("BBS_NONAME_NAME", "名無しさん")
        if form.key is None:
            date_id = self._date_id(board, settings, client, now, starter=True)
            return self._open_thread(board, client, now, DatPost(shown_name, mail, date_id, body, subject))
        date_id = self._date_id(board, settings, client, now, starter_id=board.first_post(form.key).id)
        return self._reply(board, settings, form.key, client, DatPost(shown_name, mail, date_id, body))

    @staticmethod
    def _closed_to_posts(board: Board, settings: Settings, key: str | None) -> PostError | None:
        """The board is read-only, or the thread cannot take another post."""
        if settings.get("BBS_READONLY", "none") not in ("", "none"):
            return PostError(203)
        if key is None:
            return None
        if not THREAD_KEY.match(key):
            return PostError(900)
        try:
            dat = board.dat_state(key)
        except BoardNotFound:
            return PostError(902)
        if board.is_stopped(key):
            return PostError(200)
        res_max = settings.res_max
        if dat.count >= res_max:
            return PostError(201, res_max=res_max)
        datmax = settings.number("BBS_DATMAX")
        if datmax and dat.size // 1024 > datmax:
            return PostError(206)
        return None

    def _regulated(self, board: str, settings: Settings, key: str | None, client: Client) -> PostError | None:
        """Samba and 連投 for a reply, スレッド立てすぎ for a new thread.

        Called only once every other check has passed: samba counts the attempt it refuses.
        """
        if key is not None:
            samba = self._regulation.samba(board, client.address, settings.number("BBS_SAMBATIME"))
            if samba is not None:
                return samba
            if self._regulation.consecutive(
                board,
                key,
                client.address,
                settings.number("timecount"),
                settings.number("timeclose"),
            ):
                return PostError(501)
        elif client.address != ADMIN_ADDRESS and self._regulation.too_many_threads(
            board, client.address, settings
        ):
            return PostError(500)
        return None

    def _open_thread(self, board: Board, client: Client, now: datetime, post: DatPost) -> Written:
        key = board.create_thread(int(now.timestamp()), post)
        self._regulation.wrote(board.name, key, client.address)
        self._regulation.opened(board.name, client.address)
        return Written(board.name, key, 1, new_thread=True)

    def _reply(self, board: Board, settings: Settings, key: str, client: Client, post: DatPost) -> Written:
        res_max = settings.res_max
        count = board.count(key) + 1
        extra = [over_limit(res_max)] if count == res_max else []
        number = board.append(key, post, age="sage" not in post.mail, extra=extra)
        self._regulation.wrote(board.name, key, client.address)
        return Written(board.name, key, number, new_thread=False)

    @staticmethod
    def _needs_confirmation(settings: Settings, client: Client) -> bool:
        if settings.get("SUBBBS_CGI_ON", "1") in ("", "0"):
            return False
        wanted = [
            cookie
            for cookie, setting in (("NAME", "BBS_NAMECOOKIE_CHECK"), ("MAIL", "BBS_MAILCOOKIE_CHECK"))
            if settings.checked(setting)
        ]
        return any(cookie not in client.cookies for cookie in wanted)

    # Names and mails are pure functions of what was typed, and the same few posters (the GM bot
    # above all) type the same ones post after post: the last ones are kept, in this process only.
    @staticmethod
    @lru_cache(maxsize=256)
    def _name(raw: str, *, amp_pass: bool) -> tuple[str, str | None]:
        # Names are compared (a GM, a player, the bot without a trip): a control is dropped, not made a
        # space, so `G\x0bM` is the `GM` every reader sees, and the trip key is the one they could type.
        cleaned = text.strip_controls(text.single_line(raw), separator="")
        display, key = split_name(cleaned.replace("＃", "#"))
        trip = _trip(key_bytes(key)) if key is not None else None
        display = text.escape(display, amp=not amp_pass, quote=True).removeprefix(" ")
        return text.quote_reserved(text.disarm_marks(display)), trip

    @staticmethod
    @lru_cache(maxsize=256)
    def _mail(raw: str, *, amp_pass: bool) -> str:
        # A `#password` in the mail field asks for a cap; this board has none, and the password
        # must never reach the dat.
        # Mail is one word (`sage`): a control inside it is dropped, so `sa\x00ge` still means sage.
        mail = text.strip_controls(text.single_line(raw), separator="").replace("＃", "#")
        mail = _CAP_PASSWORD.split(mail, 1)[0]
        return text.disarm_marks(text.escape(mail, amp=not amp_pass, quote=True))

    @staticmethod
    def _date_id(
        board: Board,
        settings: Settings,
        client: Client,
        now: datetime,
        *,
        starter: bool = False,
        starter_id: str = "",
    ) -> str:
        stamp = format_date(now, settings.weekdays)
        if settings.checked("BBS_NO_ID"):
            return stamp
        poster_id = daily_id(board.secret, board.name, client.address, now.date())
        mark = "(主)" if (starter or poster_id == starter_id) and not settings.checked("BBS_HIDENUSI") else ""
        return f"{stamp} ID:{poster_id}{mark}"


def _header_too_long(
    settings: Settings, key: str | None, name: str, mail: str, subject: str
) -> PostError | None:
    """A new thread without a subject, or a subject, name or mail over the board's limits."""
    if key is None:
        if not subject:
            return PostError(150)
        if len(subject) > settings.number("BBS_SUBJECT_COUNT", 48):
            return PostError(100)
    if len(name) > settings.number("BBS_NAME_COUNT", 128):
        return PostError(101)
    if len(mail) > settings.number("BBS_MAIL_COUNT", 64):
        return PostError(102)
    return None


def _body_refused(settings: Settings, body: str) -> PostError | None:
    """An empty body, or one over the board's length, line-count or line-width limits."""
    if not body.strip():
        return PostError(151)
    if len(body) > settings.number("BBS_MESSAGE_COUNT", 2048):
        return PostError(103)
    lines, longest = text.line_stats(body)
    if lines > 2 * settings.number("BBS_LINE_NUMBER", 12):
        return PostError(105)
    if longest > settings.number("BBS_COLUMN_NUMBER", 256):
        return PostError(104)
    return None
