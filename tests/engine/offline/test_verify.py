"""`verify_thread` on games with periods: every period key against the hash published before it, and
each period report read back and recomputed by its ruleset (`read_period`, `verify_period`), whatever posts the board split it into."""

from __future__ import annotations

from datetime import datetime

from engine.clock import periods
from engine.keys import commitment, period_key
from engine.offline.verify import ThreadPost, verify_thread
from engine.report import Report, line, report
from engine.rng import SeededDice
from engine.ruleset import VerifiesPeriods
from poster.markup import PostLimits, render_body, render_posts

SECRET = b"s" * 32
BOT = "BOTTRIP"
NAME = "テストの海戦"
WHEN = datetime(2026, 12, 1, 20, 0)
BOARD = PostLimits()


def key(period: int) -> bytes:
    return period_key(SECRET, "test", f"P{period}")


def drawn(period: int) -> int:
    return SeededDice(key(period), "test/number").roll(100)


class Rules(VerifiesPeriods):
    """A ruleset whose report publishes one number drawn from the period key."""

    NAME = NAME

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def read_period(self, lines: list[str]) -> dict:
        self.seen.append(lines)
        return {"numbers": [int(text[3:]) for text in lines if text.startswith("数: ")]}

    def verify_period(self, key: bytes, result: dict) -> list[str]:
        wanted = SeededDice(key, "test/number").roll(100)
        return [] if wanted in result["numbers"] else [f"数: {wanted} がありません"]


def resolution(period: int, *, number: int | None = None, redo: bool = False, padding: int = 0) -> Report:
    inner = report(
        *(line(f"経過{i}") for i in range(padding)),
        line(f"数: {drawn(period) if number is None else number}"),
    )
    return periods.resolution_report(
        period,
        inner,
        key_hex=key(period).hex(),
        assumed=[],
        next_period=period + 1,
        next_deadline=None,
        next_commitment=commitment(key(period + 1)),
        redo=redo,
    )


class Thread:
    def __init__(self, opening: bool = True) -> None:
        self.posts: list[ThreadPost] = [ThreadPost(1, None, WHEN, "スレ立て")]
        if opening:
            self.bot(render_body(periods.opening_report(NAME, 1, None, commitment(key(1)), "1時間ごと")))

    def add(self, body: str, trip: str | None = None) -> int:
        self.posts.append(ThreadPost(len(self.posts) + 1, trip, WHEN, body))
        return len(self.posts)

    def bot(self, body: str) -> int:
        return self.add(body, BOT)

    def bot_report(self, value: Report, limits: PostLimits = BOARD) -> None:
        for body in render_posts([value], limits):
            self.bot(body)

    def verify(self, rules: object | None = None, trips: list[str] | None = None):
        return verify_thread(
            "1234567890", self.posts, render_body, trips, lambda name: rules if name == NAME else None
        )


def test_period_keys_match_their_hashes_and_the_ruleset_recomputes_each_report() -> None:
    thread = Thread()
    thread.add("＜命令＞あれこれ")
    thread.bot_report(resolution(1))
    thread.bot_report(resolution(2))
    rules = Rules()
    result = thread.verify(rules)
    assert result.bot_trips == (BOT,) and result.game == NAME  # found by its opening alone
    assert (result.periods_checked, result.periods_matched, result.problems) == (2, 2, [])
    summary = result.summary()
    assert "ピリオド 2 件の結果を再計算: 一致 2 件、不一致 0 件" in summary
    assert "再計算できる回答はありませんでした" not in summary and summary.endswith(
        "結果: すべて一致しました"
    )
    assert rules.seen[0][0] == "【ピリオド1 更新】" and rules.seen[0][-1].startswith("鍵 ピリオド1: ")


def test_a_report_split_over_several_posts_is_read_whole() -> None:
    thread = Thread()
    thread.bot_report(resolution(1, padding=8), PostLimits(lines=4))
    thread.add("途中の書き込み")
    thread.bot_report(resolution(2, padding=8), PostLimits(lines=4))
    assert len(thread.posts) > 6
    rules = Rules()
    result = thread.verify(rules)
    assert (result.periods_checked, result.periods_matched) == (2, 2), result.summary()
    # the heading, eight lines, the number and the key; the next period's hash is read wherever it is
    assert [len(lines) for lines in rules.seen] == [11, 11]


