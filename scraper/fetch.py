"""Incremental reading of a thread: as cheap for the board as a reader can be, and never wrong.

2ch dat (the protocol doc §1.6, as JDim does it, with gikoNavi's overlap):
- the first read takes the whole dat (gzip welcome); later reads ask for the last line held again
  (`Range: bytes=(size-len(last line))-`, or `size-1` when only the size is known) with
  `If-Modified-Since` and no gzip — 304 (or Apache's 206 with just that overlap) means nothing new;
- a 206 must start with the bytes of the last line held, else the held copy no longer matches the
  board (a post was deleted) or the answer is not the board's bytes (a proxy re-encoded it): the
  whole dat is read again. So is a 206 whose length or start is not what its Content-Range says (a
  stray byte can still decode as Shift-JIS), and one that does not decode strictly in the board's
  charset;
- 416 with a size below ours means the dat shrank (a deletion), and one naming a size past the start
  of the range asked is no board's answer: either way the dat is read whole; 200 instead of 206 means
  the board ignored Range: the body is the whole dat;
- 404/410, or a redirect to the thread's own archived copy: a sign the thread fell out of the board
  (dat落ち) or was removed (proof is `scraper.gone`'s); any other redirect is a fault;
- after CONDITIONAL_STREAK 304s in a row the dat is asked for once without If-Modified-Since;
- a line that is not a dat line is the board's own damage once two whole reads show it alike;
- only complete lines are taken: a partial last line (a dat being written, or a cut connection) is
  read again next time.
If-Modified-Since is sent only with a Last-Modified at least a second older than the answer's Date:
the board's clock has one-second steps, and a post in the same second would otherwise be missed.

したらば rawmode: `N-` from the next number; deleted posts are gaps. HTML read.cgi: `N-` too, posts
at or below the last number are dropped, and a page that stops before `</html>` keeps its last post
for the next read. A read cut short says so (`complete`), so nothing is settled on it.

Nothing undecodable is believed. Every answer must decode strictly in the thread's charset (and a
Shift-JIS or EUC-JP answer that reads as UTF-8 was re-encoded on the way). A read that nothing held
vouches for — the first read of a thread, a whole dat read again — is read twice and taken only when
both show the same posts: a garbled first read would otherwise be held as the thread for good. Bytes
that fail the strict decoding the same way twice are the board's own (a damaged dat): they are taken,
with a warning. A rawmode read starts at the last post held, and that post must come back as held.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import regex

from scraper import http
from scraper.answer_checks import (
    archived_at,
    complete_lines,
    last_line,
    older,
    range_problem,
    range_total,
    strict_text,
    trusted_validator,
)
from scraper.dat import dat_problem, parse_dat
from scraper.gone import gone_page
from scraper.http import network_errors
from scraper.post import Post
from scraper.rawmode import parse_rawmode, rawmode_problem
from scraper.refs import Dialect, ThreadRef

if TYPE_CHECKING:  # a bot that only reads never loads requests (nor BeautifulSoup for read.cgi pages)
    import requests

log = logging.getLogger(__name__)

USER_AGENT = "Monazilla/1.00 (threadgm/0.1)"
TIMEOUT = (5, 20)  # connect, read (seconds)
# After this many 304s in a row, a dat is asked for once without If-Modified-Since: a 304 is the
# board's word that nothing changed, and a board whose dat's time went back (a restored file, a clock
# set back) or a cache in front of it can give it while the thread grew. The Range read answers that
# with the last line held (~150 bytes) when nothing did.
CONDITIONAL_STREAK = 30
_unchanged: dict[str, int] = {}  # dat URL → 304s in a row (one int a thread; a lost count costs nothing)


class FetchError(RuntimeError):
    """The board could not be read this time (network, 5xx, an answer that makes no sense)."""


@dataclass(frozen=True)
class FetchState:
    size: int = 0  # bytes of complete dat lines held (2ch)
    last_modified: str | None = None  # validator for If-Modified-Since, when trustworthy
    last_number: int = 0  # highest post number read
    first_post: str | None = None  # `first_post_identity` of the post 1 held, when known
    tail: bytes = b""  # the last complete line held, as received (b"" when unknown: after a restart)


def first_post_identity(post: object) -> str:
    """What a whole read of the thread must show again as post 1: name, date and body (any object
    with those attributes: a `Post`, a stored post). Spaces are left out, since dialects differ there."""
    text = f"{getattr(post, 'name', '')}|{getattr(post, 'date', '')}|{getattr(post, 'body', '')}"
    return "".join(text.split())


@dataclass(frozen=True)
class FetchResult:
    posts: list[Post]  # posts read this time, in order (after a full read: all of them)
    state: FetchState
    outcome: str  # "new" | "unchanged" | "full" | "gone"
    transferred: int  # body bytes received
    since: int = 0  # the last number held before this read
    note: str = ""  # why a full read happened, or what the board said
    complete: bool = True  # False when the answer ended inside a line: the thread has more than was read

    @property
    def new_posts(self) -> list[Post]:
        return [post for post in self.posts if post.number > self.since]


def make_session(user_agent: str = USER_AGENT, pool: int = 10) -> requests.Session:
    """One session for every thread of a process: its connections are kept alive and reused, up to
    `pool` per host (as many as polls may run at once, so none is thrown away)."""
    import requests

    session = requests.Session()
    session.headers["User-Agent"] = user_agent
    adapter = requests.adapters.HTTPAdapter(pool_connections=pool, pool_maxsize=pool)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class LazySession:
    """`make_session(user_agent, pool)`, made when first used: a bot process hands one to every game
    (one cookie jar for the confirmation pages, one pool of connections), but only posting and a
    proxy need requests — a bot that only reads never loads it."""

    def __init__(self, user_agent: str = USER_AGENT, pool: int = 10) -> None:
        self._args = (user_agent, pool)
        self._session: requests.Session | None = None
        self._lock = threading.Lock()

    @property
    def made(self) -> bool:
        return self._session is not None

    def __getattr__(self, name: str) -> object:
        session = self._session
        if session is None:
            with self._lock:
                if self._session is None:
                    self._session = make_session(*self._args)
                session = self._session
        return getattr(session, name)


def fetch(session: requests.Session, ref: ThreadRef, state: FetchState, *, html: bool = False) -> FetchResult:
    """Read what is new in a thread since `state`."""
    try:
        result = _read(session, ref, state, html)
        if not state.last_number and not state.size and result.posts:
            # Nothing held vouches for a first read: a second one must show the same posts.
            _check(_disagreement(result, _read(session, ref, state, html)), ref.read_url, "not the thread")
    except _GonePage as page:
        return FetchResult([], state, "gone", 0, since=state.last_number, note=f"the board's page: {page}")
    except network_errors() as error:
        raise FetchError(f"{ref.read_url}: {type(error).__name__}: {error}") from error
    return replace(result, since=state.last_number)


def _read(session: requests.Session, ref: ThreadRef, state: FetchState, html: bool) -> FetchResult:
    if html:
        return _fetch_html(session, ref, state)
    if ref.dialect is Dialect.SHITARABA:
        return _fetch_rawmode(session, ref, state)
    return _fetch_dat(session, ref, state)


def _disagreement(first: FetchResult, second: FetchResult) -> str | None:
    """Why two reads of the same thread do not show the same posts (the shorter must be the start
    of the longer: posts may arrive between them); None when they agree."""
    if second.outcome == "gone":
        return "the second of two first reads says the thread is gone"
    shorter, longer = sorted((first.posts, second.posts), key=len)
    for one, other in zip(shorter, longer, strict=False):
        if one.raw != other.raw:
            return f"two reads disagree on post {one.number}: {one.raw[:40]!r} / {other.raw[:40]!r}"
    return None


def _get(session: requests.Session, url: str, headers: dict[str, str] | None = None) -> requests.Response:
    response = http.get(session, url, headers or {}, TIMEOUT)
    if response.status_code >= 500:
        raise FetchError(f"{url}: the board answered {response.status_code}")
    return response


def _fetch_dat(session: requests.Session, ref: ThreadRef, state: FetchState) -> FetchResult:
    if state.size <= 0:
        return _full_dat(session, ref, state, note="first read")
    overlap = state.tail if 0 < len(state.tail) <= state.size else b"\n"
    start = state.size - len(overlap)
    # A range of a gzip answer would count compressed bytes; ask for the file as it is on disk.
    headers = {"Range": f"bytes={start}-", "Accept-Encoding": "identity"}
    if state.last_modified and _unchanged.get(ref.dat_url, 0) < CONDITIONAL_STREAK:
        headers["If-Modified-Since"] = state.last_modified
    response = _get(session, ref.dat_url, headers)
    status = response.status_code
    if status == 304 and "If-Modified-Since" in headers:
        _unchanged[ref.dat_url] = _unchanged.get(ref.dat_url, 0) + 1
        return FetchResult([], state, "unchanged", 0)
    _unchanged.pop(ref.dat_url, None)
    if status == 304:  # asked without a validator: no board's word, a cache's or a proxy's
        raise FetchError(f"{ref.dat_url}: HTTP 304 to a read that named no Last-Modified")
    if (gone := _gone_answer(response, state, ref)) is not None:
        return gone
    if status == 416:
        # The range starts inside what is held: only a dat now shorter than that start has no byte of
        # it, and a 416 naming a size past the start answers a range it holds — no board's answer.
        total = range_total(response.headers.get("Content-Range", ""))
        if total is None or total < state.size:
            return _full_dat(session, ref, state, note=f"416, dat is now {total} bytes (held {state.size})")
        return _full_dat(session, ref, state, note=f"416 for bytes {start}- of a dat of {total} bytes")
    if status == 200:
        try:
            if response.content[start : state.size] == overlap:  # the held copy goes on: as a 206 would
                return _dat_result(response, ref, state, response.content, note="board ignored Range")
            # Not the held copy going on: the thread read again, once this answer is not a lie.
            _dat_result(response, ref, state, response.content, note="")
        except _DamagedLines as damaged:
            return _full_dat(session, ref, state, note=f"board ignored Range, and {damaged}")
        return _full_dat(session, ref, state, note="board ignored Range, and the held copy no longer matches")
    if status != 206:
        raise FetchError(f"{ref.dat_url}: unexpected HTTP {status}")
    return _dat_range(session, ref, state, response, overlap)


def _dat_range(
    session: requests.Session, ref: ThreadRef, state: FetchState, response: requests.Response, overlap: bytes
) -> FetchResult:
    """A 206: what it adds to the held copy, once it has shown itself to be the board's bytes."""
    data, start = response.content, state.size - len(overlap)
    if problem := range_problem(response.headers.get("Content-Range", ""), start, len(data)):
        return _full_dat(session, ref, state, note=f"the 206 is not what it says ({problem})")
    if not data.startswith(overlap):
        return _full_dat(session, ref, state, note="held copy no longer matches (deleted post?)")
    fresh, complete = complete_lines(data[len(overlap) :])
    if not complete:
        log.info(
            "%s: the dat ends in the middle of a line (%d bytes held back); they are read again next time",
            ref.read_url,
            len(data) - len(overlap) - len(fresh),
        )
    # The board's Last-Modified names the file as sent; with bytes held back, what is held is older
    # than that, and If-Modified-Since would hide the rest until the next post.
    validated = _validator(state, response) if complete else replace(state, last_modified=None)
    if not fresh:
        return FetchResult([], validated, "unchanged", len(data), complete=complete)
    text = strict_text(fresh, ref.encoding)
    if text is None:
        return _full_dat(session, ref, state, note=f"the 206 is not {ref.encoding} text")
    if problem := dat_problem(text, full=False):  # the board's own damage, or a lie: a whole read tells
        return _full_dat(session, ref, state, note=f"the 206 is not all dat lines ({problem})")
    posts = parse_dat(text, state.last_number + 1)
    new_state = replace(
        validated, size=state.size + len(fresh), last_number=posts[-1].number, tail=last_line(fresh)
    )
    return FetchResult(posts, new_state, "new", len(data), complete=complete)


