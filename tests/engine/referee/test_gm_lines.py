"""GM lines among a post's other lines, as the pure referee reads them. In a GM's step post to an
immediate game (DysTopiA) the GM lines written before the step's line run before the step, the rest
after it, whatever chat or blank lines lie between, and a 次スレ written before the step moves the game;
in a game on the clock (数当て) a GM's command post is not read for orders, a player's post with a
refused GM command still is, and a GM's chat beside a command is only chat. A post whose GM lines
fail is answered with the short internal error, and the log names the step that failed."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from engine.referee.isolation import INTERNAL_ERROR
from engine.report import Report
from engine.rules.guess.ruleset import GuessRuleset, GuessState
from tests.referee_harness import GM_TRIP, PureGame, posted

NEXT = "http://127.0.0.1/test/read.cgi/test/1764590999/"
GUESS = 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 2\n'


def dystopia() -> PureGame:
    game = PureGame("dystopia")
    game.poll()  # the opening: step 1
    return game


def heads(answer: str) -> list[str]:
    """The first line under each anchor of one post (what each part of the answer is)."""
    return [part.split("\n")[1] for part in answer.split("\n\n")]


VOID = "【GM】無効にしました: >>99（命令 0 件）"


@pytest.mark.parametrize(
    ("body", "before", "after"),
    [
        # chat and a blank line between: the 状態 and 無効 written before the step both run before it
        ("状態\nよろしく\n\n無効 >>99\nシーン ドラマ", ["【GM】DysTopiA・手番2", VOID], []),
        # a command written after the step runs after it, though the step's line has a space in it
        ("無効 >>99\nシーン ドラマ\n状態", [VOID], ["【GM】DysTopiA・手番3"]),
    ],
    ids=["before", "after"],
)
def test_a_gms_step_post_runs_the_lines_before_the_step_first_whatever_lies_between(
    body: str, before: list[str], after: list[str]
) -> None:
    game = dystopia()
    (answer,) = posted(game.poll([game.post(body, "GM", GM_TRIP)], minutes=1))
    parts = answer.split("\n\n")
    step = next(n for n, part in enumerate(parts) if part.startswith(">>2\nシーン1：ドラマ"))
    gm_lines = [[text for text in part.split("\n") if text.startswith("【GM】")] for part in parts]
    assert [text for lines in gm_lines[:step] for text in lines] == before
    assert [text for lines in gm_lines[step + 1 :] for text in lines] == after


def test_a_next_thread_written_before_the_step_moves_the_game() -> None:
    game = dystopia()
    step = game.post(f"次スレ {NEXT}\nシーン ドラマ", "GM", GM_TRIP)
    decided = game.poll([step, game.post("ダメージ 3", "アリス")], minutes=1)
    assert decided.move_to == NEXT
    assert heads(posted(decided)[0])[:2] == [f"【GM】次スレに移ります: {NEXT}", "シーン1：ドラマ"]


def guess() -> PureGame:
    game = PureGame("guess", GUESS)
    game.setup = replace(game.setup, dice=False)
    game.poll()  # the opening
    return game


def test_a_gms_command_post_is_not_read_for_orders_and_a_players_refused_command_does_not_stop_hers() -> None:
    game = guess()
    gm = game.post("設定 scores.アリス=5\n＜予想＞40\nよろしく", "GM", GM_TRIP)
    player = game.post("＜予想＞41\n巻き戻し", "アリス")
    answer = "\n\n".join(posted(game.poll([gm, player], minutes=1)))
    assert INTERNAL_ERROR not in answer
    assert "【GM】設定しました: scores.アリス=5（ピリオド1から）" in answer
    assert ">>3\nGMのトリップではないため、GMコマンドは受け付けませんでした" in answer
    assert [(o.post, o.canonical) for o in game.store.orders("guess", 1, ["accepted"])] == [(3, "＜予想＞41")]


class Unshowable(GuessRuleset):
    """数当て whose 状態 fails."""

    def status(self, state: GuessState) -> Report:
        raise RuntimeError("the view broke")


def test_a_post_whose_gm_lines_fail_is_answered_with_the_short_error_and_the_log_names_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = PureGame("guess", GUESS, ruleset=Unshowable())
    game.setup = replace(game.setup, dice=False)
    game.poll()
    with caplog.at_level(logging.ERROR, logger="threadgm"):
        answers = posted(game.poll([game.post("状態", "アリス"), game.post("＜予想＞7", "ボブ")], minutes=1))
    # the receipt of the poll, then the failed post's answer: the next post is taken as usual
    assert answers == [f"【受付 ピリオド1（締切 12/01 21:00）】\n>>3 ＜予想＞7\n\n>>2\n{INTERNAL_ERROR}"]
    assert "guess: GM commands of post 2 failed; answered as an internal error" in caplog.messages
