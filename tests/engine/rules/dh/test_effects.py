"""The catalogue of effects, one function each, on the arena."""

from __future__ import annotations

import pytest

from engine.rules.dh.effects import CATALOGUE, DELAYED
from engine.rules.dh.state import EffectSpec
from engine.rules.dh.stats import AWAY, DISABLED, STAT, STUNNED, ZOC_FREE, holds, stat
from tests.engine.rules.dh.helpers import arena, context


def _apply(
    kind: str, *, value: int = 0, stat_name: str = "", turns: int = 0, to: str | None = None, state=None
):
    state = state or arena()
    ctx = context(state)
    user, target = state.characters["アリス"], state.characters["カイ"]
    CATALOGUE[kind](ctx, user, target, EffectSpec(kind, value, stat_name, turns), to)
    ctx.settle()
    return state, ctx, target


def test_the_catalogue_names_every_effect_of_the_issue() -> None:
    wanted = {"体力ダメージ", "精神ダメージ", "即死", "瀕死", "回復", "能力値増減", "特殊能力無効"}
    wanted |= {"戦線離脱", "強制移動", "ZoC無視", "再行動", "行動不能"}
    assert wanted <= set(CATALOGUE)
    assert {"再行動"} == DELAYED


def test_hp_damage_kills_at_zero_with_dp_to_the_enemy() -> None:
    state, ctx, target = _apply("体力ダメージ", value=2)
    assert target.hp == 3 and target.alive
    state, ctx, target = _apply("体力ダメージ", value=9)
    assert not target.alive and target.hp == 0 and target.square is None
    assert state.dp["赤"] == 1 and ctx.died == ["カイ"]


def test_mind_damage_never_goes_below_zero() -> None:
    _, _, target = _apply("精神ダメージ", value=5)
    assert target.mind == 0


def test_instant_death_and_near_death() -> None:
    _, ctx, target = _apply("即死")
    assert not target.alive and ctx.died == ["カイ"]
    _, _, target = _apply("瀕死")
    assert target.hp == 1 and target.alive


def test_heal_stops_at_the_starting_hp() -> None:
    state = arena()
    state.characters["カイ"].hp = 2
    _, _, target = _apply("回復", value=2, state=state)
    assert target.hp == 4
    _, _, target = _apply("回復", value=9, state=state)
    assert target.hp == 5


def test_a_stat_change_for_a_time_ends_at_the_same_sides_phase_after_the_turns() -> None:
    _state, _, target = _apply("能力値増減", value=-3, stat_name="attack", turns=1)
    assert stat(target, "attack") == 7
    assert target.statuses[0].kind == STAT and target.statuses[0].until == 3  # gained in phase 1


def test_a_stat_never_goes_below_zero_and_a_lasting_change_has_no_end() -> None:
    _, _, target = _apply("能力値増減", value=-99, stat_name="defense")
    assert stat(target, "defense") == 0 and target.statuses[0].until is None


@pytest.mark.parametrize("kind", ["特殊能力無効", "ZoC無視", "行動不能"])
def test_states_are_gained_for_a_time(kind: str) -> None:
    _, _, target = _apply(kind, turns=2)
    assert holds(target, kind) and target.statuses[0].until == 5
    assert kind in (DISABLED, ZOC_FREE, STUNNED)


def test_leaving_the_battle_takes_the_character_off_the_map_and_remembers_its_square() -> None:
    _, _, target = _apply("戦線離脱", turns=1)
    assert target.square is None and target.away == "C7" and holds(target, AWAY)


def test_a_forced_move_goes_to_the_named_square_within_its_steps_only() -> None:
    _, _, target = _apply("強制移動", value=2, to="C5")
    assert target.square == "C5"
    _, ctx, target = _apply("強制移動", value=1, to="C5")
    assert target.square == "C7" and "移動先に届かないため効果なし" in "\n".join(ctx.lines)
    _, _, target = _apply("強制移動", value=2)
    assert target.square == "C7"


def test_a_forced_move_cannot_cross_a_wall() -> None:
    state = arena()
    state.characters["カイ"].square = "C5"
    _, _, target = _apply("強制移動", value=2, to="C3", state=state)
    assert target.square == "C5"


def test_act_again_is_granted_to_the_target() -> None:
    _, ctx, _ = _apply("再行動")
    assert ctx.again == ["カイ"]


def test_effects_of_one_kind_stack_as_help_says() -> None:
    """seed-gaps (GK rulings): 「effects of one kind stack」 — attack -3 twice is -6, and HELP says so."""
    from engine.rules.dh.help import HELP

    assert "同じ種類の効果は重なります" in HELP
    _state, ctx, target = _apply("能力値増減", value=-3, stat_name="attack")
    CATALOGUE["能力値増減"](ctx, target, target, EffectSpec("能力値増減", -3, "attack", 0), None)
    assert stat(target, "attack") == 4  # 10 − 3 − 3