def _full_dat(session: requests.Session, ref: ThreadRef, state: FetchState, note: str) -> FetchResult:
    """The whole dat, read again where nothing held vouches for it: a later full read must show the
    same lines (the first read of a thread is confirmed by `fetch` itself, in every dialect)."""
    response = _get(session, ref.dat_url)
    if (gone := _gone_answer(response, state, ref)) is not None:
        return gone
    if response.status_code != 200:
        raise FetchError(f"{ref.dat_url}: unexpected HTTP {response.status_code} on a full read")
    data, damaged, confirmed = response.content, False, False
    whole = complete_lines(data)[0]
    text = strict_text(whole, ref.encoding)
    damaged_lines = (
        text is not None
        and dat_problem(text, full=True) is not None
        and dat_problem(text, full=True, lines=False) is None
    )
    if state.size or text is None or damaged_lines:
        again = _get(session, ref.dat_url)
        if again.status_code != 200:
            raise FetchError(f"{ref.dat_url}: HTTP {again.status_code} on the second of two full reads")
        shorter, longer = sorted((whole, complete_lines(again.content)[0]), key=len)
        if not longer.startswith(shorter):
            raise FetchError(f"{ref.dat_url}: two full reads of the dat disagree ({note})")
        damaged, confirmed = text is None, True
        if damaged:
            log.warning(
                "%s: the dat is not %s text, the same way twice: taken as the board's",
                ref.dat_url,
                ref.encoding,
            )
    return _dat_result(response, ref, state, data, note=note, damaged=damaged, confirmed=confirmed)


