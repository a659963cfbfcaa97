"""The leaks watch every bot test runs under (tests/leaks_watch.py) flags what a player must never be
shown — Python values, configuration keys, file paths, program identifiers — and lets through Japanese
prose, GM 設定 paths and what a player wrote himself."""

from __future__ import annotations

import pytest

from tests.leaks_watch import leaks


@pytest.mark.parametrize(
    "body",
    [
        "今は**None**の手番です",  # issue 25: DysTopiA's turn order with no 行動値
        "参加: {'アリス': 1}",
        "結果: ['a', 'b']",
        "<engine.state.State object at 0x7f00>",
        "Traceback (most recent call last)",
        "KeyError: 'x'",
        "gm_trips に書いてください",
        "(scenario: start_year…)",
        "隣接は ../shared/data/prefecture-adjacency.tsv の通り",
        "scenario.toml を直してください",
        "ピリオド10（シナリオの last_period）で終わりました",
    ],
)
def test_what_the_program_is_made_of_is_flagged(body: str) -> None:
    assert leaks(body), body


@pytest.mark.parametrize(
    "body",
    [
        "【受付 ピリオド1（締切 12/01 21:00）】\n>>3 ＜予想＞42",
        "設定 scores.アリス=3 を受け付けました",
        "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        "dice2d6=3 4 (7)",
        "鍵のハッシュ(SHA-256): " + "ab" * 32,
        "http://127.0.0.1:8380/test/read.cgi/demo/1764590400/",
    ],
)
def test_the_bots_own_prose_and_forms_pass(body: str) -> None:
    assert leaks(body) == [], leaks(body)


def test_what_a_player_wrote_may_be_quoted_back() -> None:
    assert leaks(">>5 ＜予想＞None → 予想「None」は数字（0～9）で書いてください", written="＜予想＞None") == []
