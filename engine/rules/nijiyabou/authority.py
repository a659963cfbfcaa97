"""Who may order what: a player is known by the trip of `名前◆トリップ`, plays one liver, and speaks
for the areas of the country that liver is lord of, except the areas delegated (委任) to a vassal
player's liver, which that vassal orders (all but 外交).

- A country nobody has joined is commanded by no player: it does nothing and defends. Only a GM's
  order (`Order.gm`: a configured GM's trip; every line of the offline tools) may command it, and a
  GM's order may command any area. So 外交 (同盟, 降伏) always has each country's own lord or the GM
  behind it (「両国の合意」).
- 参加 needs a trip (a bare name is anyone's). Claims settle when the season is resolved (first claim
  wins); an order for the country claimed in the same season is taken at the receipt (`intake`) and
  judged again, after the claims, by `resolve`. The receipt's word on it is `receipts.py`'s.
"""

from __future__ import annotations

import difflib

from engine.rules.nijiyabou import war
from engine.rules.nijiyabou.grammar import (
    CLAIM,
    COMMANDS,
    CONSCRIPT,
    DEFECT,
    DIPLOMACY,
    JOINT,
    MOVE,
    POACH,
    REVOLT,
    SORTIE,
    STREAM,
    Act,
    AreaOrder,
    Command,
)
from engine.rules.nijiyabou.home import Moved
from engine.rules.nijiyabou.names import area_name, key, quoted
from engine.rules.nijiyabou.state import State
from engine.ruleset import Author, may_act


def plays(player: str | None, author: str) -> bool:
    """Whether `author` is the player a liver lists (None: nobody plays it): the one rule over it."""
    return may_act(Author.of(author), (player,) if player else ())


def same_writer(a: str | None, b: str | None) -> bool:
    """Whether two orders were written by one player (by the trip; by the name when neither has one)."""
    return a is not None and b is not None and Author.of(a).same_as(Author.of(b))


def played_liver(state: State, author: str) -> str | None:
    """The living liver `author` plays."""
    return next(
        (k for k, liver in state.livers.items() if liver.alive and plays(liver.player, author)),
        None,
    )


def claimed(state: State, country: str | None) -> bool:
    return country is not None and state.livers[state.countries[country].lord].player is not None


def controller(state: State, area: str) -> str | None:
    """The liver whose player orders `area`: its delegate (a vassal with a player), else its lord."""
    where = state.areas[area]
    if where.owner is None:
        return None
    delegate = state.livers.get(where.delegate) if where.delegate else None
    if delegate is not None and delegate.alive and delegate.player and delegate.country == where.owner:
        return where.delegate
    return state.countries[where.owner].lord


def claim_target(state: State, text: str) -> str | None:
    """The liver a 参加 names: by name, or by the area it started in (its country's lord there)."""
    area = area_name(text)
    if area is not None and key(text) not in state.livers:
        owner = state.areas[area].owner
        return state.countries[owner].lord if owner else None
    liver = state.liver(text)
    return key(text) if liver is not None else None


def problem(
    state: State, command: Command, author: str, *, gm: bool = False, intake: bool = False
) -> str | None:
    """Why `author` cannot give `command` now (Japanese), or None; `gm`: the order is a GM's. At
    `intake` (the receipt) an order for a country nobody has joined yet passes from an author who has
    not joined either: a claim in the same season may give it to him (`resolve` judges it again after
    the claims)."""
    if isinstance(command, Act):
        return _act_problem(state, command, author)
    return _area_problem(state, command, author, gm, intake)


def unclaimed_problem(state: State, area: str, author: str) -> str:
    lord = state.livers[state.countries[state.areas[area].owner or ""].lord]
    why = (
        "命令できるのは自分の国のエリアだけです"
        if played_liver(state, author) is not None
        else f"参加 {lord.name} で参加すると、その季節の命令から有効"
    )
    return f"{area}の国（{lord.name}）にはプレイヤーがいないため命令できません（{why}）"


def _area_problem(state: State, command: AreaOrder, author: str, gm: bool, intake: bool) -> str | None:
    area = state.areas[command.area]
    if area.owner is None:
        return f"{command.area}を支配する国がありません"
    boss = controller(state, command.area)
    assert boss is not None
    player = state.livers[boss].player
    if gm:
        pass
    elif player is None and (not intake or played_liver(state, author) is not None):
        return unclaimed_problem(state, command.area, author)
    elif player is not None and not plays(player, author):
        return f"{command.area}に命令できるのは{state.livers[boss].name}のプレイヤーだけです"
    if command.kind == DIPLOMACY and boss != state.countries[area.owner].lord:
        return "外交は君主だけができます（委任されたエリアではできません）"
    return _area_rule(state, command)


def _area_rule(state: State, command: AreaOrder) -> str | None:
    """The rules of §3 that a receipt can already tell (checked again when the season is resolved)."""
    area = command.area
    if command.kind == DIPLOMACY and state.lord_area(state.areas[area].owner or "") != area:
        return "外交コマンドは君主のいるエリアでのみ可能です"
    if command.kind in COMMANDS and command.kind != MOVE and not state.livers_in(area):
        return "ライバー不在のエリアでは移動以外のコマンドはできません"
    if command.kind == MOVE and state.areas[command.target or ""].owner != state.areas[area].owner:
        return f"{command.target}は自国のエリアではありません（移動は自国のエリアへ）"
    names = [*command.livers, *(unit.liver for unit in command.units)]
    unknown = [name for name in names if state.liver(name) is None]
    if unknown:
        return no_liver(state, unknown)
    check = {SORTIE: _sortie_rule, CONSCRIPT: _conscript_rule, STREAM: _stream_rule, DIPLOMACY: _joint_rule}
    return check[command.kind](state, command) if command.kind in check else None