class _DamagedLines(Exception):
    """A dat whose first line is the thread's but not every line after it is a dat line: the board's
    own damage once two whole reads show it alike, else a lie on the way."""


def _dat_result(
    response: requests.Response,
    ref: ThreadRef,
    state: FetchState,
    data: bytes,
    *,
    note: str,
    damaged: bool = False,
    confirmed: bool = False,
) -> FetchResult:
    """`confirmed`: two whole reads showed these lines alike (lines that are not dat lines are then
    the board's own, taken as posts: one damaged line must not stop a game for good)."""
    whole, complete = complete_lines(data)
    text = whole.decode(ref.encoding, errors="replace") if damaged else strict_text(whole, ref.encoding)
    if text is None:
        raise FetchError(f"{ref.dat_url}: the answer is not {ref.encoding} text")
    _check(dat_problem(text, full=True, lines=False), ref.dat_url, "not the dat of the thread", text)
    if problem := dat_problem(text, full=True):
        if not confirmed:
            raise _DamagedLines(problem)
        log.warning("%s: %s, the same way twice: taken as the board's (a damaged dat)", ref.dat_url, problem)
    posts = parse_dat(text)
    _check(_first_post_problem(state, posts[0]), ref.dat_url, "not the dat of the thread")
    validator = trusted_validator(response) if complete else None
    new_state = FetchState(
        len(whole), validator, posts[-1].number, first_post_identity(posts[0]), last_line(whole)
    )
    outcome = "full" if state.size else "new"
    if note:
        log.info("%s: full read (%s)", ref.read_url, note)
    return FetchResult(
        posts,
        new_state,
        outcome if posts or state.size else "unchanged",
        len(data),
        note=note,
        complete=complete,
    )


