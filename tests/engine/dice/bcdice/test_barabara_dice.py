from __future__ import annotations


def test_faces_without_target(run) -> None:
    assert run("2B6+1B4", (6, 1), (6, 6), (4, 4)).text == "(2B6+1B4) ＞ 1,6,4"


def test_target_counts_successes_and_keeps_the_secret(run) -> None:
    result = run("S3B6<>2", (6, 2), (6, 5), (6, 1))
    assert result.text == "(3B6<>2) ＞ 2,5,1 ＞ 成功数2"
    assert result.secret and not result.success
