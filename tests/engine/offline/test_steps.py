"""The pieces of verify's replay of an immediate game's steps read from the bot's posts: its answers
by post (a split answer joined back, reveals left out), its secret key once published, and the GMs as
the bot obeyed them. The replay itself is played in the DysTopiA bot session
(tests/engine/rules/dystopia/test_bot_game.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.offline.steps import StepCheck, _gm_trips, answers_by_post, rules_key, step_notes
from engine.rules import REGISTRY


def test_answers_are_kept_in_order_and_a_split_answer_is_joined_back() -> None:
    bodies = [
        "【ダイス検証】\n鍵のハッシュ(SHA-256) 2026-12-01: " + "0" * 64 + "\n\n>>4\nヘルプ\n\n>>4\n一行目",
        ">>4（続き）\n二行目\n\n>>6\n【シークレットダイス公開】\n結果",
        ">>5（続き）\nよその続き",
    ]
    found = answers_by_post(bodies)
    assert found == {4: [["ヘルプ"], ["一行目", "二行目"]]}  # a reveal is no answer; a stray part dropped


def test_the_secret_key_is_read_once_published() -> None:
    assert rules_key(["手番の回答"]) is None
    key = "ab" * 32
    assert rules_key(
        [f"【ゲーム終了】\n秘密のダイスの鍵: {key}（最初に公開したハッシュと照合できます）"]
    ) == bytes.fromhex(key)
    assert rules_key(["秘密のダイスの鍵: zz"]) is None


@dataclass
class _Post:
    number: int
    trip: str | None
    body: str
    date: datetime | None = None
    name: str = ""


def test_the_gms_are_those_whose_commands_the_bot_carried_out() -> None:
    posts = [
        _Post(2, "GM", "設定 scene=ドラマ"),
        _Post(3, "X", "設定 scene=ドラマ"),
        _Post(4, "Y", "肉体判定"),
    ]
    answers = {
        2: [["【GM】設定しました"]],
        3: [["GMのトリップではないため、GMコマンドは受け付けませんでした"]],
        4: [["…"]],
    }
    assert _gm_trips(posts, answers, REGISTRY.get("dice")) == ("GM",)


def test_what_could_not_be_recomputed_is_noted_never_claimed() -> None:
    found = StepCheck(checked=2, matched=2, compared=[3, 5], pending=9, sealed=[7])
    notes = step_notes(found, [3, 5, 7, 9, 11])
    assert notes[0].startswith(">>9 以降の手番 2 件は") and ">>7 の手番は" in notes[1] and len(notes) == 2
    assert "比べられませんでした" in step_notes(StepCheck(compared=[3]), [3, 5])[0]