def _check(problem: str | None, url: str, what: str, text: str = "") -> None:
    """A 200 that is not the thread (a maintenance page, a captive portal, an empty answer, another
    thread) is a fault like a 503: nothing of it is taken, and the caller reads again next poll —
    unless it is the board's own page for a thread that is not there (`text`): a sign it is gone."""
    if problem is not None:
        if words := gone_page(text):
            raise _GonePage(words)
        raise FetchError(f"{url}: the answer is {what} ({problem})")


class _GonePage(Exception):
    """The board answered with its own page for a thread that is not there."""


def _gone_answer(response: requests.Response, state: FetchState, ref: ThreadRef) -> FetchResult | None:
    """404 and 410 are a sign the thread is gone (proof needs more: `scraper.gone`), and so is a
    redirect to the thread's own place in its board's archive (5ch's oyster/kako dat, したらば's
    read_archive.cgi) on the same host; any other redirect is none — a portal or a login wall answers
    so — and is a fault. None for any other status."""
    status = response.status_code
    if status in (404, 410):
        return FetchResult([], state, "gone", len(response.content), note=f"HTTP {status}")
    if 300 <= status < 400:
        location = response.headers.get("Location", "")[:200]
        if archived_at(ref, urljoin(response.url, location)):
            note = f"HTTP {status} to the board's archive (過去ログ): {location}"
            return FetchResult([], state, "gone", len(response.content), note=note)
        raise FetchError(f"{response.url}: the board redirected the read (HTTP {status} to {location!r})")
    return None


