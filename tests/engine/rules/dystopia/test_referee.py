"""DysTopiA through the pure referee, on the template as `threadgm new` writes it (issue 24): the posts
that stopped the thread are each answered with the game's own refusal — never the internal error —
and the next post is answered normally; the template refuses strangers."""

from __future__ import annotations

from tests.referee_harness import GM_TRIP, PureGame, posted

POISON = (
    "【キャラシート】\n名前: ジェイ\n所持金: +-100ND",
    '{"kind":"character","data":{"name":"ジェイ","params":5}}',
    "【キャラシート】\n名前: ジェイ\n肉体: \u1369",  # &#4969; as a browser sends it
    "移動コスト アキラ \u1369",
)


def test_each_poison_post_is_refused_by_the_game_and_the_next_post_answered() -> None:
    game = PureGame("dystopia")
    game.poll()  # the opening
    for body in POISON:
        poison = game.post(body, "ジェイ", "JAYJAYJAYJ")
        after = game.post("状況", "ジェイ", "JAYJAYJAYJ")
        texts = posted(game.poll([poison, after], minutes=1))
        answer = "\n".join(texts)
        assert f">>{poison.number}" in answer and "受け付けられません" in answer, answer
        assert "内部エラー" not in answer, answer
        assert f">>{after.number}" in answer and "DysTopiA" in answer, answer
    game.close()


def test_the_template_as_written_refuses_strangers() -> None:
    """With the template an untripped 通りすがり was obeyed for damage, scenes, combat and effects."""
    game = PureGame("dystopia")
    game.poll()
    for body in (
        "アキラ: ダメージ 30",
        "ダメージ アキラ 30",
        "シーン エンディング",
        "戦闘開始",
        "効果 アキラ 毒",
    ):
        stranger = game.post(body, "通りすがり")
        answer = "\n".join(posted(game.poll([stranger], minutes=1)))
        assert "受け付けられません" in answer, (body, answer)
    gm = game.post("ダメージ アキラ 5", "GM", GM_TRIP)
    assert "HP30→25" in "\n".join(posted(game.poll([gm], minutes=1)))
    game.close()


def test_a_name_and_a_space_where_the_colon_goes_acts_for_that_character_or_is_answered() -> None:
    """`アキラ 肉体判定` is the player's check for アキラ (not chat); for a name that is no character,
    or a character that is not the writer's, the thread is told why."""
    game = PureGame("dystopia")
    game.poll()
    akira = ("あき", "AKIRA00001")
    game.poll([game.post("【キャラシート】\n名前: アキラ", *akira)])
    for body, answer in (
        ("アキラ 肉体判定", "アキラの肉体判定"),
        ("よし 肉体判定", "「よし」というキャラクターはいません"),
        ("ユイ 肉体判定", "ユイにはまだ持ち主がいません"),
        ("1. 状況", "【DysTopiA"),
    ):
        post = game.post(body, *akira)
        text = "\n".join(posted(game.poll([post])))
        assert f">>{post.number}" in text and answer in text, text
    game.close()
