"""One post's cost to a poll, through the referee (`engine.referee.poll`, store in memory): the posts
of issue 24 that held a poll worker for seconds — twenty `進行` in the battle royale, twenty naval
attack lines, eight DH attack lines — and posts of 10,000 lines of each game's command words. Target:
under about 1 s each on this machine (the post's budget: a line written again counts once, 40 order
lines and 20 GM commands a post, 1,000 lines read).

Uses the pure-referee game of tests/referee_harness.py (the same setup the property tests use).
"""

from __future__ import annotations

import time

from engine.rules import REGISTRY
from tests.referee_harness import GM_TRIP, PureGame

REPEATS = 3


def _naval_attacks() -> str:
    ours = [f"ABC-{kind}-A-0{n}" for kind in ("DD", "CV", "F") for n in (1, 2, 3)]
    theirs = [f"XYZ-{kind}-X-0{n}" for kind in ("DD", "CV", "F") for n in (1, 2, 3)]
    return "\n".join(f"＜攻撃＞{ours[i % len(ours)]}、{theirs[(i * 7) % len(theirs)]}" for i in range(20))


CASES = {
    "battle-royale: 20 × 進行 (GM)": ("battle-royale", "\n".join(["進行"] * 20), "GM", GM_TRIP),
    "battle-royale: 20 × 進行 (stranger)": ("battle-royale", "\n".join(["進行"] * 20), "通りすがり", None),
    "naval: 20 attack lines": ("naval", _naval_attacks(), "アリス", None),
    "dh: 8 attack lines": (
        "dh",
        "\n".join(
            f"{who}: C3 攻撃 番長" for who in ("会長", "書記", "会計", "会長", "書記", "会計", "会長", "書記")
        ),
        "生徒会",
        None,
    ),
}
WORDS = {
    "guess": "＜予想＞42",
    "naval": "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01",
    "battle-royale": "進行",
    "battle-royale-assist": "状態",
    "dh": "会長: C3 攻撃 番長",
    "nijiyabou": "東京：内政",
    "dystopia": "アキラ: ダメージ 30",
    "dice": "1D100",
}


def one_post(game_id: str, body: str, name: str, trip: str | None) -> tuple[float, float]:
    """Wall and CPU seconds of the poll that reads the post (the game opened before it)."""
    game = PureGame(game_id)
    game.poll()
    post = game.post(body, name, trip)
    wall, cpu = time.perf_counter(), time.process_time()
    game.poll([post], minutes=1)
    result = time.perf_counter() - wall, time.process_time() - cpu
    game.close()
    return result


def main() -> None:
    cases = dict(CASES)
    for game_id in REGISTRY.ids():
        word = WORDS.get(game_id, "ヘルプ")
        cases[f"{game_id}: 10,000 lines of {word}"] = (
            game_id,
            "\n".join([word, "ヘルプ全文"] * 5000),
            "名無し",
            None,
        )
        varied = "\n".join(f"{word}{n}" for n in range(10_000))
        cases[f"{game_id}: 10,000 varied lines"] = (game_id, varied, "名無し", None)
    worst = 0.0
    for label, (game_id, body, name, trip) in cases.items():
        runs = [one_post(game_id, body, name, trip) for _ in range(REPEATS)]
        wall, cpu = max(run[0] for run in runs), max(run[1] for run in runs)
        worst = max(worst, wall)
        print(f"{label:<52} max of {REPEATS}: {wall * 1000:7.1f} ms wall, {cpu * 1000:7.1f} ms CPU")
    print(f"worst post: {worst * 1000:.1f} ms wall (target: under about 1000 ms)")


if __name__ == "__main__":
    main()
