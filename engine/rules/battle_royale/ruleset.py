"""The 都道府県バトロワ (seed 000) as the bot plays it: two rulesets of the `engine.ruleset` shape over the
one step machine of `engine.rules.battle_royale`.

- `AUTOMATIC` ("battle-royale", periodic): each period's `resolve` plays the next
  `options.battles_per_period` battles with the period's dice and reports every die in the seed's template
  style, with the 生き残り表, groups, 戦況まとめ and the winner the engine reports.
- `ASSISTED` ("battle-royale-assist", immediate): a player posts one of the seed's dice templates;
  `apply` rolls it from the post's own stream when it is the die the rules need, and answers with the
  roll, what happened and the next template to post; a wrong table gets the explanation and the due
  template, and the state stays as it was.

In both modes the bot rolls the secret set-up dice (黒幕陣営) itself, on streams whose purposes start with
`secret/` (`SECRET_PREFIX`), so a caller can give them a key it never publishes. Reports built here carry
only the engine's public blocks: the GM-only part (`meta["secret"]`) is dropped, so the mastermind stays
in the stored state (`gm_report`) and never reaches a post.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.report import Block, Report, Section, anchor, heading, line, report, section
from engine.rng import Dice, RandomSource
from engine.rules.battle_royale import api as br
from engine.rules.battle_royale import verify
from engine.rules.battle_royale.assist import names_a_die
from engine.rules.battle_royale.chances import status_blocks
from engine.rules.battle_royale.common_steps import survivor_table
from engine.rules.battle_royale.events import Event, GameOver, SurvivorTable
from engine.rules.battle_royale.grammar import DieTemplate, find_die_templates, heading_of
from engine.rules.battle_royale.picture import picture as draw
from engine.rules.battle_royale.report import render
from engine.rules.battle_royale.sim import format_result, simulate_from
from engine.rules.battle_royale.state import State, clone
from engine.rules.battle_royale.verify import continued
from engine.ruleset import (
    ClockedRuleset,
    ImmediateRuleset,
    Order,
    OrderText,
    Pictured,
    Rejection,
    Ruleset,
    Settable,
    Setting,
    ShowsOpening,
    Simulates,
    VerifiesPeriods,
)
from parser.numbers import NotANumber, read_number

# A guard, never a rule: a battle needs a handful of dice (rerolls included); this many without the
# period's battles ending means something is wrong, and the period stops rather than loop on.
MAX_DICE_PER_BATTLE = 1000

SECRET_PREFIX = "secret/"
_OPTION_RANGES = {"battles_per_period": (1, 100), "summary_every": (0, 1000)}
NEXT_TEMPLATE = "次に貼るテンプレ↓"

BOT_ROLLS = (
    "このスレはダイス民ボットの自動進行です。戦闘のダイスはボットが更新のたびに振るので、"
    "貼ったテンプレの出目は進行に使いません（すぐに進めるのはGMの 進行）"
)
_AUTOMATIC_HELP = """
■ 自動進行（battle-royale）
・更新のたびにダイス民ボットが次の戦闘を options.battles_per_period 戦（標準1戦）行い、ダイスをテンプレ形式で貼る。
・GMの「進行」（即時更新）で次の戦闘をすぐに行う。
・スレ民が貼ったテンプレ（【通常戦闘ダイス】など）の出目は進行に使わない（受付でそう答える。ダイスとしては振る）。
・GMの設定：設定 teams.1.name=チーム名（タッグマッチ、番号か今のチーム名で）／
  設定 newcomer=沖縄（新規参入者：戦闘と戦闘の間に一人、次の番号で単独参戦。次の更新の最初に報告）／
  設定 options.battles_per_period=2 ／ 設定 options.summary_every=5（次の更新から）
・検証：ダイスはピリオドの鍵のストリーム br/戦闘番号/その戦闘の何個目か（0から）で振る。threadgm verify は公開された鍵から
  各ダイスの出目・合計と、貼った表の行から出る結果を再計算する。前の更新から続く戦闘は「（第N戦の続き：…個目のダイスから）」、
  黒幕決戦は見出しの下の「（第N戦）」で番号を示す。黒幕の非公開ダイスは投稿しないので照合できない（その鍵は決着後に公開）。
"""

_ASSISTED_HELP = """
■ アシストモード（battle-royale-assist）
・使用ダイス一覧のテンプレ（【ダイス名】・基準『』・dice式）を貼ると、ダイス民ボットがそのダイスを振って進め、
  結果と次に貼るテンプレを答える。基準『』は空欄でもよい。1つの書き込みに貼るテンプレは1つ。
