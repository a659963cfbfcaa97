"""`threadgm roll`: one command's answer, or a whole post's reply, as the bot would give it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scheduler import main


def roll(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["roll", *args], input=stdin)


def test_a_bcdice_command_prints_bcdice_text() -> None:
    result = roll("--rands", "6:3,6:4", "2D6>=7")
    assert result.exit_code == 0
    assert result.output == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功\n"


def test_json_carries_the_flags_and_rolls() -> None:
    result = roll("--json", "--rands", "6:3,6:3", "S2D6=7")
    assert json.loads(result.output) == {
        "text": "(2D6=7) ＞ 6[3,3] ＞ 6 ＞ 失敗",
        "secret": True,
        "success": False,
        "failure": True,
        "critical": False,
        "fumble": False,
        "rolls": [[6, 3], [6, 3]],
    }


def test_bbs_dice_and_full_width() -> None:
    assert roll("--rands", "47:12,47:35", "dice2d47=").output == "dice2d47=12 35 (47)\n"
    assert roll("--rands", "6:6", "１Ｄ６").output == "(1D6) ＞ 6\n"


def test_a_non_command_says_so_and_fails() -> None:
    result = roll("こんにちは")
    assert result.exit_code == 1 and "「こんにちは」はダイスコマンドではありません" in result.output


def test_random_rolls_without_rands() -> None:
    result = roll("--json", "3D6")
    data = json.loads(result.output)
    assert len(data["rolls"]) == 3
    assert all(sides == 6 and 1 <= face <= 6 for sides, face in data["rolls"])


def test_rands_that_do_not_fit_fail_clearly() -> None:
    short = roll("--rands", "6:3", "2D6")
    assert short.exit_code != 0 and "記録された出目が合いません" in short.output
    wrong = roll("--rands", "10:3", "1D6")
    assert wrong.exit_code != 0 and "d6" in wrong.output
    left = roll("--rands", "6:3,6:4", "1D6")
    assert left.exit_code != 0 and "1個使われずに残りました" in left.output
    bad = roll("--rands", "six", "1D6")
    assert bad.exit_code == 2 and "SIDES:VALUE" in bad.output


def test_a_whole_post_from_standard_input() -> None:
    post = "2D6>=7\nS1D6\n【奇襲判定ダイス】\n基準『』\ndice1d2=\n1.成功\n2.失敗\n"
    result = roll("--rands", "6:3,6:4,6:2,2:2", "-", stdin=post)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"
    assert "シークレットダイス" in lines[1] and "(1D6) ＞ 2" not in result.output
    assert any(line.startswith("dice1d2=2 (2)") and "失敗" in line for line in lines)


def test_a_post_as_json_keeps_the_secret_apart() -> None:
    result = roll("--json", "--rands", "6:2", "-", stdin="S1D6\n")
    data = json.loads(result.output)
    assert data["secret"] == {"0": "(1D6) ＞ 2"}
    assert "(1D6) ＞ 2" not in data["text"]


def test_a_post_without_commands_says_so_and_fails() -> None:
    result = roll("-", stdin="こんにちは\n")
    assert result.exit_code == 1 and "この書き込みにダイスコマンドはありません" in result.output
