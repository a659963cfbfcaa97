"""A real browser (Debian's chromium, headless, driven by Playwright) opens the game page of a naval
war and of a 47-prefecture battle royale the bot is playing on the local board: the map and the
tables match the stored state, and the next period appears without a reload. Screenshots are saved
under $THREADGM_SCREENSHOTS (default /tmp/threadgm-web-screenshots)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.rules.battle_royale.state import is_publicly_alive
from tests.browser import browser_page as launched
from tests.browser import needs_browser
from tests.web import played

SHOTS = Path(os.environ.get("THREADGM_SCREENSHOTS", "/tmp/threadgm-web-screenshots"))

pytestmark = needs_browser


@pytest.fixture
def browser_page() -> Iterator[object]:
    with launched(viewport={"width": 1100, "height": 900}) as page:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        yield page
    assert not errors, errors  # no script error, no CSP refusal of our own script


def stored_state(game: played.Played):
    row = game.store.last_resolution(game.config.id)
    return game.bot.setup.ruleset.state_from_dict(json.loads(row.state))


def test_the_naval_page_in_a_browser_follows_the_game(browser_page, tmp_path: Path) -> None:
    page = browser_page
    game = played.naval(tmp_path, periods=1)
    try:
        server = game.serve()
        page.goto(f"{server.url}/games/naval/")
        assert page.title() == "海戦ルール（TRPG戦闘処理） naval"
        state = stored_state(game)
        stacks = {
            g.get_attribute("data-hex"): g.get_attribute("data-units").split()
            for g in page.locator("#picture svg g.units").all()
        }
        expected: dict[str, list[str]] = {}
        for unit in state.units.values():
            where = state.hex_of(unit)
            expected.setdefault(f"{where[0]},{where[1]}", []).append(unit.id)
        assert stacks == expected
        assert page.locator("#picture svg circle.battle").count() == 1  # period 1's fight
        rows = page.locator("#standings table.report tr").all()
        assert [r.locator("td").first.inner_text() for r in rows] == list(state.units)
        assert page.locator("#period").inner_text() == "2"
        assert page.locator("#countdown").inner_text() != "-"  # the script runs the countdown
        assert page.locator("#thread").get_attribute("href") == game.board.url()
        key1 = page.locator('#keys tr[data-period="ピリオド1"] td.key').inner_text()
        assert key1 == game.bot.setup.period_key(1).hex()
        assert page.locator('#keys tr[data-period="ピリオド2"] td.key').inner_text() == "未公開"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "naval_period2.png"), full_page=True)

        page.evaluate("window.stayed = true")  # gone if the page reloads
        game.post("＜攻撃＞ABC-DD-A-02、XYZ-DD-X-02", name=played.ALICE)
        game.tick(minutes=1)
        page.wait_for_selector("#senders .sender", timeout=15_000)
        assert page.locator("#senders").inner_text() == "ABC"
        assert "ABC-DD-A-02、XYZ-DD-X-02" not in page.content()  # who, never what
        game.clock.now = game.clock.now.replace(hour=22, minute=1)
        game.tick()
        page.wait_for_selector('#resolved:text("2")', timeout=15_000)
        assert page.evaluate("window.stayed") is True
        assert page.locator("#status").inner_text() == "終了"
        assert page.locator("details.report summary").first.inner_text() == "【ゲーム終了】" or (
            "【ピリオド2 更新】" in page.locator("#reports").inner_text()
        )
        assert "XYZ-DD-X-02" not in [
            g.get_attribute("data-units") for g in page.locator("#picture svg g.units").all()
        ]
        page.screenshot(path=str(SHOTS / "naval_finished.png"), full_page=True)
    finally:
        game.close()


def test_the_battle_royale_page_in_a_browser_shows_japan_and_the_next_period(
    browser_page, tmp_path: Path
) -> None:
    page = browser_page
    game = played.battle_royale(tmp_path, roster=None, periods=4)
    try:
        server = game.serve()
        page.goto(f"{server.url}/games/br/")
        state = stored_state(game)
        tiles = page.locator("#picture svg g.tile")
        assert tiles.count() == 47
        shown = {t.get_attribute("data-name"): t.get_attribute("data-status") for t in tiles.all()}
        assert shown == {
            p.name: "alive" if is_publicly_alive(state, p.name) else "fallen" for p in state.roster
        }
        assert list(shown.values()).count("fallen") >= 1
        for name, gid in state.group_of.items():
            if is_publicly_alive(state, name):
                assert (
                    page.locator(f'#picture svg g.tile[data-name="{name}"]').get_attribute("data-group")
                    == gid
                )
        standings = page.locator("#standings").inner_text()
        assert "生き残り表" in standings
        state_period = game.store.last_resolution("br").period
        assert page.locator("#resolved").inner_text() == str(state_period)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "battle_royale_before.png"), full_page=True)

        page.evaluate("window.stayed = true")
        game.tick(minutes=10)
        page.wait_for_selector(f'#resolved:text("{state_period + 1}")', timeout=15_000)
        assert page.evaluate("window.stayed") is True
        after = stored_state(game)
        shown = {
            t.get_attribute("data-name"): t.get_attribute("data-status")
            for t in page.locator("#picture svg g.tile").all()
        }
        assert shown == {
            p.name: "alive" if is_publicly_alive(after, p.name) else "fallen" for p in after.roster
        }
        assert f"【ピリオド{state_period + 1} 更新】" in page.locator("#reports details").first.inner_text()
        page.screenshot(path=str(SHOTS / "battle_royale_after.png"), full_page=True)
    finally:
        game.close()
