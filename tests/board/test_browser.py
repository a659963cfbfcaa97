"""A real browser (Debian's chromium, headless, driven by Playwright) posts through the board's pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from board.admin import open_thread
from board.server import BoardServer, make_app
from tests.browser import browser_page as launched
from tests.browser import needs_browser

pytestmark = needs_browser


@pytest.fixture
def browser_page(tmp_path: Path) -> Iterator[object]:
    with launched() as page:
        yield page


def test_post_through_the_read_cgi_form_and_the_confirmation_page(browser_page, tmp_path: Path) -> None:
    page = browser_page
    data = tmp_path / "boards"
    app = make_app(data, ["demo"], defaults={"BBS_SAMBATIME": "0"})
    key = open_thread(data, "demo", "ブラウザ試験スレ", "ここに書いてください")
    with BoardServer(app) as server:
        page.goto(f"{server.url}/test/read.cgi/demo/{key}/")
        assert page.title() == "ブラウザ試験スレ"
        page.fill("input[name=FROM]", "ブラウザ#tea")
        page.fill(
            "textarea[name=MESSAGE]", "dice2d47=\n全角ダイス　ｄｉｃｅ１ｄ６＝ ♥ <script>alert(1)</script>"
        )
        page.click("input[type=submit]")
        page.wait_for_load_state()
        assert page.title() == "■ 書き込み確認 ■"
        page.click("input[value='上記全てを承諾して書き込む']")
        page.wait_for_url(f"**/test/read.cgi/demo/{key}/l10*")
        page.wait_for_selector('div.post[data-id="2"]')

        post = page.locator('div.post[data-id="2"]')
        assert "ブラウザ ◆WokonZwxw2" in post.locator(".name").inner_text()
        message = post.locator(".message").inner_text()
        assert message.splitlines() == [
            "dice2d47=",
            "全角ダイス　ｄｉｃｅ１ｄ６＝ ♥ <script>alert(1)</script>",
        ]
        page.screenshot(path=str(tmp_path / "read_cgi.png"), full_page=True)

        dat = (data / "demo" / "dat" / f"{key}.dat").read_bytes().decode("cp932").splitlines()
        name, _, _, body, _ = dat[1].split("<>")
        assert name == "ブラウザ </b>◆WokonZwxw2 <b>"
        # the browser sent ♥ (not in Shift_JIS) as a numeric reference; BBS_UNICODE=pass keeps it
        assert (
            body == "dice2d47=<br>全角ダイス　ｄｉｃｅ１ｄ６＝ &#9829; &lt;script&gt;alert(1)&lt;/script&gt;"
        )

        # the second post from the same browser needs no confirmation: the cookies are set
        page.fill("textarea[name=MESSAGE]", "二回目")
        page.click("input[type=submit]")
        page.wait_for_url(f"**/test/read.cgi/demo/{key}/l10*")
        page.wait_for_selector('div.post[data-id="3"]')
        assert page.locator('div.post[data-id="3"] .message').inner_text() == "二回目"
