"""The arithmetic of one naval battle: each side's strength against the other (anti-air against a
fighter, anti-ship against a ship, none for a transport), the page's number
floor(100 / (difference + 2)), who wins with a random number of 1–100, the equal-strength split the
page leaves open (the attacker wins on 51–100), and the judgement in words as the report shows it.
"""

from __future__ import annotations

from engine.rules.naval.state import FIGHTER, TRANSPORT, Unit

EQUAL_ATTACKER_WINS_FROM = 51  # equal strength: 51–100 the attacker wins, 1–50 (50 included) it loses


def threshold(difference: int) -> int:
    """The page's number: floor(100 / (difference + 2))."""
    return 100 // (difference + 2)


def attacker_wins(attacker: int, defender: int, value: int) -> bool:
    """Whether the side that gave the order wins with this random number (1–100)."""
    if attacker == defender:
        return value >= EQUAL_ATTACKER_WINS_FROM
    stronger_wins = value >= threshold(abs(attacker - defender))
    return stronger_wins == (attacker > defender)


def judgement(attacker: int, defender: int, value: int) -> str:
    """The judgement in words, as the page computes it."""
    if attacker == defender:
        won = value >= EQUAL_ATTACKER_WINS_FROM
        verdict = "51以上で攻撃側勝利" if won else "50以下で攻撃側敗戦"
        return f"交戦力同値{attacker}対{defender}、乱数{value}は{verdict}"
    difference = abs(attacker - defender)
    limit = threshold(difference)
    stronger = value >= limit
    side = "交戦力の高い側" if stronger else "交戦力の低い側"
    relation = "≧" if stronger else "＜"
    return (
        f"交戦力{attacker}対{defender}、基準値100÷{difference + 2}={limit}、"
        f"乱数{value}{relation}{limit}で{side}が勝利"
    )


def strength(unit: Unit, opponent: Unit) -> int:
    """Anti-air against a fighter, anti-ship against a ship or carrier; a transport has none."""
    if unit.category == TRANSPORT:
        return 0
    return unit.anti_air if opponent.category == FIGHTER else unit.anti_ship
