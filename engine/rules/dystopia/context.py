"""What every command's handler gets: the state being changed, who wrote the post (and whether a GM),
the post's dice, and the lines of the answer; plus who may act for which character."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.report import Block, line
from engine.rng import Dice, RandomSource
from engine.rules.dystopia.state import DOWN, DystopiaError, Sheet, State
from engine.ruleset import Author, Owners, may_act


def plain_trip(trip: str) -> str:
    return trip.strip().lstrip("◆").strip()


def sheet_owners(sheet: Sheet) -> Owners:
    """Who plays a character: a PC's owner (a trip); an NPC, or a PC nobody has claimed, nobody (a GM's)."""
    return (f"◆{plain_trip(sheet.owner)}",) if sheet.owner and not sheet.npc else ()


@dataclass
class Context:
    state: State
    author: str
    source: RandomSource
    index: int = 0  # the command's line in the post: its dice streams are its own
    blocks: list[Block] = field(default_factory=list)
    gm: bool = False  # the author is a GM: a trip of the configuration's gm_trips (offline: the GM)

    @property
    def by(self) -> Author:
        return Author.of(self.author, gm=self.gm)

    @property
    def trip(self) -> str:
        """The author's trip (empty without one)."""
        return self.by.trip or ""

    @property
    def is_gm(self) -> bool:
        """A GM of the configuration's gm_trips, the one place a GM is named (none named: nobody)."""
        return self.gm

    def dice(self, purpose: str) -> Dice:
        return self.source.stream(f"{self.index}/{purpose}")

    def say(self, *parts: str) -> None:
        self.blocks.append(line(*parts))

    def may_act(self, sheet: Sheet) -> bool:
        """A PC: its owner or a GM; an NPC, or a PC nobody has claimed yet: a GM only."""
        return may_act(self.by, sheet_owners(sheet))

    def owned(self) -> list[Sheet]:
        """The PCs the author's trip owns."""
        return [
            s for s in self.state.sheets.values() if s.owner and self.by.is_owner(f"◆{plain_trip(s.owner)}")
        ]

    def actor(self, name: str | None) -> Sheet:
        """The character a command acts for: the named one (if the author may act for it), or the
        author's own PC (the one sheet their trip owns)."""
        if name is not None:
            sheet = self.state.sheet(name)
            if not self.may_act(sheet):
                if sheet.npc:
                    raise DystopiaError(f"{sheet.name}はNPCです（NPCはGMだけが動かします）")
                if not sheet.owner:
                    raise DystopiaError(
                        f"{sheet.name}にはまだ持ち主がいません（【キャラシート】に「名前: {sheet.name}」と書いて貼ると自分のPCになります）"
                    )
                raise DystopiaError(f"{sheet.name}はあなたのキャラクターではありません")
            return sheet
        owned = self.owned()
        if len(owned) == 1:
            return owned[0]
        if owned:
            names = "、".join(s.name for s in owned)
            raise DystopiaError(
                f"キャラクターが複数います（{names}）。「名前: 肉体判定」のように書いてください"
            )
        raise DystopiaError(
            "あなたのキャラクターが見つかりません。「名前: 肉体判定」のように名前を書くか、【キャラシート】を貼ってください"
        )


def require_up(sheet: Sheet, what: str) -> None:
    """戦闘不能 rules 3 and 5: a downed character uses nothing but BP and makes no checks."""
    if sheet.dead:
        raise DystopiaError(f"{sheet.name}は死亡しています")
    if sheet.down:
        raise DystopiaError(f"{sheet.name}は[{DOWN}状態]のため{what}できません（BPの用途だけ使えます）")


def require_affectable(sheet: Sheet) -> None:
    """戦闘不能 rule 7: a downed character receives no effect but revival and とどめ."""
    if sheet.dead:
        raise DystopiaError(f"{sheet.name}は死亡しています")
    if sheet.down:
        raise DystopiaError(f"{sheet.name}は[{DOWN}状態]のため、解除する効果ととどめ以外の効果を受けません")
