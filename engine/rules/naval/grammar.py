"""The order grammar of the naval combat rules (seed 002) and the GM preview's file forms.

Players post `＜攻撃＞ATTACKER、TARGET`, `＜インターセプト＞FIGHTER、FIGHTER` and `＜移動＞UNIT、DESTINATION`.
Every form players actually type is one order: full- and half-width brackets (`＜＞` `<>`), separators
`、` `,` `，` or spaces, full-width letters and digits (NFKC), the dashes Japanese IMEs produce inside unit
ids (`－` `ー` `−` ...), lower-case ids. Unit ids are `ISLAND-KIND-GROUP-NN` (`ABC-DD-A-01`).

An anchor (`>>12`), the page's numbering and island (`1.ABC:`) may come before an order, and a
sentence's full stop after it. A line that starts like an order but cannot be read is a
`NavalOrderError` with a Japanese reason (for the receipt), with the line the grammar would take when
its operands are all there; so is a line that looks like an order without starting like one
(`near_miss.py`: unit ids with an order word or a ＜…＞ tag) and a report's result line copied without
its ＞. Any other line is not an order at all (None). The raw text is kept on both.

The GM preview reads two more forms: ORDERS.txt (`ISLAND:order`, optionally numbered `1.ABC:＜攻撃＞...`
as in the seed's examples) and RANDOMS.txt (`ISLAND: v1 v2 v3 ...`, the numbers A, B, C, ... of the
island, or `[ISLAND] v1 v2 ...`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, replace

import regex

from engine.rules.naval.big_game import gc_paused
from engine.rules.naval.near_miss import nearest, unreadable
from engine.rules.naval.words import (
    CANONICAL_KEYWORD,
    DASHES,
    EXAMPLE,
    ISLAND_CODE,
    KEYWORDS,
    UNIT_ID,
    OrderKind,
)
from parser.numbers import NotANumber, read_number

# The standard library's `re` for the patterns every order line meets: they need nothing of `regex`,
# which takes about twice as long on them (10,000-order periods).
_ORDER_START = re.compile(r"^\s*<\s*(攻撃|インターセプト|迎撃|移動)\s*>\s*(.*?)\s*$")
_TOKEN = r"[^\s、,]+"
_SEP = r"(?:\s*[、,]\s*|\s+)"
_TWO_OPERANDS = re.compile(rf"^({_TOKEN}){_SEP}({_TOKEN})(.*)$")
_ONE_OPERAND = re.compile(rf"^({_TOKEN})(?:{_SEP}(.*))?$")
HEX_DIGITS = 4  # a coordinate's digits: maps are at most 1000 hexes a side
_HEX_DEST = re.compile(r"^\(?\s*([0-9]+)\s*[、,]\s*([0-9]+)\s*\)?(.*)$")
# What may come before an order on a line: an anchor, the page's numbering, the issuing island.
_LEAD = re.compile(
    rf"\s*(?:>>\s*[0-9]{{1,7}}(?:\s*[-,、]\s*[0-9]{{1,7}})*(?![0-9])\s*)?"  # >>12, >>12-14, >>12,15
    rf"(?:[0-9]{{1,3}}\s*[.)]\s*)?(?:(?P<island>{ISLAND_CODE})\s*:\s*)?",
    re.IGNORECASE,
)
# A report's line (`>>3 1.ABC:＜攻撃＞… → 勝利`, the page's `→''[ABC]の乱数A''`) copied into a post.
# An order's ids and hexes hold no arrow, so an arrow on a line read as an order is in its remark.
_RESULT_ARROWS = ("→", "⇒", "->")
RESULT_LINE = "結果の行（→ の後に結果）は命令として受け付けません。命令なら → から後を消して書いてください"
# Characters no one sees that a paste or an IME leaves in a line (zero-width space, joiners, BOM,
# soft hyphen): an order is read without them.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")
_ID_ANYWHERE = re.compile(rf"(?<![A-Z0-9-]){UNIT_ID}(?![A-Z0-9-])")
_UNIT_FULL = re.compile(UNIT_ID)
_ISLAND_FULL = re.compile(ISLAND_CODE)

_FILE_LINE = re.compile(rf"^\s*(?:([0-9]+)\s*[.)]\s*)?(?:({ISLAND_CODE})\s*:\s*)?(.*)$", re.IGNORECASE)
# The ordinary line in one match on the raw text: ASCII upper-case ids, ASCII or full-width brackets
# and commas, spaces or tabs — what NFKC leaves as it is, or maps to what the general path reads
# (＜＞，). Anything else (a lower-case id, an IME dash, a remark, a base to move to...) is read by
# the general path, which also words every refusal; `tests/.../test_grammar.py` holds the two equal.
_GAP = r"[ \t]*"
_FAST_BODY = (
    rf"[<＜]{_GAP}(?:(攻撃|インターセプト|迎撃)|移動){_GAP}[>＞]{_GAP}({UNIT_ID})"
    rf"(?:{_GAP}[、,，]{_GAP}|[ \t]+)(?:({UNIT_ID})|\(([0-9]{{1,4}}),([0-9]{{1,4}})\)){_GAP}"
)
_FAST_ORDER = re.compile(rf"{_GAP}{_FAST_BODY}")
_FAST_FILE_LINE = re.compile(
    rf"{_GAP}(?:[0-9]+{_GAP}[.)]{_GAP})?(?:({ISLAND_CODE}){_GAP}:{_GAP})?{_FAST_BODY}"
)

_RANDOMS_LINE = regex.compile(
    rf"^\s*(?:\[\s*({ISLAND_CODE})\s*\]\s*:?|({ISLAND_CODE})\s*:)\s*(.*)$", regex.IGNORECASE
)


@dataclass(frozen=True)
class NavalOrder:
    """One order. `target` is the target unit (attack, intercept) or a base to move to (an island code
    or a carrier's id); `to_hex` is a sea hex to move to. `island` is the issuing island when known
    (ORDERS.txt prefix, or the poster's island set by the periods machinery); `post` its post number."""

    kind: OrderKind
    unit: str
    target: str | None = None
    to_hex: tuple[int, int] | None = None
    raw: str = ""
    island: str | None = None
    post: int | None = None

    @functools.cached_property  # the receipt, the order list and the report each ask for it
    def canonical(self) -> str:
        """The order as the page writes it: `＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05`."""
        if self.to_hex is not None:
            dest = f"({self.to_hex[0]},{self.to_hex[1]})"
        else:
            dest = self.target or ""
        return f"＜{CANONICAL_KEYWORD[self.kind]}＞{self.unit}、{dest}"


@dataclass(frozen=True)
class NavalOrderError:
    """A line that starts like an order but cannot be read; `reason` is shown to the player."""

    raw: str
    reason: str
    island: str | None = None
    line: int | None = None  # 1-based line of a file or post body, when known
    post: int | None = None


ParsedOrder = NavalOrder | NavalOrderError


class RandomsFileError(ValueError):
    """RANDOMS.txt could not be read; the message is Japanese and names the line."""


def unit_island(unit_id: str) -> str:
    """The island of a unit id: `ABC-DD-A-01` → ABC."""
    return unit_id.split("-", 1)[0]


def normalize(text: str) -> str:
    """NFKC: full-width letters, digits, brackets and commas become their ASCII forms."""
    return unicodedata.normalize("NFKC", text)


def _operand_text(text: str) -> str:
    """The operands of an order, dashes made `-`, upper case, and a sentence's full stop at the end
    dropped (`＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05。`)."""
    return text.translate(DASHES).upper().rstrip("。．.!！").rstrip()


def _bad_unit(token: str) -> str:
    return f"ユニット名「{token}」の形式が違います（島-種別-部隊-番号、例：ABC-DD-A-01）"


def parse_order(line: str) -> ParsedOrder | None:
    """One line: an order, a rejection with a Japanese reason, or None for an ordinary chat line.

    Before the order an anchor (`>>12 ＜攻撃＞…`) and the page's own numbering and island
    (`1.ABC:＜攻撃＞…`, as its examples write the orders) are allowed; an island that is not the acting
    unit's is refused. A quoted line (`＞＜攻撃＞…`) is not an order. A line that looks like an order but
    cannot be read (`near_miss`) is refused with the nearest form."""
    raw = line.rstrip("\r\n")
    fast = _FAST_ORDER.fullmatch(raw)
    order = _fast_order(raw, None, *fast.groups()) if fast else None
    if order is not None:
        return order
    text = _INVISIBLE.sub("", normalize(raw))
    lead = _LEAD.match(text)
    assert lead is not None  # every part of it is optional
    if lead.end() == 0 and text.lstrip().startswith(">"):
        return None  # quoted from another post
    body = text[lead.end() :]
    parsed = _parse_normalized(raw, body)
    if parsed is None:
        why = unreadable(body)
        return NavalOrderError(raw, why) if why else None
    if isinstance(parsed, NavalOrderError):
        return _with_nearest(parsed, body)
    if isinstance(parsed, NavalOrder) and any(arrow in body for arrow in _RESULT_ARROWS):
        return NavalOrderError(raw, RESULT_LINE)
    island = lead["island"].upper() if lead["island"] else None
    if island is not None and isinstance(parsed, NavalOrder) and island != unit_island(parsed.unit):
        reason = (
            f"{parsed.unit}は{unit_island(parsed.unit)}島のユニットです（行頭に{island}島と書かれています）"
        )
        return NavalOrderError(raw, reason)
    return parsed


_new = object.__new__


def _fast_order(
    raw: str,
    island: str | None,
    keyword: str | None,
    unit: str,
    target: str | None,
    x: str | None,
    y: str | None,
) -> NavalOrder | None:
    """The order of a line `_FAST_BODY` matched (its groups), or None when the general path must read
    it: a move to a base, a hex with an attack, a unit named twice (refused, with the reason)."""
    if keyword is not None:
        if target is None or target == unit:
            return None
        kind, to_hex = KEYWORDS[keyword], None
    elif x is None or y is None:
        return None
    else:
        kind, to_hex = "move", (int(x), int(y))
    # Filled in through `__dict__`: a frozen dataclass's __init__ sets each field through
    # object.__setattr__, twice this line's cost (the equivalence test compares with `NavalOrder(...)`).
    order = _new(NavalOrder)
    order.__dict__.update(
        kind=kind, unit=unit, target=target, to_hex=to_hex, raw=raw, island=island, post=None
    )
    return order


def _with_nearest(refused: NavalOrderError, body: str) -> NavalOrderError:
    """A refusal of a line that names its operands otherwise (`＜移動＞ABC-DD-A-01→(5,6)`) with the line
    the grammar would take."""
    match = _ORDER_START.match(body)
    assert match is not None  # the line was read as an order
    if refused.reason == TOO_MANY:
        return refused  # which of the operands were meant is the player's to say
    near = nearest(KEYWORDS[match[1]], match[2])
    if near is None or not isinstance(_parse_normalized(near, normalize(near)), NavalOrder):
        return refused
    return replace(refused, reason=f"{refused.reason}。もしかして: {near}")


def _parse_normalized(raw: str, text: str, island: str | None = None) -> ParsedOrder | None:
    """`parse_order` of `raw`, given its NFKC form `text` (and the issuing island, when known)."""
    match = _ORDER_START.match(text)
    if match is None:
        return None
    kind = KEYWORDS[match[1]]
    rest = _operand_text(match[2])
    if kind == "move":
        return _parse_move(raw, rest, island)
    return _parse_pair(raw, kind, rest, island)


def _parse_pair(raw: str, kind: OrderKind, rest: str, island: str | None = None) -> ParsedOrder:
    keyword = CANONICAL_KEYWORD[kind]
    usage = f"（例：{EXAMPLE[kind]}）"
    two = _TWO_OPERANDS.match(rest)
    if two is None:
        what = (
            "攻撃命令を与えるユニットと攻撃目標ユニット"
            if kind == "attack"
            else "迎撃する戦闘機と迎撃対象の戦闘機"
        )
        if not rest:
            return NavalOrderError(raw, f"＜{keyword}＞の後に{what}がありません{usage}")
        return NavalOrderError(raw, f"{what}を「、」で区切って2つ書いてください{usage}")
    unit, target, trailing = two[1], two[2], two[3]
    for token in (unit, target):
        if not _UNIT_FULL.fullmatch(token):
            return NavalOrderError(raw, _bad_unit(token))
    problem = _trailing_problem(trailing)
    if problem:
        return NavalOrderError(raw, problem)
    if unit == target:
        return NavalOrderError(raw, f"同じユニット{unit}が2回指定されています{usage}")
    return NavalOrder(kind, unit, target, None, raw, island)


def _parse_move(raw: str, rest: str, island: str | None = None) -> ParsedOrder:
    usage = f"（例：{EXAMPLE['move']}、退避は＜移動＞ABC-F-A-03、ABC）"
    one = _ONE_OPERAND.match(rest)
    if one is None or not rest:
        return NavalOrderError(raw, f"＜移動＞の後に移動するユニットと移動先がありません{usage}")
    unit, dest = one[1], (one[2] or "").strip()
    if not _UNIT_FULL.fullmatch(unit):
        return NavalOrderError(raw, _bad_unit(unit))
    if not dest:
        return NavalOrderError(raw, f"移動先がありません{usage}")
    hex_match = _HEX_DEST.match(dest)
    if hex_match is not None:
        problem = _trailing_problem(hex_match[3])
        if problem:
            return NavalOrderError(raw, problem)
        x, y = (read_number(hex_match[i], what="座標", digits=HEX_DIGITS) for i in (1, 2))
        for value in (x, y):
            if isinstance(value, NotANumber):
                return NavalOrderError(raw, value.reason + usage)
        return NavalOrder("move", unit, None, (x, y), raw, island)
    token_match = regex.match(rf"^({_TOKEN})(.*)$", dest)
    token, trailing = (token_match[1], token_match[2]) if token_match else (dest, "")
    if not (_UNIT_FULL.fullmatch(token) or _ISLAND_FULL.fullmatch(token)):
        return NavalOrderError(
            raw, f"移動先「{token}」が読めません（座標(x,y)・島名・空母のユニット名のいずれか）"
        )
    problem = _trailing_problem(trailing)
    if problem:
        return NavalOrderError(raw, problem)
    if token == unit:
        return NavalOrderError(raw, f"移動先に移動するユニット自身が指定されています{usage}")
    return NavalOrder("move", unit, token, None, raw, island)


TOO_MANY = "1行に書ける命令は1つ、指定できるユニットは2つまでです"


def _trailing_problem(trailing: str) -> str | None:
    """Text after the operands: a third operand is an error, a remark after a space is allowed."""
    if not trailing or not trailing.strip():
        return None
    if regex.match(r"^\s*[、,]", trailing) or _ID_ANYWHERE.search(trailing):
        return TOO_MANY
    if not trailing[0].isspace():
        return f"ユニット名の後ろに余計な文字「{trailing.strip()}」があります"
    return None


def find_naval_orders(body: str) -> list[ParsedOrder]:
    """Every order of a post body in reading order (quoted lines are not orders), `line` 1-based."""
    found: list[ParsedOrder] = []
    for number, text in enumerate(body.split("\n"), start=1):
        parsed = parse_order(text)
        if isinstance(parsed, NavalOrder):
            found.append(parsed)
        elif isinstance(parsed, NavalOrderError):
            found.append(NavalOrderError(parsed.raw, parsed.reason, line=number))
    return found


@gc_paused
def parse_orders_file(text: str) -> list[ParsedOrder]:
    """ORDERS.txt: one order per line in posting order, `ISLAND:order` or `N.ISLAND:order`.

    Blank lines and `#` comments are skipped; every other line is an order or a rejection, so each
    line gets a result. Without an `ISLAND:` prefix the island is the acting unit's own."""
    parsed: list[ParsedOrder] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        order = _fast_file_line(raw) or _file_line(number, raw)
        if order is not None:
            parsed.append(order)
    return parsed


def _fast_file_line(raw: str) -> NavalOrder | None:
    """An ordinary ORDERS.txt line's order in one match, or None for `_file_line` to read."""
    fast = _FAST_FILE_LINE.fullmatch(raw)
    return _fast_order(raw, *fast.groups()) if fast else None


def _file_line(number: int, raw: str) -> ParsedOrder | None:
    """One ORDERS.txt line read in full: an order or a rejection, None for a blank or `#` line."""
    stripped = normalize(raw).strip()
    if not stripped or stripped.startswith("#"):
        return None
    match = _FILE_LINE.match(stripped)
    island = match[2].upper() if match and match[2] else None
    body = match[3] if match else stripped
    order = _parse_normalized(raw, body, island)  # NFKC twice is NFKC once
    if order is None:
        reason = unreadable(body) or "命令として読めません（＜攻撃＞＜インターセプト＞＜移動＞のいずれか）"
        return NavalOrderError(raw, reason, island, number)
    if isinstance(order, NavalOrderError):
        return NavalOrderError(raw, order.reason, island, number)
    return order


def parse_randoms_file(text: str) -> dict[str, list[int]]:
    """RANDOMS.txt: `ISLAND: v1 v2 ...` per island (values 1–100, A first). Raises RandomsFileError."""
    randoms: dict[str, list[int]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = normalize(raw).strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _RANDOMS_LINE.match(stripped)
        if match is None:
            raise RandomsFileError(
                f"乱数ファイル{number}行目「{raw.strip()}」が読めません（書式は ABC: 50 12 88 ...）"
            )
        island = (match[1] or match[2]).upper()
        if island in randoms:
            raise RandomsFileError(f"乱数ファイル{number}行目：島{island}の乱数が2回書かれています")
        values: list[int] = []
        for item in filter(None, regex.split(r"[\s,、]+", match[3])):
            value = read_number(item, low=1, high=100)
            if isinstance(value, NotANumber):
                raise RandomsFileError(
                    f"乱数ファイル{number}行目：「{item[:12]}」は1～100の整数ではありません"
                )
            values.append(value)
        if not values:
            raise RandomsFileError(f"乱数ファイル{number}行目：島{island}の乱数がありません")
        randoms[island] = values
    return randoms
