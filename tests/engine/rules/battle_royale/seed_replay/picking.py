"""Replaying the opening and the picking of each battle's pair (seed (1)), and the rebuilt table."""

from __future__ import annotations

import re

from tests.engine.rules.battle_royale.seed_replay.core import ReplayCore
from tests.engine.rules.battle_royale.seed_replay.posts import (
    UNKNOWN,
    Line,
    PostedDie,
    quoted,
)


class Picking(ReplayCore):
    """Reads the opening's participant table, the selection and rival dice, and the renumbering."""

    def on_opening(self, at: Line, rest: list[Line]) -> None:
        if not self.expecting("opening", at):
            return
        limit = self.need(rest, r"脱落済みが(\d+)回続けて出たら都道府県表を作り直し", at)
        # seed line 74 says only 「繰り返し」: the count is the game's setting, stated here and kept to
        self.dead_pick_limit = int(limit[1]) if limit else 3
        self.need(rest, r"番号\s+都道府県\s+団体", at)
        while row := self.take(rest, r"(\d+)\s+(\S+)\s+単独"):
            self.numbering[int(row[1])] = row[2]
            self.roster.append(row[2])
        self.same(at, "participant numbers", sorted(self.numbering), list(range(1, len(self.roster) + 1)))
        count = self.need(rest, r"参加(\d+)", at)
        self.same(at, "参加N", int(count[1]) if count else None, len(self.roster))
        self.expect = "select"

    def on_selection(self, die: PostedDie) -> list[Line]:
        if not self.expecting("select", die.heading):
            return []
        table = self.book.get("【都道府県選択ダイス】")
        # seed line 74: 「その表に合わせd後の数値を直し」: dice2d47= becomes 2d(size of the table in force)
        self.same(die.heading, "selection dice", die.shape, (table.count, len(self.numbering)))
        rest = list(die.preamble) + die.after
        faces = die.faces or (0, 0)
        picks = [self.called(face, die.result or die.heading) for face in faces]
        stated = re.fullmatch(r"(\d+)\.(.+?)(（脱落）)? ／ (\d+)\.(.+?)(（脱落）)?", die.stated)
        if stated is None:
            self.problem(die.result or die.heading, f"unreadable pick {die.stated}")
            return rest
        said = [(int(stated[1]), stated[2], bool(stated[3])), (int(stated[4]), stated[5], bool(stated[6]))]
        for face, (name, out), words in zip(faces, picks, said, strict=True):
            self.same(die.result or die.heading, "selection number → prefecture", words, (face, name, out))
        self.after_pick(die, [name for name, _ in picks], [name for name, out in picks if out], rest)
        return rest

    def after_pick(self, die: PostedDie, names: list[str], dead: list[str], rest: list[Line]) -> None:
        """Seed (1): both out → again; one out → the other is base and picks a rival; same number → again."""
        first, second = names
        if dead:
            self.need(rest, re.escape(quoted(list(dict.fromkeys(dead))) + "は脱落済み"), die.heading)
            self.count_dead_pick()
            alive = [name for name in names if name not in dead]
            if len(alive) == 1:
                self.base, self.expect, self.rebase_due = alive[0], "rival", True
                self.take_rebase(rest, die.heading)
        elif first == second:
            self.need(rest, "同じ番号が二つ出たため振り直し", die.heading)
        else:
            self.dead_picks = 0
            self.pair, self.expect = (first, second), "heading"

    def count_dead_pick(self) -> None:
        self.dead_picks += 1
        if self.dead_picks >= self.dead_pick_limit:
            self.rebuild_due = True

    def take_rebase(self, rest: list[Line], at: Line) -> None:
        """Seed line 73: 脱落していない都道府県を(２)以降のダイスの基準とする, said in the pick's post (or
        in the renumbering that the same pick set off)."""
        said = self.take(rest, r"『(.+?)』を基準に【対戦都道府県選択ダイス】で相手を選び直し")
        if said:
            self.same(at, "base kept for the rival pick", said[1], self.base)
            self.rebase_due = False

    def on_rival(self, die: PostedDie) -> list[Line]:
        if not self.expecting("rival", die.heading) or self.base is None:
            return []
        if self.rebase_due:
            self.problem(die.heading, f"no post said that 『{self.base}』 stays base for the rival pick")
            self.rebase_due = False
        table = self.book.get("【対戦都道府県選択ダイス】")
        self.same(die.heading, "rival dice", die.shape, (table.count, len(self.numbering)))
        rest = list(die.preamble) + die.after
        self.need(rest, re.escape(f"基準『{self.base}』"), die.heading)
        face = (die.faces or (0,))[0]
        name, out = self.called(face, die.result or die.heading)
        stated = re.fullmatch(r"(\d+)\.(.+?)(（脱落）)?", die.stated)
        said = (int(stated[1]), stated[2], bool(stated[3])) if stated else die.stated
        self.same(die.result or die.heading, "rival number → prefecture", said, (face, name, out))
        if name == self.base:
            self.need(rest, "基準自身が出たため振り直し", die.heading)
        elif out:
            self.need(rest, re.escape(f"『{name}』は脱落済み"), die.heading)
            self.count_dead_pick()
        else:
            self.dead_picks = 0
            self.pair, self.expect = (self.base, name), "heading"
        return rest

    def on_renumbering(self, at: Line, rest: list[Line]) -> None:
        """Seed line 74: 繰り返し脱落した都道府県が選出される場合、新たに都道府県表を作り直す."""
        if not self.rebuild_due:
            self.problem(
                at, f"rebuilt after {self.dead_picks} dead picks, the stated limit is {self.dead_pick_limit}"
            )
        self.need(
            rest,
            rf"脱落済みの都道府県が{self.dead_pick_limit}回続けて選ばれたため、都道府県表を作り直します",
            at,
        )
        self.need(rest, r"番号\s+都道府県", at)
        table: dict[int, str] = {}
        while row := self.take(rest, r"(\d+)\s+(\S+)"):
            table[int(row[1])] = row[2]
        in_play = self.survivors() + (
            [UNKNOWN] if self.mastermind and self.hidden_mastermind(self.mastermind) else []
        )
        self.same(at, "rebuilt table numbers", sorted(table), list(range(1, len(table) + 1)))
        self.same(at, "rebuilt table = those still in", sorted(table.values()), sorted(in_play))
        self.need(rest, rf"次からは dice2d{len(table)}= で選出", at)
        self.numbering, self.dead_picks, self.rebuild_due = table, 0, False
        self.take_rebase(rest, at)
