"""A dat's line count and first line held between posts: every post is numbered as counting the
file would number it, whoever else wrote the dat meanwhile (another `Board` on the same directory
stands for board-admin or a second server)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from board.dat import DatPost
from board.storage import Board, BoardNotFound, BoardStore, encode


def _post(body: str, title: str = "") -> DatPost:
    return DatPost("名無しさん", "", "2026/11/29(日) 21:22:13 ID:abcdefgh", body, title)


def _lines(board: Board, key: str) -> int:
    return board.dat_path(key).read_bytes().count(b"\n")


@pytest.fixture
def board(tmp_path: Path) -> Board:
    return BoardStore(tmp_path).open("test", create=True)


def test_each_post_gets_the_number_of_its_line(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    numbers = [board.append(key, _post(str(n)), age=False) for n in range(2, 6)]
    assert numbers == [2, 3, 4, 5] == list(range(2, _lines(board, key) + 1))
    assert board.count(key) == 5
    assert board.first_post(key).title == "題"
    assert board.dat_state(key).size == board.dat_path(key).stat().st_size


def test_posts_by_another_writer_are_counted(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    board.append(key, _post("二"), age=False)
    other = Board(board.path)
    assert other.append(key, _post("三"), age=False) == 3
    assert other.append(key, _post("四"), age=False) == 4
    assert board.append(key, _post("五"), age=False) == 5
    assert [post.body for post in board.posts(key)] == ["一", "二", "三", "四", "五"]


def test_a_deletion_elsewhere_keeps_the_count_and_changes_the_first_line(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    board.append(key, _post("二"), age=False)
    assert board.first_post(key).title == "題"
    Board(board.path).delete_post(key, 1)  # the file is replaced: a new inode
    assert board.first_post(key).name == "あぼーん"
    assert board.append(key, _post("三"), age=False) == 3


def test_a_dat_edited_by_hand_is_read_again(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    board.append(key, _post("二"), age=False)
    path = board.dat_path(key)
    with path.open("ab") as dat:  # grown in place
        dat.write(encode(_post("手で足した").line()))
    assert board.count(key) == 3
    stat = path.stat()
    path.write_bytes(encode(_post("一だけ", "新しい題").line()))  # rewritten in place, shorter
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert board.count(key) == 1 and board.first_post(key).title == "新しい題"
    assert board.append(key, _post("二"), age=False) == 2


def test_an_empty_or_unfinished_dat_gets_its_first_line_from_the_file(board: Board) -> None:
    key = board.create_thread(1_700_000_000, _post("一", "題"))
    path = board.dat_path(key)
    path.write_bytes(b"")
    assert board.count(key) == 0
    assert board.append(key, _post("最初", "空から"), age=False) == 1
    assert board.first_post(key).title == "空から"
    path.write_bytes("名無し<><>日付<>切れ".encode("cp932"))  # no line end yet
    assert board.append(key, _post("続き"), age=False) == 1
    assert board.first_post(key).body == "切れ名無しさん"
    assert board.count(key) == 1


def test_a_missing_thread_or_a_directory_is_not_a_thread(board: Board) -> None:
    with pytest.raises(BoardNotFound):
        board.count("1700000000")
    (board.path / "dat" / "1700000001.dat").mkdir()
    with pytest.raises(BoardNotFound):
        board.dat_state("1700000001")
    assert not board.exists("1700000001")
