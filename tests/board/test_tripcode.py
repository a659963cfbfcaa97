"""board.tripcode: 2ch/5ch trips of name fields, and the `threadgm trip` command."""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.descrypt import crypt
from board.tripcode import (
    NoTripKeyError,
    dat_name,
    display_trip,
    key_bytes,
    name_and_trip,
    split_name,
    trip_for_key,
)
from scheduler import main
from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parents[2]

# bbs-protocol.md §5 (key = the text after the name's `#`).
PROTOCOL_TABLE = [
    ("1", "tsGpSwX8mo"),
    ("12345678", "WBRXcNtpf."),
    ("123456789", "WBRXcNtpf."),
    ("tea", "WokonZwxw2"),
    ("#3100000000000000H.", "tsGpSwX8mo"),
    ("123456789012", "jZk8zfYo4m4X"),
    ("$2345678901", "BaNAE36vrg"),
    ("#23456789012", "???"),
    ("fusianasan", "M2TLe2H2No"),
    ('<>"&', "f0abm3NbDw"),
    ("＃", "u2YjtUz8MU"),
    ("1234567890＃", "WBRXcNtpf."),
]

# The "2ch.net" column of zerochplus/triptest's test.pl (the rest of it).
TRIPTEST_NET = [
    ("ｱ23ｴｵｶｷｸ", "WBRXcNtpf."),  # half-width kana: bit 7 dropped, ｱ reads as 1
    ("ｱｲｳｴｵｶｷｸ", "XlUiP8mHCU"),
    ("ｋａｍｉ", "yGAhoNiShI"),
    ("#828b8281828d8289", "yGAhoNiShI"),  # the raw form of ｋａｍｉ
    ("#828b8281828d8289.", "yGAhoNiShI"),
    ("#828b8281828d8289..", "yGAhoNiShI"),
    ("騨ﾚNWKJ諤", "YYYYYYYYYY"),
    ("#3132333435363738", "XlUiP8mHCU"),
    ("#31323334353637382", "1tWQFkUcLU"),
    ("#313233343536373823", "WBRXcNtpf."),
    ("1234567890", "WBRXcNtpf."),
    ("12345678901", "WBRXcNtpf."),
    ("1234567890123", "CNfebL9sP6Ci"),
    ("あいうえおか", "N0mUb9Yq8DyS"),  # 12 bytes of CP932: SHA-1
    ("$23456789012", "???"),
    ("$..........2", "???"),
    ("$｡3456789012", "???"),
    ("$｡1008343131", "???"),
    ("$ｱｲｳｴｵｱｲｳｴｵｱｲｳｴｵ", "???"),
    ("#1234567890123456..abc", "???"),
    ("ホムホム", "QD4TDVpNOM"),  # ム is 83 80: the key is cut at the 0x80
    ("#837a8380837a8380z.", "QD4TDVpNOM"),
    ("◆●★", "dTHrbNrOw."),
    ("■▲▼", "GExJOqup6A"),
    ("◆★", "9hhQmDPmK2"),
    ('"', "4eqVTkonjE"),
    ("'", "8/08awL.AE"),
    ("&", "2r2Ga7GHRc"),
    ("1234567&", "q3.yfaIC5s"),
    ('1234567"', "4qJVtuc8yc"),
    (" ＃", "68NHrw0u9M"),
    ("＃＃", "xSK1SiC5MI"),  # every ＃ becomes # (5ch), not only the first (ex0ch)
    ("＝煤＃", "0ZaZ6Ph9YM"),
    ("123456789012＃", "RITzbxS2I3J9"),
    ("＃3456789012", "lg6Q/4u.i."),
    ("＃31318194313100001.", "7ZE59iVq1I"),  # raw key with 81 94 and NUL bytes
    ("＝噤＝氈", "Pcn5KeK8IQ"),
    ("①Ⅰ㍉㈱", "Az6yZqa0I2"),
    ("～", "Fg7tQabTMc"),
    ("一一", "b3B4i2sLpY"),
    ("0 !", "ZIJx7G/pyg"),
    ("0-:", "NE0mkZ2TpI"),  # salt "-:" -> ".A"
    ("0@[", "gkmryCvLz6"),  # salt "@[" -> "Ga"
    ("0`{", "WtDsB59Wrk"),  # salt "`{" -> "f."
    ("0|}", "M6kra150Vk"),
    ("0\t0", "sXoB65CSvY"),
]


