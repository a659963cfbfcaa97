"""The order grammar of にじ野望: one line, one order, after NFKC (full- and half-width alike).

    東京：外交 同盟 大阪              東京：外交 共同攻撃 滋賀 京都 伏見ガク
    東京：外交 降伏させる 大阪        大阪：外交 降伏する 東京
    東京：内政                        東京：徴兵 足軽2000 鉄砲500
    東京：移動 埼玉 月ノ美兎 足軽2000 国力3
    東京：出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(足軽3000) 共同 埼玉 静凛
    東京：配信 月ノ美兎 統率
    東京：編成 月ノ美兎(騎兵) 剣持刀也(足軽)     東京：救援 月ノ美兎     東京：委任 剣持刀也
    参加 月ノ美兎 ／ 参加 東京        引き抜き 剣持刀也     寝返り 剣持刀也 月ノ美兎     下克上 剣持刀也

An area is written as the seed does (`東京`), in full (`東京都`, `東京府`), by its reading
(`とうきょう`) or an old name that names it alone (`相模`, `江戸`, `北海`); `：` or `:` follows it (a
space, `、` `;` `→` `ー` `=`, brackets round the area or nothing at all will do before a command word
that ends the line or is followed by a space: `【東京】内政`, `東京、徴兵 足軽1000`, `東京内政`). An anchor before the order (`>>3 東京：内政`) is allowed, zero-width
characters are dropped, and lots may be joined with `・` as the reports print them (`足軽1000・騎兵500`).

No silent line: a line is an order when it starts with `参加` `引き抜き` `寝返り` `下克上` (a space
after it may be left out before a liver's or an area's name), or with an area and a colon (or another
mark), or with a name and a colon and a command word, or is a command word alone; a list marker before
it (`1.` `①` `・` `-`) is dropped; an act word turned round or misspelt before a liver's name
(`月ノ美兎 参加`, `引抜き 剣持刀也`) is answered with the form meant; an order
that cannot be read is a `Rejection` with the reason and, where one is near, the form meant
(「読めませんでした。もしかして: 東京：内政」). Anything else is chat. Numbers are ASCII digits after
NFKC, at most 9 digits (`parser.numbers`, the one number reader). Names are checked against the
state later (`authority.py`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import regex

from engine.rules.nijiyabou.names import (
    PREFECTURES,
    TROOPS,
    area_name,
    area_names,
    key,
    nfkc,
    quoted,
    similar_areas,
    stat_name,
    troop_name,
)
from engine.ruleset import OrderText, Rejection
from parser.numbers import DIGITS, NotANumber, read_number

DIPLOMACY, DOMESTIC, CONSCRIPT, MOVE, SORTIE, STREAM = "外交", "内政", "徴兵", "移動", "出陣", "配信"
COMMANDS = (DIPLOMACY, DOMESTIC, CONSCRIPT, MOVE, SORTIE, STREAM)  # one of these per area
ORGANIZE, RELIEF, DELEGATE = "編成", "救援", "委任"  # designations: no command used
ALLY, JOINT, DEMAND, YIELD = "同盟", "共同攻撃", "降伏させる", "降伏する"
CLAIM, POACH, DEFECT, REVOLT = "参加", "引き抜き", "寝返り", "下克上"
NONE_WORDS = ("なし", "無し", "解除")
MAX_SORTIE = 4
WORDS = (*COMMANDS, ORGANIZE, RELIEF, DELEGATE)

_DOT = regex.compile(r"\s*[・･]\s*")
_SPACES = regex.compile(r"\s+")
_ANCHORS = regex.compile(rf"^(?:>>{DIGITS}+(?:-{DIGITS}+)?[\s,、]*)+")
_AREA_LINE = regex.compile(r"^\s*(\S+?)\s*[:：]\s*(\S+)(?:\s+(.*?))?\s*$")
_BRACKETS = "【】[]「」『』〔〕()"
# `東京、内政` `東京;内政` `【東京】内政` `東京→内政` `東京ー内政` `東京内政`: another mark (or none) in
# place of the colon. The command word must end the line or be followed by a space, so that
# `東京内政やばい` and `東京、内政が大事` stay chat.
_LOOSE_LINE = regex.compile(
    r"^[【\[「『〔(]?\s*(\S{1,12}?)\s*[】\]」』〕)]?\s*(?:[;、,.→=\-ーｰ/|>~〜]*+|[はで])\s*"
    rf"({'|'.join(WORDS)})(?:\s+(.*?))?\s*$"
)
# A list marker before an order (`1. 東京：内政`, `①参加 月ノ美兎`, `・東京：内政`, `- 東京：内政`).
# (after NFKC `①` is `1`: a number alone before an order is a marker too.)
_MARKER = regex.compile(r"^(?:[0-9]{1,2}[.)、]?|\([0-9]{1,2}\)|[・*\-])\s*(?=\D)")
ACTS = (CLAIM, POACH, DEFECT, REVOLT)
_GLUED_ACT = regex.compile(rf"^({'|'.join(ACTS)})(\S+)(?:\s+(.*?))?\s*$")
_ACT_LINE = regex.compile(rf"^\s*({CLAIM}|{POACH}|{DEFECT}|{REVOLT})(?:\s+(.*?))?\s*$")
_SPLIT = regex.compile(r"[\s、,]+")
_UNIT = regex.compile(rf"^([^()]+)\(([^()\s]+?)({DIGITS}*)\)$")  # no nested brackets: linear
_AMOUNT = regex.compile(rf"^({'|'.join(TROOPS)}|国力)({DIGITS}+)$")


@dataclass(frozen=True)
class Unit:
    liver: str
    troop: str
    amount: int | None = None  # None: all of that type in the area

    def text(self) -> str:
        return f"{self.liver}({self.troop}{self.amount if self.amount is not None else ''})"


@dataclass(frozen=True)
class AreaOrder:
    """One of the six commands (or a designation) for one area."""

    area: str
    kind: str
    target: str | None = None  # 外交/移動/出陣: the other area (or lord); 配信: the liver
    act: str | None = None  # 外交: 同盟 / 共同攻撃 / 降伏させる / 降伏する; 配信: the chosen stat
    units: tuple[Unit, ...] = ()  # 出陣 / 編成
    livers: tuple[str, ...] = ()  # 移動 / 救援 / 委任 / 共同攻撃's liver
    amounts: tuple[tuple[str, int], ...] = ()  # 徴兵 / 移動: (type or 国力, amount)
    joint: tuple[str, str] | None = None  # 出陣 … 共同 AREA LIVER; 外交 共同攻撃: (from area, liver)


@dataclass(frozen=True)
class Act:
    """参加 / 引き抜き / 寝返り / 下克上: orders of a player, not of an area."""

    kind: str
    liver: str
    other: str | None = None  # 寝返り: the lord it goes to


Command = AreaOrder | Act


def canonical(command: Command) -> str:
    if isinstance(command, Act):
        return " ".join(part for part in (command.kind, command.liver, command.other) if part)
    parts = [command.kind]
    if command.kind == DIPLOMACY:
        parts += [command.act or "", command.target or ""]
        parts += list(command.joint or ())
    elif command.kind in (MOVE, SORTIE, STREAM):
        parts += [command.target] if command.target else []
    if command.kind == STREAM and command.act:
        parts.append(command.act)
    parts += [unit.text() for unit in command.units]
    if command.kind in (MOVE, RELIEF, DELEGATE):
        parts += list(command.livers) or ([NONE_WORDS[0]] if command.kind != MOVE else [])
    parts += [f"{what}{amount}" for what, amount in command.amounts]
    if command.kind == SORTIE and command.joint:
        parts += ["共同", *command.joint]
    if command.kind == ORGANIZE and not command.units:
        parts.append(NONE_WORDS[0])
    return f"{command.area}：{' '.join(parts)}"


def parse_line(raw: str, livers: Mapping[str, str] | None = None) -> OrderText | Rejection | None:
    """One line as an order (None: chat). `livers`: where each liver stands (key → area), to answer a
    line headed by a liver's name with its area; the seed's own list when not given."""
    # Runs of spaces made one first: the patterns then take time linear in the line (a run of 20,000
    # spaces took seconds to backtrack through).
    text = _SPACES.sub(" ", nfkc(raw))
    text = _ANCHORS.sub("", _DOT.sub("・", text).strip()).rstrip("。.!")  # `東京：内政。` reads
    text = _MARKER.sub("", text, count=1)
    if (match := _ACT_LINE.match(text)) is not None:
        return _done(raw, _act(match[1], _tokens(match[2])))
    if (match := _GLUED_ACT.match(text)) is not None and _named(match[2]):  # `参加月ノ美兎`
        return _done(raw, _act(match[1], [match[2], *_tokens(match[3])]))
    if (match := _AREA_LINE.match(text)) is not None:
        return _area_line(raw, match[1], match[2], match[3], livers)
    words = text.split()
    if len(words) >= 2 and area_names(words[0]) and words[1] in WORDS:  # the colon left out
        return _area_line(raw, words[0], words[1], " ".join(words[2:]) or None, livers)
    if words and words[0] in WORDS and (len(words) == 1 or any(area_name(w) for w in words[1:])):
        return _without_area(raw, words)
    if (match := _LOOSE_LINE.match(text)) is not None and len(area_names(match[1])) == 1:
        return _area_line(raw, match[1], match[2], match[3], livers)
    return _act_meant(raw, words)


def _named(text: str) -> bool:
    """Whether `text` is a liver of the seed's list or an area (what 参加 and the acts name)."""
    return key(text) in _seed_livers() or area_name(text) is not None


