"""GM commands in the referee: who may give them, what each one changes in the game's log (decided by
`engine.clock.gm_actions`), the echo in the thread, and what 状態 and 公開 post.
"""

from __future__ import annotations

from engine import keys
from engine.clock.gm_actions import Effect, GameView, decide, void_echo
from engine.clock.periods import deadline_text
from engine.dice import answers
from engine.referee.game import Game, PostView
from engine.referee.isolation import INTERNAL_ERROR, isolated
from engine.report import Block, Report, gm_line, line, plain_text, report
from engine.ruleset import ClockedRuleset, ImmediateRuleset, set_value_of
from parser.gm import GmError, NextThread, Reveal, Rollback, Status

# What a GM may still do once the game is over: look, reveal a secret roll, move threads, undo the end.
FINISHED_OK = (Status, Reveal, NextThread, Rollback)


def carry_out(game: Game, post: PostView, lines: list) -> tuple[Report | None, str | None]:
    """A GM post's commands: the echo, and the thread the game moves to (if one said 次スレ)."""
    period = game.current_period()
    where = game.where(post, period)
    if post.trip not in game.setup.gm_trips:
        if all(isinstance(written.result, Status) for written in lines):
            return _public_status(game, post, where), None
        return _refuse(game, post, lines, where), None
    blocks: list[Block] = []
    follow: str | None = None
    seen: set[str] = set()
    for written in lines:
        if written.raw.strip() in seen:
            continue  # a command written twice in a post is carried out once
        seen.add(written.raw.strip())
        if len(seen) > MAX_GM_COMMANDS:
            blocks.append(gm_line(f"{written.line + 1}行目から後は実行していません（{GM_COMMANDS_CUT}）"))
            break
        command = written.result
        if isinstance(command, GmError):
            blocks.append(gm_line(f"{command.command}: {command.reason}"))
            continue
        if game.book.status() == "finished" and not isinstance(command, FINISHED_OK):
            blocks.append(gm_line(f"{command.canonical}: ゲームは終了しています"))
            continue
        with isolated(game, f"GM command {command.canonical!r} of post {post.number}") as step:
            effect = decide(
                command, _view(game), game.now, lambda path, value: _setting_problem(game, path, value)
            )
            shown, moved, said = _apply(game, effect, post)
            game.book.log("gm", {"command": command.canonical, "result": said}, game.now, **where)
        if step.failed:
            shown, moved = [gm_line(f"{command.canonical}: {INTERNAL_ERROR}")], None
        follow = moved or follow
        blocks.extend(shown)
    return report(*blocks, reply_to=(post.number,), kind="gm"), follow


MAX_GM_COMMANDS = 20  # GM commands of one post carried out
GM_COMMANDS_CUT = f"GMコマンドは1つの書き込みに{MAX_GM_COMMANDS}行まで"

MAX_REFUSALS = 3  # refusal answers a period, whoever asks: new names or IDs cannot flood the thread


def _refuse(game: Game, post: PostView, lines: list, where: dict) -> Report | None:
    earlier = [e for e in game.book.log_entries(["refused"]) if e.period == where["period"]]
    answered = [e for e in earlier if e.args.get("answered")]
    mine = any(e.author == post.author or e.args.get("writer") == post.writer for e in earlier)
    answer = not mine and len(answered) < MAX_REFUSALS  # one answer per writer, a few per period
    args = {"lines": [g.raw[:100] for g in lines[:5]], "writer": post.writer, "answered": answer}
    game.book.log("refused", args, game.now, **where)
    if not answer:
        return None
    return report(
        line("GMのトリップではないため、GMコマンドは受け付けませんでした"), reply_to=(post.number,), kind="gm"
    )


def _public_status(game: Game, post: PostView, where: dict) -> Report | None:
    """状態 from a player: what the GM's 状態 shows — it is posted in the thread, so it holds nothing
    secret — once per writer a period, and a few a period whoever asks (new names cannot flood)."""
    earlier = [e for e in game.book.log_entries(["public_status"]) if e.period == where["period"]]
    answered = [e for e in earlier if e.args.get("answered")]
    mine = any(e.author == post.author or e.args.get("writer") == post.writer for e in earlier)
    answer = not mine and len(answered) < MAX_REFUSALS
    game.book.log("public_status", {"writer": post.writer, "answered": answer}, game.now, **where)
    if not answer:
        return None
    return report(*status(game, by_gm=False), reply_to=(post.number,), kind="gm")