@pytest.mark.parametrize(("key", "trip"), PROTOCOL_TABLE + TRIPTEST_NET)
def test_known_trips(key: str, trip: str) -> None:
    assert display_trip("#" + key) == "◆" + trip
    assert display_trip("名無し#" + key) == "◆" + trip


@pytest.mark.parametrize(("key", "trip"), PROTOCOL_TABLE + TRIPTEST_NET)
def test_known_trips_through_the_small_functions(key: str, trip: str) -> None:
    display, key_text = split_name("名前#" + key)
    assert display == "名前"
    assert key_text is not None
    assert trip_for_key(key_bytes(key_text)) == trip


def _fixture_names() -> list[str]:
    dat = shared_path("fixtures", "ex0ch", "1795954933.dat").read_bytes().decode("cp932")
    return [line.split("<>")[0] for line in dat.splitlines()]


def test_trips_written_by_a_real_ex0ch_board() -> None:
    names = _fixture_names()
    seen = {}
    for name in names:
        found = re.search(r"◆(\S{10,12})", name)
        if found:
            seen[name.split(" ")[0]] = found[1]
    assert seen == {
        "トリップ": trip_for_key(key_bytes("tea")),
        "GM": trip_for_key(key_bytes("threadgm-test-key")),
    }
    assert len(seen["GM"]) == 12


def test_dat_name_is_the_shape_ex0ch_wrote() -> None:
    names = _fixture_names()
    for typed in ("トリップ#tea", "GM#threadgm-test-key"):
        display, trip = name_and_trip(typed)
        assert trip is not None
        assert dat_name(display, trip) in names


def test_the_0x80_cut_happens_after_the_salt_is_taken() -> None:
    key = "ホムホム".encode("cp932")
    assert key == b"\x83\x7a\x83\x80\x83\x7a\x83\x80"
    assert trip_for_key(key) == crypt(b"\x83\x7a\x83", b"z.")[-10:].decode()
    assert trip_for_key(b"ab\x80cd") == trip_for_key(b"ab\x80xy") == crypt(b"ab", b"b.")[-10:].decode()
    assert trip_for_key(b"\x80") == trip_for_key(b"")


def test_0x80_cut_applies_to_raw_keys_too() -> None:
    assert trip_for_key(b"#6162806364656667..") == crypt(b"ab", b"..")[-10:].decode()


def test_nul_bytes_end_the_key_but_count_for_its_length() -> None:
    assert trip_for_key(b"ab\x00cd") == crypt(b"ab", b"b.")[-10:].decode()
    assert trip_for_key(key_bytes("a\x00b")) == crypt(b"a", b".b")[-10:].decode()
    # 12 bytes with a NUL inside: a SHA-1 trip of all of them, not only of "abc"
    key = b"abc\x00efghijkl"
    assert trip_for_key(key) == "eOKeqJ3QR.zo"
    assert base64.b64encode(hashlib.sha1(key).digest()).startswith(b"eOKeqJ3QR+zo")


def test_salt_edge_cases() -> None:
    def crypt_trip(key: bytes, salt: bytes) -> str:
        return crypt(key, salt)[-10:].decode()

    assert trip_for_key(b"") == crypt_trip(b"", b"H.")  # empty key: salt from the padding
    assert trip_for_key(b"x") == crypt_trip(b"x", b"H.")
    assert trip_for_key(b"xy") == crypt_trip(b"xy", b"yH")
    assert trip_for_key(b"x!~") == crypt_trip(b"x!~", b"..")  # outside 0x2E..0x7A
    assert trip_for_key(b"x:`") == crypt_trip(b"x:`", b"Af")  # the symbol table
    assert trip_for_key(b"x[\\") == crypt_trip(b"x[\\", b"ab")
    assert trip_for_key(b"x\x82\xa0") == crypt_trip(b"x\x82\xa0", b"..")  # bytes of a full-width char