def _act_meant(raw: str, words: list[str]) -> Rejection | None:
    """`月ノ美兎 参加` (the words turned round) and `引抜き 剣持刀也` (the act word misspelt) before a
    liver's name: answered with the form meant. Anything else is chat."""
    if len(words) == 2 and words[1] in ACTS and _named(words[0]):
        return Rejection(raw.strip(), f"読めませんでした。もしかして: {words[1]} {words[0]}")
    if len(words) < 2 or words[0] in ACTS or not _named(words[1]):
        return None
    near = difflib.get_close_matches(words[0], ACTS, n=1, cutoff=0.5)
    begun = [act for act in ACTS if len(words[0]) >= 2 and act.startswith(words[0])]
    meant = (begun or near or [None])[0]
    if meant is None:
        return None
    shown = " ".join([meant, *words[1:]])
    return Rejection(
        raw.strip(), f"「{quoted(words[0])}」は読めませんでした。もしかして: {quoted(shown, 60)}"
    )


def _area_line(
    raw: str, head: str, word: str, rest: str | None, livers: Mapping[str, str] | None
) -> Rejection | OrderText | None:
    """`HEAD：WORD REST`: an order when HEAD names one area and WORD is a command word; answered with
    the nearest form when HEAD is a prefecture (any WORD) or WORD begins with a command word."""
    head = head.strip(_BRACKETS) or head  # `【東京】：内政`
    areas, tail = area_names(head), f" {rest}" if rest else ""
    kind = word if word in WORDS else None
    if kind is not None and len(areas) == 1:
        return _done(raw, _area_order(areas[0], kind, _tokens(rest)))
    if word in _DIPLOMACY_ACTS and len(areas) == 1:  # `東京：同盟 大阪`: 外交 left out
        shown = " ／ ".join(f"{areas[0]}：外交 {act}{tail}" for act in _DIPLOMACY_ACTS[word])
        return Rejection(raw.strip(), f"読めませんでした。もしかして: {quoted(shown, 120)}")
    meant = kind or _near_word(word)
    if meant is None:
        if area_name(head) is None or key(head) not in _PLAIN_NAMES:
            return None  # `http://…`, `12:30`, an old name before chat: not an order
        forms = "・".join(WORDS)
        return Rejection(
            raw.strip(),
            f"{area_name(head)}：のあとには命令（{forms}）を書きます（例：{area_name(head)}：内政）",
        )
    stands = livers.get(key(head)) if livers is not None else _seed_livers().get(key(head))
    guesses = areas or ((stands,) if stands else ()) or similar_areas(head)
    if not guesses:
        return Rejection(raw.strip(), f"「{quoted(head)}」というエリアはありません（例：東京：{meant}）")
    shown = " ／ ".join(f"{area}：{meant}{tail}" for area in guesses)
    why = "命令はエリアごとです。" if stands and not areas else ""
    return Rejection(
        raw.strip(),
        f"「{quoted(head + '：' + word)}」は読めませんでした。{why}もしかして: {quoted(shown, 120)}",
    )


