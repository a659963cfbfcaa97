"""Debian's chromium, headless, driven by Playwright: the one way the browser tests start a browser
(never a downloaded one)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_browser = pytest.mark.skipif(
    not os.path.exists(CHROMIUM) or shutil.which("fc-list") is None,
    reason="Debian's chromium and fontconfig are not installed (.ci/run installs chromium and fonts-noto-cjk)",
)


@contextmanager
def browser_page(**page_options: object) -> Iterator[object]:
    """A new page in a freshly launched chromium, closed afterwards."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser.new_page(**page_options)
        finally:
            browser.close()
