"""audit_handouts: the thread's publications against the first commitments."""

from __future__ import annotations

from engine.rules.dystopia import audit_handouts
from engine.rules.dystopia.handouts import commitment

KEY = bytes(range(32))
GOOD = commitment(KEY, "ユイ", "王家の末裔")


def thread(commit: str = GOOD, text: str = "王家の末裔", key: bytes = KEY) -> list[str]:
    return [
        f">>2\n【裏ハンドアウト コミットメント】\n裏ハンドアウト ユイ コミットメント(HMAC-SHA256): {commit}",
        f">>9\n【ユイの裏ハンドアウト公開】（アキラが知りました）\n{text}\n鍵 裏ハンドアウト ユイ: {key.hex()}",
    ]


def test_a_true_publication_matches() -> None:
    audit = audit_handouts(thread())
    assert (audit.checked, audit.matched, audit.problems) == (1, 1, [])


def test_a_changed_text_or_key_or_a_missing_commitment_is_a_problem() -> None:
    assert audit_handouts(thread(text="商家の末裔")).matched == 0
    assert audit_handouts(thread(key=bytes(32))).problems
    missing = audit_handouts(thread()[1:])
    assert missing.problems == ["ユイの裏ハンドアウトは公開されましたが、事前のコミットメントがありません"]


def test_a_second_different_commitment_is_a_problem_and_the_first_counts() -> None:
    other = commitment(bytes(32), "ユイ", "商家の末裔")
    posts = thread()
    posts.insert(1, f">>5\n裏ハンドアウト ユイ コミットメント(HMAC-SHA256): {other}")
    audit = audit_handouts(posts)
    assert audit.problems == ["ユイの裏ハンドアウトのコミットメントが2つあります"] and audit.matched == 1
