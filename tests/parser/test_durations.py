"""The one reader of lengths of time, and the units each caller allows."""

from __future__ import annotations

from decimal import Decimal

from parser.durations import read_span


def test_pairs_from_large_to_small() -> None:
    span = read_span("1日2時間30分のこり")
    assert (span.seconds, span.units, "1日2時間30分のこり"[span.end :]) == (
        Decimal(95400),
        ("d", "h", "m"),
        "のこり",
    )
    assert read_span("1時間半").seconds == 5400
    assert read_span("1.5h").seconds == 5400
    assert read_span("90 sec").seconds == 90


def test_what_stops_the_reading() -> None:
    assert read_span("30分1時間").units == ("m",)  # a larger unit after a smaller one is not read
    assert read_span("90s", units="dhm") is None  # seconds where they are not wanted
    assert read_span("2mo") is None and read_span("三十分") is None and read_span("30") is None