def test_twelve_byte_boundary() -> None:
    assert len(trip_for_key(b"12345678901")) == 10
    assert trip_for_key(b"123456789012") == "jZk8zfYo4m4X"
    assert len("あいうえおか".encode("cp932")) == 12  # six characters, twelve bytes: SHA-1
    assert len(trip_for_key(key_bytes("あいうえお"))) == 10


def test_sha1_trip_is_base64_with_plus_made_dot() -> None:
    def head(key: bytes) -> str:
        return base64.b64encode(hashlib.sha1(key).digest())[:12].decode()

    key = next(k for k in (f"threadgm-{i}-plus".encode() for i in range(1000)) if "+" in head(k))
    assert trip_for_key(key) == head(key).replace("+", ".")
    assert "+" not in trip_for_key(key)


def test_raw_keys() -> None:
    assert trip_for_key(b"#3100000000000000") == trip_for_key(b"#3100000000000000..")
    assert trip_for_key(b"#3100000000000000H.") == trip_for_key(b"1")
    assert trip_for_key(b"#31000000000000001") == crypt(b"1", b"1.")[-10:].decode()
    # 16 characters of [0-9A-Za-z] are taken as Perl's pack("H*") reads them: g is 0, z is 3
    assert trip_for_key(b"#gz00000000000000") == trip_for_key(b"#0300000000000000")
    assert trip_for_key(b"#31000000000000001234") == "???"  # too long
    assert trip_for_key(b"#310000000000000!") == "???"  # not [0-9A-Za-z]
    assert trip_for_key(b"#3100000000000000:.") == "???"  # salt outside the crypt alphabet


def test_dollar_keys() -> None:
    assert trip_for_key(b"$23456789012") == "???"
    assert len(trip_for_key(b"$2345678901")) == 10


def test_split_name() -> None:
    assert split_name("名無し") == ("名無し", None)
    assert split_name("GM#tea") == ("GM", "tea")
    assert split_name("#tea") == ("", "tea")
    assert split_name("name#") == ("name", "")
    assert split_name("a#b#c") == ("a", "b#c")
    assert split_name("全角＃tea") == ("全角", "tea")
    assert split_name("＃＃") == ("", "#")


def test_numeric_references_are_not_keys() -> None:
    assert split_name("&#9829;") == ("&#9829;", None)
    assert split_name("参照&#9829;だけ") == ("参照&#9829;だけ", None)
    assert split_name("A&#9829;#key") == ("A&#9829;", "key")
    assert split_name("&＃9829;") == ("&#9829;", None)  # full-width ＃ after & is not a key either
    assert split_name("x&#x2665;#") == ("x&#x2665;", "")
    assert name_and_trip("&#9829;") == ("&#9829;", None)


def test_empty_key_has_a_trip() -> None:
    assert name_and_trip("name#") == ("name", trip_for_key(b""))
    assert display_trip("#") == "◆" + crypt(b"", b"H.")[-10:].decode()


def test_key_bytes_are_cp932() -> None:
    assert key_bytes("tea") == b"tea"
    assert key_bytes("トリップ") == "トリップ".encode("cp932")
    assert key_bytes("～①") == b"\x81\x60\x87\x40"
    assert key_bytes("＃x") == b"#x"


