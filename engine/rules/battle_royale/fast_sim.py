"""Quick play of the 都道府県バトロワ for simulations (`threadgm simulate`, win chances from a position).

Simulations are not verifiable: they roll a fast seeded PRNG (`QuickDice`, Python's Mersenne Twister)
instead of the HMAC streams of `engine.rng`, and nothing they roll is ever posted. The bot's path
(`apply_roll_events`, `play_step`) is not used here and does not change.

Every season plays on the quick game of `fast_game.py` (`fast_tag.py` for the タッグマッチ): a second
implementation of the rules on integer indexes, from a position between battles or before the set-up
dice (`fast_position.py`). The rules' own step machine takes any other position there first, in place
(`play_in_place`). tests/engine/rules/battle_royale/test_fast_sim.py plays the same random sequence
through both and requires the same winners, battles, dice, eliminations and counters.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.rules.battle_royale.common_steps import BattleRoyaleError, Silent
from engine.rules.battle_royale.fast_game import Game
from engine.rules.battle_royale.fast_position import (
    Outcome,
    Position,
    at_boundary,
    can_start,
    plain_rules,
    position,
)
from engine.rules.battle_royale.fast_tables import MAX_DICE_PER_GAME
from engine.rules.battle_royale.fast_tag import TagGame
from engine.rules.battle_royale.resolution import AUTO_STEPS, DIE_STEPS, advance, next_die
from engine.rules.battle_royale.state import State, clone

__all__ = [
    "MAX_DICE_PER_GAME",
    "Outcome",
    "Position",
    "QuickDice",
    "at_boundary",
    "can_start",
    "outcome_of",
    "plain_rules",
    "play_in_place",
    "play_position",
    "play_quick",
    "position",
    "roll_in_place",
    "settle_in_place",
    "start_position",
]


class QuickDice:
    """A fast seeded die and a `RandomSource` whose every purpose shares its one sequence, so the rules'
    step machine and the quick game roll the same faces in the same order: face = int(random() * sides)
    + 1 (the float's 53 bits make the bias negligible for statistics; never used for the bot's dice)."""

    __slots__ = ("random",)

    def __init__(self, seed: int | str | bytes) -> None:
        self.random = random.Random(seed).random

    def roll(self, sides: int) -> int:
        return int(self.random() * sides) + 1

    def stream(self, purpose: str) -> QuickDice:
        return self


def outcome_of(state: State) -> Outcome:
    """The same figures read from a finished `State` of the step machine."""
    if state.ending is None:
        raise BattleRoyaleError("このゲームはまだ終わっていません")
    counters = {key: value for key, value in state.counters.items() if value}
    return Outcome(
        state.ending.kind,
        tuple(state.ending.winners),
        state.battles,
        state.dice_total,
        tuple(state.eliminated),
        counters,
    )


# --- the step machine, in place ------------------------------------------------------------------------

_SILENT = Silent()


def roll_in_place(state: State, dice: QuickDice) -> None:
    """One die of `apply_roll_events(state, faces, narrate=False)` without the copy of the state: the
    caller owns `state` (a clone made for this game)."""
    request = next_die(state)
    if request is None:
        raise BattleRoyaleError("このゲームは既に終了しています")
    faces = tuple(dice.roll(request.sides) for _ in range(request.count))
    step = state.pending.pop(0)
    DIE_STEPS[step.kind][1](state, step, faces, request, _SILENT)
    state.die_index += 1
    state.dice_total += 1
    advance(state, _SILENT)


def settle_in_place(state: State) -> None:
    """Run the automatic steps a GM's change left at the front of the queue (a newcomer's entry)."""
    if state.pending and state.pending[0].kind in AUTO_STEPS:
        advance(state, _SILENT)


def play_in_place(state: State, dice: QuickDice, *, until_start: bool = False) -> None:
    """Roll on `state` itself until the end (or, with `until_start`, a position the quick game reads)."""
    settle_in_place(state)
    for _ in range(MAX_DICE_PER_GAME):
        if state.ending is not None or (until_start and can_start(state)):
            return
        roll_in_place(state, dice)
    raise BattleRoyaleError(f"{MAX_DICE_PER_GAME}個のダイスを振っても決着しませんでした")


# --- the quick game ----------------------------------------------------------------------------------


def play_position(start: Position, rnd: Callable[[], float]) -> Outcome:
    """Play `start` to its end with `rnd` (a `random.random`-like callable: face = int(rnd()*s)+1)."""
    game = TagGame(start, rnd) if start.options.tag_match else Game(start, rnd)
    return game.play()


def start_position(state: State) -> Position | None:
    """The position every quick game from `state` starts at (after a newcomer's entry is announced, which
    rolls nothing), or None when each game needs the step machine first (inside a battle, a final)."""
    if state.ending is not None:
        return None
    if state.pending and state.pending[0].kind in AUTO_STEPS:
        state = clone(state)
        settle_in_place(state)
    return position(state) if can_start(state) else None


def play_quick(state: State, dice: QuickDice) -> Outcome:
    """One simulated game from `state` (left unchanged): the step machine up to a position the quick
    game reads, then the quick game to the end."""
    game = clone(state)
    play_in_place(game, dice, until_start=True)
    if game.ending is not None:
        return outcome_of(game)
    return play_position(position(game), dice.random)
