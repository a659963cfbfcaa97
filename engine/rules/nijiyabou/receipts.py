"""What the receipt promises for an accepted order of にじ野望 (`AnnotatesReceipts.remark`): given the state
before the season and the accepted orders of the season written before it, what will run at the
deadline as things stand. A receipt is a promise: an accepted line without a word runs.

- **One command per area** (§3 「エリアごとに…どれかひとつを選んで」): orders share a slot
  (`order_key`: the author, the area, the command or the designation) and the last one written runs
  (`engine.clock.periods.effective_orders` keeps it, `resolution.py` takes it), so the later line says so:
  「神奈川は1命令：配信が有効、徴兵は取消」.
- **参加**: the first claim of a liver wins and a player joins once; the receipt names the country
  joined. A claim an earlier claim takes (the liver, or the player) is refused (`void`).
- **A country nobody has joined**: its orders count only from the author whose claim this season
  gives it to him; while nobody's claim is in, they will not run as things stand (the receipt says
  so); once another writer's claim is in, they are refused (`void`).
- **同盟・降伏**: both countries' commands in the same season; while the other side's is not in,
  the receipt says the pact will not be made as things stand.
- **出陣**: a unit the rules keep home (兵力0, moved — `war.sortie_units`) stays and the rest go; a
  sortie from an area an earlier order attacks is called off (§11).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.nijiyabou import authority, war
from engine.rules.nijiyabou.diplomacy import country_named
from engine.rules.nijiyabou.grammar import (
    ALLY,
    CLAIM,
    DELEGATE,
    DEMAND,
    DIPLOMACY,
    MOVE,
    ORGANIZE,
    RELIEF,
    SORTIE,
    YIELD,
    Act,
    AreaOrder,
)
from engine.rules.nijiyabou.home import Moved
from engine.rules.nijiyabou.names import key
from engine.rules.nijiyabou.state import State
from engine.ruleset import Author, Order

DESIGNATIONS = (ORGANIZE, RELIEF, DELEGATE)


def order_key(order: Order) -> str:
    """The slot an order fills: one command, one 編成, one 救援, one 委任 per area; one act of each
    kind per liver — per author, so that another author's line never hides a player's."""
    command = order.command
    author = Author.of(order.author).trip or order.author
    if isinstance(command, AreaOrder):
        slot = command.kind if command.kind in DESIGNATIONS else "command"
        return f"{author}|{command.area}|{slot}"
    assert isinstance(command, Act)
    return f"{author}|{command.kind}|{key(command.liver)}"


def claims(state: State, orders: Sequence[Order]) -> dict[str, Order]:
    """The claims that will win, as `resolve` settles them (first claim wins, one liver a player):
    liver key → the claiming order."""
    won: dict[str, Order] = {}
    last = {order_key(order): order for order in orders}  # a repeated line replaces the earlier one
    for order in orders:
        if last[order_key(order)] is not order:
            continue
        command = order.command
        if not isinstance(command, Act) or command.kind != CLAIM:
            continue
        target = authority.claim_target(state, command.liver)
        if (
            target is None
            or target in won
            or authority.problem(state, command, order.author) is not None
            or any(authority.same_writer(o.author, order.author) for o in won.values())
        ):
            continue
        won[target] = order
    return won


def _claim_note(state: State, order: Order, earlier: Sequence[Order]) -> str | None:
    target = authority.claim_target(state, order.command.liver)
    if target is None or authority.problem(state, order.command, order.author) is not None:
        return None  # the receipt refuses it with the reason (`check`)
    if claims(state, [*earlier, order]).get(target) is not order:
        return None  # refused at the receipt (`void`)
    areas = "・".join(state.areas_of(target)) if target in state.countries else ""
    return f"{areas + 'の' if areas else ''}{state.livers[target].name}として参加、季節の判定で確定"


def _lost_claim(state: State, order: Order, earlier: Sequence[Order]) -> str | None:
    """A claim an earlier one of the season takes: first claim wins, one liver a player (§2 leaves
    the choice to the GM; the bot's rule is HELP's)."""
    command = order.command
    target = authority.claim_target(state, command.liver)
    if target is None or authority.problem(state, command, order.author) is not None:
        return None
    won = claims(state, earlier)
    if target in won and not authority.same_writer(won[target].author, order.author):
        return f"{state.livers[target].name}には先に>>{won[target].post}の参加があります（同じライバーは先に書いた人が有効）"
    mine = next((k for k, o in won.items() if authority.same_writer(o.author, order.author)), None)
    if mine is None or mine == target:
        return None
    return (
        f"先の参加（>>{won[mine].post} {state.livers[mine].name}）が有効です"
        "（参加は1人1ライバー。変えるときは 取消 のあとで参加）"
    )


def _taken_country(state: State, order: Order, earlier: Sequence[Order]) -> str | None:
    """An order for a country nobody has joined whose lord an earlier claim of the season gives to
    another writer: only that writer's orders count from this season."""
    command = order.command
    if order.gm or not isinstance(command, AreaOrder) or command.area not in state.areas:
        return None
    owner = state.areas[command.area].owner
    if owner is None or authority.claimed(state, owner):
        return None
    lord = state.countries[owner].lord
    claim = claims(state, earlier).get(lord)
    if claim is None or authority.same_writer(claim.author, order.author):
        return None
    name = state.livers[lord].name
    return f"{command.area}の国（{name}）には>>{claim.post}の参加があり、命令できるのはそのプレイヤーだけです"


