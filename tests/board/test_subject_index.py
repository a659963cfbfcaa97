"""subject.txt held in memory: what a post writes is what re-reading the file would have written,
and a change made by another process (another `Board` on the same directory) is seen at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from board.dat import DatPost
from board.storage import Board, BoardStore, encode
from board.subject_index import SubjectIndex, ThreadEntry, parse


def _post(body: str, title: str = "", mail: str = "") -> DatPost:
    return DatPost("名無しさん", mail, "2026/11/29(日) 21:22:13 ID:abcdefgh", body, title)


def _subject(board: Board) -> bytes:
    return (board.path / "subject.txt").read_bytes()


def _lines(*entries: tuple[str, str, int]) -> bytes:
    return encode("".join(f"{key}.dat<>{title} ({count})\n" for key, title, count in entries))


@pytest.fixture
def board(tmp_path: Path) -> Board:
    return BoardStore(tmp_path).open("test", create=True)


def test_posts_and_new_threads_write_the_list_in_aging_order(board: Board) -> None:
    first = board.create_thread(1_700_000_000, _post("一", "最初のスレ"))
    second = board.create_thread(1_700_000_000, _post("二", "二番目♥"))  # ♥ is not in CP932
    assert second == "1700000001"
    assert _subject(board) == _lines((second, "二番目♥", 1), (first, "最初のスレ", 1))
    assert b"&#9829;" in _subject(board)

    board.append(first, _post("sage", mail="sage"), age=False)
    assert _subject(board) == _lines((second, "二番目♥", 1), (first, "最初のスレ", 2))
    board.append(first, _post("age"), age=True)
    assert _subject(board) == _lines((first, "最初のスレ", 3), (second, "二番目♥", 1))
    board.append(second, _post("1001"), age=False, extra=[_post("over")])
    assert _subject(board) == _lines((first, "最初のスレ", 3), (second, "二番目♥", 3))
    assert board.threads() == parse(_subject(board))


def test_a_list_written_by_another_process_is_read_again(board: Board) -> None:
    first = board.create_thread(1_700_000_000, _post("一", "一"))
    second = board.create_thread(1_700_000_100, _post("二", "二"))
    other = Board(board.path)  # board-admin: its own memory, the same files and lock
    third = other.create_thread(1_700_000_200, _post("三", "三"))
    assert [entry.key for entry in board.threads()] == [third, second, first]

    board.append(first, _post("sage"), age=False)
    assert _subject(board) == _lines((third, "三", 1), (second, "二", 1), (first, "一", 2))
    assert other.threads() == board.threads()


def test_a_thread_taken_off_the_list_by_hand_stays_off(board: Board) -> None:
    # Archiving (過去ログ) is done outside the server: the list is rewritten without the thread.
    first = board.create_thread(1_700_000_000, _post("一", "一"))
    second = board.create_thread(1_700_000_100, _post("二", "二"))
    (board.path / "subject.txt").write_bytes(_lines((second, "二", 1)))
    board.append(second, _post("sage"), age=False)
    assert _subject(board) == _lines((second, "二", 2))
    board.append(first, _post("still in the dat"), age=False)  # posted to, it comes back, as before
    assert _subject(board) == _lines((first, "一", 2), (second, "二", 2))


def test_a_deleted_first_post_retitles_the_thread_on_its_next_post(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    board.append(key, _post("二"), age=False)
    Board(board.path).delete_post(key, 1)
    assert _subject(board) == _lines((key, "題", 2))  # a deletion does not touch the list
    board.append(key, _post("三"), age=False)
    assert _subject(board) == _lines((key, "あぼーん", 3))


def test_damaged_lines_are_dropped_as_a_fresh_read_would(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題 (で) す"))
    damaged = _subject(board) + "壊れた行\n123.dat<>短いキー (1)\n1700000005.dat<>数なし (x)\n".encode(
        "cp932"
    )
    (board.path / "subject.txt").write_bytes(damaged)
    assert board.threads() == [ThreadEntry(key, "題 (で) す", 1)]
    board.append(key, _post("二"), age=False)
    assert _subject(board) == _lines((key, "題 (で) す", 2))


def test_no_subject_file_is_an_empty_list(tmp_path: Path) -> None:
    index = SubjectIndex(tmp_path / "subject.txt")
    assert index.entries() == []
    index.touch(ThreadEntry("1700000000", "題", 1), age=False)
    assert (tmp_path / "subject.txt").read_bytes() == _lines(("1700000000", "題", 1))
    assert not (tmp_path / "subject.txt.tmp").exists()


def test_first_post_reads_the_title_and_refuses_a_missing_thread(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    board.append(key, _post("二"), age=False)
    assert board.first_post(key) == board.posts(key)[0]
    with pytest.raises(LookupError):
        board.first_post("1700009999")
