"""DysTopiA as the bot plays it: an immediate game. Each post's commands are answered at once with the
rules applied (every answered post is a step the GM can undo); 状態 (GM) and 状況 (anyone) post the
party table. The opening, posted when the bot first sees the thread, carries the back handouts'
commitments (offline, `adjudicate` has no opening: the first answered post commits them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.report import Block, Report, heading, line, report, table
from engine.rng import RandomSource
from engine.rules.dystopia import bp, combat, handouts, resolution, scenes
from engine.rules.dystopia.ccfolia import ccfolia_data, ccfolia_patch, looks_cut
from engine.rules.dystopia.context import Context, require_affectable, sheet_owners
from engine.rules.dystopia.creation import play_breaches
from engine.rules.dystopia.grammar import (
    GM_WORDS,
    Amount,
    BpUse,
    Command,
    Opposed,
    Words,
    parse_command,
    parse_lines,
)
from engine.rules.dystopia.handouts import KEY_STREAM, key_faces
from engine.rules.dystopia.help import HELP, SUMMARY
from engine.rules.dystopia.intake import sheet_report, take_sheet
from engine.rules.dystopia.picture import picture as draw
from engine.rules.dystopia.scenes import scene_title
from engine.rules.dystopia.settings import SETTINGS, set_path
from engine.rules.dystopia.sheets import (
    EXTRA_STATS,
    LABELS,
    SHEET_HEADING,
    apply_patch,
    is_sheet_post,
    scenario_sheet,
    sheet_lines,
    sheet_posts,
)
from engine.rules.dystopia.state import BASE_STATS, DOWN, DystopiaError, Handout, Options, Sheet, State
from engine.rules.dystopia.verify import audit_handouts, published_keys
from engine.ruleset import (
    AuditsPosts,
    HoldsSeats,
    ImmediateRuleset,
    ImportsCharacters,
    OfflineForms,
    Order,
    OrderText,
    Owners,
    Pictured,
    Rejection,
    RulesetError,
    Settable,
    ThreadAudit,
    VerifiesSteps,
    unknown_keys,
)


def _options(scenario: Mapping[str, Any]) -> Options:
    """The scenario's options, each of its default's type (a list of texts for the lists)."""
    defaults = Options()
    known = set(Options.__dataclass_fields__)
    # `gm`: older scenarios named the GMs here; the configuration's gm_trips is now the one place, so
    # the key is read as nothing (a scenario written before keeps loading, and names no GM).
    problems = unknown_keys({k: v for k, v in scenario.items() if k != "gm"}, {*known, "pcs", "npcs"})
    if problems:
        raise DystopiaError("\n".join(problems))
    values = {k: v for k, v in scenario.items() if k in known}
    for key, value in values.items():
        default = getattr(defaults, key)
        if isinstance(default, list):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise DystopiaError(f"シナリオの {key} は文字の一覧で書いてください")
        elif type(value) is not type(default):
            raise DystopiaError(
                f"シナリオの {key} は {type(default).__name__} の値で書いてください（{value!r}）"
            )
    known_fields = {*LABELS.values(), *BASE_STATS, *EXTRA_STATS, "能力値"}
    unknown_fields = [f for f in values.get("sheet_fields", []) if f not in known_fields]
    if unknown_fields:
        raise DystopiaError(
            f"シナリオの sheet_fields の {'、'.join(unknown_fields)} はシートの項目ではありません"
            f"（{'、'.join(sorted(known_fields))}）"
        )
    return Options(**values)


def initial_state(scenario: Mapping[str, Any]) -> State:
    """The scenario's options, sheets and back handouts."""
    options = _options(scenario)
    state = State(options=options)
    for key, npc in (("pcs", False), ("npcs", True)):
        tables = scenario.get(key, [])
        if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
            raise DystopiaError(f"シナリオの {key} は [[{key}]] の表で書いてください")
        for data in tables:
            sheet = scenario_sheet(data, npc=npc)
            if sheet.name in state.sheets:
                raise RulesetError(f"キャラクター「{sheet.name}」が2人います")
            problems = play_breaches(sheet, options)
            if problems:
                raise DystopiaError(f"{sheet.name}のシートはこのままでは遊べません：" + "／".join(problems))
            state.sheets[sheet.name] = sheet
            if str(data.get("handout", "")).strip():
                state.handouts[sheet.name] = Handout(sheet.name, str(data["handout"]))
    return state


DOWN_EFFECTS = (DOWN, f"{DOWN}状態", f"[{DOWN}状態]")