_PLAIN_NAMES = {name + suffix for name in PREFECTURES for suffix in ("", "都", "府", "県")}


def _near_word(word: str) -> str | None:
    """The command word `word` begins with (`内政します`) or nearly is (`出陳`)."""
    begun = next((w for w in WORDS if word.startswith(w)), None)
    near = difflib.get_close_matches(word, WORDS, n=1, cutoff=0.5) if len(word) == 2 else []
    return begun or (near[0] if near else None)


@cache
def _seed_livers() -> dict[str, str]:
    """The seed's livers and their areas (the packaged scenario): `月ノ美兎：内政` is meant for 東京."""
    from engine.rules.nijiyabou.scenario import default_roster

    return {key(liver): area for area, liver in default_roster()}


def _without_area(raw: str, words: list[str]) -> Rejection:
    areas = [area for w in words[1:] if (area := area_name(w))]
    if areas:
        rest = " ".join(w for w in words[1:] if area_name(w) != areas[0])
        return Rejection(
            raw.strip(),
            f"エリア名を先に書きます。もしかして: {areas[0]}：{words[0]}{' ' + rest if rest else ''}",
        )
    return Rejection(raw.strip(), f"命令の前にエリア名を書いてください（例：東京：{words[0]}）")


def _done(raw: str, parsed: Command | str) -> OrderText | Rejection:
    if isinstance(parsed, str):
        return Rejection(raw.strip(), parsed)
    return OrderText(parsed, canonical(parsed))


