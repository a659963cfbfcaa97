"""Reading read.cgi HTML pages with BeautifulSoup, for boards that give no raw access.

Three layouts are understood:
- ex0ch and this project's board: `div.post` with `span.number`, `span.name`, `span.dateid`,
  `div.message`;
- 5ch's current pages: `div.post` with `span.date` and `span.uid` instead of `span.dateid`;
- the classic `<dl class="thread"><dt>N ：<b>name</b>：date ID:x<dd>body` pages.
A trip is the `◆` and 10 or 12 characters the server put outside the bold name; a ◆ inside the bold name was
typed by a poster and is not a trip.
"""

from __future__ import annotations

import itertools

import regex
from bs4 import BeautifulSoup, Comment, NavigableString, ParserRejectedMarkup, Tag

from scraper.post import Post, parse_date, typed_name

_TRIP = regex.compile(r"◆([A-Za-z0-9./+!?]{10,12})")
_SOURCE_BREAK = regex.compile(r"\r?\n[ \t]*")
# The rest of what str.splitlines() breaks on: on the page it is a space within the line.
_OTHER_BREAKS = regex.compile(r"[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_DT_LINE = regex.compile(r"^\s*(?P<number>\d+)\s*：(?P<name>.*)：(?P<date>[^：]*)$", regex.DOTALL)


# A `<!` that opens neither a comment nor the doctype (`<![`, `<!x`): Python's HTML parser gives up on
# the whole page over one of these, and no board writes them on purpose.
_STRAY_DECLARATION = regex.compile(r"<!(?!--|doctype)", regex.IGNORECASE)


def parse_read_cgi(page: str) -> list[Post]:
    return sorted(read_cgi_posts(page), key=lambda post: post.number)


def read_cgi_posts(page: str) -> list[Post]:
    """The posts of a page in the order the page shows them."""
    try:
        soup = BeautifulSoup(page, "html.parser")
    except ParserRejectedMarkup:
        soup = BeautifulSoup(_STRAY_DECLARATION.sub("&lt;!", page), "html.parser")
    posts = [post for div in soup.select("div.post") if (post := _from_div(div)) is not None]
    if not posts:
        posts = [post for dt in soup.find_all("dt") if (post := _from_dt(dt)) is not None]
    return posts


def page_problem(posts: list[Post]) -> str | None:
    """Why a whole page's posts (in page order) are not those of a thread: none at all (a thread's
    page shows post 1 beside any range), or numbers that do not rise."""
    if not posts:
        return "no post on the page"
    for before, after in itertools.pairwise(posts):
        if after.number <= before.number:
            return f"post {after.number} after post {before.number}"
    return None


def _text_of(element: Tag) -> str:
    """The visible text of a message: `<br>` as newlines, the HTML source's own line breaks dropped."""
    parts: list[str] = []
    for node in element.descendants:
        if isinstance(node, NavigableString) and not isinstance(node, Comment):
            parts.append(_OTHER_BREAKS.sub(" ", _SOURCE_BREAK.sub("", str(node))))
        elif isinstance(node, Tag) and node.name == "br":
            parts.append("\n")
    return regex.sub(r" ?\n ?", "\n", "".join(parts)).strip()


def _name_and_trip(element: Tag | BeautifulSoup | None) -> tuple[str, str | None]:
    if element is None:
        return "", None
    trip = None
    shown = []
    for node in element.descendants:
        if not isinstance(node, NavigableString):
            continue
        text = str(node)
        in_bold = any(
            parent.name == "b" for parent in node.parents if parent is not element and parent is not None
        )
        if not in_bold and (match := _TRIP.search(text)):
            trip = match[1]
            text = text.replace(match[0], "")
        shown.append(text)
    return typed_name("".join(shown)), trip


def _from_div(div: Tag) -> Post | None:
    number_tag = div.select_one(".number, .postid")
    number_text = (
        number_tag.get_text(strip=True) if number_tag else str(div.get("data-id") or div.get("id") or "")
    )
    if not number_text.isdigit():
        return None
    name, trip = _name_and_trip(div.select_one(".name"))
    mail_link = div.select_one('a[href^="mailto:"]')
    mail_tag = div.select_one(".mail")
    mail = (
        str(mail_link["href"])[7:]
        if mail_link
        else mail_tag.get_text(strip=True).strip("[]")
        if mail_tag
        else ""
    )
    dateid = div.select_one(".dateid")
    if dateid is not None:
        date_text = dateid.get_text(" ", strip=True)
    else:
        parts = [tag.get_text(" ", strip=True) for tag in div.select(".date, .uid")]
        date_text = " ".join(parts)
    date, poster_id = parse_date(date_text)
    message = div.select_one(".message, .escaped")
    body = _text_of(message) if message is not None else ""
    return Post(int(number_text), name, trip, mail, date, poster_id, body, str(div))


def _from_dt(dt: Tag) -> Post | None:
    # html.parser nests an unclosed <dt>'s <dd> inside it; take the <dd> out before reading the head
    dd = dt.find("dd")
    dd = dd.extract() if dd is not None else dt.find_next_sibling("dd")
    if dd is not None:
        # ...and the next posts' unclosed <dt>s inside that <dd>: they are read on their own
        for later in dd.find_all("dt"):
            later.extract()
    inner = dt.decode_contents()
    match = _DT_LINE.match(inner)
    if not match:
        return None
    fragment = BeautifulSoup(match["name"], "html.parser")
    mail_link = fragment.select_one('a[href^="mailto:"]')
    name, trip = _name_and_trip(fragment)
    date, poster_id = parse_date(BeautifulSoup(match["date"], "html.parser").get_text(" ", strip=True))
    body = _text_of(dd) if dd is not None else ""
    mail = str(mail_link["href"])[7:] if mail_link else ""
    return Post(int(match["number"]), name, trip, mail, date, poster_id, body, str(dt) + str(dd or ""))
