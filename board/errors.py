"""The errors a post can meet, with ex0ch's numbers, headings and texts (test/module/error_info.pl).

Clients match these texts (JDim reads the seconds after `593`, bots look for 連続投稿 or the 1000
limit), so they are kept exactly; `{...}` fields are filled in per error.
"""

from __future__ import annotations

from dataclasses import dataclass

_TEXTS: dict[int, tuple[str, str]] = {
    100: ("サブジェクト長すぎ", "サブジェクトが長すぎます！"),
    101: ("名前長すぎ", "名前が長すぎます！"),
    102: ("メール長すぎ", "メールアドレスが長すぎます！"),
    103: ("本文長すぎ", "本文が長すぎます！"),
    104: ("1行長すぎ", "長すぎる行があります！"),
    105: ("改行多すぎ", "改行が多すぎます！"),
    150: ("タイトルが無い", "サブジェクトが存在しません！"),
    151: ("本文が無い", "本文がありません！"),
    200: ("スレッド停止", "このスレッドは停止されてます。もう書けない。。。"),
    201: ("書き込み限界", "{res_max}を超えてます。このスレッドにはもう書けない。。。"),
    203: ("読取専用", "現在この掲示板は読取専用です。ここは待つしかない。。。"),
    206: ("サイズオーバー", "datファイルのサイズが限界を超えました。新しいスレッドを作成してください。"),
    500: ("スレッド立てすぎ", "スレッド立てすぎです。もうちょいもちついてください。"),
    501: ("連続投稿", "連続投稿ですか？？"),
    593: ("Samba規制1", "{samba} sec たたないと書けません。({count}回目、{waited} sec しかたってない)"),
    900: ("スレッド指定が変です", "スレッドキーに数字以外がありそうです。<br>もう一度よく確かめてちょ。"),
    902: ("スレッド指定が変です", "書き込もうとしているスレッドは存在しないか、削除されています。。。"),
    999: ("ブラウザ変ですよん", "フォーム情報が正しく読めないです。"),
}

SAMBA = 593


@dataclass(frozen=True)
class PostError:
    """A refused post: ex0ch's error number and the values its text names."""

    code: int
    res_max: int = 1000
    samba: int = 0
    count: int = 0
    waited: int = 0
    board_name: str = ""

    @property
    def subject(self) -> str:
        return _TEXTS[self.code][0]

    @property
    def message(self) -> str:
        """The error text; may hold `<br>` (it is HTML in ex0ch's page)."""
        return _TEXTS[self.code][1].format(
            res_max=self.res_max, samba=self.samba, count=self.count, waited=self.waited
        )

    @property
    def plain(self) -> str:
        return self.message.replace("<br>", "")

    @property
    def retry_after(self) -> int | None:
        """Seconds a client should wait before trying again, when the board says so."""
        return max(self.samba - self.waited, 1) if self.code == SAMBA else None
