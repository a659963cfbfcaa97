"""The command line of the local board: `threadgm board`, `threadgm board-admin …`, `threadgm trip`.

They use nothing but the board itself; `scheduler.py` adds them to the `threadgm` command. Each
imports the parts of the board it uses when it runs (`threadgm trip` loads the tripcode alone).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from board.tripcode import NoTripKeyError, display_trip

DEFAULT_BOARD_DATA = Path("var/board")
BRAKES_HELP = "Boards created now get a real ex0ch's brakes (samba 10 s, 連投規制, スレッド立てすぎ)."


@click.command("board")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0 for a LAN)."
)
@click.option("--port", default=8380, show_default=True, type=int)
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_BOARD_DATA,
    show_default=True,
    help="Directory holding the boards.",
)
@click.option(
    "--board",
    "boards",
    multiple=True,
    default=["demo"],
    show_default=True,
    help="Board to serve (repeatable); created if missing.",
)
@click.option("--brakes", is_flag=True, help=BRAKES_HELP)
@click.option(
    "--samba",
    type=int,
    default=None,
    help="Seconds between one client's posts on boards created now (0 = off; with --brakes 10).",
)
@click.option(
    "--trust-proxy", is_flag=True, help="Take client addresses from X-Forwarded-For (behind a proxy)."
)
def board_command(
    host: str,
    port: int,
    data: Path,
    boards: tuple[str, ...],
    brakes: bool,
    samba: int | None,
    trust_proxy: bool,
) -> None:
    """ローカル掲示板を起動する (serve 2ch- and したらば-compatible boards)."""
    from board.server import make_app, serve
    from board.settings import new_board_settings

    app = make_app(data, boards, defaults=new_board_settings(brakes, samba) or None)
    for name in app.boards:
        click.echo(f"2ch:      http://{host}:{port}/{name}/")
        click.echo(f"したらば: http://{host}:{port}/local/{name}/")
    with contextlib.suppress(KeyboardInterrupt):  # waitress usually returns on Ctrl-C by itself
        serve(app, host, port, trust_proxy=trust_proxy)
    click.echo("掲示板を停止しました")


@click.group("board-admin")
@click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_BOARD_DATA, show_default=True
)
@click.pass_context
def board_admin(ctx: click.Context, data: Path) -> None:
    """ローカル掲示板の管理 (delete posts, stop threads, change settings)."""
    ctx.obj = data


@board_admin.command("new-board")
@click.argument("board")
@click.option("--brakes", is_flag=True, help=BRAKES_HELP)
@click.option("--samba", type=int, default=None, help="Seconds between one client's posts (0 = off).")
@click.pass_obj
def board_admin_new_board(data: Path, board: str, brakes: bool, samba: int | None) -> None:
    """板を作る (for play on one machine: no samba, no 連投規制, unless --brakes)."""
    from board import admin

    if not admin.new_board(data, board, brakes=brakes, samba=samba):
        raise click.ClickException(f"{board} はもうあります（設定は board-admin set で変えられます）")
    kind = "実際の板と同じ規制あり" if brakes else "規制なし（1台で遊ぶ用）"
    click.echo(f"{board} を作りました: {kind}")


@board_admin.command("delete")
@click.argument("board")
@click.argument("key")
@click.argument("number", type=int)
@click.pass_obj
def board_admin_delete(data: Path, board: str, key: str, number: int) -> None:
    """レスを削除する (あぼーん; numbering is kept)."""
    from board import admin

    try:
        admin.delete_post(data, board, key, number)
    except (LookupError, IndexError) as error:
        raise click.ClickException(f"削除できません: {error}") from error
    click.echo(f"{board}/{key} >>{number} をあぼーんしました")


@board_admin.command("stop")
@click.argument("board")
@click.argument("key")
@click.pass_obj
def board_admin_stop(data: Path, board: str, key: str) -> None:
    """スレッドを停止する (thread stop: error 200 on later posts)."""
    from board import admin

    try:
        admin.stop_thread(data, board, key)
    except LookupError as error:
        raise click.ClickException(f"停止できません: {error}") from error
    click.echo(f"{board}/{key} を停止しました")


@board_admin.command("set")
@click.argument("board")
@click.argument("assignments", nargs=-1, required=True)
@click.pass_obj
def board_admin_set(data: Path, board: str, assignments: tuple[str, ...]) -> None:
    """SETTING.TXT の値を変える (KEY=VALUE ...)."""
    from board import admin

    changes = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r} は KEY=VALUE ではありません")
        changes[key] = value
    admin.update_settings(data, board, changes)
    click.echo(f"{board}: " + ", ".join(f"{k}={v}" for k, v in changes.items()))


@board_admin.command("new-thread")
@click.argument("board")
@click.argument("title")
@click.argument("message")
@click.option("--name", default="", help="Name field (may carry #tripkey).")
@click.option(
    "--origin",
    default="http://127.0.0.1:8380",
    show_default=True,
    help="Where the board is served, for the URLs.",
)
@click.option("--brakes", is_flag=True, help="A board created now gets a real ex0ch's brakes.")
@click.pass_obj
def board_admin_new_thread(
    data: Path, board: str, title: str, message: str, name: str, origin: str, brakes: bool
) -> None:
    """スレッドを立てる (prints the new thread's key, then its address in both dialects)."""
    from board import admin

    try:
        key = admin.open_thread(data, board, title, message, name, brakes=brakes)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    base = origin.rstrip("/")
    click.echo(key)
    click.echo(f"2ch形式:      {base}/test/read.cgi/{board}/{key}/")
    click.echo(f"したらば形式: {base}/bbs/read.cgi/local/{board}/{key}/")


# -- tripcodes ----------------------------------------------------------------------------------


@click.command("trip")
@click.argument("name_field")
def trip_command(name_field: str) -> None:
    """名前欄のトリップを表示する (print the ◆trip of a name field such as '#key' or 'GM#key')."""
    try:
        click.echo(display_trip(name_field))
    except NoTripKeyError as error:
        click.echo(f"エラー: {error}", err=True)
        raise SystemExit(2) from None
