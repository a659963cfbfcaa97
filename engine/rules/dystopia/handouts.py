"""裏ハンドアウト (back handouts): committed when the session opens, published by the seed's paths.

Each handout has a key of 32 bytes drawn from the rules' secret stream `secret/handout/<PC>` (known to
the bot alone until published). The opening answer posts its commitment, HMAC-SHA256(key,
"dystopia-handout|PC|TEXT") in hex, never the text; publishing posts the text and the key, and
`verify_handout` (anyone, offline) recomputes the commitment: no one, the GM included, can change a
handout once committed. The text is NFKC-normalised with each line stripped before hashing, so a
board's width or spacing changes cannot break the check.

The paths (the seed's 裏ハンドアウトルール):
1. the owner shows it (`裏ハンドアウト公開 相手`) to someone they hold strength ≥ 4 toward, who must agree;
2. an investigator with strength ≥ 4 toward the owner asks (`調査 相手`); the owner agrees (published)
   or refuses: a 1D10 picks the stat (1,2 肉体 3,4 集中 5,6 反射 7,8 知識 9,10 幸運) and an opposed check
   follows, the investigated side winning ties; the investigator's win publishes it, the owner's win
   bars the owner from showing it for the rest of the scene (茶番判定の防止);
3. one who knows A's handout passes it to B (`伝達 A B`) with strength ≥ 5 toward B, unless the GM
   refuses (`却下 名前`); B may refuse.
A public board has no private channel: the first time a handout is shown it is published in the
thread; who knows it in the fiction is kept (`known_by`).
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

from engine.report import line, section
from engine.rules.dystopia.checks import Check
from engine.rules.dystopia.context import Context, require_up
from engine.rules.dystopia.resolution import opposed
from engine.rules.dystopia.state import DystopiaError, Handout, Request, Sheet

SHOW_STRENGTH = 4  # 自分から明かす・調べる：感情の強度4以上
PASS_STRENGTH = 5  # 知っている他人のRHを伝える：感情の強度5以上
INVESTIGATION_TABLE = {
    1: "肉体",
    2: "肉体",
    3: "集中",
    4: "集中",
    5: "反射",
    6: "反射",
    7: "知識",
    8: "知識",
    9: "幸運",
    10: "幸運",
}
COMMIT_LABEL = "コミットメント(HMAC-SHA256)"
KEY_STREAM = "handout/"  # + the owner: the secret stream (`secret/handout/PC`) a handout's key is drawn from


def canonical_text(text: str) -> str:
    lines = [unicodedata.normalize("NFKC", part).strip() for part in text.strip().split("\n")]
    return "\n".join(lines)


def commitment(key: bytes, owner: str, text: str) -> str:
    message = f"dystopia-handout|{owner}|{canonical_text(text)}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def verify_handout(owner: str, text: str, key_hex: str, committed: str) -> bool:
    """Whether a published handout (its text and key) is the one committed at the start."""
    try:
        key = bytes.fromhex(key_hex.strip())
    except ValueError:
        return False
    return len(key) == 32 and hmac.compare_digest(commitment(key, owner, text), committed.strip().lower())


def commit_all(ctx: Context) -> None:
    """Make every handout's key and post the commitments (once, when the session opens)."""
    state = ctx.state
    if state.committed:
        return
    state.committed = True
    if not state.handouts:
        return
    ctx.say("【裏ハンドアウト コミットメント】（公開時に本文と鍵で照合できます）")
    for owner, handout in state.handouts.items():
        stream = ctx.source.stream(f"secret/{KEY_STREAM}{owner}")
        key = bytes(stream.roll(256) - 1 for _ in range(32))
        handout.key, handout.commitment = key.hex(), commitment(key, owner, handout.text)
        ctx.say(f"裏ハンドアウト {owner} {COMMIT_LABEL}: {handout.commitment}")


def key_faces(key: bytes) -> list[tuple[int, int]]:
    """The d256 faces `commit_all` drew a key from: what `verify` replays once the key is published."""
    return [(256, byte + 1) for byte in key]


def _handout(ctx: Context, owner: str) -> Handout:
    found = ctx.state.handouts.get(owner)
    if found is None:
        raise DystopiaError(f"{owner}に裏ハンドアウトはありません")
    if ctx.state.sheet(owner).npc and not ctx.state.options.npc_handouts:
        raise DystopiaError(
            "NPCの裏ハンドアウトにこのルールは使いません（シナリオの「NPCの裏ハンドアウト」）"
        )
    return found


def publish(ctx: Context, owner: str, reader: str) -> None:
    handout = ctx.state.handouts[owner]
    if reader not in handout.known_by:
        handout.known_by.append(reader)
    if handout.published:
        ctx.say(f"{reader}は{owner}の裏ハンドアウトを知りました（本文は公開済み）")
        return
    handout.published = True
    ctx.blocks.append(
        section(
            line(f"【{owner}の裏ハンドアウト公開】（{reader}が知りました）"),
            *(line(text) for text in canonical_text(handout.text).split("\n")),
            line(f"鍵 裏ハンドアウト {owner}: {handout.key}"),
            line(f"{COMMIT_LABEL}: {handout.commitment}"),
        )
    )


def _strength_needed(sheet: Sheet, to: str, needed: int, what: str) -> None:
    have = sheet.strength_to(to)
    if have < needed:
        raise DystopiaError(f"{what}には{to}への感情の強度が{needed}以上必要です（{sheet.name}：{have}）")


def _ask(ctx: Context, request: Request) -> None:
    state = ctx.state
    state.requests = [
        r
        for r in state.requests
        if (r.kind, r.asker, r.handout) != (request.kind, request.asker, request.handout)
    ]
    state.requests.append(request)


