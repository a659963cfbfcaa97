"""Quick play of the 都道府県バトロワ for simulations (`threadgm simulate`, win chances from a position).

Simulations are not verifiable: they roll a fast seeded PRNG (`QuickDice`, Python's Mersenne Twister)
instead of the HMAC streams of `engine.rng`, and nothing they roll is ever posted. The bot's path
(`apply_roll_events`, `play_step`) is not used here and does not change.

`play_plain` is a second implementation of the plain rules — selection, policy, surprise, the battle
tables, the group dice, infighting — on integer indexes, in place, with no object per die. It covers a
game without 黒幕, 地区復活 or タッグマッチ from a position between battles (`at_boundary`); the rules'
own step machine takes a game there first, and plays every other season to its end, in place
(`play_in_place`). tests/engine/rules/battle_royale/test_fast_sim.py plays the same random sequence through
both and requires the same winners, battles, dice, eliminations and counters.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.rules.battle_royale.common_steps import BattleRoyaleError, Silent
from engine.rules.battle_royale.resolution import AUTO_STEPS, DIE_STEPS, advance, next_die
from engine.rules.battle_royale.state import ALIVE, State, clone

MAX_DICE_PER_GAME = 200_000

# Battle outcomes as indexes, and each battle table as the outcome of every face (index 0 unused).
WIN, LOSE, ESCAPE, ALLY, MUTUAL = range(5)
_W, _L, _E, _A, _M = WIN, LOSE, ESCAPE, ALLY, MUTUAL
NORMAL = (None, _W, _L, _E, _A, _M)
SURPRISE_ADVANTAGE = (None, _W, _W, _W, _W, _L, _L, _A, _E)
GROUP_BIGGER = (None, _W, _W, _L, _E, _A, _M)
GROUP_SMALLER = (None, _W, _L, _L, _E, _A, _M)
GROUP_SURPRISE_BIGGER = (None, _W, _W, _W, _W, _W, _L, _L, _A, _E)
GROUP_SURPRISE_SMALLER = (None, _W, _W, _W, _W, _L, _L, _L, _A, _E)


def battle_faces(group_surprise: bool, surprise: bool, base_size: int, opponent_size: int) -> tuple:
    """`battle.current_battle_table` outside infighting: a successful surprise between equal groups
    read as a group's (surprise_equal_groups = "group"), else `tables.battle_table`."""
    if group_surprise and base_size == opponent_size >= 2:
        return GROUP_SURPRISE_BIGGER
    if base_size == opponent_size:
        return SURPRISE_ADVANTAGE if surprise else NORMAL
    if base_size > opponent_size:
        return GROUP_SURPRISE_BIGGER if surprise else GROUP_BIGGER
    return GROUP_SURPRISE_SMALLER if surprise else GROUP_SMALLER


COUNTERS = (
    "encounters",
    "surprises",
    "surprise_failures",
    "escapes",
    "escape_failures",
    "alliances",
    "pair_betrayals",
    "mutual_kills",
    "infights",
    "infight_battles",
    "reconciliations",
    "dissolutions",
    "reselections",
    "dead_picks",
    "renumberings",
    "rerolls",
    "eliminations",
)
(
    ENCOUNTERS,
    SURPRISES,
    SURPRISE_FAILURES,
    ESCAPES,
    ESCAPE_FAILURES,
    ALLIANCES,
    PAIR_BETRAYALS,
    MUTUAL_KILLS,
    INFIGHTS,
    INFIGHT_BATTLES,
    RECONCILIATIONS,
    DISSOLUTIONS,
    RESELECTIONS,
    DEAD_PICKS,
    RENUMBERINGS,
    REROLLS,
    ELIMINATIONS,
) = range(len(COUNTERS))


class QuickDice:
    """A fast seeded die and a `RandomSource` whose every purpose shares its one sequence, so the rules'
    step machine and `play_plain` roll the same faces in the same order: face = int(random() * sides) + 1
    (the float's 53 bits make the bias negligible for statistics; never used for the bot's dice)."""

    __slots__ = ("random",)

    def __init__(self, seed: int | str | bytes) -> None:
        self.random = random.Random(seed).random

    def roll(self, sides: int) -> int:
        return int(self.random() * sides) + 1

    def stream(self, purpose: str) -> QuickDice:
        return self