def _effect(ctx: Context, args: tuple[str, ...], *, add: bool) -> None:
    if not args:
        raise DystopiaError("効果 名前 効果名 ／ 効果解除 名前 [効果名] と書いてください")
    sheet = ctx.state.sheet(args[0])
    if add:
        if len(args) != 2:
            raise DystopiaError("効果 名前 効果名 と書いてください（例：効果 ユイ 戦闘中：毒）")
        require_affectable(sheet)
        if args[1] in DOWN_EFFECTS:
            ctx.say(resolution.go_down(sheet, ctx.state.options))
            return
        sheet.effects.append(args[1])
    else:
        sheet.effects = [e for e in sheet.effects if len(args) > 1 and e != args[1]]
    ctx.say(f"{sheet.name}の効果：{'、'.join(sheet.effects) or 'なし'}")


def _gm(ctx: Context, command: Words) -> None:
    if not ctx.is_gm:
        raise DystopiaError(f"{command.word}{GM_ONLY}")
    args, word = command.args, command.word
    gm_handlers: dict[str, Callable[[], None]] = {
        "シーン": lambda: scenes.move_scene(ctx, args[0] if args else ""),
        "感情ロール許可": lambda: scenes.open_emotions(ctx, open_=True, names=args),
        "感情ロール終了": lambda: scenes.open_emotions(ctx, open_=False, names=()),
        "リザルトフェイズ": lambda: resolution.result_phase(ctx),
        "却下": lambda: handouts.veto(ctx, args[0] if args else ""),
        "効果": lambda: _effect(ctx, args, add=True),
        "効果解除": lambda: _effect(ctx, args, add=False),
        "戦闘開始": lambda: combat.start(ctx, args),
        "戦闘終了": lambda: combat.end(ctx),
        "セッション開始": lambda: ctx.say(f"{ctx.state.options.title}：セッション開始済み"),
    }
    gm_handlers[word]()


def _words(ctx: Context, command: Words) -> None:
    actor, args = command.actor, command.args
    handlers: dict[str, Callable[[], None]] = {
        "とどめ": lambda: resolution.todome(ctx, actor, args[0]),
        "感情ロール": lambda: scenes.emotion_roll(ctx, actor, args[0]),
        "感情上昇": lambda: scenes.emotion_raise(ctx, actor, args[0], args[1]),
        "裏ハンドアウト公開": lambda: handouts.show(ctx, actor, args[0]),
        "調査": lambda: handouts.investigate(ctx, actor, args[0]),
        "伝達": lambda: handouts.pass_on(ctx, actor, args[0], args[1]),
        "同意": lambda: handouts.agree(ctx, actor, args[0]),
        "拒否": lambda: handouts.refuse(ctx, actor, args[0]),
        "シート確認": lambda: _sheet_check(ctx, args[0] if args else actor),
        "状況": lambda: ctx.blocks.extend(status_blocks(ctx.state)),
        "移動コスト": lambda: combat.change_move(ctx, args),
    }
    handlers |= {
        word: (lambda word=word: combat.act(ctx, actor, word, args))
        for word in ("サブ移動", "メイン移動", "行動放棄", "行動")
    }
    if command.word in GM_WORDS:
        _gm(ctx, command)
    else:
        handlers[command.word]()


def _sheet_check(ctx: Context, name: str | None) -> None:
    sheet = ctx.state.sheet(name) if name else ctx.actor(None)
    ctx.blocks += sheet_report(sheet, ctx.state.options)


def run_command(ctx: Context, command: Command) -> None:
    if isinstance(command, Opposed):
        resolution.do_opposed(ctx, command)
    elif isinstance(command, Amount):
        resolution.do_amount(ctx, command)
    elif isinstance(command, BpUse):
        bp.do_bp(ctx, command)
    elif isinstance(command, Words):
        _words(ctx, command)
    else:
        resolution.do_check(ctx, command)


def readings(options: Options) -> list[str]:
    """The scenario's choice where the seed reads two ways, one short phrase each (opening, HELP)."""
    return [
        "ボーナスポイントの振り残し " + ("注意だけ" if options.bonus_partial_warning else "違反"),
        "固定したC値/F値 " + ("他の効果より優先" if options.fixed_cf_wins else "最低C・最高Fに含める"),
        "耐久値以上での不撓不屈 "
        + ("受け付けない" if options.futou_refuse_above else "感情を切って回復なし"),
        "「戦闘中～」の効果 "
        + ("解除タイミングがあれば解除" if options.combat_effect_timing else "戦闘不能でも残す"),
        "戦闘不能中の絶対回避 " + ("とどめを無効にできる" if options.evade_todome else "使えない"),
    ]


GM_ONLY = "はGMだけが使えます"  # the refusal of a GM command from another trip (verify reads it back)


def _is_word(command: Any, use: str) -> bool:
    return isinstance(command, BpUse) and command.use == use


