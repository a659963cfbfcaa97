"""Replaying the posts about the state: 生き残り表, 戦況まとめ, the mastermind's reveal and final, the winner."""

from __future__ import annotations

import re

from tests.engine.rules.battle_royale.seed_replay.core import ReplayCore
from tests.engine.rules.battle_royale.seed_replay.posts import (
    NAME_LIST,
    SURVIVOR,
    UNKNOWN,
    Line,
    PostedDie,
    names_in,
    quoted,
)
from tests.engine.rules.battle_royale.seed_replay.seed_book import NORMAL, SEED_LIVES, option_entries


class StatePosts(ReplayCore):
    """Reads what the bot says of the game as a whole, and the 黒幕決戦 that ends it."""

    def on_survivors(self, at: Line, rest: list[Line]) -> None:
        """Seed ④: 人数が減った場合は生き残り表の新規作成; the numbers are those of the table in force."""
        gone = self.take(rest, rf"今回の脱落：{NAME_LIST}")
        self.same(at, "今回の脱落", names_in(gone[1]) if gone else [], self.since_table)
        rows = {}  # the compact table: `1北海道 2青森[1] …` a few to a line, maybe after `地方：`
        while row := self.take(rest, rf"(?:[^\s：]+：)?{SURVIVOR}(?: {SURVIVOR})*"):
            for number, name, group in re.findall(SURVIVOR, row[0]):
                rows[int(number)] = (name, f"団体{group}" if group else "単独")
        number = {name: n for n, name in self.numbering.items()}
        expected = {number.get(name, 0): (name, self.group_of(name) or "単独") for name in self.survivors()}
        self.same(at, "survivor table rows", rows, expected)
        self.check_group_lines(at, rest, required=False)
        left = self.need(rest, r"残り(\d+)", at)
        self.same(at, "残りN", int(left[1]) if left else None, len(self.survivors()))
        named = self.take(rest, r"次のダイス：(【.+?】)")
        self.next_named = named[1] if named else None
        self.since_table, self.table_due = [], False

    def check_group_lines(self, at: Line, rest: list[Line], required: bool) -> None:
        """団体k：members lines (or 団体：なし): optional in a 生き残り表, required in a 戦況まとめ."""
        stated: dict[str, list[str]] = {}
        while line := self.take(rest, rf"(団体\d+)：{NAME_LIST}"):
            stated[line[1]] = sorted(names_in(line[2]))
        if self.take(rest, "団体：なし"):
            stated["なし"] = []
        groups = {label: sorted(members) for label, members in self.groups.items()} or {"なし": []}
        if stated or required:
            self.same(at, "groups", stated, groups)

    def on_summary(self, at: Line, rest: list[Line]) -> None:
        number = re.fullmatch(r"【戦況まとめ（第(\d+)戦終了時点）】", at.text)
        self.same(at, "戦況まとめ battle number", int(number[1]) if number else None, self.battles)
        left = self.need(rest, r"残り(\d+)", at)
        self.same(at, "残りN", int(left[1]) if left else None, len(self.survivors()))
        self.check_group_lines(at, rest, required=True)
        order = self.need(rest, r"脱落順：(.*)", at)
        self.same(at, "脱落順", order[1].split("→") if order else None, [f"『{name}』" for name in self.out])

    def on_reveal(self, at: Line, rest: list[Line]) -> None:
        """Seed: 残機がゼロになった時点で複数の都道府県が残っていれば、残りの都道府県と黒幕の決戦となる."""
        if not self.expecting("select", at):
            return
        if self.table_due:
            self.problem(at, "people went out but no 【生き残り表】 was posted before the reveal")
        self.need(rest, "黒幕の残機がゼロになった――", at)
        named = self.need(rest, r"黒幕の正体は『(.+?)』！", at)
        self.revealed = True
        if named and named[1] == self.mastermind and len(self.life_lines) != self.lives:
            self.problem(
                at,
                f"「黒幕の残機がゼロになった」 after {len(self.life_lines)} designations and falls of "
                f"『{self.mastermind}』 (lines {', '.join(map(str, self.life_lines))}), "
                f"but the game has {self.lives} lives (the opening's 設定, else seed line 173's {SEED_LIVES}; "
                "lost by designations, line 174, and by falls, line 175)",
                kind="mastermind lives",
            )
        self.expect = "finale_heading"

    def on_finale_heading(self, at: Line, rest: list[Line]) -> None:
        if not self.expecting("finale_heading", at):
            return
        said = self.need(rest, r"黒幕『(.+?)』 vs (.+)", at)
        shown = (said[1], names_in(said[2])) if said else None
        self.same(at, "the final's sides", shown, (self.mastermind, self.survivors()))
        if len(self.survivors()) < 2:
            self.problem(at, "seed line 176 calls the final only when several prefectures are left")
        self.expect = "finale"

    def on_finale(self, die: PostedDie) -> list[Line]:
        """Seed line 177: 決戦時、ダイスの基準は黒幕。残っている都道府県の数だけダイスの選択肢に「敗北」が加算される.

        Line 178 (協力者の数だけ「勝利」を追加？) is not checked: the collaborators are drawn with
        secret dice and never named in the transcript."""
        if not self.expecting("finale", die.heading) or self.mastermind is None:
            return []
        rest, left = list(die.preamble) + die.after, self.survivors()
        normal, n = self.book.get(*NORMAL), len(self.survivors())
        added = f"{normal.sides + 1}～{normal.sides + n}.敗北" if n > 1 else f"{normal.sides + 1}.敗北"
        self.need(rest, re.escape(f"基準『{self.mastermind}』"), die.heading)
        self.need(rest, re.escape(f"黒幕 vs {quoted(left)}"), die.heading)
        self.need(rest, re.escape(f"残り{n}都道府県につき敗北＋{n}"), die.heading)
        self.same(die.heading, "final options", die.options, [*normal.options, added])
        self.same(die.heading, "final dice", die.shape, (1, normal.sides + n))
        entry = option_entries([*normal.options, added]).get((die.faces or (0,))[0])
        self.same(die.result or die.heading, "final face → outcome", die.stated, entry)
        if die.stated != "敗北":
            self.problem(die.heading, f"a final ending in {die.stated}: not replayed by this check")
            return rest
        self.eliminations(rest, [self.mastermind], die.heading)
        self.need(rest, re.escape(f"黒幕『{self.mastermind}』、ついに倒れる！"), die.heading)
        self.mastermind_defeated = True
        self.battle_done()
        return rest

    def on_winner(self, at: Line, rest: list[Line]) -> None:
        """Seed: 最後の一人になるまで続ける / 最終的に残った都道府県の優勝となる (line 54)."""
        if not self.expecting("select", at):
            return
        if self.table_due:
            self.problem(at, "people went out but no 【生き残り表】 was posted before the winner")
        said = self.need(rest, r"優勝は『(.+?)』！（全(\d+)戦）", at)
        in_play = self.survivors() + (
            [UNKNOWN] if self.mastermind and self.hidden_mastermind(self.mastermind) else []
        )
        self.same(at, "the winner is the last one left", [said[1]] if said else None, in_play)
        self.same(at, "全N戦", int(said[2]) if said else None, self.battles)
        self.winner, self.expect = said[1] if said else None, "over"
