"""Writing to boards: 2ch `bbs.cgi` (with the cookie confirmation) and したらば `write.cgi`.

Every answer of a board is read into one `WriteOutcome` (the protocol doc's decision table):
- posted: only the board's own success answer — status 200 with 書きこみました (in the title, or in
  open2ch's first <font>) or `2ch_X:true` (ex0ch, 5ch and したらば all answer so). A redirect is not
  proof: a captive portal or a login wall answers a form with one. A reply redirected to the thread
  itself is uncertain (no board we know answers a post so; JD's "3xx is success" is a guess we do
  not make); a new thread redirected to a read.cgi page of the same board on the same host is
  posted, with the key it names, since no thread list can be reconciled against;
- the 書き込み確認 page (`2ch_X:cookie`, or 確認 where open2ch puts its status): re-sent once with its
  hidden fields (the bot's own fields as the bot sent them, whatever the page says) and the cookies it set; asked a second time, the post was not written: retry later,
  resting longer each time (a board in that state may recover; an answer is never given up);
- retry: samba (`593 N sec たたないと`), 503 (`N秒ぐらい`), したらば's `あと N 秒`, a read-only board,
  or a connection that never reached the board — wait, then send again;
- wait_for_others: 連続投稿 (501): the bot wrote too many of the last posts; only others can unblock it;
- closed: stopped (200), full (201, スレッドストップ), moved (202), gone (902), too big (206);
- uncertain: the request left but no answer came (a read timeout), an HTTP 5xx (a proxy's 502/504
  can follow a written post), or 二重かきこ: the post may have landed — the caller must read the
  thread before sending again;
- rejected: any other error page; sending the same text again would fail the same way.
A success page with a status other than 200 is uncertain (a proxy's copy of a page is not the board
saying so). A page that is neither (a maintenance page, a board's own layout) is uncertain too. An uncertain
answer with `retry_after` also says how long to rest before sending again if the post did not land.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin, urlsplit

import regex

from scraper.http import streamed_body
from scraper.refs import Dialect, ThreadRef

if TYPE_CHECKING:  # requests and BeautifulSoup load with the first post: a bot that only reads needs neither
    import requests
    from bs4 import BeautifulSoup

log = logging.getLogger(__name__)

TIMEOUT = (5, 30)
# The longest a board's whole answer to a post may take: the read timeout bounds each wait for a byte,
# and an answer sent a byte at a time would otherwise hold the bot for ever (the post may be written
# by then: such an answer is uncertain, and the thread is read before anything is sent again).
ANSWER_DEADLINE = 90.0
CONFIRM_SUBMIT = "上記全てを承諾して書き込む"
_SECONDS = regex.compile(r"(\d+)\s*sec\s*たたないと|(\d+)\s*秒ぐらい|あと\s*(\d+)\s*秒")
_CLOSED = regex.compile(
    r"停止されてます|を超えてます|移転されたよう|存在しないか、削除|サイズが限界|スレッドストップ"
)
_KEY_IN_URL = regex.compile(r"/read\.cgi/(?:[^/\"']+/)+?([0-9]{9,12})/")
_TITLE = regex.compile(r"<title>(.*?)</title>", regex.IGNORECASE | regex.DOTALL)
_FIRST_FONT = regex.compile(r"<font[^>]*>(.*?)</font>", regex.IGNORECASE | regex.DOTALL)
_TAG = regex.compile(r"<[^>]+>")
_ERROR = regex.compile(r"ERROR|ＥＲＲＯＲ|エラー", regex.IGNORECASE)
CP932, EUC_JP = "cp932", "euc_jp"  # 2ch-compatible boards' forms and pages; したらば's


def _soup(page: str) -> BeautifulSoup:
    """`page` parsed with the standard library's parser (nothing to install); bs4 loads with the
    first answer read so."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(page, features="html.parser")


@dataclass(frozen=True)
class WriteOutcome:
    kind: str  # posted | retry | wait_for_others | closed | uncertain | rejected
    message: str = ""
    retry_after: float | None = None
    key: str | None = None  # a new thread's key, when the answer names it
    backoff: bool = False  # retry: rest `retry_after` doubled for each attempt already made
    paced: bool = False  # retry: the board refused for the pace of the bot's posts (samba, あと N 秒)

    @property
    def posted(self) -> bool:
        return self.kind == "posted"