def test_key_bytes_use_the_code_a_browser_sends_for_duplicated_characters() -> None:
    # Python's cp932 codec encodes these to NEC's copies at 0xED/0xEE, which browsers, Windows
    # and Perl never send; a board decoding 0xFA40 must get 0xFA40 back for the same trip
    assert key_bytes("ⅰ") == b"\xfa\x40"
    assert key_bytes("＇＂") == b"\xfa\x56\xfa\x57"
    assert key_bytes("纊") == b"\xfa\x5c"
    assert key_bytes("∵≒") == b"\x81\xe6\x81\xe0"  # row 2 before NEC row 13 and the IBM rows
    assert key_bytes("Ⅰ") == b"\x87\x54"  # NEC row 13 before the IBM rows


def test_every_code_a_browser_sends_encodes_back_to_itself() -> None:
    first_code: dict[str, bytes] = {}
    nec_copies = 0
    for lead in [*range(0x81, 0xA0), *range(0xE0, 0xFD)]:
        for trail in [*range(0x40, 0x7F), *range(0x80, 0xFD)]:
            code = bytes([lead, trail])
            try:
                text = code.decode("cp932")
            except UnicodeDecodeError:
                continue
            if text == "＃":
                assert key_bytes(text) == b"#"
            elif lead in (0xED, 0xEE):  # NEC's copies of the IBM extensions: never sent
                assert key_bytes(text)[0] not in (0xED, 0xEE), code.hex()
                nec_copies += 1
            else:  # the first code of a character is its own; a later duplicate gives the first
                assert key_bytes(text) == first_code.setdefault(text, code), code.hex()
    assert nec_copies == 374
    for byte in [*range(0x00, 0x80), *range(0xA1, 0xE0)]:
        assert key_bytes(bytes([byte]).decode("cp932")) == bytes([byte])


def test_characters_outside_cp932_become_numeric_references() -> None:
    assert key_bytes("😀") == b"&#128512;"
    assert key_bytes("a〜b") == b"a&#12316;b"  # WAVE DASH: a Shift_JIS form sends ～ only as ～
    assert key_bytes("¢£¬‖") == b"&#162;&#163;&#172;&#8214;"  # the codec's best fits are not sent
    assert trip_for_key(key_bytes("😀")) == trip_for_key(b"&#128512;")
    assert len(trip_for_key(key_bytes("😀😀"))) == 12
    assert key_bytes("¥‾−") == b"\\~\x81\x7c"  # mapped by the WHATWG Shift_JIS encoder


def test_display_trip_without_a_key() -> None:
    with pytest.raises(NoTripKeyError, match="#キー"):
        display_trip("名無し")
    with pytest.raises(NoTripKeyError):
        display_trip("&#9829;")


def test_dat_name() -> None:
    assert dat_name("GM", "SyRJNUqZWYMT") == "GM </b>◆SyRJNUqZWYMT <b>"
    assert dat_name("", "???") == " </b>◆??? <b>"


def test_cli_prints_the_trip() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["trip", "#tea"])
    assert result.exit_code == 0
    assert result.output == "◆WokonZwxw2\n"
    result = runner.invoke(main, ["trip", "GM#threadgm-test-key"])
    assert (result.exit_code, result.output) == (0, "◆SyRJNUqZWYMT\n")
    result = runner.invoke(main, ["trip", "名無し＃tea"])
    assert (result.exit_code, result.output) == (0, "◆WokonZwxw2\n")


def test_cli_without_a_key_exits_2_with_one_line() -> None:
    result = CliRunner().invoke(main, ["trip", "名無し"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "#キー" in lines[0]
    assert "no #key" in lines[0]


def test_a_trip_costs_its_process_well_under_two_megabytes() -> None:
    # The bot computes its own at start: the DES tables and the few hundred CP932 characters whose
    # code is not Python's codec's are what stays (a table of all 7,900 characters took 1.2 MiB).
    code = (
        "import tracemalloc; tracemalloc.start(); from board.tripcode import name_and_trip; "
        "name_and_trip('ダイス係#キー'); print(tracemalloc.get_traced_memory()[0])"
    )
    held = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert int(held.stdout) < 1.6 * 2**20