_DIPLOMACY_ACTS = {
    ALLY: (ALLY,),
    JOINT: (JOINT,),
    DEMAND: (DEMAND,),
    YIELD: (YIELD,),
    "降伏": (DEMAND, YIELD),
}
# `足軽1,000` `足軽1000人` `月ノ美兎(足軽 3000)`: digit groups, a counter word, spaces in a unit's brackets.
_GROUPED = regex.compile(r"(?<=[0-9]),(?=[0-9]{3}(?![0-9]))")
_COUNTER = regex.compile(r"(?<=[0-9])人")
_IN_BRACKETS = regex.compile(r"\(([^()]*)\)")


def _tokens(text: str | None) -> list[str]:
    text = _COUNTER.sub("", _GROUPED.sub("", text or ""))
    text = _IN_BRACKETS.sub(lambda inside: "(" + "".join(inside[1].split()) + ")", text)
    return [part for token in _SPLIT.split(text) if token for part in _lots(token)]


def _lots(token: str) -> list[str]:
    """A token of lots joined with `・` as the reports print them (`足軽1000・騎兵500`,
    `月ノ美兎(騎兵)・剣持刀也(足軽)`, `月ノ美兎・足軽3000`), split; a name with `・` in it
    (`シスター・クレア`) stays whole, and so do two of the seed's livers written together only when
    the whole is not one of them."""
    if "・" not in token:
        return [token]
    out: list[str] = []
    name: list[str] = []
    for part in token.split("・"):
        if _AMOUNT.match(part):
            out += [*_names(name), part]
            name = []
        elif _UNIT.match(part):  # `ラトナ・プティ(足軽)`: the unit's liver may hold a ・ too
            at = part.index("(")
            names = _names([*name, part[:at]])
            out += [*names[:-1], names[-1] + part[at:]]
            name = []
        else:
            name.append(part)
    return out + _names(name)


def _names(parts: list[str]) -> list[str]:
    if not parts:
        return []
    whole = "・".join(parts)
    livers = _seed_livers()
    if key(whole) in livers or not all(key(p) in livers for p in parts):
        return [whole]
    return parts