def _lock_played(before: State, after: State) -> None:
    """A sheet in play — changed by a command, or making a check — is locked: from now on its owner's
    re-post changes only sheet_fields (a check made on stats a re-post could then raise is play too)."""
    checked = {name for name, record in after.last_checks.items() if before.last_checks.get(name) != record}
    for name, sheet in after.sheets.items():
        old = before.sheets.get(name)
        changed = old is not None and old.to_dict() != sheet.to_dict()
        if not sheet.locked and (changed or name in checked):
            sheet.locked = True


def status_blocks(state: State) -> list[Block]:
    rows = []
    for sheet in state.sheets.values():
        marks = ["死亡" if sheet.dead else DOWN if sheet.down else "", *sheet.effects, sheet.row]
        rows.append(
            (
                sheet.name + ("（NPC）" if sheet.npc else ""),
                f"{sheet.hp}/{sheet.hp_max}",
                f"{sheet.mp}/{sheet.mp_max}",
                f"{sheet.bp}/{sheet.emotion_total}",
                "、".join(m for m in marks if m) or "-",
            )
        )
    blocks: list[Block] = [
        heading(f"{state.options.title} {scene_title(state)}"),
        table(rows, header=("名前", "HP", "MP", "BP(未使用/合計)", "状態")),
    ]
    for sheet in state.sheets.values():
        if sheet.connections:
            links = "、".join(
                f"{c.to} {c.emotion}{c.strength}" + ("（使用済み）" if c.used else "")
                for c in sheet.connections
            )
            blocks.append(line(f"{sheet.name}の感情：{links}"))
    if state.emotion_open:
        blocks.append(line("感情ロール受付中"))
    for handout in state.handouts.values():
        shown = "公開済み" if handout.published else "未公開"
        known = f"（知っている：{'、'.join(handout.known_by)}）" if handout.known_by else ""
        blocks.append(line(f"裏ハンドアウト {handout.owner}：{shown}{known}"))
    if state.combat is not None:
        counts = "、".join(f"{n}{c}" for n, c in state.combat.counts.items())
        due = combat.next_actor(state)
        blocks.append(
            line(
                f"戦闘 第{state.combat.round}ラウンド カウント：{counts}" + (f"（次：{due}）" if due else "")
            )
        )
    blocks += [line(f"申し出：{r.asker}→{r.answerer}（{r.handout}のRH）") for r in state.requests]
    return blocks