def show(ctx: Context, actor: str | None, reader: str) -> None:
    """Path 1: the owner shows their handout to `reader`, who must agree."""
    owner = ctx.actor(actor)
    handout = _handout(ctx, owner.name)
    ctx.state.sheet(reader)
    if handout.barred_scene == ctx.state.scene_number:
        raise DystopiaError(
            f"{owner.name}は調査の対決に勝ったため、このシーン中は裏ハンドアウトを見せられません（茶番判定の防止）"
        )
    _strength_needed(owner, reader, SHOW_STRENGTH, "裏ハンドアウトを見せる")
    _ask(ctx, Request("show", owner.name, reader, owner.name))
    ctx.say(
        f"{owner.name}が{reader}に裏ハンドアウトを見せようとしています。{reader}は「同意 {owner.name}」か「拒否 {owner.name}」"
    )


def investigate(ctx: Context, actor: str | None, owner: str) -> None:
    """Path 2: an investigator with strength ≥ 4 toward the owner asks to see it."""
    asker = ctx.actor(actor)
    _handout(ctx, owner)
    if owner == asker.name:
        raise DystopiaError("自分の裏ハンドアウトは調査できません")
    _strength_needed(asker, owner, SHOW_STRENGTH, "裏ハンドアウトを調べる")
    _ask(ctx, Request("investigate", asker.name, owner, owner))
    ctx.say(
        f"{asker.name}が{owner}の裏ハンドアウトを調べようとしています。{owner}は「同意 {asker.name}」か「拒否 {asker.name}」（拒否すると対決判定）"
    )


def pass_on(ctx: Context, actor: str | None, owner: str, reader: str) -> None:
    """Path 3: one who knows A's handout passes it on to B (strength ≥ 5 toward B)."""
    teller = ctx.actor(actor)
    handout = _handout(ctx, owner)
    ctx.state.sheet(reader)
    if teller.name not in handout.known_by:
        raise DystopiaError(f"{teller.name}は{owner}の裏ハンドアウトを知りません")
    _strength_needed(teller, reader, PASS_STRENGTH, "知っている裏ハンドアウトを伝える")
    _ask(ctx, Request("pass", teller.name, reader, owner))
    ctx.say(
        f"{teller.name}が{owner}の裏ハンドアウトを{reader}に伝えようとしています（GMは「却下 {teller.name}」で拒否できます）。{reader}は「同意 {teller.name}」か「拒否 {teller.name}」"
    )


def _request(ctx: Context, answerer: str, asker: str) -> Request:
    found = next((r for r in ctx.state.requests if r.answerer == answerer and r.asker == asker), None)
    if found is None:
        raise DystopiaError(f"{asker}から{answerer}への裏ハンドアウトの申し出はありません")
    ctx.state.requests.remove(found)
    return found


def agree(ctx: Context, actor: str | None, asker: str) -> None:
    answerer = ctx.actor(actor)
    request = _request(ctx, answerer.name, asker)
    if request.kind == "show" and ctx.state.handouts[request.handout].barred_scene == ctx.state.scene_number:
        raise DystopiaError(
            f"{request.handout}は調査の対決に勝ったため、このシーン中は裏ハンドアウトを見せられません（申し出は取り消し。茶番判定の防止）"
        )
    reader = request.asker if request.kind == "investigate" else answerer.name
    ctx.say(f"{answerer.name}が同意しました")
    publish(ctx, request.handout, reader)


def refuse(ctx: Context, actor: str | None, asker: str) -> None:
    answerer = ctx.actor(actor)
    request = _request(ctx, answerer.name, asker)
    if request.kind != "investigate":
        ctx.say(f"{answerer.name}が拒否しました（無理やり見せることはできません）")
        return
    investigator = ctx.state.sheet(request.asker)
    require_up(investigator, "対決判定")
    require_up(answerer, "対決判定")
    face = ctx.dice("investigation").roll(10)
    stat = INVESTIGATION_TABLE[face]
    ctx.say(f"{answerer.name}が拒否しました。対決する基本能力値 1D10 ＞ {face} ＞ {stat}")
    winner = opposed(ctx, investigator, Check(investigator.name, stat), answerer, stat, handout=answerer.name)
    settle(ctx, answerer.name, investigator.name, won=winner == investigator.name)


def settle(ctx: Context, owner: str, investigator: str, *, won: bool) -> None:
    """An investigation's opposed check decided (or turned by a BP reroll): the investigator's win
    publishes the handout and lifts any bar; the owner's bars the owner from showing it this scene
    (its pending offers to show it lapse)."""
    handout = ctx.state.handouts[owner]
    if won:
        if handout.barred_scene == ctx.state.scene_number:
            handout.barred_scene = -1
            ctx.say(f"{investigator}の勝ち：{owner}が裏ハンドアウトを見せられない制限は解除")
        publish(ctx, owner, investigator)
        return
    handout.barred_scene = ctx.state.scene_number
    ctx.state.requests = [r for r in ctx.state.requests if not (r.kind == "show" and r.handout == owner)]
    ctx.say(f"{owner}の勝ち：このシーン中、{owner}は裏ハンドアウトを見せられません（茶番判定の防止）")


def veto(ctx: Context, teller: str) -> None:
    """The GM refuses a passing-on (path 3)."""
    found = [r for r in ctx.state.requests if r.kind == "pass" and r.asker == teller]
    if not found:
        raise DystopiaError(f"{teller}の裏ハンドアウトの伝達はありません")
    ctx.state.requests = [r for r in ctx.state.requests if r not in found]
    ctx.say(f"GMが{teller}の裏ハンドアウトの伝達を拒否しました")
