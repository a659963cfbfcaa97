"""A character the board's charset has no code for (an emoji in a player's name the bot echoes, a
symbol a game prints) goes to the board as its numeric reference (`&#128512;`, 9 characters, 13 once
a board escapes its `&`): the limits count it so, or a post under them by the bot's count is over
them by the board's, refused (本文が長すぎます) and lost. Every part is posted to the local board here."""

from __future__ import annotations

from pathlib import Path

import pytest

from board.admin import open_thread
from board.posting import Client, WriteForm
from board.server import make_app
from engine.report import line, report, section
from poster.markup import PostLimits, render_posts, stored_length


# what the writer sends (cp932 with references) as the board's form decoder gives it back
def as_sent(text: str, charset: str) -> str:
    return text.encode(charset, errors="xmlcharrefreplace").decode(charset)


def test_a_character_without_a_code_counts_as_its_reference_escaped() -> None:
    assert stored_length("😀") == len("&amp;#128512;")
    assert stored_length("あ漢①～") == 4  # all in CP932
    assert stored_length("①", "euc_jp") == len("&amp;#9312;")  # したらば's charset has no code for it
    assert stored_length("～", "euc_jp") == len("&amp;#65374;")
    assert stored_length("a😀<") == 1 + len("&amp;#128512;") + 4


@pytest.mark.parametrize("charset", ["cp932", "euc_jp"], ids=["2ch", "したらば"])
@pytest.mark.parametrize(
    "text",
    ["😀" * 300, "名前🌸" * 120 + "\n" + "🎲" * 100, "—" * 400, "1～6①" * 200],
    ids=["emoji", "names", "dashes", "wave dashes"],
)
def test_every_part_of_an_answer_full_of_them_is_taken_by_the_board(
    tmp_path: Path, text: str, charset: str
) -> None:
    posting = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""}).posting
    key = open_thread(tmp_path, "test", "参照テスト", "一番")
    limits = PostLimits(encoding=charset)
    answer = report(section(*(line(part) for part in text.split("\n"))), reply_to=(1,))
    parts = render_posts([answer], limits)
    assert len(parts) > 1 or charset == "cp932"  # ～ and ① have CP932 codes
    for number, part in enumerate(parts):
        client = Client(f"192.0.2.{number + 1}", {"NAME": "", "MAIL": ""})
        outcome = posting.write(WriteForm("test", key, "", "", as_sent(part, charset)), client)
        assert not hasattr(outcome, "code"), (outcome, part[:40])