def _act(kind: str, args: list[str]) -> Command | str:
    wanted = 2 if kind == DEFECT else 1
    if len(args) != wanted:
        forms = {
            CLAIM: "参加 月ノ美兎（ライバー名か最初のエリア名）",
            POACH: "引き抜き 剣持刀也（引き抜くライバー）",
            DEFECT: "寝返り 剣持刀也 月ノ美兎（自分のライバー、寝返り先の君主）",
            REVOLT: "下克上 剣持刀也（自分のライバー）",
        }
        return f"{kind}は「{forms[kind]}」の形で書いてください"
    return Act(kind, args[0], args[1] if kind == DEFECT else None)


def _area_order(area: str, kind: str, args: list[str]) -> Command | str:
    reader = {
        DIPLOMACY: _diplomacy,
        DOMESTIC: _nothing,
        CONSCRIPT: _conscript,
        MOVE: _move,
        SORTIE: _sortie,
        STREAM: _stream,
        ORGANIZE: _organize,
        RELIEF: _single,
        DELEGATE: _single,
    }[kind]
    return reader(area, kind, args)


def _nothing(area: str, kind: str, args: list[str]) -> Command | str:
    return f"{kind}には何も付けません（例：{area}：{kind}）" if args else AreaOrder(area, kind)


def _diplomacy(area: str, kind: str, args: list[str]) -> Command | str:
    usage = f"（例：{area}：外交 同盟 大阪 ／ 外交 共同攻撃 滋賀 京都 伏見ガク ／ 外交 降伏させる 大阪 ／ 外交 降伏する 大阪）"
    if not args or args[0] not in (ALLY, JOINT, DEMAND, YIELD):
        return f"外交は 同盟・共同攻撃・降伏させる・降伏する のどれかです{usage}"
    act, rest = args[0], args[1:]
    if act == JOINT:
        if len(rest) != 3 or area_name(rest[0]) is None or area_name(rest[1]) is None:
            return f"共同攻撃は 攻撃先のエリア、部隊を出すエリア、率いるライバー の順に書きます{usage}"
        return AreaOrder(area, kind, area_name(rest[0]), act, joint=(area_name(rest[1]) or "", rest[2]))
    if len(rest) != 1:
        return f"{act}の相手（エリア名か君主のライバー名）をひとつ書いてください{usage}"
    return AreaOrder(area, kind, area_name(rest[0]) or rest[0], act)


def _amounts(args: list[str], allow_power: bool) -> tuple[list[tuple[str, int]], list[str]] | str:
    """`足軽2000` / `足軽 2000` / `国力3` tokens, and the other tokens (or why a number is refused)."""
    amounts, rest, index = [], [], 0
    while index < len(args):
        token = args[index]
        if (
            (troop_name(token) or (allow_power and token == "国力"))
            and index + 1 < len(args)
            and regex.fullmatch(f"{DIGITS}+", args[index + 1]) is not None
        ):
            token, index = token + args[index + 1], index + 1
        match = _AMOUNT.match(token)
        if match and (allow_power or match[1] != "国力"):
            number = read_number(match[2], what=match[1])
            if isinstance(number, NotANumber):
                return number.reason
            amounts.append((match[1], number))
        else:
            rest.append(token)
        index += 1
    return amounts, rest


def _conscript(area: str, kind: str, args: list[str]) -> Command | str:
    read = _amounts(args, allow_power=False)
    if isinstance(read, str):
        return read
    amounts, rest = read
    if rest or not amounts:
        return f"徴兵は兵種と数を書いてください（例：{area}：徴兵 足軽2000 鉄砲500）"
    if any(amount <= 0 for _, amount in amounts) or len({t for t, _ in amounts}) != len(amounts):
        return "徴兵の数は1以上、同じ兵種は1回だけ書いてください"
    return AreaOrder(area, kind, amounts=tuple(amounts))


