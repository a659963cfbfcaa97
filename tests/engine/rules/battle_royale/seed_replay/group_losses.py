"""Replaying a group losing some of its own (seed (3)b): the judge, the count and the pick dice."""

from __future__ import annotations

import re

from tests.engine.rules.battle_royale.seed_replay.core import ReplayCore
from tests.engine.rules.battle_royale.seed_replay.posts import NAME_LIST, Line, PostedDie, names_in, quoted
from tests.engine.rules.battle_royale.seed_replay.seed_book import option_entries


class GroupLosses(ReplayCore):
    """Reads the dice that decide whether, how many and which members of a group go out."""

    def on_winners_check(self, die: PostedDie) -> list[Line]:
        if not self.expecting("winners_check", die.heading) or self.drop is None:
            return []
        outcome, _, rest = self.seed_die(die, self.book.get("【＜団体用＞脱落判定ダイス】"))
        self.check_group_named(rest, r"勝利した団体：", die.heading)
        if outcome == "いない":
            self.battle_done()
        else:
            self.expect = "winners_count"
        return rest

    def on_winners_count(self, die: PostedDie) -> list[Line]:
        """Seed line 110: この人数は敗北者側と同じ、もしくは少なくてはならない (at least one, since いる).

        The bot also keeps one winner alive (勝者側は最低一人残る), a reading the seed does not spell
        out; the range checked is 1..min(the beaten side's losses, the group's size - 1)."""
        if not self.expecting("winners_count", die.heading) or self.drop is None:
            return []
        drop, rest = self.drop, list(die.preamble) + die.after
        self.check_group_named(rest, r"勝利した団体：", die.heading)
        cap = self.need(rest, r"敗北者側の脱落(\d+)人と同じか少なく、勝者側は最低一人残る", die.heading)
        self.same(die.heading, "the beaten side's losses", int(cap[1]) if cap else None, drop.losers_out)
        drop.left = self.count_die(die, list(range(1, min(drop.losers_out, len(drop.group) - 1) + 1)))
        drop.why, self.expect = "団体勝利時の脱落", "pick"
        return rest

    def on_escape_check(self, die: PostedDie) -> list[Line]:
        if not self.expecting("escape_check", die.heading) or self.drop is None:
            return []
        outcome, _, rest = self.seed_die(die, self.book.get("【＜団体用＞逃走判定ダイス】"))
        self.check_group_named(rest, r"逃走する団体：", die.heading)
        if outcome == "成功":  # 成功で脱落者ゼロ
            self.eliminations(rest, [], die.heading)
            self.battle_done()
        else:
            self.expect = "escape_count"
        return rest

    def on_escape_count(self, die: PostedDie) -> list[Line]:
        """Seed: 失敗した場合、脱落者の人数を決め、逃走を選択した者も含め平等に番号を割り当て… (1..all)."""
        if not self.expecting("escape_count", die.heading) or self.drop is None:
            return []
        drop, rest = self.drop, list(die.preamble) + die.after
        self.check_group_named(rest, r"逃走した団体：", die.heading)
        self.need(rest, "逃走を選択した者も含めて数える", die.heading)
        drop.left = self.count_die(die, list(range(1, len(drop.group) + 1)))
        drop.why, self.expect = "逃走失敗", "pick"
        return rest

    def check_group_named(self, rest: list[Line], prefix: str, at: Line) -> None:
        assert self.drop
        said = self.need(rest, prefix + NAME_LIST, at)
        self.same(
            at,
            f"the group of 「{prefix}」",
            sorted(names_in(said[1])) if said else None,
            sorted(self.drop.group),
        )

    def count_die(self, die: PostedDie, allowed: list[int]) -> int:
        """A 'how many' die built from the seed's prose: one option k.k人 per count allowed, or none."""
        if die.dice is None:  # only one count possible: the bot says so and rolls nothing
            forced = re.fullmatch(r"(\d+)人（ほかの結果がないためダイスなしで確定）", die.stated)
            self.same(
                die.heading, "a count fixed without dice", [int(forced[1])] if forced else die.stated, allowed
            )
            return allowed[0] if allowed else 0
        options = [f"{i}.{count}人" for i, count in enumerate(allowed, start=1)]
        self.same(die.heading, "count options", die.options, options)
        self.same(die.heading, "count dice", die.shape, (1, len(allowed)))
        face = (die.faces or (1,))[0]
        chosen = allowed[face - 1] if 0 < face <= len(allowed) else 0
        self.same(die.result or die.heading, "count face → outcome", die.stated, f"{chosen}人")
        return chosen

    def on_pick(self, die: PostedDie) -> list[Line]:
        """Seed: メンバーに番号を割り振り、ダイスにて脱落者を決定する (or all of them, when all must go)."""
        if not self.expecting("pick", die.heading) or self.drop is None:
            return []
        drop, rest = self.drop, list(die.preamble) + die.after
        left = self.need(rest, r"あと(\d+)人（(.+?)）", die.heading)
        self.same(
            die.heading, "still to go", (int(left[1]), left[2]) if left else None, (drop.left, drop.why)
        )
        if die.dice is None:
            self.same(
                die.heading,
                "all of them, without dice",
                (die.stated, drop.left),
                ("全員脱落（ほかの結果がないためダイスなしで確定）", len(drop.group)),
            )
            going = list(drop.group)
        else:
            self.same(
                die.heading,
                "the members numbered",
                sorted(names_in("".join(die.options))),
                sorted(drop.group),
            )
            self.same(die.heading, "pick dice", die.shape, (1, len(drop.group)))
            face = (die.faces or (1,))[0]
            going = names_in(option_entries(die.options).get(face, ""))
            self.same(die.result or die.heading, "pick face → member", die.stated, quoted(going))
        self.eliminations(rest, going, die.heading)
        drop.group = [name for name in drop.group if name not in going]
        drop.left -= len(going)
        if drop.left <= 0:
            self.battle_done()
        return rest