def no_liver(state: State, names: list[str]) -> str:
    """「…」というライバーはいません, with the liver meant when one is near: a unique beginning of a
    name (`剣持` → 剣持刀也) or a near spelling (`月の美兎` → 月ノ美兎)."""
    living = {k: liver.name for k, liver in state.livers.items() if liver.alive}
    meant = []
    for name in names:
        begun = [full for k, full in living.items() if len(key(name)) >= 2 and k.startswith(key(name))]
        near = difflib.get_close_matches(key(name), list(living), n=1, cutoff=0.6)
        found = begun if len(begun) == 1 else [living[near[0]]] if near else []
        meant += found
    hint = f"（もしかして: {'・'.join(meant)}）" if len(meant) == len(names) else ""
    return f"「{quoted('・'.join(names))}」というライバーはいません{hint}"


def _here(state: State, name: str, area: str) -> str | None:
    liver = state.liver(name)
    if liver is None:
        return no_liver(state, [name])
    if liver.area != area:
        return f"{name}は{area}にいません"
    return None


def _sortie_rule(state: State, command: AreaOrder) -> str | None:
    area, target = command.area, command.target or ""
    if target not in state.sortie_targets(area):
        return f"{target}は{area}の隣接エリアではありません（出陣は隣接エリアへ）"
    if state.areas[target].owner == state.areas[area].owner:
        return f"{target}は自国のエリアです"
    units, left_home = war.sortie_units(state, command, Moved())
    if command.units and not units:
        return "、".join(left_home)
    if command.joint is not None:
        joint_area, liver = command.joint
        if state.areas[joint_area].owner != state.areas[area].owner or joint_area == area:
            return f"共同攻撃の{joint_area}は自国の別のエリアではありません"
        if target not in state.neighbours(joint_area):
            return f"{joint_area}は{target}に隣接していないため共同攻撃を送れません"
        return _here(state, liver, joint_area)
    return None


def _conscript_rule(state: State, command: AreaOrder) -> str | None:
    total = 0
    for troop, amount in command.amounts:
        cost, batch = state.rules.cost(troop)
        if amount % batch:
            return f"{troop}は{batch}単位で徴兵します（{amount}）"
        total += cost * (amount // batch)
    power = state.areas[command.area].power
    if total > power:
        return f"国力が足りません（必要{total}、{command.area}の国力{power}）"
    return None


def _stream_rule(state: State, command: AreaOrder) -> str | None:
    return _here(state, command.target, command.area) if command.target else None


def _joint_rule(state: State, command: AreaOrder) -> str | None:
    owner = state.areas[command.area].owner or ""
    if command.act != JOINT:
        other = area_name(command.target or "")
        liver = state.liver(command.target or "")
        country = state.areas[other].owner if other else (liver.country if liver else None)
        if country is None or country == owner:
            return f"{command.act}の相手「{quoted(command.target or '')}」は他国のエリアか君主ではありません"
        return None
    if not state.countries[owner].allies:
        return "同盟国を持たない国は共同攻撃できません（共同攻撃をするには同盟を結んでから）"
    joint_area, liver = command.joint or ("", "")
    if state.areas[joint_area].owner != owner:
        return f"共同攻撃の{joint_area}は自国のエリアではありません"
    if (command.target or "") not in state.neighbours(joint_area):
        return f"{joint_area}は{command.target}に隣接していないため共同攻撃を送れません"
    return _here(state, liver, joint_area)


def _claim_problem(state: State, command: Act, author: str) -> str | None:
    if Author.of(author).trip is None:
        return "参加にはトリップが必要です（名前欄に 名前#好きな文字列 と書いてください）"
    target = claim_target(state, command.liver)
    if target is None:
        return f"「{quoted(command.liver)}」というライバー・エリアはありません"
    if state.livers[target].player is not None:
        return f"{state.livers[target].name}には既にプレイヤーがいます"
    if played_liver(state, author) is not None:
        return "既にほかのライバーで参加しています"
    return None


def _poach_problem(state: State, command: Act, author: str) -> str | None:
    mine = played_liver(state, author)
    liver = state.liver(command.liver)
    if mine is None or mine not in state.countries:
        return "引き抜きは君主のプレイヤーだけができます"
    if (
        liver is None
        or liver.country in (None, mine)
        or liver.player is None
        or key(command.liver) in state.countries
    ):
        return "引き抜けるのは他国の、プレイヤーのいる家臣だけです"
    return None


def _act_problem(state: State, command: Act, author: str) -> str | None:
    if command.kind == CLAIM:
        return _claim_problem(state, command, author)
    liver = state.liver(command.liver)
    if liver is None:
        return no_liver(state, [command.liver])
    if command.kind == POACH:
        return _poach_problem(state, command, author)
    if not plays(liver.player, author):
        return f"{command.kind}は{liver.name}のプレイヤーだけができます"
    if key(command.liver) in state.countries:
        return f"{command.kind}は家臣だけができます（君主はできません）"
    other = key(command.other or "")
    if command.kind == DEFECT and (other not in state.countries or other == liver.country):
        return f"寝返り先「{quoted(command.other or '')}」は他国の君主ではありません"
    assert command.kind in (DEFECT, REVOLT)
    return None