def _first_post_problem(state: FetchState, first: Post) -> str | None:
    if state.first_post is None or first.deleted or first_post_identity(first) == state.first_post:
        return None
    return f"its first post is not the one held: {first.raw[:60]!r}"


def _validator(state: FetchState, response: requests.Response) -> FetchState:
    """The held validator after an answer: the answer's when it can be trusted; none when the answer's
    Last-Modified is older than the one held (the dat's time went back: If-Modified-Since with the
    newer time would hide every post until the board's clock passes it again)."""
    if trusted := trusted_validator(response):
        return replace(state, last_modified=trusted)
    if state.last_modified and older(response.headers.get("Last-Modified"), state.last_modified):
        return replace(state, last_modified=None)
    return state


def _fetch_rawmode(session: requests.Session, ref: ThreadRef, state: FetchState) -> FetchResult:
    # From the last number held, not the next one: an answer of the thread then always shows a post,
    # and an empty 200 (a proxy's, a portal's) cannot pass for "nothing new" — taken as that, it
    # would let a post whose answer was lost be judged not landed, and sent twice. That post must
    # come back as it was held: an answer re-encoded on the way shows it otherwise.
    start = max(state.last_number, 1)
    answer = _rawmode_answer(session, ref, start)
    if isinstance(answer, FetchResult):
        return replace(answer, state=state)
    posts, complete, transferred, lines = answer
    if not posts and complete and start > 1:
        # The post held last was deleted (したらば leaves a gap), or the answer was not the thread's.
        answer = _rawmode_answer(session, ref, 1)
        if isinstance(answer, FetchResult):
            return replace(answer, state=state)
        posts, complete, more, lines = answer
        transferred += more
    if not posts and complete:
        raise FetchError(
            f"{ref.rawmode_url(start)}: the answer is not the rawmode answer of the thread (no post)"
        )
    if posts and posts[0].number == 1:
        _check(
            _first_post_problem(state, posts[0]),
            ref.rawmode_url(start),
            "not the rawmode answer of the thread",
        )
    line_of = {post.number: line for post, line in zip(posts, lines, strict=True)}
    held = line_of.get(state.last_number)
    if state.tail and held is not None and held != state.tail:
        # Garbled on the way — or what is held was, and then the board says the same twice.
        again = _rawmode_answer(session, ref, start)
        if isinstance(again, FetchResult) or held not in again[3]:
            raise FetchError(
                f"{ref.rawmode_url(start)}: the answer is not the rawmode answer of the thread (post "
                f"{state.last_number} is not the one held: {held[:60]!r})"
            )
        log.warning(
            "%s: post %d is not as held, twice alike: the board's copy is taken",
            ref.read_url,
            state.last_number,
        )
        state = replace(state, last_number=state.last_number - 1)  # read again, stored again
    posts = [post for post in posts if post.number > state.last_number]
    last_number = posts[-1].number if posts else state.last_number
    # the line of the post held last (an answer cut short, or read from 1, may end before it)
    tail = line_of.get(last_number, state.tail)
    if not posts:
        return FetchResult([], replace(state, tail=tail), "unchanged", transferred, complete=complete)
    return FetchResult(
        posts, replace(state, last_number=last_number, tail=tail), "new", transferred, complete=complete
    )