def _view(game: Game) -> GameView:
    last = game.book.last_resolution()
    return GameView(
        period=game.current_period(),
        paused=game.book.status() == "paused",
        periodic=game.setup.clocked,
        last_resolved=last.period if last else None,
        clock=game.clock(),
    )


def _setting_problem(game: Game, path: str, value: str) -> str | None:
    try:
        set_value_of(game.ruleset, game.state_before(game.current_period()), path, value)
    except (ValueError, KeyError, TypeError) as error:
        return str(error)
    return None


def _apply(game: Game, effect: Effect, post: PostView) -> tuple[list[Block], str | None, str]:
    """Write a GM command's effect into the log; what to echo, a thread to follow, and what the log
    says was done (the refusal, when the command could not be carried out)."""
    if effect.move_to is not None and (problem := game.setup.thread_url_problem(effect.move_to)):
        refused = f"次スレに移れません: {problem}"
        return [gm_line(refused)], None, refused  # no `next` entry: the game stays in this thread
    for entry in effect.log:
        game.book.log(entry.kind, entry.args, game.now, **game.where(post, entry.period))
    if effect.status is not None:
        game.book.set_status(effect.status)
    if effect.rollback is not None:
        if effect.status is None and game.book.status() == "finished":
            game.book.set_status("running")  # the end is undone: the game plays on from there
        game.book.delete_resolution(effect.rollback)
    says = effect.echo
    if effect.void:
        says = void_echo(effect.void, *_void_orders(game, effect.void))
    if effect.reveal is not None:
        try:
            reveal(game, effect.reveal)
        except ValueError as error:
            says = (f"公開できません: {error}",)
    if effect.show_status:
        return status(game), None, effect.text
    return [gm_line(*says)], effect.move_to, plain_text(says)


def _void_orders(game: Game, posts: tuple[int, ...]) -> tuple[int, list[int]]:
    """Void the orders of these posts of this thread; how many, and which resolved periods had them."""
    wanted = set(posts)
    last = game.book.last_resolution()
    voided, resolved = 0, []
    for order in game.book.orders(statuses=["accepted"]):
        if order.post in wanted and order.thread_id == game.thread.id:
            game.book.set_order_status(order, "voided", "GMにより無効")
            voided += 1
            if last is not None and order.period <= last.period:
                resolved.append(order.period)
    return voided, resolved


def status(game: Game, by_gm: bool = True) -> list[Block]:
    """What 状態 shows: the period, its deadline, who has not sent orders, the ruleset's view (headed
    by the GM label when a GM asked)."""
    head = gm_line if by_gm else line
    ruleset = game.ruleset
    period = game.current_period()
    if isinstance(ruleset, ImmediateRuleset):
        if not ruleset.steps:
            return [head(f"{ruleset.NAME}: {game.thread.read_url}")]
        state = game.state_before(period)
        return [head(f"{ruleset.NAME}・手番{period}"), *ruleset.status(state).blocks]
    state = game.state_before(period)
    if game.book.status() == "finished":
        return [
            head(f"{ruleset.NAME}・ゲーム終了（ピリオド{period - 1}まで）"),
            *ruleset.status(state).blocks,
        ]
    paused = game.book.status() == "paused"
    parts = [
        f"ピリオド{period}",
        "停止中" if paused else f"締切 {deadline_text(game.period_clock().deadline(period))}",
    ]
    missing = game.missing_players(period)
    if missing:
        parts.append("未提出: " + "、".join(missing))
    assert isinstance(ruleset, ClockedRuleset)  # a game is immediate (above) or on the clock
    shown = ruleset.period_status(state, game.accepted_orders(period))  # with the period's orders so far
    return [head("・".join(parts)), *shown.blocks]


def reveal(game: Game, number: int) -> None:
    """Post the result and the keys of post `number`'s secret rolls; ValueError (Japanese) when there
    is nothing to reveal."""
    post = game.book.post(game.thread.id, number)
    if post is None:
        raise ValueError(f">>{number} はまだ読み込んでいません")
    day = keys.day_of(post.date or game.now)
    secret_keys = game.setup.secret_keys(game.thread.key, number)
    answer = answers.answer(game.thread.key, number, post.body, game.setup.day_key(day), secret_keys)
    hidden = answer.meta.get("secret", {}) if answer is not None else {}
    if not hidden:
        raise ValueError(f">>{number} にシークレットダイスはありません")
    opened = {index: secret_keys(index) for index in hidden}
    game.send(
        f"{game.id}/{game.thread.key}/reveal/{number}", "reveal", answers.reveal(number, hidden, opened)
    )