def void(state: State, order: Order, earlier: Sequence[Order]) -> str | None:
    """Why an order `check` took cannot run whatever else is written this season, short of a 取消 of
    an earlier claim (then it may be written again): refused at the receipt, so it is not taken as
    accepted and a 準備完了 beside it does not close the season."""
    command = order.command
    if isinstance(command, Act):
        return _lost_claim(state, order, earlier) if command.kind == CLAIM else None
    return _taken_country(state, order, earlier)


def _replaced(order: Order, earlier: Sequence[Order]) -> str | None:
    key = order_key(order)
    before = next((o for o in reversed(earlier) if order_key(o) == key), None)
    if before is None:
        return None
    new, old = order.command, before.command
    if isinstance(new, Act):
        return f"先の{new.kind}（>>{before.post}）は取消、こちらが有効"
    if new.kind in DESIGNATIONS:
        return f"{new.area}の{new.kind}は1つ：こちらが有効、先の{new.kind}（>>{before.post}）は取消"
    if old.kind == new.kind:
        return f"{new.area}は1命令：こちらの{new.kind}が有効、先の{old.kind}（>>{before.post}）は取消"
    return f"{new.area}は1命令：{new.kind}が有効、{old.kind}は取消"


def _unclaimed(state: State, command: AreaOrder, order: Order, earlier: Sequence[Order]) -> str | None:
    owner = state.areas[command.area].owner
    if order.gm or owner is None or authority.claimed(state, owner):
        return None
    lord = state.countries[owner].lord
    if lord in claims(state, earlier):
        return None  # the author's own claim (another's is refused: `void`)
    name = state.livers[lord].name
    return f"このままでは実行されません：{command.area}の国（{name}）に参加していません（先に 参加 {name}）"


def _sortie(state: State, command: AreaOrder, earlier: Sequence[Order]) -> str | None:
    notes = []
    attackers = [
        o.post
        for o in earlier
        if isinstance(o.command, AreaOrder) and o.command.kind == SORTIE and o.command.target == command.area
    ]
    if attackers:
        notes.append(f"{command.area}は>>{attackers[0]}の出陣先のため、このままなら出陣は取りやめです")
    units, left_home = war.sortie_units(state, command, Moved())
    organized = any(
        isinstance(o.command, AreaOrder) and o.command.kind == ORGANIZE and o.command.area == command.area
        for o in earlier
    )
    if units and left_home:
        notes.append("、".join(left_home) + "。ほかの部隊で出陣します")
    elif not units and not command.units and not organized:
        notes.append("今の編成では出陣できる部隊がありません（同じ季節の編成で決めれば、その部隊で出陣）")
    return "。".join(notes) or None


def _leaving(state: State, command: AreaOrder, earlier: Sequence[Order]) -> str | None:
    """A designation naming a liver an earlier 移動 takes out of the area: the moves come first
    (§10), so the designation finds the liver gone."""
    named = [*command.livers, *(unit.liver for unit in command.units)]
    for before in reversed(earlier):
        move = before.command
        if not (isinstance(move, AreaOrder) and move.kind == MOVE and move.area == command.area):
            continue
        gone = [name for name in named if key(name) in {key(n) for n in move.livers}]
        if gone:
            return (
                f"{'・'.join(gone)}は>>{before.post}の移動で{command.area}を離れるため、"
                f"この{command.kind}は実行されません"
            )
        break  # only the last command of the area runs
    return None


_ANSWER = {ALLY: ALLY, DEMAND: YIELD, YIELD: DEMAND}  # 外交 that takes both countries' commands


def _agreement(state: State, command: AreaOrder, earlier: Sequence[Order]) -> str | None:
    """同盟 and 降伏 take both countries' commands in the same season (§4 「両国の合意」): say so while
    the other side's is not in."""
    if command.act not in _ANSWER:
        return None
    mine, other = state.areas[command.area].owner, country_named(state, command.target)
    if mine is None or other is None or other == mine:
        return None
    for before in earlier:
        answer = before.command
        if (
            isinstance(answer, AreaOrder)
            and answer.kind == DIPLOMACY
            and answer.act == _ANSWER[command.act]
            and state.areas[answer.area].owner == other
            and country_named(state, answer.target) == mine
        ):
            return None
    wanted = f"外交 {_ANSWER[command.act]} {command.area}"
    return f"{state.country_label(other)}の国の「{wanted}」がまだないため、このままでは成立しません"


def remark(state: State, order: Order, earlier: Sequence[Order]) -> str | None:
    """The receipt's word on an accepted order (None: it runs as written)."""
    command = order.command
    if isinstance(command, Act) and command.kind == CLAIM:
        notes = [_claim_note(state, order, earlier)]
    else:
        notes = [_replaced(order, earlier)]
        if isinstance(command, AreaOrder):
            notes.append(_unclaimed(state, command, order, earlier))
            if command.kind == SORTIE:
                notes.append(_sortie(state, command, earlier))
            if command.kind in DESIGNATIONS:
                notes.append(_leaving(state, command, earlier))
            if command.kind == DIPLOMACY:
                notes.append(_agreement(state, command, earlier))
    found = [note for note in notes if note]
    return "。".join(found) or None
