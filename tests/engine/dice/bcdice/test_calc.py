from __future__ import annotations


def test_echo_and_rounding(run) -> None:
    assert run("c1/2u").text == "c(1/2C) ＞ 1"
    assert run("C(-+-1)").text == "c(--1) ＞ 1"


def test_zero_division_message(run) -> None:
    assert run("C(1/0R)").text == "c(1/0R) ＞ ゼロ除算が発生したため計算できませんでした"
