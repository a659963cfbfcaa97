"""Scenes and emotions: the GM moves the scene (オープニング → ドラマ → クライマックス → エンディング) and
opens the 感情ロール at a scene's end; a player rolls 1D6 (1D10 in a short session) for one
connection and raises its strength by 0 to the roll, never past 10 on one connection or 21 in all (a
raise over the roll or a cap is refused, not clamped). Each PC has `emotion_rolls` rolls (6 when the
GM does not say: the seed's 迷ったら6回).
"""

from __future__ import annotations

from engine.rules.dystopia.context import Context
from engine.rules.dystopia.sheets import number
from engine.rules.dystopia.state import MAX_STRENGTH, SCENES, DystopiaError, State

SCENE_WORDS = {
    "OP": "オープニング",
    "オープニング": "オープニング",
    "ドラマ": "ドラマ",
    "ドラマシーン": "ドラマ",
    "クライマックス": "クライマックス",
    "クライマックスフェイズ": "クライマックス",
    "エンディング": "エンディング",
    "ED": "エンディング",
}


def scene_name(word: str) -> str:
    found = SCENE_WORDS.get(word.upper() if word.isascii() else word)
    if found is None:
        raise DystopiaError(f"シーンは{'・'.join(SCENES)}のどれかです（{word}）")
    return found


def scene_title(state: State) -> str:
    """シーン3：ドラマ — or the scene alone before the GM's first シーン (number 0)."""
    return f"シーン{state.scene_number}：{state.scene}" if state.scene_number else state.scene


def enter_scene(state: State, word: str) -> list[str]:
    """The next scene (the first one the GM names is シーン1): the 感情ロール close and the handout
    requests lapse; what was closed, for the answer (nothing when nothing was open)."""
    closed = []
    if state.emotion_open or state.pending_raise:
        closed.append("感情ロールは締め切り")
    if state.requests:
        closed.append("裏ハンドアウトの申し出は取り消し")
    state.scene = scene_name(word)
    state.scene_number += 1
    state.emotion_open, state.emotion_allowed = False, []
    state.pending_raise = {}
    state.requests = []
    return closed


def move_scene(ctx: Context, word: str) -> None:
    closed = enter_scene(ctx.state, word)
    ctx.say(scene_title(ctx.state) + (f"（{'、'.join(closed)}）" if closed else ""))


def open_emotions(ctx: Context, *, open_: bool, names: tuple[str, ...]) -> None:
    """The GM allows the 感情ロール (of the PCs named, or of everyone), or closes them."""
    state = ctx.state
    for name in names:
        state.sheet(name)
    state.emotion_open, state.emotion_allowed = open_, list(names)
    die = 10 if state.options.short_session else 6
    who = "、".join(names) if names else "全員"
    ctx.say(f"感情ロールを許可（{who}、1D{die}）" if open_ else "感情ロールを締め切りました")


def emotion_roll(ctx: Context, actor: str | None, to: str) -> None:
    state = ctx.state
    sheet = ctx.actor(actor)
    if not state.emotion_open:
        raise DystopiaError("感情ロールはGMが許可したとき（シーンの終わり）だけです")
    if state.emotion_allowed and sheet.name not in state.emotion_allowed:
        raise DystopiaError(f"GMは{sheet.name}の感情ロールを許可していません")
    if sheet.connection(to) is None:
        raise DystopiaError(f"{sheet.name}に{to}へのコネクションはありません")
    if sheet.name in state.pending_raise:
        raise DystopiaError("前の感情ロールの「感情上昇 相手 点数」がまだです")
    left = state.emotion_left.get(sheet.name, state.options.emotion_rolls)
    if left <= 0:
        raise DystopiaError(
            f"{sheet.name}の感情ロールは残っていません（{state.options.emotion_rolls}回まで）"
        )
    die = 10 if state.options.short_session else 6
    face = ctx.dice("emotion").roll(die)
    state.emotion_left[sheet.name] = left - 1
    state.pending_raise[sheet.name] = [to, face]
    ctx.say(f"{sheet.name}の感情ロール（{to}） 1D{die} ＞ {face}（残り{left - 1}回）")
    ctx.say(f"「感情上昇 {to} 点数」で0～{face}点上げてください")


def emotion_raise(ctx: Context, actor: str | None, to: str, amount_text: str) -> None:
    state = ctx.state
    sheet = ctx.actor(actor)
    pending = state.pending_raise.get(sheet.name)
    if pending is None or pending[0] != to:
        raise DystopiaError(f"{sheet.name}の{to}への感情ロールはありません")
    amount, roll = number(amount_text, "上げる点数"), int(pending[1])
    if amount < 0:
        raise DystopiaError("上げる点数は0以上の整数です")
    link = sheet.connection(to)
    assert link is not None
    if amount > roll:
        raise DystopiaError(f"上げられるのは出目の{roll}点までです（{amount}）")
    if link.strength + amount > MAX_STRENGTH:
        raise DystopiaError(f"1つのコネクションは{MAX_STRENGTH}点までです（今{link.strength}点）")
    if sheet.emotion_total + amount > state.options.max_total:
        limit = state.options.max_total
        raise DystopiaError(f"感情の強度の合計は{limit}までです（今{sheet.emotion_total}点）")
    link.strength += amount
    del state.pending_raise[sheet.name]
    ctx.say(
        f"{sheet.name}の{to}への感情（{link.emotion}）：強度{link.strength - amount}→{link.strength}、BP{sheet.bp}"
    )