class BoardWriter:
    """Posts as one identity (name, possibly with `#tripkey`, and mail) through one HTTP session."""

    def __init__(self, session: requests.Session, name: str, mail: str = "") -> None:
        self.session = session
        self.name = name
        self.mail = mail

    def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:
        if ref.dialect is Dialect.SHITARABA:
            category, number = ref.board.split("/")  # a したらば board is CATEGORY/NUMBER
            fields = {"DIR": category, "BBS": number, "KEY": ref.key, "TIME": str(int(time.time()))}
            fields |= {"NAME": self.name, "MAIL": self.mail, "MESSAGE": body, "submit": "書き込む"}
            return self._send_jbbs(ref.write_url, ref.read_url, fields)
        fields = {"bbs": ref.board, "key": ref.key, "time": str(int(time.time()))}
        fields |= {"FROM": self.name, "mail": self.mail, "MESSAGE": body, "submit": "書き込む"}
        return self._send_2ch(ref.write_url, ref.read_url, fields)

    def new_thread(self, ref: ThreadRef, title: str, body: str) -> WriteOutcome:
        """Open a thread on `ref`'s board; `WriteOutcome.key` is the new thread's key when known."""
        if ref.dialect is Dialect.SHITARABA:
            category, number = ref.board.split("/")
            fields = {"DIR": category, "BBS": number, "TIME": str(int(time.time())), "SUBJECT": title}
            fields |= {"NAME": self.name, "MAIL": self.mail, "MESSAGE": body, "submit": "新規書き込み"}
            return self._send_jbbs(ref.new_thread_url, ref.board_url, fields)
        fields = {"bbs": ref.board, "time": str(int(time.time())), "subject": title}
        fields |= {"FROM": self.name, "mail": self.mail, "MESSAGE": body, "submit": "新規スレッド作成"}
        return self._send_2ch(ref.write_url, ref.board_url, fields)

    # -- 2ch ------------------------------------------------------------------------------------

    def _send_2ch(self, url: str, referer: str, fields: dict[str, str]) -> WriteOutcome:
        """`referer` is the page the form was on: the thread for a reply, the board for a new thread."""
        page = self._post(url, referer, fields, CP932)
        if isinstance(page, WriteOutcome):
            return page
        if is_confirmation(page):
            # The page's hidden fields go back (a board may add its own), but never in place of the
            # bot's: a page that changed the text, the name or the thread would post that instead.
            hidden = _hidden_fields(page) | fields
            hidden["submit"] = CONFIRM_SUBMIT
            log.info("%s: confirming the cookie page", referer)
            page = self._post(url, referer, hidden, CP932)
            if isinstance(page, WriteOutcome):
                return page
            if "2ch_X:cookie" in page:
                return WriteOutcome(
                    "retry", "the board asked for cookie confirmation twice", retry_after=60, backoff=True
                )
        return classify(page)

    # -- したらば --------------------------------------------------------------------------------

    def _send_jbbs(self, url: str, referer: str, fields: dict[str, str]) -> WriteOutcome:
        page = self._post(url, referer, fields, EUC_JP)
        return page if isinstance(page, WriteOutcome) else classify(page)

    # -- HTTP -----------------------------------------------------------------------------------

    def _post(self, url: str, referer: str, fields: dict[str, str], encoding: str) -> WriteOutcome | str:
        """The board's answer page, or the outcome when the answer is not a page to read."""
        body = "&".join(
            f"{quote(key)}={quote(value.encode(encoding, errors='xmlcharrefreplace'))}"
            for key, value in fields.items()
        )
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Referer": referer}
        import requests

        deadline = time.monotonic() + ANSWER_DEADLINE
        try:
            response = self.session.post(
                url, data=body, headers=headers, timeout=TIMEOUT, allow_redirects=False, stream=True
            )
        except requests.RequestException as error:
            if _never_sent(error):
                return WriteOutcome("retry", f"could not reach the board: {error}", retry_after=30)
            # the form may have reached the board: only reading the thread can tell
            return WriteOutcome("uncertain", f"no answer from the board: {error}")
        from urllib3.exceptions import HTTPError as TransportError

        try:
            content = streamed_body(response, deadline, ANSWER_DEADLINE)
        except (requests.RequestException, TransportError, OSError) as error:  # TimeoutError included
            return WriteOutcome("uncertain", f"no whole answer from the board: {error}")
        status = response.status_code
        if response.is_redirect:  # requests says so only with a Location header
            return redirected(url, referer, response.headers["Location"], fields)
        if 300 <= status < 400:
            # a redirect that names no page: whatever sent it may have passed the form on
            return WriteOutcome(
                "uncertain", f"the board answered HTTP {status} and named no page", retry_after=60
            )
        if status >= 500:
            # A proxy's 502/504 can come after the board wrote the post: only the thread can tell.
            return WriteOutcome("uncertain", f"the board answered HTTP {status}", retry_after=60)
        page = content.decode(encoding, errors="replace")
        if status != 200 and classify(page).posted:
            return WriteOutcome("uncertain", f"a success page with HTTP {status}", retry_after=60)
        return page


