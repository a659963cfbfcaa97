"""Answering the dice of one post: BBS `diceNdM=`, BCDice commands and labelled dice tables.

`answer_post(body, source)` answers every dice command of the post in reading order (the i-th with
the dice of `source.stream(str(i))`, so each command's dice are an independent, recomputable stream)
in one `Report`: one `Section` per command, or None when the post has no command. At most
MAX_COMMANDS commands are answered; one more line says the rest were ignored. At most MAX_POST_DICE
dice are rolled for one post: the command that would roll more is answered with a refusal, and the
commands after it are not rolled.

Secret BCDice commands (`S2D6`, `Schoice[...]`, `sx3 1D6`, a table whose command is secret) are rolled
like any other — their dice come from the period's stream, so revealing the period key reveals them —
but the report only says a secret roll was made. The hidden text is in `Report.meta["secret"]`, a dict
from the command's index i (the same i as its stream) to the full text the report would otherwise
have shown for it (its lines joined by "\n", a table's name and notes included), for the pipeline to
publish when it reveals the period.
"""

from __future__ import annotations

from typing import NamedTuple

import regex

from engine.dice.bcdice import BCDiceResult, evaluate, normalize
from engine.dice.bcdice.faces import Interval, bbs_totals, command_totals, coverage
from engine.report import Blank, Block, Heading, Line, Report, line, report, section, strong
from engine.rng import Dice, RandomSource, roll_many
from parser.bbs_dice import BbsDice, BbsDiceError, find_bbs_dice
from parser.bcdice.lexer import first_word
from parser.dice_tables import BcdiceLine, DiceTable, Outcome, find_post_dice

MAX_COMMANDS = 20  # like a board's dice bot: enough for any real post, bounded for a hostile one
MAX_REPLY_CHARS = 2000  # of one command's answer (`x100 choice[...]` could fill twenty posts)
MAX_POST_ANSWER = 4000  # characters of all the answers to one post: about two posts of a 2ch board
MAX_POST_LINES = 48  # lines of all the answers to one post: two posts of a 2ch board
MAX_POST_DICE = (
    1000  # dice rolled for one post: ten times a busy table post; `x100 100D1000` lines took 140 ms
)
_MAX_LISTED = 10  # faces named in a table error before "など"

SECRET_NOTE = "シークレットダイスを振りました（結果はあとで公開されます）"
IGNORED = f"{MAX_COMMANDS + 1}件目以降のダイスは無視しました（1レスにつき{MAX_COMMANDS}件まで）"
TABLE_DICE = "表のダイスには diceNdM= か、1D6・2D6+1 のような足し算のダイス、D66 を使ってください"


class _Answer(NamedTuple):
    blocks: tuple[Block, ...]
    hidden: str | None = None  # the text withheld from a secret answer


def answer_post(body: str, source: RandomSource) -> Report | None:
    found = find_post_dice(body, limit=MAX_COMMANDS + 1)
    sections: list[Block] = []
    secrets: dict[int, str] = {}
    chars = lines = 0
    budget = _Budget(MAX_POST_DICE)
    commands = found[:MAX_COMMANDS]
    for index, item in enumerate(commands):
        if chars >= MAX_POST_ANSWER or lines >= MAX_POST_LINES:
            sections.append(section(line(_cut(index, len(commands) - index))))
            break  # the rest is not rolled: one post cannot make the bot post for an hour
        try:
            answer = _answer(item, budget.count(source.stream(str(index))))
        except _TooManyDice:
            sections.append(section(line(_too_many(index, len(commands) - index))))
            break
        if answer is None:
            continue
        blocks = answer.blocks
        if lines + len(blocks) > MAX_POST_LINES:  # one command's answer alone runs long (x100 …)
            blocks = (*blocks[: max(MAX_POST_LINES - lines, 1)], line(TRIMMED))
        sections.append(section(*blocks))
        chars += sum(len(_plain(block)) + 1 for block in blocks)
        lines += len(blocks)
        if answer.hidden is not None:
            secrets[index] = answer.hidden
    if not sections:
        return None
    if len(found) > MAX_COMMANDS:
        sections.append(section(line(IGNORED)))
    meta: dict[str, object] = {"secret": secrets} if secrets else {}
    return report(*sections, kind="dice", **meta)


TRIMMED = (
    f"（答えが長いため、ここまでにしました：1レスへの答えは{MAX_POST_LINES}行・{MAX_POST_ANSWER}文字まで）"
)


