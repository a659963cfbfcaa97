"""The タッグマッチ in the quick game: `Game`'s selection and battle dice over a table of teams, with the
season's defeats (`season_rules.tag_defeat`: a lone member falls, a team rolls 一人生存／全滅), its
「手を組む」 (only where a lone survivor fights) and the 相打ち of the last two teams (`tag_mutual.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.battle_royale.common_steps import BattleRoyaleError
from engine.rules.battle_royale.fast_game import Game
from engine.rules.battle_royale.fast_position import Outcome, Position
from engine.rules.battle_royale.fast_tables import (
    ALLIANCES,
    ALLY,
    ELIMINATIONS,
    ESCAPE,
    ESCAPES,
    LOSE,
    MAX_DICE_PER_GAME,
    MUTUAL,
    MUTUAL_KILLS,
    REROLLS,
    TAG_WIPES,
    WIN,
)

ONE_LEFT = 1  # 【タッグ敗北後ダイス】 1.一人生存 2.全滅


class TagGame(Game):
    """Table entries are team indexes: `alive` says which teams have someone left (what the selection
    reads); `up` is each prefecture's."""

    __slots__ = ("standing", "team_of", "up")
    teams: list[list[int]]

    def __init__(self, start: Position, rnd: Callable[[], float]) -> None:
        super().__init__(start, rnd)
        self.up = self.alive
        self.teams: list[list[int]] = [list(members) for _, members in start.teams]
        self.team_of: list[int | None] = [None] * len(self.up)
        for team, members in enumerate(self.teams):
            for member in members:
                self.team_of[member] = team
        if not start.setup:
            self.setup_done()

    def form_team(self, members: list[int]) -> None:
        for member in members:
            self.team_of[member] = len(self.teams)
        self.teams.append(list(members))

    def setup_done(self) -> None:
        """The table lists the teams in the order they were formed."""
        if self.start.setup:
            self.table = list(range(len(self.teams)))
        self.alive = [bool(members) for members in self.teams]
        self.standing = sum(self.alive)
        self.left = sum(self.up)

    def play(self) -> Outcome:
        if self.start.setup:
            self.play_setup(list(self.start.setup))
        renumber_each = self.options.renumber_after_dead_picks == 0
        while self.dice < MAX_DICE_PER_GAME:
            self.select()
            mark = len(self.fallen)
            self.battle()
            self.battles += 1
            if renumber_each and len(self.fallen) > mark:
                self.renumber()
            if self.standing == 1:
                team = next(t for t in self.table if self.teams[t])
                return self.outcome("winner", self.teams[team])
        raise BattleRoyaleError(f"{MAX_DICE_PER_GAME}個のダイスを振っても決着しませんでした")

    def side(self, key: int) -> list[int]:
        return list(self.teams[key])

    def team_battle(self, faces: tuple, base_side: list[int], opp_side: list[int]) -> None:
        """The battle die and its outcome between two teams (`Game.battle` rolled policy and surprise)."""
        c, teams = self.c, self.teams
        bs, os_ = len(base_side), len(opp_side)
        outcome = self.battle_die(faces, bs, os_)
        if outcome == WIN:
            self.defeat(self.opp)
        elif outcome == LOSE:
            self.defeat(self.base)
        elif outcome == ESCAPE:
            c[ESCAPES] += 1
        elif outcome == ALLY:
            mover, host = (self.base, self.opp) if bs == 1 and os_ > 1 else (self.opp, self.base)
            for member in teams[mover]:
                teams[host].append(member)
                self.team_of[member] = host
            teams[mover] = []
            self.alive[mover] = False
            self.standing -= 1
            c[ALLIANCES] += 1
        elif outcome == MUTUAL:
            c[MUTUAL_KILLS] += 1
            rolling = []
            for team in (self.base, self.opp):
                if len(teams[team]) == 1:
                    self.kill(list(teams[team]))
                elif teams[team]:
                    rolling.append(team)
            for team in rolling:
                self.defeat(team)

    def battle_die(self, faces: tuple, bs: int, os_: int) -> int | None:
        """The battle die until it stands: 相打ち leaving no one is rolled again (or, between the last two
        teams with a pair among them, settled by their defeats: None); 手を組む where no lone survivor
        fights is rolled again or read as 逃走 (tag_match.ally_inapplicable)."""
        c, sides = self.c, len(faces) - 1
        while True:
            outcome = faces[self.roll(sides)]
            if outcome == MUTUAL and self.left == bs + os_:
                if bs <= 1 and os_ <= 1:
                    c[REROLLS] += 1
                    continue
                c[MUTUAL_KILLS] += 1
                if self.last_mutual():
                    return None
                continue
            if outcome == ALLY and bs != 1 and os_ != 1:
                if self.options.tag_ally_inapplicable == "reroll":
                    c[REROLLS] += 1
                    continue
                return ESCAPE
            return outcome

    def defeat(self, team: int) -> None:
        """A beaten team: a lone member falls; a pair or more rolls 一人生存 or 全滅."""
        members = self.teams[team]
        if len(members) == 1:
            self.kill(list(members))
        elif members:
            if self.roll(2) == ONE_LEFT:
                self.one_left(team)
            else:
                self.c[TAG_WIPES] += 1
                self.kill(list(members))

    def one_left(self, team: int) -> None:
        """タッグ死亡者決定ダイス for a pair, タッグ生存者決定ダイス for a larger team."""
        members = list(self.teams[team])
        chosen = members[self.pick_face(len(members)) - 1]
        self.kill([chosen] if len(members) == 2 else [m for m in members if m != chosen])

    def last_mutual(self) -> bool:
        """相打ち of the last two teams (`tag_mutual.py`): both fates first, then the deaths; False when
        both are wiped out (the battle die is rolled again)."""
        teams, pair = self.teams, (self.base, self.opp)
        fates = {team: self.roll(2) for team in pair if len(teams[team]) > 1}
        if all(fates.get(team) != ONE_LEFT for team in pair):
            self.c[REROLLS] += 1
            return False
        for team in pair:
            if fates.get(team) != ONE_LEFT:
                if len(teams[team]) > 1:
                    self.c[TAG_WIPES] += 1
                self.kill(list(teams[team]))
        for team in pair:
            if fates.get(team) == ONE_LEFT:
                self.one_left(team)
        return True

    def kill(self, names: list[int]) -> None:
        up, teams = self.up, self.teams
        for x in names:
            if not up[x]:
                continue
            up[x] = False
            self.fallen.append(x)
            self.left -= 1
            self.c[ELIMINATIONS] += 1
            team = self.team_of[x]
            if team is not None:
                teams[team].remove(x)
                if not teams[team]:
                    self.alive[team] = False
                    self.standing -= 1
