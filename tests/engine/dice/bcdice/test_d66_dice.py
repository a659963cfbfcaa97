from __future__ import annotations


def test_d66_total_and_secret(run) -> None:
    result = run("SD66D", (6, 2), (6, 5))
    assert (result.text, result.total, result.secret) == ("(D66D) ＞ 52", 52, True)
