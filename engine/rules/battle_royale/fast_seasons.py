"""The seasons' special rules in the quick game (`fast_game.py`), as `season_rules.py` plays them: the
set-up dice (地区代表, タッグ結成, the 黒幕's camp — its pick, the camp's size, each collaborator), the
黒幕's final battle, and 地区復活ダイス.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.battle_royale.fast_tables import (
    ALLY,
    ELIMINATIONS,
    ESCAPE,
    FINAL_BATTLES,
    LOSE,
    MUTUAL,
    NORMAL,
    REROLLS,
    REVIVAL_FAILURES,
    REVIVALS,
    WIN,
)
from engine.rules.battle_royale.state import Options


class Seasons:
    """Mixed into `fast_game.Game`, whose state these methods read and change (declared here for them)."""

    __slots__ = ()
    alive: list[bool]
    reserve: list[bool]
    regions: list[list[int]]
    region_of: tuple[int, ...]
    done: set[int]
    options: Options
    mm: int
    collaborators: list[int]
    hidden: int
    watch: int
    left: int
    table: list[int]
    fallen: list[int]
    c: list[int]
    team_of: list[int | None]  # a TagGame's
    roll: Callable[[int], int]
    pick_face: Callable[[int], int]
    public: Callable[[list[int]], list[int]]
    kill: Callable[[list[int]], None]
    detach: Callable[[int], None]
    setup_done: Callable[[], None]
    form_team: Callable[[list[int]], None]  # a TagGame's
    team_battle: Callable[[tuple, list[int], list[int]], None]  # a TagGame's

    def play_setup(self, queue: list[tuple[str, int]]) -> None:
        """Roll the set-up dice left in `queue` ((kind, region index) pairs, as the state's pending steps),
        each pushing what follows it to the front as the step machine does, then close the set-up."""
        while queue:
            kind, region = queue.pop(0)
            if kind == "rep_pick":
                self._rep_pick(region, queue)
            elif kind == "tag_pair":
                self._tag_pair(queue)  # a TagGame only
            elif kind == "mm_pick":
                participants = self._participants()
                self.mm = participants[self.pick_face(len(participants)) - 1]
                queue.insert(0, ("mm_camp", -1))
            elif kind == "mm_camp":
                size = self.pick_face(self.options.mastermind_camp_die)
                wanted = min(size - 1, len(self._participants()) - 2)
                queue[0:0] = [("mm_collab", -1)] * max(0, wanted)
            else:  # mm_collab
                taken = {self.mm, *self.collaborators}
                candidates = [i for i in self._participants() if i not in taken]
                self.collaborators.append(candidates[self.pick_face(len(candidates)) - 1])
        self.setup_done()

    def _participants(self) -> list[int]:
        return [i for i, up in enumerate(self.alive) if up]

    def _rep_pick(self, region: int, queue: list[tuple[str, int]]) -> None:
        """地区代表選出ダイス: one reserve member a die, or all of them when they are no more than needed."""
        members = self.regions[region]
        chosen = sum(1 for m in members if self.alive[m])
        reserve = [m for m in members if self.reserve[m]]
        need = min(self.options.revival_representatives, len(members)) - chosen
        picked = reserve if len(reserve) <= need else [reserve[self.pick_face(len(reserve)) - 1]]
        for member in picked:
            self.reserve[member], self.alive[member] = False, True
        if need - len(picked) > 0 and len(reserve) > len(picked):
            queue.insert(0, ("rep_pick", region))

    def _tag_pair(self, queue: list[tuple[str, int]]) -> None:
        """タッグ結成ダイス: the first unpaired one's partner; a last one left alone is a team by itself."""
        team_of = self.team_of
        first, *others = [i for i, up in enumerate(self.alive) if up and team_of[i] is None]
        partner = others[self.pick_face(len(others)) - 1]
        self.form_team([first, partner])
        rest = [i for i in others if i != partner]
        if len(rest) >= 2:
            queue.insert(0, ("tag_pair", -1))
        elif rest:
            self.form_team(rest)

    # --- the 黒幕's final, 地区復活 ------------------------------------------------------------------

    def final(self) -> str:
        """黒幕との決戦 (`season_rules._final_start`, `_final_apply`): the ending it decides, "" when the
        mastermind falls and the others fight on, "unopposed" when nobody was left to face it."""
        c, mm, alive, options = self.c, self.mm, self.alive, self.options
        if self.hidden < 0:
            self.detach(mm)
        c[FINAL_BATTLES] += 1
        remaining = [i for i, up in enumerate(alive) if up and i != mm]
        allies = [i for i in remaining if i in self.collaborators]
        enemies = [i for i in remaining if i not in allies]
        if not enemies:
            return "unopposed"
        defeats = len(enemies) + (len(allies) if options.mastermind_collaborators_count_as_defeats else 0)
        wins = len(allies) if options.mastermind_collaborators_add_wins else 0
        while True:
            face = self.roll(5 + defeats + wins)
            outcome = NORMAL[face] if face <= 5 else LOSE if face <= 5 + defeats else WIN
            if (
                (outcome == ESCAPE and options.mastermind_final_escape == "reroll")
                or (outcome == MUTUAL and options.mastermind_final_mutual == "reroll")
                or (outcome == ALLY and options.mastermind_final_alliance == "reroll")
            ):
                c[REROLLS] += 1
                continue
            break
        if outcome == WIN:
            for name in enemies:
                self.kill([name])
            return "mastermind"
        if outcome == ALLY:
            return "reconciled"
        alive[mm] = False  # 敗北, the mastermind fleeing, or 相打ち: it falls for good
        if self.hidden < 0:
            self.fallen.append(mm)
        self.hidden = self.watch = -1
        c[ELIMINATIONS] += 1
        if outcome == MUTUAL:
            for name in enemies:
                self.kill([name])
            return "fallen"
        return ""

    def revive(self, mark: int) -> bool:
        """地区復活ダイス for each region whose last representative the thread saw fall in this battle
        (`season_rules.revival_steps`); True when someone came back."""
        last_of: dict[int, int] = {}
        for name in self.fallen[mark:]:
            last_of[self.region_of[name]] = name
        due = []
        for region, slot in last_of.items():
            members = self.regions[region]
            if region in self.done or self.public(members):
                continue
            if any(self.reserve[m] for m in members):
                due.append((region, slot))
        revived = False
        for region, slot in due:
            if self.roll(5) != 5:
                self.c[REVIVAL_FAILURES] += 1
                continue
            self.done.add(region)
            reserve = [m for m in self.regions[region] if self.reserve[m]]
            name = reserve[self.pick_face(len(reserve)) - 1]
            self.reserve[name], self.alive[name] = False, True
            self.left += 1
            if slot in self.table:
                self.table[self.table.index(slot)] = name
            else:
                self.table.append(name)
            self.c[REVIVALS] += 1
            revived = True
        return revived