def redirected(url: str, referer: str, location: str, fields: dict[str, str]) -> WriteOutcome:
    """A redirect in answer to a form (`fields`, sent to `url` from the page `referer`). Only a new
    thread sent to a read.cgi page of its board on the same host counts as posted; a reply sent to
    its own thread may have landed (it is looked for there); anywhere else is a portal or a login
    wall, which most likely kept the form, but only the thread can tell."""
    target = urlsplit(urljoin(url, location))
    same_host = target.netloc == urlsplit(url).netloc
    if "key" not in fields and "KEY" not in fields:
        board = fields["bbs"] if "bbs" in fields else f"{fields['DIR']}/{fields['BBS']}"
        key = regex.search(rf"/read\.cgi/{regex.escape(board)}/([0-9]{{9,12}})(?:/|$)", target.path)
        if same_host and key:
            return WriteOutcome("posted", f"redirected to {location}", key=key[1])
    elif same_host and target.path.startswith(urlsplit(referer).path):  # "" is the form's own URL
        return WriteOutcome("uncertain", f"redirected to the thread ({location}): looked for there")
    return WriteOutcome("uncertain", f"redirected away from the board: {location[:200]!r}", retry_after=60)


def classify(page: str) -> WriteOutcome:
    """A board's answer page as an outcome (both dialects; the texts do not overlap)."""
    title = _title(page)
    if "書きこみました" in _status(page) or "2ch_X:true" in page:
        key = _KEY_IN_URL.search(page)
        return WriteOutcome("posted", title, key=key[1] if key else None)
    message = _error_text(page)
    if seconds := _SECONDS.search(message):
        wait = int(next(group for group in seconds.groups() if group))
        return WriteOutcome("retry", message, retry_after=wait + 1, paced=seconds[2] is None)
    if "連続投稿" in message:
        return WriteOutcome("wait_for_others", message)
    if "二重かきこ" in message or "多重書き込み" in message:
        return WriteOutcome("uncertain", message)
    if _CLOSED.search(message):
        return WriteOutcome("closed", message)
    if "読取専用" in message:
        return WriteOutcome("retry", message, retry_after=300)
    if _ERROR.search(title) or _ERROR.search(message):
        return WriteOutcome("rejected", message or title)
    # A page that is neither a success nor an error may be either: read the thread, then decide.
    return WriteOutcome(
        "uncertain", f"an answer threadgm does not know: {message or title}"[:300], retry_after=60
    )


def _never_sent(error: requests.RequestException) -> bool:
    """True when the connection was never made, so the board cannot have seen the form."""
    import requests
    from urllib3.exceptions import NewConnectionError

    if isinstance(error, requests.ConnectTimeout):
        return True
    reason = getattr(error.args[0], "reason", None) if error.args else None
    return isinstance(error, requests.ConnectionError) and isinstance(reason, NewConnectionError)


def is_confirmation(page: str) -> bool:
    """Whether an answer is the 書き込み確認 page, to be passed by posting its form again."""
    status = _status(page)
    return "2ch_X:cookie" in page or ("確認" in status and "ＥＲＲＯＲ" not in status)


def _status(page: str) -> str:
    """Where a board says how a post went: the title, and for open2ch the first <font> element."""
    font = _FIRST_FONT.search(page)
    return _title(page) + " " + (_TAG.sub("", font[1]) if font else "")


def _title(page: str) -> str:
    match = _TITLE.search(page)
    return match[1].strip() if match else ""


def _error_text(page: str) -> str:
    """The board's own words: ex0ch puts them after `2ch_X:error`, したらば in the body. The copy of
    the form some error pages show below is left out: its name field holds the bot's trip key."""
    soup = _soup(page)
    for tag in soup(["title", "head"]):  # get_text() itself leaves out <script> and <style> (bs4 ≥ 4.12)
        tag.decompose()
    text = " ".join(soup.get_text(" ").split())
    return text.partition("名前：")[0].strip()[:500]


def board_reason(message: str) -> str:
    """A refusal in a few words fit for a thread: ex0ch's `ＥＲＲＯＲ：heading`, else the start."""
    heading = regex.search(r"ＥＲＲＯＲ[：:]\s*(\S+)", message)
    if heading:
        return heading[1]
    return message[:40] or "掲示板の返答が読めません"


def _hidden_fields(page: str) -> dict[str, str]:
    """The confirmation form's hidden inputs that have a name (type matched as HTML does, any case)."""
    fields = _soup(page).select('input[type="hidden" i][name]')
    return {str(field["name"]): str(field.get("value", "")) for field in fields}
