"""The whole replay: every reader of the seed_replay package in one class, and replay() to run it."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tests.engine.rules.battle_royale.seed_replay.battle import Battle
from tests.engine.rules.battle_royale.seed_replay.group_losses import GroupLosses
from tests.engine.rules.battle_royale.seed_replay.picking import Picking
from tests.engine.rules.battle_royale.seed_replay.seed_book import BATTLE_DICE, SEED_LIVES, SeedBook
from tests.engine.rules.battle_royale.seed_replay.state_posts import StatePosts


class Replay(Picking, Battle, GroupLosses, StatePosts):
    """Walks a transcript's sections in order, keeping only what the thread has said."""

    dice_readers: ClassVar[dict[str, Any]] = {
        "【都道府県選択ダイス】": Picking.on_selection,
        "【対戦都道府県選択ダイス】": Picking.on_rival,
        "【戦闘方針ダイス】": Battle.on_policy,
        "【奇襲判定ダイス】": Battle.on_ambush,
        "【仲間割れ判定ダイス】": Battle.on_infight,
        "【仲間割れ戦闘後ダイス】": Battle.on_after_infight,
        "【＜団体用＞脱落判定ダイス】": GroupLosses.on_winners_check,
        "【＜団体用＞脱落人数ダイス】": GroupLosses.on_winners_count,
        "【＜団体用＞逃走判定ダイス】": GroupLosses.on_escape_check,
        "【＜団体用＞逃走失敗時脱落人数ダイス】": GroupLosses.on_escape_count,
        "【脱落者決定ダイス】": GroupLosses.on_pick,
        "【黒幕決戦ダイス】": StatePosts.on_finale,
        **dict.fromkeys(BATTLE_DICE, Battle.on_battle),
    }
    section_readers = (
        (re.compile(r"【.+バトロワ】"), Picking.on_opening),
        (re.compile(r"【第\d+戦(（仲間割れ）)?】"), Battle.on_battle_heading),
        (re.compile(r"【戦況まとめ（.*"), StatePosts.on_summary),
        (re.compile(re.escape("【生き残り表】")), StatePosts.on_survivors),
        (re.compile(re.escape("【都道府県表（作り直し）】")), Picking.on_renumbering),
        (re.compile(re.escape("【黒幕判明】")), StatePosts.on_reveal),
        (re.compile(re.escape("【黒幕決戦】")), StatePosts.on_finale_heading),
        (re.compile(re.escape("【優勝】")), StatePosts.on_winner),
    )


def replay(transcript: str, seed: str) -> Replay:
    """The whole transcript replayed by the seed; the problems found are in .problems."""
    revealed = re.search(r"^黒幕の正体は『(.+?)』！$", transcript, flags=re.M)
    stated = re.search(r"^設定: .*黒幕あり（残機(\d+)", transcript, flags=re.M)
    lives = int(stated[1]) if stated else SEED_LIVES
    game = Replay(SeedBook(seed), mastermind=revealed[1] if revealed else None, lives=lives)
    game.play(transcript)
    return game