・今の状況に合わないテンプレ（表・基準・面数・団体戦用の＋1の取り違え）には理由と正しいテンプレを答え、進行しない。
・黒幕の非公開ダイスはボットが自分で振る（結果は公開しない）。
"""


class _BattleRoyale(Ruleset[State, DieTemplate], Settable[State], Pictured[State], Simulates[State]):
    """What both modes share: the state, the GM's settings, the status post, no player orders (the
    base's defaults: no order grammar, anyone may post, nothing assumed for a missing order)."""

    NAME = br.NAME
    TEMPLATE = "prefectures_47.toml"
    settings: Sequence[Setting] = (
        Setting("teams.<番号>.name", "タッグマッチのチーム名（安価で決まった名前）"),
        Setting("newcomer", "新規参入者（戦闘と戦闘の間に一人加える。例：設定 newcomer=沖縄）"),
        Setting("options.battles_per_period", "1回の更新で行う戦闘の数（1～100）", int),
        Setting("options.summary_every", "戦況まとめを出す間隔（戦闘数、0で出さない）", int),
    )

    def picture(self, state: State, result: Mapping[str, Any] | None = None) -> str:
        return draw(state, result)

    def initial_state(self, scenario: Mapping[str, Any]) -> State:
        return br.initial_state(dict(scenario))

    def set_value(self, state: State, path: str, value: Any) -> State:
        """設定: `teams.N.name` (a tag team's name, N its number or current name) or an `options.*` count."""
        flat = unicodedata.normalize("NFKC", path).strip()
        head, _, rest = flat.partition(".")
        if head == "teams" and rest.endswith(".name") and len(rest) > len(".name"):
            new, _ = br.set_team_name(state, rest[: -len(".name")], str(value))
            return new
        if head == "newcomer" and not rest:
            return br.add_newcomer(state, str(value))
        if head == "options" and rest in _OPTION_RANGES:
            low, high = _OPTION_RANGES[rest]
            number = read_number(str(value), what=rest, low=low, high=high)
            if isinstance(number, NotANumber):
                raise br.BattleRoyaleError(f"{number.reason}（{rest} は{low}～{high}の整数）")
            new = clone(state)
            new.options = replace(state.options, **{rest: number})
            return new
        known = "teams.<番号>.name、newcomer、" + "、".join(f"options.{name}" for name in _OPTION_RANGES)
        raise br.BattleRoyaleError(f"{path} は設定できません（設定できるもの: {known}）")

    def state_to_dict(self, state: State) -> dict:
        return br.state_to_dict(state)

    def state_from_dict(self, data: dict) -> State:
        return br.state_from_dict(data)

    def read_scenario(self, text: str) -> dict[str, Any]:
        return br.parse_scenario_toml(text)

    def simulate(self, scenario: Mapping[str, Any], runs: int, seed: str, *, as_json: bool) -> str | None:
        """Win rates, battles per game and how often each rule fired, over `runs` whole quick games (a
        fast PRNG, not the verifiable streams: simulations are never posted)."""
        return format_result(br.simulate(dict(scenario), runs, seed, quick=True), as_json=as_json)

    def simulate_from(self, state: State, runs: int, seed: str, *, as_json: bool) -> str | None:
        """The same figures from a stored position: who is likely to win from here."""
        return format_result(simulate_from(state, runs, seed), as_json=as_json)

    def finished(self, state: State) -> bool:
        return state.ending is not None

    def rules_in_force(self, state: State) -> list[str]:
        return rules_in_force(state)

    def status(self, state: State) -> Report:
        """状態: the survivors with their numbers and groups, then the winner or the next die, and from the
        first battle on who is likely to win (`chances.py`: 1,000 quick games on a seed the position
        decides; not in a season with a 黒幕)."""
        blocks: list[Block] = [heading(f"{state.options.title} 状況（第{state.battles}戦まで）")]
        if not state.setup_done:
            return report(*blocks, *br.opening_report(state).blocks)
        blocks += render([survivor_table(state, (), ())]).blocks
        request = br.next_die(state)
        if state.ending is not None:
            blocks += _ending(state)
        elif request is not None:
            blocks.append(
                line(f"次のダイス：【{request.name}】" if not request.secret else "次のダイス：非公開")
            )
            blocks += status_blocks(state)
        return report(*blocks)