@dataclass
class Outcome:
    """How one game ended: the winners (roster order), its battles and dice (requests, as
    `State.dice_total` counts them), who fell in order, and the rule counters (non-zero ones)."""

    kind: str
    winners: tuple[str, ...]
    battles: int
    dice: int
    eliminated: tuple[str, ...]
    counters: dict[str, int]


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


def plain_rules(state: State) -> bool:
    """Whether `play_plain` knows every rule of this season (no 黒幕, 地区復活 or タッグマッチ)."""
    options = state.options
    return not (options.mastermind or options.revival or options.tag_match or state.mastermind)


def at_boundary(state: State) -> bool:
    """Between battles, with only the next 【都道府県選択ダイス】 to roll."""
    pending = state.pending
    return (
        state.ending is None
        and state.setup_done
        and state.battle is None
        and len(pending) == 1
        and pending[0].kind == "select"
        and not pending[0].data
    )


def play_in_place(state: State, dice: QuickDice, *, until_boundary: bool = False) -> None:
    """Roll on `state` itself until the end (or, for a plain season, the next boundary)."""
    settle_in_place(state)
    for _ in range(MAX_DICE_PER_GAME):
        if state.ending is not None or (until_boundary and at_boundary(state)):
            return
        roll_in_place(state, dice)
    raise BattleRoyaleError(f"{MAX_DICE_PER_GAME}個のダイスを振っても決着しませんでした")


# --- the plain rules on indexes --------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A plain game between battles as `play_plain` reads it: indexes into `names` (roster order)."""

    names: tuple[str, ...]
    alive: tuple[bool, ...]
    table: tuple[int, ...]
    groups: tuple[tuple[int, tuple[int, ...]], ...]  # (group id, members) in the state's order
    next_group: int
    battles: int
    dice: int
    dead_streak: int
    eliminated: tuple[str, ...]
    counters: dict[str, int]
    renumber_after: int
    infight_group: bool  # infight_mutual = "group"
    surprise_group: bool  # surprise_equal_groups = "group"


def position(state: State) -> Position:
    """The plain game `state` holds (`plain_rules` and `at_boundary` must be true)."""
    if not (plain_rules(state) and at_boundary(state)):
        raise BattleRoyaleError("簡易シミュレーションは特別ルールなしの戦闘と戦闘の間からだけ始められます")
    names = tuple(p.name for p in state.roster)
    index = {name: i for i, name in enumerate(names)}
    options = state.options
    return Position(
        names,
        tuple(state.status[name] == ALIVE for name in names),
        tuple(index[key] for key in state.table),
        tuple((int(gid), tuple(index[m] for m in members)) for gid, members in state.groups.items()),
        state.next_group,
        state.battles,
        state.dice_total,
        state.dead_streak,
        tuple(state.eliminated),
        dict(state.counters),
        options.renumber_after_dead_picks,
        options.infight_mutual == "group",
        options.surprise_equal_groups == "group",
    )


def play_plain(start: Position, rnd: Callable[[], float]) -> Outcome:
    """Play `start` to its end with `rnd` (a `random.random`-like callable: face = int(rnd()*s)+1)."""
    return _PlainGame(start, rnd).play()


