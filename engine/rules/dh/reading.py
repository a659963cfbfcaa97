"""A line read with the game's own words (issue 25, no silent line): the names of its characters and
powers tell a line meant as an order from chat.

- A line that begins with a character's name (an anchor or a list mark before it allowed) and holds
  any word of the game after it — a square, a deed word, another character, a power — is an order:
  the grammar reads it, and when it cannot, the answer says so with the nearest form the grammar
  accepts, built from the line's own words: `赤井 B4 に行きたいなあ` → 「読めませんでした。もしかして:
  赤井 B4移動」.
- `赤星は C3へ移動` (a particle after the name) is read as `赤星 C3へ移動`.
- A line that begins with a deed word and names a character (`移動 会長 C3`, `攻撃 番長を会長で`) is
  an order written backwards: answered with the nearest form, the acting side's character first.
- A line that begins with another word is read by the grammar alone (`今日は C4 が熱い` stays chat), and
  so is a name followed by no word of the game (`会長つよい`).
"""

from __future__ import annotations

import regex

from engine.rules.dh.grammar import ATTACK, POWER, WAIT, Command, Refused, one_spaced, parse
from engine.rules.dh.state import DHState

_MARK = r"(?:[・\-*●○◎◇]+|[0-9]{1,2}\s*[.)、])?\s*"
_LEAD = regex.compile(rf"^{_MARK}(?:>>\s*[0-9]{{1,7}}(?![0-9])\s*[:：]?\s*)?{_MARK}[【\[(「『]?\s*")
_PARTICLE = regex.compile(r"^\s*(?:は|が|も|、|,|:|：)?\s*")
_SQUARE = regex.compile(r"(?<![A-Za-z])([A-Za-z][0-9]{1,2})(?![0-9])")
_ATTACK_WORDS = regex.compile(r"攻撃|殴|倒|斬|撃|叩|殺")
_POWER_WORDS = regex.compile(r"能力|使用|発動")
_DEED_WORDS = regex.compile(r"移動|攻撃|能力|待機|再行動|使用|発動|行く|行き|向か|進")
# A deed (or a square and a move) written before the name: `攻撃 番長 会長`, `C2移動 会長`.
_DEED_FIRST = regex.compile(
    r"^(?:[A-Z][0-9]{1,3}\s*(?:へ|に)?\s*移動|移動|攻撃|通常攻撃|(?:特殊)?能力|待機|再行動)"
)
FORMS = "名前 C4移動 ／ 名前: C3 攻撃 相手 ／ 名前: D3で能力使用 対象は相手 ／ 名前 待機"


def _lead(line: str) -> tuple[str, str]:
    """The line in NFKC split into what comes before the name (anchor, list mark) and the rest."""
    line = one_spaced(line)
    lead = _LEAD.match(line)
    assert lead is not None  # the pattern matches the empty string
    return line[: lead.end()], line[lead.end() :]


def _named(state: DHState, text: str) -> str | None:
    """The character whose name `text` begins with (the longest, so 会長代理 is not 会長)."""
    found = [name for name in state.characters if text.startswith(name)]
    return max(found, key=len) if found else None


def _speaks_the_game(state: DHState, name: str, rest: str) -> bool:
    """Whether what follows a name holds a word of the game (else it is chat about the character)."""
    powers = {p.name for c in state.characters.values() for p in c.powers}
    return bool(
        _SQUARE.search(rest)
        or _DEED_WORDS.search(rest)
        or any(other in rest for other in state.characters if other != name)
        or any(power in rest for power in powers)
    )


def suggestion(state: DHState, name: str, rest: str) -> str | None:
    """The nearest line the grammar accepts, from the words of `rest`: its first square on the map,
    a character it names (attacked, or the target of a power when it speaks of one), the power."""
    character = state.characters[name]
    square = next((s.upper() for s in _SQUARE.findall(rest) if state.grid.open(s.upper())), None)
    named = sorted(
        (rest.index(other), other) for other in state.characters if other != name and other in rest
    )
    target = named[0][1] if named else None
    power = next((p.name for p in character.powers if p.name in rest), None)
    if power or (_POWER_WORDS.search(rest) and character.powers):
        if len(character.powers) > 1 and power is None:
            power = character.powers[0].name
        command = Command(name, square, POWER, target, power if len(character.powers) > 1 else None)
    elif target and _ATTACK_WORDS.search(rest):
        command = Command(name, square, ATTACK, target)
    elif square or "待機" in rest:
        command = Command(name, square, WAIT)
    else:
        return None
    return command.canonical.removesuffix(f" {WAIT}") if square else command.canonical  # 赤井 B4移動


def _unread(
    state: DHState, name: str, rest: str, why: str | None = None, shown: str | None = None
) -> Refused:
    near = suggestion(state, name, rest)
    head = f"{why}。" if why else "読めませんでした。"
    return Refused(
        shown or f"{name}{rest}",
        head + (f"もしかして: {near}" if near else f"書き方の例：{FORMS.replace('名前', name)}"),
    )


def read_line(state: DHState | None, text: str) -> Command | Refused | None:
    """One line as it arrives (see the module's docstring); without a state, the grammar's reading."""
    parsed = parse(text)
    if state is None:
        return parsed
    lead, body = _lead(text)
    name = _named(state, body)
    if name is None:
        if parsed is None and _DEED_FIRST.match(body):
            ours = state.acting.name
            named = sorted(
                (state.characters[n].side != ours, body.index(n), n) for n in state.characters if n in body
            )
            if named and suggestion(state, named[0][2], rest := body.replace(named[0][2], " ", 1)):
                return _unread(state, named[0][2], rest, shown=body)
        return parsed
    rest = body[len(name) :]
    if isinstance(parsed, Command) and parsed.character == name:
        return parsed
    if isinstance(parsed, Command) and parsed.character not in state.characters:
        again = parse(f"{lead}{name} {_PARTICLE.sub('', rest, count=1)}")  # 赤星は C3移動
        if isinstance(again, Command):
            return again
        return _unread(state, name, rest, f"キャラクター「{parsed.character}」はいません")
    if isinstance(parsed, Refused):
        near = suggestion(state, name, rest)
        return Refused(parsed.text, parsed.reason + (f"。もしかして: {near}" if near else ""))
    if not _speaks_the_game(state, name, rest):
        return parsed  # chat about the character
    return _unread(state, name, rest)
