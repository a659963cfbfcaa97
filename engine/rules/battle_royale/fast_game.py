"""The quick game of `fast_sim.py`: a second implementation of the rules on integer indexes, in place, with
no object per die — selection, policy, surprise, the battle tables, the group dice, infighting, and the
seasons' 黒幕 (designations, lives, the faked death, the final) and 地区復活 (`Game`); the タッグマッチ is
`fast_tag.TagGame` on the same selection. Each method is the rule module's step of the same name
(`selection.py`, `battle.py`, `group_dice.py`, `infighting.py`, `aftermath.py`, `season_rules.py`) and
rolls the same dice in the same order; a die with one possible outcome is decided without a roll, as the
step machine's `advance` does. tests/engine/rules/battle_royale/test_fast_sim.py holds the two to the
same games.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.battle_royale.common_steps import BattleRoyaleError
from engine.rules.battle_royale.fast_position import Outcome, Position
from engine.rules.battle_royale.fast_seasons import Seasons
from engine.rules.battle_royale.fast_tables import (
    ALLIANCES,
    ALLY,
    COUNTERS,
    DEAD_PICKS,
    DISSOLUTIONS,
    ELIMINATIONS,
    ENCOUNTERS,
    ESCAPE,
    ESCAPE_FAILURES,
    ESCAPES,
    INFIGHT_BATTLES,
    INFIGHTS,
    LOSE,
    MAX_DICE_PER_GAME,
    MM_DESIGNATIONS,
    MM_FAKE_DEATHS,
    MM_LIVES_LOST,
    MUTUAL,
    MUTUAL_KILLS,
    NORMAL,
    PAIR_BETRAYALS,
    RECONCILIATIONS,
    RENUMBERINGS,
    REROLLS,
    RESELECTIONS,
    SURPRISE_FAILURES,
    SURPRISES,
    WIN,
    battle_faces,
)


class Game(Seasons):
    """One game, changed in place. `alive` is the status (a mastermind faking its death stays alive, as
    `hidden`); `left` counts the contenders (everyone alive but the mastermind)."""


    __slots__ = (
        "alive",
        "base",
        "battles",
        "c",
        "collaborators",
        "dice",
        "done",
        "fallen",
        "group_of",
        "groups",
        "hidden",
        "left",
        "lives",
        "mm",
        "next_group",
        "opp",
        "options",
        "region_of",
        "regions",
        "reserve",
        "rnd",
        "start",
        "streak",
        "table",
        "teams",
        "watch",
    )

    def __init__(self, start: Position, rnd: Callable[[], float]) -> None:
        self.start, self.rnd, self.options = start, rnd, start.options
        self.alive, self.reserve = list(start.alive), list(start.held)
        self.table = list(start.table)
        self.group_of: list[int | None] = [None] * len(self.alive)
        self.groups: dict[int, list[int]] = {}
        for gid, members in start.groups:
            self.groups[gid] = list(members)
            for member in members:
                self.group_of[member] = gid
        self.next_group = start.next_group
        self.dice, self.streak, self.battles = start.dice, start.dead_streak, start.battles
        self.fallen: list[int] = []
        self.c = [0] * len(COUNTERS)
        self.base = self.opp = 0
        self.region_of, self.regions, self.done = start.region_of, start.regions, set(start.revival_done)
        self.mm, self.lives, self.collaborators = start.mastermind, start.lives, list(start.collaborators)
        self.teams: list[list[int]] | None = None  # a タッグマッチ's teams (`fast_tag.TagGame`)
        self.count()

    def count(self) -> None:
        """The mastermind's flags and the contenders, from `mm` and `alive` (again after the set-up)."""
        mm = self.mm
        active = mm >= 0 and not self.start.defeated
        self.watch = mm if active else -1  # the one whose designation costs a life
        self.hidden = mm if active and self.start.hidden else -1  # publicly dead, still in play
        self.left = sum(self.alive) - (1 if mm >= 0 and self.alive[mm] else 0)

    def setup_done(self) -> None:
        """`selection._setup_done`: the table is everyone in play, roster order."""
        self.table = [i for i, up in enumerate(self.alive) if up]
        self.count()

    def roll(self, sides: int) -> int:
        self.dice += 1
        return int(self.rnd() * sides) + 1

    def pick_face(self, sides: int) -> int:
        """A pick die: one candidate is decided without a roll (the step machine's one-sided die)."""
        return self.roll(sides) if sides > 1 else 1

    def play(self) -> Outcome:
        if self.start.setup:
            self.play_setup(list(self.start.setup))
        final, revival = False, self.options.revival
        renumber_each = self.options.renumber_after_dead_picks == 0
        while self.dice < MAX_DICE_PER_GAME:
            if not final:
                final = self.select()
            mark, revived = len(self.fallen), False
            if final:
                final = False
                ending = self.final_round()
                if ending is not None:
                    return ending
            else:
                gid = self.group_of[self.base]
                if gid is not None and gid == self.group_of[self.opp]:
                    if not self.infight(gid):
                        continue  # 都道府県選択ダイスの振り直し: no battle was fought
                else:
                    self.battle()
                self.battles += 1
                revived = revival and self.revive(mark)
            if renumber_each and (len(self.fallen) > mark or revived):
                self.renumber()
            if self.watch >= 0 and (self.lives <= 0 or self.left <= 1):
                final = True  # final_due: the final replaces the next selection
            elif self.left == 1:
                return self.ending("winner")
        raise BattleRoyaleError(f"{MAX_DICE_PER_GAME}個のダイスを振っても決着しませんでした")

    def final_round(self) -> Outcome | None:
        """The 黒幕's final as a battle of the game: the outcome when it ends the game."""
        result = self.final()
        if result == "unopposed":
            return self.ending("mastermind")  # nobody left to face it: no battle is fought
        self.battles += 1
        return self.ending(result) if result else None

    def ending(self, kind: str) -> Outcome:
        """The winners `aftermath._end_or_next` names for `kind`."""
        alive, mm = self.alive, self.mm
        standing = [c for c in self.collaborators if alive[c]]
        contenders = [i for i, up in enumerate(alive) if up and i != mm]
        winners = {
            "winner": contenders,
            "mastermind": [mm, *standing],
            "reconciled": [mm, *contenders],
            "fallen": standing,
        }[kind]
        return self.outcome(kind, winners)

    def outcome(self, kind: str, winners: list[int]) -> Outcome:
        start = self.start
        names = start.names
        counters = dict(start.counters)
        for key, value in zip(COUNTERS, self.c, strict=True):
            if value:
                counters[key] = counters.get(key, 0) + value
        return Outcome(
            kind,
            tuple(names[i] for i in winners),
            self.battles,
            self.dice,
            start.eliminated + tuple(names[i] for i in self.fallen),
            {key: value for key, value in counters.items() if value},
        )

    # --- (1) selection ---------------------------------------------------------------------------------

    def select(self) -> bool:
        """【都道府県選択ダイス】 until two living ones meet (via 【対戦都道府県選択ダイス】 after a dead pick).
        True when a roll named the mastermind for its last life: the final replaces the battle."""
        alive, rnd, watch = self.alive, self.rnd, self.watch
        while True:
            table = self.table
            n = len(table)
            a, b = table[int(rnd() * n)], table[int(rnd() * n)]
            self.dice += 1
            if (a == watch or b == watch) and self.designate():
                return True
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
                    if k == base:
                        continue
                    if k == watch and self.designate():
                        return True
                    if alive[k]:
                        self.opp = k
                        break
                    self.dead_pick()
                break
        self.streak = 0
        self.c[ENCOUNTERS] += 1
        return False

    def designate(self) -> bool:
        """黒幕へのダイスの指定 (`season_rules.designate`): a life lost; True when it was the last."""
        self.c[MM_DESIGNATIONS] += 1
        self.lose_life()
        return self.lives <= 0

    def lose_life(self) -> None:
        if self.lives > 0:
            self.lives -= 1
            self.c[MM_LIVES_LOST] += 1

    def dead_pick(self) -> None:
        self.streak += 1
        self.c[DEAD_PICKS] += 1
        limit = self.options.renumber_after_dead_picks
        if limit and self.streak >= limit:
            self.renumber()

    def renumber(self) -> None:
        """Only what can still be picked, the hidden mastermind's slot last (`common_steps.renumber`)."""
        alive, hidden = self.alive, self.hidden
        self.table = [k for k in self.table if alive[k]]
        if hidden >= 0 and hidden in self.table:
            self.table.remove(hidden)
            self.table.append(hidden)
        self.streak = 0
        self.c[RENUMBERINGS] += 1

    def side(self, key: int) -> list[int]:
        gid = self.group_of[key]
        return [key] if gid is None else [key] + [m for m in self.groups[gid] if m != key]

    def public(self, members: list[int]) -> list[int]:
        """Those the thread sees alive (`is_publicly_alive`): the hidden mastermind is not numbered."""
        alive, hidden = self.alive, self.hidden
        return [m for m in members if alive[m] and m != hidden]

    def leaves_nobody(self, victims: list[int]) -> bool:
        """`would_leave_nobody`: every contender is among `victims` (all alive, the mastermind aside)."""
        count = len(victims)
        if self.mm >= 0 and self.mm in victims:
            count -= 1
        return count == self.left

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
            if outcome != MUTUAL:
                break
            victims = self.public(self.groups[gid]) if self.options.infight_mutual == "group" else [base, opp]
            if not self.leaves_nobody(victims):
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
        """戦闘方針, 奇襲判定 (a failed surprise moves 基準 to the other side), the battle die, its outcome.
        One method, as a call more per battle costs the quick game 2 %; a タッグマッチ takes over at the
        battle die (`fast_tag.TagGame.team_battle`)."""
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
        group_surprise = surprise and not moved and self.options.surprise_equal_groups == "group"
        faces = battle_faces(group_surprise, surprise, len(base_side), len(opp_side))
        if self.teams is not None:  # a タッグマッチ
            self.team_battle(faces, base_side, opp_side)
            return
        sides = len(faces) - 1
        while True:
            outcome = faces[self.roll(sides)]
            if outcome == MUTUAL and self.leaves_nobody(base_side + opp_side):
                c[REROLLS] += 1  # 相打ち would leave no one
            elif outcome == ALLY and self.hidden >= 0 and self.hidden in (self.base, self.opp):
                c[REROLLS] += 1  # 「正体のわからない何者か」とは手を組めない (it always fights alone)
            else:
                break
        if outcome == WIN:
            self.decide(base_side, opp_side)
        elif outcome == LOSE:
            self.decide(opp_side, base_side)
        elif outcome == ESCAPE:
            self.escape(base_side)
        elif outcome == ALLY:
            self.ally(self.base, self.opp)
        else:
            c[MUTUAL_KILLS] += 1
            self.kill(base_side + opp_side)

    def escape(self, base_side: list[int]) -> None:
        """逃走: nobody falls, but a group rolls 逃走判定 and, failing, how many fall and who."""
        self.c[ESCAPES] += 1
        fleeing = self.public(base_side) if len(base_side) >= 2 else base_side
        if len(fleeing) >= 2 and self.roll(2) == 2:
            self.c[ESCAPE_FAILURES] += 1
            self.pick(fleeing, self.roll(len(fleeing)))

    def decide(self, winners: list[int], losers: list[int]) -> None:
        """勝利/敗北: the loser falls, its partner or group rolls, the winning group's drop-out dice."""
        mark = len(self.fallen)
        self.kill([losers[0]])
        rest = losers[1:]
        if rest and self.hidden >= 0:
            rest = self.public(rest)
        joins = None
        if len(rest) == 1:
            while True:
                face = self.roll(3)
                if face != 3 or not (self.hidden >= 0 and self.hidden in winners):
                    break
                self.c[REROLLS] += 1  # the unknown takes no partner
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
            living = winners if self.hidden < 0 else self.public(winners)
            cap = max(1, min(len(self.fallen) - mark, len(living) - 1))
            self.pick(living, self.roll(cap) if cap > 1 else 1)
        if joins is not None:
            standing = self.public(winners)
            if standing and self.alive[joins] and joins != self.hidden:
                self.ally(standing[0], joins)

    # --- shared moves ------------------------------------------------------------------------------------

    def pick(self, candidates: list[int], count: int) -> None:
        """脱落者決定ダイス: members numbered, a die per one who falls (all of them: no die)."""
        alive, hidden = self.alive, self.hidden
        while True:
            candidates = [m for m in candidates if alive[m] and m != hidden]
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
        """Everyone falls before anyone leaves a group (相打ち), as `common_steps.kill_together`; the
        mastermind only fakes its death."""
        alive, mm = self.alive, self.mm
        down = [x for x in names if alive[x]]
        for x in down:
            if x == mm:
                self.fake_death()
                continue
            alive[x] = False
            self.fallen.append(x)
            self.left -= 1
            self.c[ELIMINATIONS] += 1
        for x in down:
            self.detach(x)

    def fake_death(self) -> None:
        """The thread sees the mastermind fall once; it plays on hidden, and may lose a life for it."""
        if self.hidden < 0:
            self.fallen.append(self.mm)
            self.hidden = self.mm
        self.c[MM_FAKE_DEATHS] += 1
        if self.options.mastermind_death_costs_life:
            self.lose_life()

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