def _cut(index: int, left: int) -> str:
    return (
        f"答えが長くなるため、{index + 1}件目以降の{left}件は振りませんでした"
        f"（1レスへの答えは{MAX_POST_LINES}行・{MAX_POST_ANSWER}文字まで）"
    )


def _too_many(index: int, left: int) -> str:
    rest = f"{index + 1}件目以降の{left}件" if left > 1 else f"{index + 1}件目"
    return f"ダイスが多すぎるため、{rest}は振りませんでした（1レスで振るダイスは{MAX_POST_DICE}個まで）"


class _TooManyDice(Exception):
    """The post asked for more than MAX_POST_DICE dice (raised from inside a roll, caught per post)."""


class _Budget:
    """The dice one post may still roll, shared by the streams of all its commands."""

    def __init__(self, dice: int) -> None:
        self.left = dice

    def count(self, dice: Dice) -> Dice:
        return _CountedDice(dice, self)


class _CountedDice:
    """A command's stream, counting its dice against the post's budget; an xDy is drawn whole."""

    __slots__ = ("budget", "dice")

    def __init__(self, dice: Dice, budget: _Budget) -> None:
        self.dice = dice
        self.budget = budget

    def roll(self, sides: int) -> int:
        if self.budget.left <= 0:
            raise _TooManyDice
        self.budget.left -= 1
        return self.dice.roll(sides)

    def roll_many(self, sides: int, count: int) -> list[int]:
        left = self.budget.left
        if count > left:  # the dice within the budget are rolled, as one by one they would be
            if left > 0:
                roll_many(self.dice, sides, left)
            self.budget.left = 0
            raise _TooManyDice
        self.budget.left = left - count
        return roll_many(self.dice, sides, count)


def roll_command(command: str, dice: Dice) -> BCDiceResult | None:
    """One command as `threadgm roll` answers it: BCDice first, else the line's first `diceNdM=`."""
    result = evaluate(command, dice)
    if result is not None:
        return result
    found = find_bbs_dice(command)
    if not found:
        return None
    first = found[0]
    if isinstance(first, BbsDiceError):
        return BCDiceResult(_bbs_error(first), refused=True, command=command, normalized=normalize(command))
    faces = roll_many(dice, first.sides, first.count)
    return BCDiceResult(
        _bbs_text(first, faces),
        rolls=tuple((first.sides, face) for face in faces),
        command=command,
        normalized=normalize(command),
        total=sum(faces),
    )


def _answer(item: BbsDice | BbsDiceError | BcdiceLine | DiceTable, dice: Dice) -> _Answer | None:
    if isinstance(item, BbsDice):
        return _Answer((line(_bbs_text(item, _roll_bbs(item, dice))),))
    if isinstance(item, BbsDiceError):
        return _Answer((line(_bbs_error(item)),))
    if isinstance(item, BcdiceLine):
        result = evaluate(item.text, dice)
        if result is None:
            return None
        cut = (line(note),) if (note := _cut_off(item.text)) else ()
        if result.secret:
            return _Answer((line(_secret_note(result)), *cut), hidden=result.text)
        return _Answer(_text_blocks(result.text) + cut)
    return _answer_table(item, dice)


# What a player meant as part of the command but wrote after a space (`2D6 >= 7`, `3D6 + 1`): BCDice
# reads a command up to the first space, so it is rolled without it, and the answer says so.
_AFTER_SPACE = regex.compile(r"(<=|>=|=<|=>|<>|!=|<|>|=|\+|-|\*|/)\s*([0-9]{1,6})(?![0-9])")
_SUM = regex.compile(r"[sS]?[0-9]*[dD][0-9]+(?:[+\-*/][0-9]*[dD]?[0-9]+)*")  # 2D6, 3D6+1, 1D100


def _cut_off(text: str) -> str | None:
    flat = normalize(text).lstrip()
    command = first_word(flat)
    if not _SUM.fullmatch(command):
        return None
    rest = _AFTER_SPACE.match(flat[len(command) :].lstrip())
    if rest is None:
        return None
    written = rest[0].strip()
    return (
        f"（空白の後ろの「{written}」は式に入れていません。"
        f"{command.upper()}{rest[1]}{rest[2]} のように続けて書いてください）"
    )