class _PlainGame:
    """One game of the plain rules, changed in place. Each method is the rule module's step of the same
    name in `selection.py`, `battle.py`, `group_dice.py`, `infighting.py` and `aftermath.py`, rolling
    the same dice in the same order (dice with one possible outcome are decided without a roll)."""

    __slots__ = (
        "alive",
        "base",
        "c",
        "dice",
        "fallen",
        "group_of",
        "groups",
        "n_alive",
        "next_group",
        "opp",
        "rnd",
        "start",
        "streak",
        "table",
    )

    def __init__(self, start: Position, rnd: Callable[[], float]) -> None:
        self.start, self.rnd = start, rnd
        self.alive = list(start.alive)
        self.n_alive = sum(self.alive)
        self.table = list(start.table)
        self.group_of: list[int | None] = [None] * len(self.alive)
        self.groups: dict[int, list[int]] = {}
        for gid, members in start.groups:
            self.groups[gid] = list(members)
            for member in members:
                self.group_of[member] = gid
        self.next_group = start.next_group
        self.dice, self.streak = start.dice, start.dead_streak
        self.fallen: list[int] = []
        self.c = [0] * len(COUNTERS)
        self.base = self.opp = 0

    def roll(self, sides: int) -> int:
        self.dice += 1
        return int(self.rnd() * sides) + 1

    def play(self) -> Outcome:
        battles = self.start.battles
        while self.dice < MAX_DICE_PER_GAME:
            self.select()
            mark = len(self.fallen)
            gid = self.group_of[self.base]
            if gid is not None and gid == self.group_of[self.opp]:
                if not self.infight(gid):
                    continue  # 都道府県選択ダイスの振り直し: no battle was fought
            else:
                self.battle()
            battles += 1
            if self.start.renumber_after == 0 and len(self.fallen) > mark:
                self.renumber()
            if self.n_alive == 1:
                return self.outcome(battles)
        raise BattleRoyaleError(f"{MAX_DICE_PER_GAME}個のダイスを振っても決着しませんでした")

    def outcome(self, battles: int) -> Outcome:
        names = self.start.names
        counters = dict(self.start.counters)
        for key, value in zip(COUNTERS, self.c, strict=True):
            if value:
                counters[key] = counters.get(key, 0) + value
        return Outcome(
            "winner",
            tuple(names[i] for i, up in enumerate(self.alive) if up),
            battles,
            self.dice,
            self.start.eliminated + tuple(names[i] for i in self.fallen),
            {key: value for key, value in counters.items() if value},
        )

    # --- (1) selection ---------------------------------------------------------------------------------

    def select(self) -> None:
        """【都道府県選択ダイス】 until two living ones meet (via 【対戦都道府県選択ダイス】 after a dead pick)."""
        alive, rnd = self.alive, self.rnd
        while True:
            table = self.table
            n = len(table)
            a, b = table[int(rnd() * n)], table[int(rnd() * n)]
            self.dice += 1
            if a == b and alive[a]:
                continue  # the same number twice: rolled again, no dead pick
            if a != b and alive[a] and alive[b]:
                self.base, self.opp = a, b
                break
            self.dead_pick()
            if a != b and (alive[a] or alive[b]):
                self.base = base = a if alive[a] else b
                while True:
                    table = self.table
                    k = table[int(rnd() * len(table))]
                    self.dice += 1
                    if k != base and alive[k]:
                        self.opp = k
                        break
                    if k != base:
                        self.dead_pick()
                break
        self.streak = 0
        self.c[ENCOUNTERS] += 1

    def dead_pick(self) -> None:
        self.streak += 1
        self.c[DEAD_PICKS] += 1
        limit = self.start.renumber_after
        if limit and self.streak >= limit:
            self.renumber()

    def renumber(self) -> None:
        alive = self.alive
        self.table = [k for k in self.table if alive[k]]
        self.streak = 0
        self.c[RENUMBERINGS] += 1

    def side(self, key: int) -> list[int]:
        gid = self.group_of[key]
        return [key] if gid is None else [key] + [m for m in self.groups[gid] if m != key]

    # --- infighting ------------------------------------------------------------------------------------

    def infight(self, gid: int) -> bool:
        """仲間割れ判定 and its battle; False when the pick is to be rolled again."""
        c = self.c
        c[INFIGHTS] += 1
        face = self.roll(3)
        if face == 3:
            c[RESELECTIONS] += 1
            return False
        if face == 2:
            c[RECONCILIATIONS] += 1
            return True
        c[INFIGHT_BATTLES] += 1
        base, opp = self.base, self.opp
        while True:
            outcome = NORMAL[self.roll(5)]
            victims = list(self.groups[gid]) if self.start.infight_group else [base, opp]
            if outcome != MUTUAL or self.n_alive != len(victims):
                break
            c[REROLLS] += 1
        if outcome == ESCAPE:
            c[ESCAPES] += 1
            self.detach(base)
            return True
        if outcome == ALLY:
            c[RECONCILIATIONS] += 1
            return True
        if outcome == WIN:
            self.kill([opp])
        elif outcome == LOSE:
            self.kill([base])
        else:
            c[MUTUAL_KILLS] += 1
            self.kill(victims)
        if len(self.groups.get(gid, ())) >= 2 and self.roll(2) == 2:
            c[DISSOLUTIONS] += 1
            for member in self.groups.pop(gid):
                self.group_of[member] = None
        return True

    # --- (2)-(6) a battle --------------------------------------------------------------------------------

    def battle(self) -> None:
        c = self.c
        base_side, opp_side = self.side(self.base), self.side(self.opp)
        surprise = moved = False
        if self.roll(3) == 3:
            c[SURPRISES] += 1
            surprise = True
            if self.roll(2) == 2:
                c[SURPRISE_FAILURES] += 1
                self.base, self.opp = self.opp, self.base
                base_side, opp_side = opp_side, base_side
                moved = True
        bs, os_ = len(base_side), len(opp_side)
        faces = battle_faces(surprise and not moved and self.start.surprise_group, surprise, bs, os_)
        sides = len(faces) - 1
        while True:
            outcome = faces[self.roll(sides)]
            if outcome != MUTUAL or self.n_alive != bs + os_:
                break
            c[REROLLS] += 1  # 相打ち would leave no one
        if outcome == WIN:
            self.decide(base_side, opp_side)
        elif outcome == LOSE:
            self.decide(opp_side, base_side)
        elif outcome == ESCAPE:
            c[ESCAPES] += 1
            if bs >= 2 and self.roll(2) == 2:
                c[ESCAPE_FAILURES] += 1
                self.pick(base_side, self.roll(bs))
        elif outcome == ALLY:
            self.ally(self.base, self.opp)
        else:
            c[MUTUAL_KILLS] += 1
            self.kill(base_side + opp_side)

    def decide(self, winners: list[int], losers: list[int]) -> None:
        """勝利/敗北: the loser falls, its partner or group rolls, the winning group's drop-out dice."""
        mark = len(self.fallen)
        self.kill([losers[0]])
        rest = losers[1:]
        joins = None
        if len(rest) == 1:
            face = self.roll(3)
            if face == 2:
                self.kill(rest)
            elif face == 3:
                self.c[PAIR_BETRAYALS] += 1
                joins = rest[0]
        elif rest:
            count = self.roll(len(rest) + 1) - 1
            if count:
                self.pick(rest, count)
        if len(winners) >= 2 and self.roll(2) == 1:
            cap = max(1, min(len(self.fallen) - mark, len(winners) - 1))
            self.pick(winners, self.roll(cap) if cap > 1 else 1)
        if joins is not None and self.alive[joins]:
            standing = [m for m in winners if self.alive[m]]
            if standing:
                self.ally(standing[0], joins)

    # --- shared moves ------------------------------------------------------------------------------------

    def pick(self, candidates: list[int], count: int) -> None:
        """脱落者決定ダイス: members numbered, a die per one who falls (all of them: no die)."""
        alive = self.alive
        while True:
            candidates = [m for m in candidates if alive[m]]
            count = min(count, len(candidates))
            if count >= len(candidates):
                self.kill(candidates)
                return
            chosen = candidates[self.roll(len(candidates)) - 1]
            self.kill([chosen])
            if count <= 1:
                return
            candidates = [m for m in candidates if m != chosen]
            count -= 1

    def kill(self, names: list[int]) -> None:
        """Everyone falls before anyone leaves a group (相打ち), as `ops.kill_together`."""
        alive = self.alive
        down = [x for x in names if alive[x]]
        for x in down:
            alive[x] = False
            self.fallen.append(x)
        self.n_alive -= len(down)
        self.c[ELIMINATIONS] += len(down)
        for x in down:
            self.detach(x)

    def detach(self, x: int) -> None:
        gid = self.group_of[x]
        if gid is not None:
            self.group_of[x] = None
            members = self.groups[gid]
            members.remove(x)
            if len(members) < 2:
                del self.groups[gid]
                for member in members:
                    self.group_of[member] = None

    def ally(self, a: int, b: int) -> None:
        group_of, groups = self.group_of, self.groups
        g1, g2 = group_of[a], group_of[b]
        if g1 is not None and g2 is not None:
            for member in groups.pop(g2):
                groups[g1].append(member)
                group_of[member] = g1
        elif g1 is not None or g2 is not None:
            gid = g1 if g1 is not None else g2
            newcomer = b if g1 is not None else a
            groups[gid].append(newcomer)  # type: ignore[index]
            group_of[newcomer] = gid
        else:
            gid = self.next_group
            self.next_group += 1
            groups[gid] = [a, b]
            group_of[a] = group_of[b] = gid
        self.c[ALLIANCES] += 1


def play_quick(state: State, dice: QuickDice) -> Outcome:
    """One simulated game from `state` (left unchanged): the step machine up to the next boundary, then
    `play_plain` for a plain season, or the step machine in place to the end for any other."""
    game = clone(state)
    plain = plain_rules(game)
    play_in_place(game, dice, until_boundary=plain)
    if game.ending is not None:
        return outcome_of(game)
    return play_plain(position(game), dice.random)
