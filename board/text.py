"""How user text becomes dat fields: escaping, newlines, reserved marks and names.

Follows ex0ch's ConvertCharacter1/2: `<` and `>` are always escaped; `&` is kept as typed when the
board has `BBS_UNICODE=pass` (numeric references such as `&#9829;` then show as characters, which
AA and characters outside Shift_JIS rely on) and escaped to `&amp;` otherwise; `"` becomes `&quot;` in
name and mail; newlines become `<br>`; `◆`/`★` typed by users become `◇`/`☆` so nobody can fake a
trip or a cap; 削除 and the names 管理/管直/復帰 are quoted.
"""

from __future__ import annotations

import regex

_NEWLINE_REFS = regex.compile(r"&#(?:0*1[03]|x0*[ad]);", regex.IGNORECASE)
_FAKE_TRIP = regex.compile(r"◆|&#0*9670;|&#x0*25c6;", regex.IGNORECASE)
_FAKE_CAP = regex.compile(r"★|&#0*9733;|&#x0*2605;", regex.IGNORECASE)
_RESERVED_NAMES = ("管理", "管直", "復帰")


def escape(text: str, *, amp: bool, quote: bool = False) -> str:
    if amp:
        text = text.replace("&", "&amp;")
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        text = text.replace('"', "&quot;")
    return text


def single_line(text: str) -> str:
    """Name, mail and subject cannot hold line breaks (a forged dat line would follow)."""
    return text.replace("\r", "").replace("\n", "")


def body_to_dat(message: str, *, amp_pass: bool) -> str:
    """The body as stored in a dat line: escaped, `<br>` for newlines, no trailing empty lines."""
    text = message.replace("\r\n", "\n").replace("\r", "\n")
    text = _NEWLINE_REFS.sub("", text)
    text = escape(text, amp=not amp_pass)
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return "<br>".join(lines)


def disarm_marks(text: str) -> str:
    """Typed `◆`/`★` (or their numeric references) become `◇`/`☆`."""
    return _FAKE_CAP.sub("☆", _FAKE_TRIP.sub("◇", text))


def quote_reserved(name: str) -> str:
    if name in _RESERVED_NAMES:
        return f"”{name}”"
    return name.replace("削除", "”削除”")


def line_stats(dat_body: str) -> tuple[int, int]:
    """(number of lines, length of the longest line) of a dat body, for the board's limits."""
    lines = dat_body.split("<br>") if dat_body else [""]
    return len(lines), max(len(line) for line in lines)
