"""DH through the pure referee on its template (opened to anyone, as tests/referee_harness does):
issue 24's poison posts are each the game's own refusal or nothing — never an internal error — and the
next post is answered as usual; the template as written refuses strangers."""

from __future__ import annotations

import pytest

from engine.referee.isolation import INTERNAL_ERROR
from engine.rules import REGISTRY
from tests.referee_harness import PureGame, posted

POISON = [
    "会長 C\u1369移動",  # ፩, as a browser sends &#4969;
    "会長 C٣移動 攻撃 番長",
    "会長 C" + "9" * 4400 + "移動",
    "会長 能力 対象は" + "、".join(["番長"] * 500),
    "会長 C3移動\x00\x07\u202e 攻撃 番長",
    "\n".join(f"会長 C{n % 9}移動 攻撃 番長" for n in range(10_000)),
    ">>" + "9" * 50 + " 会長 D1移動",
    "書記 能力「守護結界」 対象は" + "Z" * 300,
    "会長 再行動 再行動 再行動 C3 攻撃 番長",
]


@pytest.mark.parametrize("body", POISON, ids=range(len(POISON)))
def test_a_poison_post_is_answered_by_the_game_and_the_next_post_as_usual(body: str) -> None:
    game = PureGame("dh")
    try:
        game.poll([])
        answers = posted(game.poll([game.post(body)], minutes=1))
        assert not any(INTERNAL_ERROR in text for text in answers), answers
        normal = game.post("会計 D2移動")  # 会長 may hold a line from the poison post
        receipt = "\n".join(posted(game.poll([normal], minutes=1)))
        assert f">>{normal.number} 会計 D2移動 待機" in receipt
    finally:
        game.close()


def test_the_template_as_written_takes_no_strangers_line() -> None:
    game = PureGame("dh", REGISTRY.get("dh").template())
    try:
        game.poll([])
        stranger = game.post("会長 C2移動", name="通りすがり", trip="STRANGER00")
        receipt = "\n".join(posted(game.poll([stranger], minutes=1)))
        assert f">>{stranger.number} 会長 C2移動 → 今は生徒会のフェイズです（" in receipt
    finally:
        game.close()


def test_status_is_answered_as_help_says_once_a_writer_and_three_times_a_phase() -> None:
    """HELP's promise about 状態 is what the thread sees: ten new names asking in one phase get three
    boards, and a writer asking again gets none."""
    from engine.rules.dh.help import HELP

    assert "1人1フェイズに1回、だれが書いても1フェイズに3回まで" in HELP
    game = PureGame("dh")
    try:
        game.poll([])
        first = game.post("状態", "見物1")
        boards = posted(game.poll([first, game.post("状態", "見物1")], minutes=1))
        assert sum(b.count("【MAP】") for b in boards) == 1
        asks = [game.post("状態", f"見物{n}") for n in range(2, 12)]
        boards = posted(game.poll(asks, minutes=1))
        assert sum(b.count("【MAP】") for b in boards) == 2
    finally:
        game.close()


def test_only_the_acting_sides_ready_counts_and_the_receipt_says_so() -> None:
    """準備完了 ends a phase early only from the acting side's submitters: the other side's and a
    stranger's are answered as not counting, and the phase stays open until its own side is ready."""
    text = REGISTRY.get("dh").template()
    text = text.replace('["◆ここに生徒会の提出者のトリップ"]', '["◆SEITOKAI01"]')
    text = text.replace('["◆ここに番長グループの提出者のトリップ"]', '["◆BANCHO0002"]')
    game = PureGame("dh", text)
    try:
        game.poll([])
        others = [
            game.post("準備完了", "番長", "BANCHO0002"),
            game.post("準備完了", "通りすがり", "STRANGER00"),
        ]
        receipt = "\n".join(posted(game.poll(others, minutes=1)))
        for post in others:
            assert f">>{post.number} 準備完了 → 準備完了を数えるのは" in receipt
        assert "【ピリオド1 更新】" not in receipt
        ready = game.post("会長 C2移動\n準備完了", "生徒", "SEITOKAI01")
        text = "\n".join(posted(game.poll([ready], minutes=1)))
        assert f">>{ready.number} 準備完了" in text and "数えるのは" not in text
        assert "【ピリオド1 更新】" in text
    finally:
        game.close()