def test_a_key_that_does_not_match_its_hash_is_a_problem() -> None:
    thread = Thread()
    forged = render_body(resolution(1)).replace(key(1).hex(), "0" * 64)
    number = thread.bot(forged)
    result = thread.verify(Rules())
    assert not result.ok
    assert f"ピリオド1 (>>{number}) の鍵が >>2 で公開したハッシュと一致しません" in result.problems


def test_what_the_ruleset_finds_is_a_problem_of_that_period() -> None:
    thread = Thread()
    thread.bot_report(resolution(1, number=drawn(1) % 100 + 1))
    result = thread.verify(Rules())
    assert result.problems == [f"ピリオド1 (>>3): 数: {drawn(1)} がありません"]
    assert "不一致 1 件" in result.summary() and "結果: 一致しないものがあります" in result.summary()


def test_without_the_ruleset_only_the_keys_are_checked() -> None:
    thread = Thread()
    thread.bot_report(resolution(1))
    result = thread.verify(None)
    assert result.ok and result.periods_checked == 0
    assert (
        f"「{NAME}」は登録されたゲームではないため結果は再計算できません（--rules でゲームを指定できます。ピリオドの鍵とハッシュだけを確認しました）"
        in result.notes
    )
    wrong = Thread()
    wrong.bot(render_body(resolution(1)).replace(key(1).hex(), "0" * 64))
    assert not wrong.verify(None).ok


def test_a_redone_period_is_checked_again() -> None:
    thread = Thread()
    thread.bot_report(resolution(1))
    thread.bot_report(resolution(1, redo=True))
    result = thread.verify(Rules())
    assert (result.periods_checked, result.periods_matched) == (2, 2)


def test_a_key_without_an_earlier_hash_and_a_report_without_its_key_are_noted() -> None:
    thread = Thread(opening=False)
    thread.bot_report(resolution(1))
    cut = render_body(resolution(2)).split("\n鍵 ピリオド2")[0]
    number = thread.bot(cut)
    result = thread.verify(Rules(), trips=[BOT])
    assert result.ok
    assert "ピリオド1 (>>2) の鍵は公開されましたが、事前のハッシュがありません" in result.unverified
    assert f"ピリオド2 (>>{number}) の更新に鍵が見つかりません" in result.unverified
    assert result.summary().endswith(
        "結果: 確かめられるものがありませんでした（一致とも不一致とも言えません）"
    )


def test_the_answer_to_a_gm_command_is_not_taken_for_a_dice_answer() -> None:
    day = b"d" * 32  # the day's key is out, so an answer of that day would be recomputed
    thread = Thread()
    thread.bot(f"【ダイス検証】\n鍵のハッシュ(SHA-256) 2026-12-01: {commitment(day)}")
    status = thread.add("状態", "GMTRIP")
    thread.bot(f">>{status}\n【GM】ピリオド1・締切 12/01 21:00\n【ABC島】\nABC-DD-A-01　(3,3)")
    thread.bot_report(resolution(1))
    thread.bot(f"【ダイス検証】\n鍵 2026-12-01: {day.hex()}")
    result = thread.verify(Rules())
    assert result.ok and result.checked == 0 and not result.notes, result.summary()


def test_a_mismatch_that_may_be_a_game_step_names_the_game_to_verify_it_with() -> None:
    from engine.offline.verify import _step_hint
    from engine.rules import REGISTRY

    assert "--rules dystopia" in _step_hint(REGISTRY, "肉体判定")
    assert _step_hint(REGISTRY, "2D6 こんにちは") == ""


def test_a_period_report_taken_out_of_the_thread_is_named_and_never_passed_as_all_matching() -> None:
    thread = Thread()
    thread.bot_report(resolution(1))
    thread.add("2の更新は削除されました")  # the report of period 2 is gone from the thread
    thread.bot_report(resolution(3))
    result = thread.verify(Rules())
    assert result.ok and (result.periods_checked, result.periods_matched) == (2, 2)
    assert result.unverified[0] == (
        "ピリオド2 の更新（【ピリオド2 更新】）がスレにありません（削除されたか、書き込まれていません）"
    )
    summary = result.summary()
    assert "結果: すべて一致しました" not in summary
    assert summary.endswith("その分は確かめられません（「確かめられません」の行）")


def test_a_later_part_of_a_game_starts_at_its_first_report_with_nothing_missing() -> None:
    thread = Thread(opening=False)  # the game rolled over: periods 1-3 are in the earlier thread
    thread.bot_report(resolution(4))
    thread.bot_report(resolution(5))
    result = thread.verify(Rules(), trips=[BOT])
    assert not any("がスレにありません" in text for text in result.unverified)