def rules_in_force(state: State) -> list[str]:
    """The season's options as the opening post names them (the readings chosen where the seed is unsure)."""
    options = state.options
    rules = [f"1回の更新で{options.battles_per_period}戦"]
    if options.mastermind:
        death = "戦闘で倒されても−1" if options.mastermind_death_costs_life else "戦闘で倒されても減らない"
        ally = "和解エンド" if options.mastermind_final_alliance == "reconcile" else "振り直し"
        escape = "振り直し" if options.mastermind_final_escape == "reroll" else "黒幕の逃亡"
        mutual = "振り直し" if options.mastermind_final_mutual == "reroll" else "共倒れ"
        rules.append(
            f"黒幕あり（残機{options.mastermind_lives}、{death}、決戦の手を組むは{ally}、"
            f"逃走は{escape}、相打ちは{mutual}）"
        )
    if options.revival:
        sizes: dict[str, int] = {}
        for prefecture in state.roster:
            sizes[prefecture.region] = sizes.get(prefecture.region, 0) + 1
        regions = "・".join(f"{region}{count}" for region, count in sizes.items())
        rules.append(f"地区復活あり（各地区の代表{options.revival_representatives}名、地区：{regions}）")
    if options.tag_match:
        other = "振り直し" if options.tag_ally_inapplicable == "reroll" else "逃走扱い"
        rules.append(f"タッグマッチ（一人のチーム以外の手を組むは{other}）")
    surprise = "通常の有利ダイス" if options.surprise_equal_groups == "plain" else "団体戦用の有利ダイス"
    rules.append(f"同数の団体同士の奇襲成功は{surprise}")
    rules.append(
        "仲間割れの相打ちは" + ("二人だけ脱落" if options.infight_mutual == "pair" else "団体全員が脱落")
    )
    return rules


def _ending(state: State) -> list[Block]:
    ending = state.ending
    assert ending is not None
    return list(render([GameOver(ending.kind, tuple(ending.winners), ending.team, state.battles)]).blocks)