class DystopiaRuleset(
    ImmediateRuleset[State, Any],
    HoldsSeats[State],
    Settable[State],
    OfflineForms[State],
    Pictured[State],
    VerifiesSteps,
    AuditsPosts,
    ImportsCharacters,
):
    ID = "dystopia"
    NAME = "DysTopiA"
    HELP = HELP
    SUMMARY = SUMMARY
    settings = SETTINGS

    def picture(self, state: State, result: Mapping[str, Any] | None = None) -> str:
        return draw(state, result)

    def initial_state(self, scenario: Mapping[str, Any]) -> State:
        try:
            return initial_state(scenario)
        except DystopiaError as error:
            raise RulesetError(str(error)) from error

    def state_to_dict(self, state: State) -> dict:
        return state.to_dict()

    def state_from_dict(self, data: dict) -> State:
        return State.from_dict(data)

    def seats(self, state: State) -> Sequence[str]:
        """Every character: each is played by its owner, or (an NPC, an unclaimed PC) by a GM."""
        return list(state.sheets)

    def owners(self, state: State, thing: str) -> Owners:
        """A character is played by its sheet's owner; an NPC or an unclaimed PC by a GM alone."""
        sheet = state.sheets.get(thing)
        return sheet_owners(sheet) if sheet is not None else ()

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        if is_sheet_post(body):
            return OrderText(("sheet", body), SHEET_HEADING)
        character = ccfolia_data(body)
        if character is not None:
            return OrderText(("ccfolia", character), "ココフォリアのキャラクター")
        if looks_cut(body):
            return Rejection(
                "ココフォリアのキャラクター",
                "ココフォリアのキャラクターJSONが読めません（途中で切れているか、形が違います）。"
                "1つの書き込みに収まらないときは【キャラシート】の行で貼ってください",
            )
        found = parse_lines(body)
        if not found:
            return None
        if all(isinstance(command, str) for _, command in found):
            return Rejection(found[0][0], "／".join(str(command) for _, command in found))
        return OrderText(tuple(found), " / ".join(raw for raw, _ in found))

    def read_orders(self, state: State, text: str) -> list[Order]:
        """An ORDERS.txt for `adjudicate`: whoever runs the tool offline is the GM."""
        return [replace(order, gm=True) for order in super().read_orders(state, text)]

    def parse_line(self, line_text: str) -> OrderText | Rejection | None:
        """One command line (adjudicate and case files)."""
        try:
            command = parse_command(line_text)
        except DystopiaError as error:
            return Rejection(line_text.strip(), str(error))
        return OrderText(((line_text.strip(), command),), line_text.strip()) if command is not None else None

    def order_key(self, order: Order) -> str:
        return f"{order.post}/{order.line}"  # every command counts: none replaces another

    def apply(self, state: State, order: Order, source: RandomSource) -> tuple[State, Report]:
        work = state.copy()
        opening = Context(work, order.author, source, index=0)
        handouts.commit_all(opening)
        blocks = list(opening.blocks)
        if isinstance(order.command, tuple) and order.command[:1] in (("sheet",), ("ccfolia",)):
            items: Sequence[tuple[str, Any]] = [(SHEET_HEADING, order.command)]
        else:
            items = order.command
        for index, (raw, command) in enumerate(items):
            trial = work.copy()
            ctx = Context(trial, order.author, source, index=index, gm=order.gm)
            echo = [line(f"「{raw}」")] if len(items) > 1 else []
            try:
                if isinstance(command, str):
                    raise DystopiaError(command)
                if isinstance(command, tuple):
                    take_sheet(ctx, command)
                else:
                    trial.todome_last = work.todome_last if _is_word(command, "絶対回避") else ""
                    run_command(ctx, command)
                    _lock_played(work, trial)
            except DystopiaError as error:
                blocks += [*echo, line(f"受け付けられません：{error}")]
                continue
            work = trial
            blocks += [*echo, *ctx.blocks]
        return work, report(*blocks)

    def opening(self, state: State, source: RandomSource) -> tuple[State, Report]:
        """【DysTopiA 開始】: the table, the rules in force, how to write, and a commitment per handout."""
        work = state.copy()
        ctx = Context(work, "", source)
        handouts.commit_all(ctx)
        blocks = [
            heading(f"{self.NAME} 開始"),
            line(f"卓: {work.options.title}"),
            line("設定: " + "／".join(self.rules_in_force(work))),
            *(line(text) for text in self.summary()),
            line("ヘルプ と書くと書き方を、ヘルプ全文 と書くとルール全文を返します"),
            *ctx.blocks,
        ]
        return work, report(*blocks, kind="opening")

    def obeyed_as_gm(self, body: str, answer: Sequence[str]) -> bool:
        """The post holds one of the game's GM commands and the answer refuses none as not the GM's."""
        gm_words = any(isinstance(c, Words) and c.word in GM_WORDS for _, c in parse_lines(body))
        return gm_words and not any(GM_ONLY in text for text in answer)

    def published_secrets(self, bot_bodies: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
        """The keys of the published handouts, as the faces of their streams (the only secret dice)."""
        return {KEY_STREAM + owner: key_faces(key) for owner, key in published_keys(bot_bodies).items()}

    def import_character(self, text: str, owner: str) -> str:
        """ココフォリア's clipboard character JSON as 【キャラシート】 posts to paste in the thread (within
        the local board's limits: 24 lines, 256 columns, 2048 characters a post), the labels not read
        as a note after them. `owner` (a trip) becomes a `PL:` line, which counts when the GM posts it."""
        data = ccfolia_data(text)
        if data is None:
            raise RulesetError('ココフォリアのキャラクターJSON（{"kind": "character", …}）ではありません')
        try:
            patch, skipped = ccfolia_patch(data)
        except DystopiaError as error:
            raise RulesetError(str(error)) from error
        sheet = apply_patch(Sheet(name=patch["name"]), patch)
        posts = sheet_posts(sheet_lines(sheet, owner=owner), max_lines=24, max_columns=256, max_chars=2048)
        parts = []
        for number, post in enumerate(posts, start=1):
            if len(posts) > 1:
                parts.append(f"（{number}/{len(posts)}つめの書き込み）")
            parts.append(post)
        if skipped:
            parts.append("（読まなかった項目：" + "、".join(skipped) + "）")
        return "\n\n".join(parts) + "\n"

    def audit_posts(self, bot_bodies: Sequence[str]) -> ThreadAudit:
        """裏ハンドアウト: every published handout against the commitment posted when the session opened."""
        found = audit_handouts(bot_bodies)
        return ThreadAudit(found.checked, found.matched, tuple(found.problems))

    def set_value(self, state: State, path: str, value: Any) -> State:
        try:
            return set_path(state, path, value)
        except DystopiaError as error:
            raise RulesetError(str(error)) from error

    def status(self, state: State) -> Report:
        return report(*status_blocks(state))

    def rules_in_force(self, state: State) -> list[str]:
        options = state.options
        die = 10 if options.short_session else 6
        return [
            f"判定 {options.dice}D6+能力値+修正（C値18・F値5から）",
            f"感情ロール 1D{die}・各PC{options.emotion_rolls}回",
            "とどめを刺す あり" if options.todome else "とどめを刺す 禁止",
            *readings(options),
        ]


RULESET = DystopiaRuleset()