def _rawmode_answer(
    session: requests.Session, ref: ThreadRef, start: int
) -> FetchResult | tuple[list[Post], bool, int, list[bytes]]:
    """The posts of `start-` (whole lines only), whether that was all, the bytes received and each
    post's line as received; a FetchResult when the thread is gone."""
    url = ref.rawmode_url(start)
    response = _get(session, url)
    if (gone := _gone_answer(response, FetchState(), ref)) is not None:
        return gone
    if response.status_code != 200:
        raise FetchError(f"{ref.read_url}: unexpected HTTP {response.status_code} from rawmode")
    whole, complete = complete_lines(response.content)
    text = strict_text(whole, ref.encoding)
    if text is None:
        raise FetchError(
            f"{url}: the answer is not the rawmode answer of the thread (not {ref.encoding} text)"
        )
    _check(rawmode_problem(text), url, "not the rawmode answer of the thread", text)
    lines = [line + b"\n" for line in whole.split(b"\n")[:-1]]
    return parse_rawmode(text), complete, len(response.content), lines


_PAGE_END = regex.compile(r"</html\s*>\s*$", regex.IGNORECASE)


def _fetch_html(session: requests.Session, ref: ThreadRef, state: FetchState) -> FetchResult:
    from scraper.html import page_problem

    url = ref.read_url + (f"{state.last_number + 1}-" if state.last_number else "")
    answer = _html_answer(session, ref, url)
    if isinstance(answer, FetchResult):
        return replace(answer, state=state)
    shown, complete, transferred = answer
    if not shown and complete and state.last_number:
        # A thread's page shows post 1 beside any range; したらば leaves it out once deleted, and then
        # only the whole page tells a quiet thread from a page that is not the thread's.
        url = ref.read_url
        answer = _html_answer(session, ref, url)
        if isinstance(answer, FetchResult):
            return replace(answer, state=state)
        shown, complete, more = answer
        transferred += more
    if complete or shown:
        _check(page_problem(shown), url, "not a page of the thread")
    if shown and shown[0].number == 1:
        _check(_first_post_problem(state, shown[0]), url, "not a page of the thread")
    posts = [post for post in shown if post.number > state.last_number]
    if not complete:
        log.info("%s: the page ends before </html>; its last post is read again next time", url)
        posts = posts[:-1]
    if not posts:
        return FetchResult([], state, "unchanged", transferred, complete=complete)
    return FetchResult(
        posts, replace(state, last_number=posts[-1].number), "new", transferred, complete=complete
    )


def _html_answer(
    session: requests.Session, ref: ThreadRef, url: str
) -> FetchResult | tuple[list[Post], bool, int]:
    """The posts of a page in page order, whether the page is whole (a page cut short — a dropped
    connection, a proxy's limit — may end inside its last post: that one is read again next time),
    and the bytes received; a FetchResult when the thread is gone."""
    from scraper.html import read_cgi_posts

    response = _get(session, url)
    if (gone := _gone_answer(response, FetchState(), ref)) is not None:
        return gone
    if response.status_code != 200:
        raise FetchError(f"{url}: unexpected HTTP {response.status_code}")
    page = strict_text(response.content, _page_encoding(response, ref), cut=True)
    if page is None:
        raise FetchError(
            f"{url}: the answer is not a page of the thread (not {_page_encoding(response, ref)} text)"
        )
    complete = _PAGE_END.search(page[-512:]) is not None
    posts = read_cgi_posts(page)
    if not posts and (words := gone_page(page)):
        raise _GonePage(words)
    return posts, complete, len(response.content)


def _page_encoding(response: requests.Response, ref: ThreadRef) -> str:
    """Shift_JIS pages are CP932 in practice (①, ㈱, ～ and friends), EUC-JP pages may hold NEC codes."""
    declared = (response.encoding or "").lower().replace("-", "_")
    if declared in ("shift_jis", "sjis", "x_sjis", "windows_31j", "cp932", "ms932"):
        return "cp932"
    if declared in ("euc_jp", "x_euc_jp", "eucjp"):
        return "euc_jp"
    return ref.encoding
