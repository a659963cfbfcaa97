"""How user text becomes dat fields: escaping, newlines, reserved marks and names.

Follows ex0ch's ConvertCharacter1/2: `<` and `>` are always escaped; `&` is kept as typed when the
board has `BBS_UNICODE=pass` (numeric references such as `&#9829;` then show as characters, which
AA and characters outside Shift_JIS rely on) and escaped to `&amp;` otherwise; `"` becomes `&quot;` in
name and mail; newlines become `<br>`; `◆`/`★` typed by users become `◇`/`☆` so nobody can fake a
trip or a cap; 削除 and the names 管理/管直/復帰 are quoted.
"""

from __future__ import annotations

import html

import regex

# Numeric references as HTML reads them (with or without the semicolon: `&#10` is a newline too),
# and the named ones that decode to a control.
_CHAR_REF = regex.compile(r"&#(?:[0-9]+|[xX][0-9A-Fa-f]+);?|&(?:NewLine|Tab);")
# Characters that separate words or lines for the writer (Python's str.splitlines breaks on every one
# of them): in text fields they become a space, so the words stay apart on the one line readers see.
# A reference to LF or CR is one of them too: only the form's own newlines become `<br>`.
_SEPARATORS = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029")
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


# Every control but the line ends, which the callers turn into `<br>` (body) or drop (one-line fields).
_CONTROL = regex.compile(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def _control_ref(match: regex.Match, separator: str) -> str:
    # What a reader's browser makes of it decides: `&#133;` is "…" there (HTML's windows-1252 rule).
    decoded = html.unescape(match[0])
    if len(decoded) != 1 or (not _CONTROL.match(decoded) and decoded not in "\r\n"):
        return match[0]
    return separator if decoded in _SEPARATORS else ""


def strip_controls(text: str, *, separator: str) -> str:
    """Control characters out of a field, typed raw or as a live reference (`&#11;`, `&#x2028`), as
    real servers keep them out of a dat: a separator becomes `separator`, any other control (NUL,
    BEL, ESC, C1…) is dropped. A reference to LF or CR (`&#10`, `&NewLine;`) is a separator: ex0ch
    drops `&#10;`, but a space is what readers of boards that keep it see, and what threadgm reads.
    Raw CR and LF are left to the caller."""
    text = _CHAR_REF.sub(lambda match: _control_ref(match, separator), text)
    return _CONTROL.sub(lambda match: separator if match[0] in _SEPARATORS else "", text)


def single_line(text: str) -> str:
    """Name, mail and subject cannot hold line breaks (a forged dat line would follow)."""
    return text.replace("\r", "").replace("\n", "")


def body_to_dat(message: str, *, amp_pass: bool) -> str:
    """The body as stored in a dat line: escaped, `<br>` for newlines, no trailing empty lines."""
    text = message.replace("\r\n", "\n").replace("\r", "\n")
    # A body keeps its words apart (a tab or a form feed between two words is a space to a reader).
    text = strip_controls(text, separator=" ")
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