def _move(area: str, kind: str, args: list[str]) -> Command | str:
    usage = f"（例：{area}：移動 埼玉 月ノ美兎 足軽2000 国力3）"
    if not args or area_name(args[0]) is None:
        return f"移動先のエリアを最初に書いてください{usage}"
    read = _amounts(args[1:], allow_power=True)
    if isinstance(read, str):
        return read
    amounts, livers = read
    if not amounts and not livers:
        return f"移動させるライバー・兵・国力を書いてください{usage}"
    if any(amount <= 0 for _, amount in amounts):
        return "移動させる数は1以上にしてください"
    if len({key(name) for name in livers}) != len(livers) or len({w for w, _ in amounts}) != len(amounts):
        return "同じライバー・同じ兵種（国力）は1回だけ書いてください"
    return AreaOrder(area, kind, area_name(args[0]), livers=tuple(livers), amounts=tuple(amounts))


def _unit(token: str) -> Unit | str:
    if token.startswith("国力"):
        return "出陣の時に国力ポイントを持っていくことはできません"
    match = _UNIT.match(token)
    if match is None or troop_name(match[2]) is None:
        return f"「{quoted(token)}」は ライバー名(兵種) か ライバー名(兵種と数) の形で書いてください（例：月ノ美兎(騎兵)）"
    troop = troop_name(match[2]) or ""
    amount = read_number(match[3], what=f"{match[1]}の{troop}") if match[3] else None
    if isinstance(amount, NotANumber):
        return amount.reason
    return Unit(match[1], troop, amount)


def _units(tokens: list[str]) -> list[Unit] | str:
    units = []
    for token in tokens:
        unit = _unit(token)
        if isinstance(unit, str):
            return unit
        units.append(unit)
    if len({u.troop for u in units}) != len(units) or len({u.liver for u in units}) != len(units):
        return "同じ兵種・同じライバーは1部隊だけです（兵種ごとに違うライバーが率います）"
    return units


def _sortie(area: str, kind: str, args: list[str]) -> Command | str:
    usage = f"（例：{area}：出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(足軽3000) 共同 埼玉 静凛）"
    if not args or area_name(args[0]) is None:
        return f"出陣先のエリアを最初に書いてください{usage}"
    rest, joint = args[1:], None
    if "共同" in rest:
        at = rest.index("共同")
        tail, rest = rest[at + 1 :], rest[:at]
        if len(tail) != 2 or area_name(tail[0]) is None:
            return f"共同のあとには部隊を出す自国のエリアと率いるライバーを書きます{usage}"
        joint = (area_name(tail[0]) or "", tail[1])
    units = _units(rest)
    if isinstance(units, str):
        return units + usage
    if len(units) > MAX_SORTIE:
        return f"1度に出陣できる武将は{MAX_SORTIE}人までです"
    return AreaOrder(area, kind, area_name(args[0]), units=tuple(units), joint=joint)


def _stream(area: str, kind: str, args: list[str]) -> Command | str:
    if len(args) > 2 or (len(args) == 2 and stat_name(args[1]) is None):
        return (
            f"配信は「{area}：配信 ライバー名 能力」の形です（能力は 統率・武勇・智略・政治、どちらも省略可）"
        )
    if len(args) == 1 and stat_name(args[0]) is not None:
        return AreaOrder(area, kind, None, stat_name(args[0]))
    return AreaOrder(area, kind, args[0] if args else None, stat_name(args[1]) if len(args) == 2 else None)


def _organize(area: str, kind: str, args: list[str]) -> Command | str:
    if len(args) == 1 and args[0] in NONE_WORDS:
        return AreaOrder(area, kind)
    units = (
        _units(args)
        if args
        else "編成は ライバー名(兵種) を並べて書いてください（例：月ノ美兎(騎兵) 剣持刀也(足軽)）"
    )
    if isinstance(units, str):
        return units
    if any(u.amount is not None for u in units):
        return "編成では数を書きません（その兵種の全軍を率います）"
    return AreaOrder(area, kind, units=tuple(units))


def _single(area: str, kind: str, args: list[str]) -> Command | str:
    if len(args) != 1:
        return f"{kind}はライバーをひとり書いてください（取り消しは「{area}：{kind} なし」）"
    return AreaOrder(area, kind, livers=() if args[0] in NONE_WORDS else (args[0],))
