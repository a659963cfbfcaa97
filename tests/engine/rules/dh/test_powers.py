"""Targets of powers (kind, range, 性別, own square), costs, and counters that are disabled."""

from __future__ import annotations

from engine.rules.dh.powers import choose_targets, fire_counters, fits, pay, payable, success_rate
from engine.rules.dh.state import CostSpec, Status
from engine.rules.dh.stats import DISABLED, WAITING
from tests.engine.rules.dh.helpers import arena, context, power


def _names(found) -> list[str] | None:
    return None if found is None else [c.name for c in found]


def test_target_kinds_and_ranges() -> None:
    state = arena()
    ctx, alice = context(state), state.characters["アリス"]
    state.characters["カイ"].square = "C2"
    assert _names(choose_targets(ctx, alice, power(range="隣接1", all_in_range=True), None)) == ["カイ"]
    allies = power(target="味方", range="周囲1", all_in_range=True)
    assert _names(choose_targets(ctx, alice, allies, None)) == ["アリス", "ハナ"]
    everyone = power(target="全員", range="MAP全体", all_in_range=True)
    assert len(choose_targets(ctx, alice, everyone, None) or []) == 7
    assert _names(choose_targets(ctx, alice, power(target="自分"), None)) == ["アリス"]
    assert choose_targets(ctx, alice, power(range="同マス"), "カイ") is None
    assert choose_targets(ctx, alice, power(range="同マス", empty_ok=True), "カイ") == []


def test_a_gender_restriction_and_the_own_square() -> None:
    state = arena()
    ctx, alice = context(state), state.characters["アリス"]
    state.characters["カイ"].square = state.characters["エマ"].square = "C1"
    women = power(range="同マス", gender="女")
    assert not fits(ctx, alice, women, state.characters["カイ"]) and fits(
        ctx, alice, women, state.characters["エマ"]
    )
    assert not fits(ctx, alice, power(range="周囲1", include_own=False), state.characters["カイ"])


def test_costs_are_paid_as_far_as_possible() -> None:
    state = arena()
    ctx, alice = context(state), state.characters["アリス"]
    costly = power(costs=[{"kind": "精神", "value": 5}, {"kind": "攻撃力", "value": 2}])
    assert not payable(alice, costly.costs) and payable(alice, [CostSpec("死亡")])
    pay(ctx, alice, costly)
    assert (alice.mind, alice.attack, alice.rested["技"]) == (0, 8, 5)
    pay(ctx, alice, power(costs=[{"kind": "死亡"}]))
    assert not alice.alive and state.dp["青"] == 1


def test_mental_rates_follow_the_targets_mind() -> None:
    state = arena()
    ctx, mental = context(state), power(mental=True)
    rates = [success_rate(ctx, mental, state.characters[name]) for name in ("エマ", "カイ", "アリス")]
    assert rates == [50, 25, 0]  # 精神 1, 2, 3
    state.characters["エマ"].mind = 0
    assert success_rate(ctx, mental, state.characters["エマ"]) == 100


def test_a_disabled_holders_counter_does_not_fire() -> None:
    state = arena()
    kai, alice = state.characters["カイ"], state.characters["アリス"]
    kai.statuses = [Status(WAITING, power="返し技"), Status(DISABLED)]
    ctx = context(state)
    fire_counters(ctx, kai, alice, "被攻撃")
    assert alice.hp == 5 and not ctx.checks
    kai.statuses = [Status(WAITING, power="返し技")]
    fire_counters(ctx, kai, alice, "敵侵入")  # not its condition
    assert alice.hp == 5
    fire_counters(ctx, kai, alice, "被攻撃")
    assert alice.hp == 3
