"""A line's prepared evaluation is kept, so it must hold nothing of any one roll: every evaluation of
the same line rolls afresh, and a number too large is refused where walking the sum would meet it,
after exactly the dice rolled before it."""

from __future__ import annotations

from engine.dice.bcdice import _kept_steps, clear_caches, evaluate
from engine.rng import RecordedDice
from parser.bcdice import parse_all
from parser.bcdice.limits import MAX_COMMAND_CHARS

BIG = "*".join(["9" * 60] * 2)  # over 10**100 once multiplied


def test_the_same_line_twice_answers_each_roll() -> None:
    first = evaluate("2D6+1>=8", RecordedDice([(6, 1), (6, 2)]))
    second = evaluate("2D6+1>=8", RecordedDice([(6, 6), (6, 5)]))
    assert first.text == "(2D6+1>=8) ＞ 3[1,2]+1 ＞ 4 ＞ 失敗" and first.failure and not first.success
    assert second.text == "(2D6+1>=8) ＞ 11[6,5]+1 ＞ 12 ＞ 成功" and second.success
    assert (first.rolls, second.rolls) == (((6, 1), (6, 2)), ((6, 6), (6, 5)))
    assert (first.total, second.total) == (4, 12)


def test_lines_that_differ_only_in_case_or_width_keep_their_own_text() -> None:
    lower = evaluate("s2d6", RecordedDice([(6, 3), (6, 4)]))
    wide = evaluate("２Ｄ６", RecordedDice([(6, 3), (6, 4)]))
    assert lower.secret and not wide.secret
    assert (lower.command, wide.command, wide.normalized) == ("s2d6", "２Ｄ６", "2D6")


def test_a_refused_count_comes_before_any_die() -> None:
    result = evaluate(f"1D6+({BIG})D6", RecordedDice([(6, 4)]))
    assert result.refused and "数値が大きすぎます" in result.text
    assert result.rolls == ((6, 4),)  # the 1D6 before it was rolled, nothing after


def test_a_refused_keep_count_or_target_comes_after_its_dice() -> None:
    kept = evaluate(f"2D6KH({BIG})", RecordedDice([(6, 2), (6, 5)]))
    assert kept.refused and kept.rolls == ((6, 2), (6, 5))
    judged = evaluate(f"1D6>={BIG}", RecordedDice([(6, 3)]))
    assert judged.refused and judged.rolls == ((6, 3),)
    again = evaluate(f"1D6>={BIG}", RecordedDice([(6, 1)]))  # kept, refused afresh
    assert again.refused and again.rolls == ((6, 1),)


def test_a_total_growing_too_large_is_refused_with_the_dice_so_far() -> None:
    result = evaluate("1D6*" + "*".join(["9" * 60] * 2) + "+1D6", RecordedDice([(6, 6)]))
    assert result.refused and result.rolls == ((6, 6),)


def test_repeats_share_one_prepared_line_and_one_dice_budget() -> None:
    result = evaluate("x2 1D6", RecordedDice([(6, 2), (6, 5)]))
    assert result.text == "#1\n(1D6) ＞ 2\n\n#2\n(1D6) ＞ 5"
    assert result.rolls == ((6, 2), (6, 5))


def test_clear_caches_forgets_parses_and_prepared_lines() -> None:
    kept = next(parse_all("3D6"))
    assert next(parse_all("3D6")) is kept
    clear_caches()
    assert next(parse_all("3D6")) is not kept
    assert evaluate("3D6", RecordedDice([(6, 1)] * 3)).text == "(3D6) ＞ 3[1,1,1] ＞ 3"


def test_overlong_lines_are_refused_without_being_kept() -> None:
    clear_caches()
    line = "1D6 " + "あ" * MAX_COMMAND_CHARS
    for _ in range(2):
        result = evaluate(line, RecordedDice([]))
        assert result.refused and "長すぎ" in result.text
    assert _kept_steps.cache_info().currsize == 0