class _SecretStreams:
    """The source as the secret dice see it: every purpose under `secret/`."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source

    def stream(self, purpose: str) -> Dice:
        return self.source.stream(SECRET_PREFIX + purpose)


def _set_up(state: State, source: RandomSource) -> tuple[State, list[Block]]:
    """Roll the secret set-up dice (the bot's alone) and say what opens the game: before any die, the
    entrants table or the set-up dice to come. Only public blocks are returned."""
    ready, settled = br.settle(state)
    blocks: list[Block] = list(settled.blocks)
    while (request := br.next_die(ready)) is not None and request.secret:
        ready, _, _, step = br.play_step(ready, _SecretStreams(source))
        blocks += step.blocks
    if not blocks and state.dice_total == 0:
        blocks = list(br.opening_report(state).blocks)
    return ready, blocks


def _one_survivor_table(steps: list[list[Event]]) -> list[list[Event]]:
    """生き残り表 once per period: only after the period's last battle that changed it, naming everyone
    who fell or came back in the period (each battle's report already says who fell, and a renumbered
    表 is posted whole when it happens)."""
    tables = [event for events in steps for event in events if isinstance(event, SurvivorTable)]
    if len(tables) < 2:
        return steps
    last = tables[-1]
    fallen = tuple(name for table in tables for name in table.fallen)
    revived = tuple(name for table in tables for name in table.revived)
    kept = replace(last, fallen=fallen, revived=revived)
    return [
        [
            kept if event is last else event
            for event in events
            if event is last or not isinstance(event, SurvivorTable)
        ]
        for events in steps
    ]


class AutomaticRuleset(
    _BattleRoyale, ClockedRuleset[State, DieTemplate], ShowsOpening[State], VerifiesPeriods
):
    ID = "battle-royale"
    HELP = br.HELP + _AUTOMATIC_HELP
    SUMMARY = "書き込む命令はありません。更新のたびにダイス民ボットが次の戦闘のダイスを振ります（GMの 進行 ですぐに）。"

    def parse_line(self, line: str) -> OrderText | Rejection | None:
        """A die's template pasted here (【通常戦闘ダイス】…) is no move of this game: the bot rolls every
        die, and the player is told so (the dice in it are still answered as dice). Other lines: chat."""
        name = heading_of(line)
        if name is not None and names_a_die(name):
            return Rejection(line.strip(), BOT_ROLLS)
        return None

    def resolve(self, state: State, orders: Sequence[Order], source: RandomSource) -> tuple[State, Report]:
        """The next `battles_per_period` battles (fewer when the game ends), every die on its stream."""
        if state.ending is not None:
            return state, report(line("このバトロワは決着しています"), *_ending(state), kind="resolution")
        state, blocks = _set_up(state, source)
        if state.battle is not None:  # begun last period: a 黒幕決戦 opens as the battle before it ends
            blocks.append(line(continued(state.battles + 1, state.die_index)))
        target = state.battles + state.options.battles_per_period
        budget = MAX_DICE_PER_BATTLE * state.options.battles_per_period
        steps: list[list[Event]] = []
        while state.ending is None and state.battles < target:
            if budget == 0:
                break
            request = br.next_die(state)
            assert request is not None  # the game has not ended
            state, events = br.apply_roll_events(state, br.roll_request(request, source), request)
            steps.append(events)
            budget -= 1
        for events in _one_survivor_table(steps):
            blocks += render(events).blocks
        if budget == 0 and state.ending is None and state.battles < target:
            blocks.append(
                line("ダイスの数が上限に達したため、この更新はここまでにします（次の更新で続きから）")
            )
        return state, report(*blocks, kind="resolution")

    def read_period(self, lines: Sequence[str]) -> Mapping[str, Any] | None:
        return verify.read_period(lines)

    def verify_period(self, key: bytes, result: Mapping[str, Any]) -> list[str]:
        return verify.verify_period(key, result)


class AssistedRuleset(_BattleRoyale, ImmediateRuleset[State, DieTemplate]):
    ID = "battle-royale-assist"
    HELP = br.HELP + _ASSISTED_HELP
    SUMMARY = "ボットが「次に貼るテンプレ↓」で示すダイスのテンプレ（【ダイス名】・基準『』・dice式）を1つ貼ってください。"

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        """A post holding one of the seed's templates (a 【name】 heading with its diceNdM=)."""
        templates = find_die_templates(body)
        if not templates:
            return None
        if len(templates) > 1:
            names = "".join(f"【{t.table}】" for t in templates)
            return Rejection(
                names, f"テンプレは1つの書き込みに1つだけ貼ってください（{len(templates)}つあります）"
            )
        template = templates[0]
        if template.base is not None and not template.base.strip():
            template = replace(template, base=None)  # 基準『』 left blank: nothing to check
        return OrderText(template, _canonical(template))

    def apply(self, state: State, order: Order, source: RandomSource) -> tuple[State, Report]:
        template: DieTemplate = order.command
        ready, blocks = _set_up(state, source)
        problem = br.check_template(ready, template)
        if problem is not None:
            if ready.ending is not None:
                return state, report(line(problem), *_ending(ready))
            return state, report(*blocks, line(problem), _due(ready, reason=False))
        request = br.next_die(ready)
        new, _, _, step = br.play_step(ready, source)
        blocks += step.blocks
        if template.options and request is not None and template.options != request.table.spans:
            blocks.append(line(OTHER_TABLE))
        if new.ending is None:
            blocks.append(_due(new, reason=True))
        return new, report(*blocks)

    def resolve(self, state: State, orders: Sequence[Order], source: RandomSource) -> tuple[State, Report]:
        """Offline replay of template posts, in posting order, each answered as `apply` would."""
        blocks: list[Block] = []
        for order in orders:
            state, answer = self.apply(state, order, source)
            blocks += [line(anchor(order.post)), *answer.blocks]
        return state, report(*blocks, kind="resolution")


OTHER_TABLE = "（貼られた選択肢はこのダイスの表と違うため、上の表で判定しました）"


def _due(state: State, *, reason: bool) -> Section:
    """The template to post next, kept in one section so a post boundary never cuts it."""
    prompt = br.next_die_report(state).blocks
    template = prompt[0].blocks if isinstance(prompt[0], Section) else prompt[:1]
    return section(line(NEXT_TEMPLATE), *template, *(prompt[1:] if reason else ()))


def _canonical(template: DieTemplate) -> str:
    base = f"基準『{template.base}』" if template.base else ""
    dice = f" dice{template.count}d{template.sides}=" if template.sides is not None else ""
    return f"【{template.table}】{base}{dice}"


AUTOMATIC = AutomaticRuleset()
ASSISTED = AssistedRuleset()

__all__ = [
    "ASSISTED",
    "AUTOMATIC",
    "MAX_DICE_PER_BATTLE",
    "NEXT_TEMPLATE",
    "SECRET_PREFIX",
    "AssistedRuleset",
    "AutomaticRuleset",
]
