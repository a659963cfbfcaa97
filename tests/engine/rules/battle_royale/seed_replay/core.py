"""The replay's core: what the thread has said so far, the bookkeeping of problems, and the reading
of a posted die against its seed table. The readers of each kind of post are the mixins beside it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tests.engine.rules.battle_royale.seed_replay.posts import (
    DICE,
    FACES,
    NAME_LIST,
    NOT_CHECKED,
    UNKNOWN,
    Line,
    PostedDie,
    Section,
    names_in,
    quoted,
    read_die,
    sections_of,
    template_key,
)
from tests.engine.rules.battle_royale.seed_replay.seed_book import (
    SEED_LIVES,
    SeedBook,
    SeedTable,
    option_entries,
)


@dataclass(frozen=True)
class Problem:
    line: int
    message: str
    kind: str = "outcome"  # "outcome", or one of the departures pinned by the xfail tests

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Fight:
    """The battle under way: the base (基準) and its side, the rival and theirs."""

    base: str
    rival: str
    base_side: list[str]
    rival_side: list[str]
    infight: bool
    ambush: bool = False

    def swap(self) -> None:
        """奇襲失敗: the base moves to the one who was attacked."""
        self.base, self.rival = self.rival, self.base
        self.base_side, self.rival_side = self.rival_side, self.base_side


@dataclass
class Dropouts:
    """Members of one group about to lose some of their own by dice (seed (3)b)."""

    group: list[str]
    losers_out: int = 0  # how many the beaten side lost (the cap on a winning group's losses)
    left: int = 0
    why: str = ""


EXPECTED = {
    "opening": "the participant table",
    "select": "【都道府県選択ダイス】",
    "rival": "【対戦都道府県選択ダイス】",
    "heading": "the 【第N戦】 heading",
    "policy": "【戦闘方針ダイス】",
    "ambush": "【奇襲判定ダイス】",
    "battle": "a battle die",
    "infight": "【仲間割れ判定ダイス】",
    "after_infight": "【仲間割れ戦闘後ダイス】",
    "winners_check": "【＜団体用＞脱落判定ダイス】",
    "winners_count": "【＜団体用＞脱落人数ダイス】",
    "escape_check": "【＜団体用＞逃走判定ダイス】",
    "escape_count": "【＜団体用＞逃走失敗時脱落人数ダイス】",
    "pick": "【脱落者決定ダイス】",
    "finale_heading": "【黒幕決戦】",
    "finale": "【黒幕決戦ダイス】",
    "over": "nothing (the game is over)",
}


@dataclass
class ReplayCore:
    """What the thread has said so far, and the reading every kind of post shares."""

    book: SeedBook
    mastermind: str | None = None  # named by the transcript's own 【黒幕判明】 (read ahead: it is public)
    lives: int = SEED_LIVES  # the seed's 10, unless the opening post states the count the game plays by
    problems: list[Problem] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)
    roster: list[str] = field(default_factory=list)
    numbering: dict[int, str] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)  # publicly out, in order
    groups: dict[str, list[str]] = field(default_factory=dict)  # 団体k → members still in
    dead_pick_limit: int = 0
    dead_picks: int = 0
    rebuild_due: bool = False
    since_table: list[str] = field(default_factory=list)
    table_due: bool = False
    battles: int = 0
    expect: str = "opening"
    pair: tuple[str, str] | None = None
    base: str | None = None
    fight: Fight | None = None
    battle_table: SeedTable | None = None
    drop: Dropouts | None = None
    template: PostedDie | None = None
    next_named: str | None = None
    revealed: bool = False
    mastermind_defeated: bool = False
    life_lines: list[int] = field(default_factory=list)  # designations and falls of the hidden mastermind
    rebase_due: bool = False  # one of a pair was out: the post must say who stays base
    winner: str | None = None

    # Who reads each kind of post: filled in by Replay, which holds every reader.
    dice_readers: ClassVar[dict[str, Callable[[Any, PostedDie], list[Line]]]] = {}
    section_readers: ClassVar[
        tuple[tuple[re.Pattern[str], Callable[[Any, Line, list[Line]], None]], ...]
    ] = ()

    # -- bookkeeping --

    def problem(self, line: Line, message: str, kind: str = "outcome") -> None:
        self.problems.append(Problem(line.number, message, kind))

    def expecting(self, kind: str, at: Line) -> bool:
        if self.expect == kind:
            return True
        self.problem(at, f"{at.text} came, but the seed's flow asks for {EXPECTED[self.expect]} next")
        return False

    def take(self, rest: list[Line], pattern: str) -> re.Match[str] | None:
        """The first line of `rest` that is `pattern` as a whole, removed from `rest`."""
        for line in rest:
            match = re.fullmatch(pattern, line.text)
            if match:
                rest.remove(line)
                return match
        return None

    def need(self, rest: list[Line], pattern: str, at: Line) -> re.Match[str] | None:
        match = self.take(rest, pattern)
        if match is None:
            self.problem(at, f"no line {pattern!r} after {at.text}")
        return match

    def unexplained(self, rest: list[Line]) -> None:
        for line in rest:
            if any(re.fullmatch(pattern, line.text) for pattern in NOT_CHECKED):
                self.checked["lines left unchecked on purpose"] += 1
            else:
                self.problem(line, f"a statement this check does not read: {line.text}")

    def same(self, at: Line, what: str, stated: object, expected: object) -> bool:
        if stated != expected:
            self.problem(at, f"{what}: the transcript says {stated}, the seed's rules give {expected}")
            return False
        self.checked[what] += 1
        return True

    # -- the game as the thread shows it --

    def survivors(self) -> list[str]:
        return [name for name in self.roster if name not in self.out]

    def hidden_mastermind(self, name: str) -> bool:
        """A mastermind that fell in public but, by the seed, is not really dead (until the final)."""
        return name == self.mastermind and name in self.out and not self.mastermind_defeated

    def called(self, number: int, at: Line) -> tuple[str, bool]:
        """Whom a selection number names in the table in force, and whether they are out."""
        name = self.numbering.get(number)
        if name is None:
            self.problem(at, f"number {number} is not in the table in force {self.numbering}")
            return "?", False
        if name == self.mastermind and not self.revealed:
            # seed line 174: この残機は「黒幕へのダイスの指定」によって減っていく
            self.life_lines.append(at.number)
        if name == UNKNOWN or self.hidden_mastermind(name):
            return UNKNOWN, False
        return name, name in self.out

    def group_of(self, name: str) -> str | None:
        return next((label for label, members in self.groups.items() if name in members), None)

    def side(self, name: str) -> list[str]:
        label = self.group_of(name)
        return list(self.groups[label]) if label else [name]

    def knock_out(self, name: str, line: Line) -> None:
        if name == self.mastermind and not self.revealed:
            # seed line 175: （「黒幕の戦闘による死亡」でも減る？）
            self.life_lines.append(line.number)
        if name not in self.out:
            self.out.append(name)
            self.since_table.append(name)
            self.table_due = True  # seed ④: 人数が減った場合は生き残り表の新規作成
        for members in self.groups.values():
            if name in members:
                members.remove(name)

    def battle_done(self) -> None:
        self.battles += 1
        self.fight = self.drop = self.battle_table = None
        self.expect = "select"

    # -- sections --

    def play(self, text: str) -> None:
        for section in sections_of(text):
            self.on_section(section)
        if self.expect != "over":
            self.problems.append(Problem(0, f"the transcript ends waiting for {EXPECTED[self.expect]}"))

    def on_section(self, section: Section) -> None:
        heading = section.heading.text
        rest = list(section.body)
        reader = next((read for pattern, read in self.section_readers if pattern.fullmatch(heading)), None)
        if heading.endswith("ダイス】"):
            rest = self.on_die(read_die(section))
        elif reader is not None:
            reader(self, section.heading, rest)
        elif not IGNORED_HEADING.fullmatch(heading):
            self.problem(section.heading, f"a section this check does not read: {heading}")
        self.unexplained(rest)

    # -- posted dice --

    def on_die(self, die: PostedDie) -> list[Line]:
        if die.dice is not None and die.faces is None:
            return self.on_template(die)
        self.check_template_followed(die)
        if die.dice is not None:
            self.check_faces(die)
        if self.next_named is not None:
            self.same(die.heading, "the die the status post named next", die.name, self.next_named)
            self.next_named = None
        if self.rebuild_due:
            self.problem(die.heading, "the table should have been rebuilt before this die")
            self.rebuild_due = False
        if die.name in ("【都道府県選択ダイス】", "【対戦都道府県選択ダイス】") and self.table_due:
            self.problem(die.heading, "people went out but no 【生き残り表】 was posted before the next pick")
        handler = self.dice_readers.get(die.name)
        if handler is None:
            self.problem(die.heading, f"a die this check does not read: {die.name}")
            return []
        return handler(self, die)

    def check_faces(self, die: PostedDie) -> None:
        assert die.dice is not None
        dice = DICE.match(die.dice.text)
        rolled = FACES.match(dice[3]) if dice else None
        if dice is None or rolled is None:
            self.problem(die.dice, f"unreadable dice line {die.dice.text}")
            return
        count, sides = int(dice[1]), int(dice[2])
        faces = [int(face) for face in rolled[1].split()]
        fits = len(faces) == count and all(1 <= face <= sides for face in faces)
        if not fits or sum(faces) != int(rolled[2]):
            self.problem(die.dice, f"faces {faces} (sum {rolled[2]}) do not fit dice{count}d{sides}")
        self.checked["dice lines (count, range, sum)"] += 1

    def seed_die(
        self, die: PostedDie, table: SeedTable, base: str | None = None, reroll: bool = False
    ) -> tuple[str, bool, list[Line]]:
        """A die posted from a seed table: template, shape, and the stated entry of the face.

        Returns the outcome (the stated one when it is one of the table's, so a slip is reported once),
        whether it is marked （振り直し）, and the lines still to read."""
        rest = self.seed_preamble(die, table, base)
        self.same(die.heading, f"{table.label} options", die.options, list(table.options))
        self.same(die.heading, f"{table.label} dice", die.shape, (table.count, table.sides))
        faces = die.faces or (0,)
        entry = option_entries(table.options).get(faces[0], "?")
        stated = die.stated.removesuffix("（振り直し）")
        rerolled = stated != die.stated
        if rerolled and not reroll:
            self.problem(die.result or die.heading, f"{table.label} cannot be re-rolled here")
        if stated != entry:
            where = f"seed line {table.option_line(faces[0])}"
            self.problem(
                die.result or die.heading,
                f"{table.label} face {faces[0]} is {entry} ({where}), stated {stated}",
            )
        else:
            self.checked[f"{table.label} face → outcome"] += 1
        outcome = stated if stated in option_entries(table.options).values() else entry
        return outcome, rerolled, rest + die.after

    def seed_preamble(self, die: PostedDie, table: SeedTable, base: str | None) -> list[Line]:
        """The seed's lines above the dice line, each in the post (基準『』 filled in); extra lines stay."""
        rest = list(die.preamble)
        for wanted in table.preamble:
            text = wanted.replace("基準『』", f"基準『{base}』") if base else wanted
            if not self.take(rest, re.escape(text)):
                kind = "template" if "基準『" not in text else "outcome"
                self.problem(die.heading, f"{table.label} lacks the seed's line 「{text}」", kind)
        return rest

    def on_template(self, die: PostedDie) -> list[Line]:
        """Assisted mode: an empty template the players are to post and roll, checked against the seed;
        the die rolled next must be this one (check_template_followed)."""
        table = self.book.posted(die.name, die.texts())
        if table is None:
            self.problem(die.heading, f"a template this check does not read: {die.name}")
            return []
        based = next((names_in(text) for text in die.texts() if text.startswith("基準『")), [])
        rest = self.seed_preamble(die, table, based[0] if based else None)
        if based and "基準『』" not in table.preamble:  # the bot names the base on the pick dice too
            self.take(rest, re.escape(f"基準『{based[0]}』"))
        if table.label == "【仲間割れ判定ダイス】":  # who is at odds: checked when the die is rolled
            self.take(rest, rf"団体\d+（{NAME_LIST}）の『.+?』と『.+?』")
        self.same(die.heading, f"template {table.label} options", die.options, list(table.options))
        if self.template is not None:  # asked again before anyone rolled: still the same die
            self.same(die.heading, "template asked again", template_key(die), template_key(self.template))
        self.template = die
        self.checked["templates asked for"] += 1
        rest += die.after
        wrong = self.take(rest, r"今振るのは【.+?】ではなく(【.+?】)（dice(\d+)d(\d+)=）です。理由：.*")
        if wrong:
            due = (wrong[1], (int(wrong[2]), int(wrong[3])))
            self.same(die.heading, "the die named as due", due, (die.name, die.shape))
        return rest

    def check_template_followed(self, die: PostedDie) -> None:
        if self.template is None:
            return
        asked, self.template = self.template, None
        self.same(die.heading, "rolled die = the template asked for", template_key(die), template_key(asked))

    # -- who goes out, and what becomes of their groups --

    def eliminations(self, rest: list[Line], going: list[str], at: Line) -> None:
        """The 脱落 lines (in order, with the group lines between them) must be exactly `going`."""
        expected, ended = list(going), set()
        for line in list(rest):
            if self.elimination_line(line, expected, ended):
                rest.remove(line)
        if expected:
            self.problem(at, f"the dice put {quoted(expected)} out, but no line says so")
        for label, members in list(self.groups.items()):
            if len(members) < 2:
                if label not in ended:
                    self.problem(
                        at, f"{label} is down to {quoted(members)} and the transcript does not end it"
                    )
                del self.groups[label]

    def elimination_line(self, line: Line, expected: list[str], ended: set[str]) -> bool:
        """One line of what a die did to people and groups; False when it is about something else."""
        out = re.fullmatch(r"『(.+?)』脱落(（.+）)?", line.text)
        fell = line.text == f"『{UNKNOWN}』は倒れた……はずが、その姿はどこにもない"
        if out or fell:
            # a fall of the unknown one: seed 黒幕は例外。黒幕を除く最後の一人が決まるまで本当には死亡せず
            name = out[1] if out else UNKNOWN
            if name in expected:
                expected.remove(name)
                self.checked["eliminations stated = the dice's"] += 1
            else:
                self.problem(line, f"『{name}』 is announced out, but the dice do not put them out")
            if out:
                self.knock_out(name, line)
            else:
                self.life_lines.append(line.number)
            return True
        lone = re.fullmatch(r"(団体\d+)は一人になったため解散（『(.+?)』は単独行動に）", line.text)
        gone = re.fullmatch(r"(団体\d+)は全員脱落して消滅", line.text)
        ending = lone or gone
        if ending:
            left = [lone[2]] if lone else []
            self.same(line, f"what is left of {ending[1]}", self.groups.get(ending[1]), left)
            ended.add(ending[1])
        return ending is not None


# Headings of posts with nothing of the seed in them (their lines still go through NOT_CHECKED).
IGNORED_HEADING = re.compile(
    r"【(.+バトロワ 開始|ピリオド\d+ 更新|ゲーム終了|ダイス検証|.+バトロワ 状況（.+）)】|\(start\)"
)