def _answer_table(table: DiceTable, dice: Dice) -> _Answer | None:
    head: list[Block] = [Heading(table.name)] if table.name is not None else []
    head.extend(line(note) for note in table.notes)
    command = table.command
    if not table.outcomes:  # a named roll: the command's own answer under its name
        answer = _answer(command, dice)
        if answer is None:
            return None
        hidden = None if answer.hidden is None else "\n".join([*map(_plain, head), answer.hidden])
        return _Answer((*head, *answer.blocks), hidden)
    if isinstance(command, BbsDiceError):
        return _Answer((*head, line(_bbs_error(command))))
    totals = _totals(command)
    if totals is None:
        return _Answer((*head, line(TABLE_DICE)))
    problems = _problems(totals, table.outcomes)
    if problems:
        return _Answer((*head, line("表を振れません：" + "。".join(problems))))
    if isinstance(command, BbsDice):
        faces = _roll_bbs(command, dice)
        text, total = _bbs_text(command, faces), sum(faces)
        secret = False
    else:
        result = evaluate(command.text, dice)
        if result is None or result.refused or result.total is None:
            return _Answer((*head, line(result.text if result is not None else TABLE_DICE)))
        text, total, secret = result.text, result.total, result.secret
    chosen = _outcome(table.outcomes, total)
    rolled = line(text, " ＞ ", strong(chosen.text)) if chosen is not None else line(text)
    if secret:
        hidden = "\n".join(_plain(block) for block in (*head, rolled))
        note = f"{first_word(normalize(command.text))} ＞ {SECRET_NOTE}"
        return _Answer((*head, line(note)), hidden=hidden)
    return _Answer((*head, rolled))


def _totals(command: BbsDice | BcdiceLine) -> tuple[Interval, ...] | None:
    if isinstance(command, BbsDice):
        return bbs_totals(command.count, command.sides)
    return command_totals(normalize(command.text))


def _problems(totals: tuple[Interval, ...], outcomes: tuple[Outcome, ...]) -> list[str]:
    found = coverage(totals, [(outcome.first, outcome.last) for outcome in outcomes])
    problems = [f"「{first}～{last}」は範囲が逆です" for first, last in found.reversed]
    if found.missing:
        problems.append(f"出目{_faces(found.missing)}に当たる結果がありません")
    if found.repeated:
        problems.append(f"出目{_faces(found.repeated)}の結果が重複しています")
    if found.impossible:
        problems.append(f"出目{_faces(found.impossible)}はこのダイスでは出ません")
    return problems


def _faces(intervals: tuple[Interval, ...]) -> str:
    named = [str(first) if first == last else f"{first}～{last}" for first, last in intervals[:_MAX_LISTED]]
    return "、".join(named) + ("など" if len(intervals) > _MAX_LISTED else "")


def _outcome(outcomes: tuple[Outcome, ...], total: int) -> Outcome | None:
    return next((outcome for outcome in outcomes if outcome.first <= total <= outcome.last), None)


def _roll_bbs(dice_command: BbsDice, dice: Dice) -> list[int]:
    return roll_many(dice, dice_command.sides, dice_command.count)


def _bbs_text(dice_command: BbsDice, faces: list[int]) -> str:
    return f"{dice_command.canonical}{' '.join(map(str, faces))} ({sum(faces)})"


def _bbs_error(error: BbsDiceError) -> str:
    return f"{error.text} ＞ {error.reason}"


def _secret_note(result: BCDiceResult) -> str:
    return f"{first_word(result.normalized)} ＞ {SECRET_NOTE}"


def _text_blocks(text: str) -> tuple[Block, ...]:
    """BCDice's text line by line (a repeat answers in several), blank lines kept as blanks.

    Past MAX_REPLY_CHARS the rest is left out and a last line says how long the whole answer was
    (the dice stay recomputable from the period key).
    """
    blocks: list[Block] = []
    used = 0
    for part in text.split("\n"):
        if used + len(part) > MAX_REPLY_CHARS:
            if used < MAX_REPLY_CHARS // 2:
                blocks.append(line(part[: MAX_REPLY_CHARS - used] + "…"))
            blocks.append(line(f"（長いため以下省略：全{len(text)}文字）"))
            break
        blocks.append(line(part) if part else Blank())
        used += len(part) + 1
    return tuple(blocks)


def _plain(block: Block) -> str:
    if isinstance(block, Heading):
        return f"【{block.text}】"
    if isinstance(block, Line):
        return block.plain
    return ""
