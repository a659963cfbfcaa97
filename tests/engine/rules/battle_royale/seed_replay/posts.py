"""The transcript as a ダイス民 reads it: sections cut at each 【…】 heading, a posted die taken apart."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.engine.rules.battle_royale.seed_replay.seed_book import DICE, HEADING, OPTION

UNKNOWN = "正体のわからない何者か"  # how a mastermind that "died" is named when the dice call its number

FACES = re.compile(r"^(\d+(?: \d+)*) \((\d+)\)$")
NAMES = re.compile(r"『(.+?)』")
NAME_LIST = r"((?:『[^』]+』)+)"
DROPPED = re.compile(r"^(-----|>>\d+(（続き）)?)$")  # post separators and reply marks: not content
SURVIVOR = r"(\d+)([^\s\[\]：0-9][^\s\[\]：]*)(?:\[(\d+)\])?"  # one entry of the 生き残り表: 番号名前[団体]

# Lines deliberately left unchecked, with the reason.
NOT_CHECKED = {
    # dice commitments, keys and the schedule: the seed has no word on them (`threadgm verify` checks them)
    r"鍵 ピリオド\d+: [0-9a-f]{64}": "dice key",
    r"(次 )?ピリオド\d+ 締切 .*": "schedule and key hash",
    r"秘密のダイスの鍵.*": "secret dice key",
    r"鍵のハッシュ\(SHA-256\) .*": "key hash",
    r"（第\d+戦）": "the 黒幕決戦's number: the battle its dice's streams are named by (verify reads it)",
    r"（第\d+戦の続き：この戦闘の\d+個目のダイスから）": "where a report's dice's streams start",
    r"更新: .*": "schedule",
    # the options in force: read ahead for the mastermind's lives; the rest are readings named in HELP
    r"設定: .*": "the options the game is played by",
    # the opening's word on how to play with the bot: the seed's game has no orders to check
    r"書き込む命令はありません。.*": "how the bot plays",
    r"ヘルプ と書くと.*": "how to get the bot's help",
    r"【GM】.*": "echo of a GM command",
    # the mastermind camp is drawn with dice nobody sees until the end: nothing public to check
    r"黒幕陣営は非公開のダイスで決定しました.*": "secret dice",
    r"黒幕あり（.*）": "secret dice",
    # assisted mode: the bot's own explanation of the template it asks for (the template is checked)
    r"理由：.*": "the bot's explanation",
    r"次に貼るテンプレ↓": "the template that follows is checked as a die post",
    # a tally of the bot's own making: the seed defines no such count (does a 和解 in a 仲間割れ count
    # as 手を組む? a re-rolled 相打ち?), so checking it would only restate the bot
    r"これまで：.*": "the bot's tally",
}


@dataclass(frozen=True)
class Line:
    number: int  # 1-based line of the transcript file
    text: str


@dataclass
class Section:
    heading: Line
    body: list[Line]


def sections_of(text: str) -> list[Section]:
    """The transcript cut at every whole-line 【…】 heading, separators and reply marks left out."""
    sections = [Section(Line(0, "(start)"), [])]
    for number, raw in enumerate(text.split("\n"), start=1):
        content = raw.strip()
        if not content or DROPPED.match(content):
            continue
        if HEADING.match(content):
            sections.append(Section(Line(number, content), []))
        else:
            sections[-1].body.append(Line(number, content))
    return sections


@dataclass
class PostedDie:
    """A die as posted: heading, lines before the dice line, the dice, options, result, the rest."""

    heading: Line
    preamble: list[Line]
    dice: Line | None
    options: list[str]
    result: Line | None
    after: list[Line]

    @property
    def name(self) -> str:
        return self.heading.text

    @property
    def shape(self) -> tuple[int, int] | None:
        match = DICE.match(self.dice.text) if self.dice else None
        return (int(match[1]), int(match[2])) if match else None

    @property
    def faces(self) -> tuple[int, ...] | None:
        """The rolled faces, None for an empty template (dice1d3= with nothing after)."""
        match = DICE.match(self.dice.text) if self.dice else None
        rolled = FACES.match(match[3]) if match else None
        return tuple(int(face) for face in rolled[1].split()) if rolled else None

    @property
    def stated(self) -> str:
        return self.result.text.removeprefix("→ ") if self.result else ""

    def texts(self) -> list[str]:
        return [line.text for line in self.preamble]


def read_die(section: Section) -> PostedDie:
    body = list(section.body)
    preamble = []
    while body and not DICE.match(body[0].text) and not body[0].text.startswith("→"):
        preamble.append(body.pop(0))
    dice = body.pop(0) if body and DICE.match(body[0].text) else None
    options = []
    while dice and body and OPTION.match(body[0].text):
        options.append(body.pop(0).text)
    result = body.pop(0) if body and body[0].text.startswith("→") else None
    return PostedDie(section.heading, preamble, dice, options, result, body)


def template_key(die: PostedDie) -> tuple[str, list[str], tuple[int, int] | None]:
    """What tells one die from another: heading, 基準 and ＋1 lines, dice shape."""
    return die.name, [text for text in die.texts() if text.startswith("基準") or "＋1" in text], die.shape


def names_in(text: str) -> list[str]:
    return NAMES.findall(text)


def quoted(names: list[str]) -> str:
    return "".join(f"『{name}』" for name in names)
