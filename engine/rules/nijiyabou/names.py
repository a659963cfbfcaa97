"""The words of にじ野望: troop types, stats, terrains, the 47 areas with their regions, and how a name
typed by a player is matched (NFKC, zero-width characters dropped, spaces and ・ ignored, 都/府/県
optional; the readings `とうきょう`, the old province names `相模` and a few old names `江戸` read as the
area when they name one prefecture, and offered as suggestions when they name several, `武蔵`)."""

from __future__ import annotations

import difflib
import unicodedata

import regex

ASHIGARU, CAVALRY, ARCHERS, GUNS = "足軽", "騎兵", "弓兵", "鉄砲"
TROOPS = (ASHIGARU, CAVALRY, ARCHERS, GUNS)  # also the seed's tie order for targets (足軽→騎兵→弓兵→鉄砲)
RANGED = (GUNS, ARCHERS)  # 先制攻撃: 鉄砲 then 弓兵
MELEE = (CAVALRY, ASHIGARU)

LEAD, VALOR, WIT, POLITICS = "統率", "武勇", "智略", "政治"
STATS = (LEAD, VALOR, WIT, POLITICS)  # the 右隣 order of initiative ties
STAT_ALIASES = {"智謀": WIT}  # §8 writes 智謀 for 智略

PLAIN, FOREST, MOUNTAIN, SNOW = "平地", "森林", "山地", "雪地"
TERRAIN_STAT = {PLAIN: LEAD, FOREST: VALOR, MOUNTAIN: WIT, SNOW: POLITICS}

# The 47 areas by JIS X 0401 code, the seed's short names, and a region for the text map.
REGIONS = (
    ("北海道・東北", ("北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島")),
    ("関東", ("茨城", "栃木", "群馬", "埼玉", "千葉", "東京", "神奈川")),
    ("中部", ("新潟", "富山", "石川", "福井", "山梨", "長野", "岐阜", "静岡", "愛知")),
    ("近畿", ("三重", "滋賀", "京都", "大阪", "兵庫", "奈良", "和歌山")),
    ("中国", ("鳥取", "島根", "岡山", "広島", "山口")),
    ("四国", ("徳島", "香川", "愛媛", "高知")),
    ("九州・沖縄", ("福岡", "佐賀", "長崎", "熊本", "大分", "宮崎", "鹿児島", "沖縄")),
)
PREFECTURES = tuple(name for _, names in REGIONS for name in names)


READINGS = dict(
    zip(
        PREFECTURES,
        [
            "ほっかいどう",
            "あおもり",
            "いわて",
            "みやぎ",
            "あきた",
            "やまがた",
            "ふくしま",
            "いばらき",
            "とちぎ",
            "ぐんま",
            "さいたま",
            "ちば",
            "とうきょう",
            "かながわ",
            "にいがた",
            "とやま",
            "いしかわ",
            "ふくい",
            "やまなし",
            "ながの",
            "ぎふ",
            "しずおか",
            "あいち",
            "みえ",
            "しが",
            "きょうと",
            "おおさか",
            "ひょうご",
            "なら",
            "わかやま",
            "とっとり",
            "しまね",
            "おかやま",
            "ひろしま",
            "やまぐち",
            "とくしま",
            "かがわ",
            "えひめ",
            "こうち",
            "ふくおか",
            "さが",
            "ながさき",
            "くまもと",
            "おおいた",
            "みやざき",
            "かごしま",
            "おきなわ",
        ],
        strict=True,
    )
)
# The old provinces (令制国, with the 1869 splits of 陸奥 and 出羽) and a few old names, by the
# prefectures they lie in; one prefecture: read as it, several: offered as suggestions.
OLD_NAMES: dict[str, tuple[str, ...]] = {
    name: tuple(areas.split("/"))
    for name, areas in (
        pair.split("=")
        for pair in [
            "山城=京都",
            "大和=奈良",
            "河内=大阪",
            "和泉=大阪",
            "摂津=大阪/兵庫",
            "伊賀=三重",
            "伊勢=三重",
            "志摩=三重",
            "尾張=愛知",
            "三河=愛知",
            "遠江=静岡",
            "駿河=静岡",
            "伊豆=静岡",
            "甲斐=山梨",
            "相模=神奈川",
            "武蔵=東京/埼玉/神奈川",
            "安房=千葉",
            "上総=千葉",
            "下総=千葉/茨城",
            "常陸=茨城",
            "近江=滋賀",
            "美濃=岐阜",
            "飛騨=岐阜",
            "信濃=長野",
            "上野=群馬",
            "下野=栃木",
            "陸奥=青森/岩手/宮城/福島",
            "出羽=山形/秋田",
            "磐城=福島/宮城",
            "岩代=福島",
            "陸前=宮城/岩手",
            "陸中=岩手/秋田",
            "羽前=山形",
            "羽後=秋田/山形",
            "若狭=福井",
            "越前=福井",
            "加賀=石川",
            "能登=石川",
            "越中=富山",
            "越後=新潟",
            "佐渡=新潟",
            "丹波=京都/兵庫",
            "丹後=京都",
            "但馬=兵庫",
            "因幡=鳥取",
            "伯耆=鳥取",
            "出雲=島根",
            "石見=島根",
            "隠岐=島根",
            "播磨=兵庫",
            "美作=岡山",
            "備前=岡山",
            "備中=岡山",
            "備後=広島",
            "安芸=広島",
            "周防=山口",
            "長門=山口",
            "紀伊=和歌山/三重",
            "淡路=兵庫",
            "阿波=徳島",
            "讃岐=香川",
            "伊予=愛媛",
            "土佐=高知",
            "筑前=福岡",
            "筑後=福岡",
            "豊前=福岡/大分",
            "豊後=大分",
            "肥前=佐賀/長崎",
            "肥後=熊本",
            "日向=宮崎",
            "大隅=鹿児島",
            "薩摩=鹿児島",
            "壱岐=長崎",
            "対馬=長崎",
            "信州=長野",
            "甲州=山梨",
            "上州=群馬",
            "野州=栃木",
            "武州=東京/埼玉/神奈川",
            "相州=神奈川",
            "駿州=静岡",
            "遠州=静岡",
            "尾州=愛知",
            "濃州=岐阜",
            "江州=滋賀",
            "紀州=和歌山/三重",
            "薩州=鹿児島",
            "長州=山口",
            "土州=高知",
            "阿州=徳島",
            "讃州=香川",
            "予州=愛媛",
            "芸州=広島",
            "房州=千葉",
            "常州=茨城",
            "勢州=三重",
            "雲州=島根",
            "因州=鳥取",
            "伯州=鳥取",
            "作州=岡山",
            "播州=兵庫",
            "但州=兵庫",
            "泉州=大阪",
            "摂州=大阪/兵庫",
            "和州=奈良",
            "奥州=青森/岩手/宮城/福島",
            "羽州=山形/秋田",
            "蝦夷=北海道",
            "琉球=沖縄",
            "江戸=東京",
            "大坂=大阪",
        ]
    )
}
_FORMAT = regex.compile(r"\p{Cf}")


def nfkc(text: str) -> str:
    """NFKC without format characters (a zero-width space, a joiner or a BOM a browser leaves in)."""
    return _FORMAT.sub("", unicodedata.normalize("NFKC", text))


def quoted(text: str, limit: int = 20) -> str:
    """A player's text quoted back in a reason, cut short (a post must not echo a huge line)."""
    return text if len(text) <= limit else text[:limit] + "…"


def hiragana(text: str) -> str:
    return "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in text)


def key(name: str) -> str:
    """The form names are compared in: NFKC, without spaces and ・ (`フレン・ E・ルスタリオ` →
    `フレンEルスタリオ`); also the liver's id in the state and in 設定 paths."""
    return "".join(ch for ch in nfkc(name) if not ch.isspace() and ch not in "・･")


def _bare(text: str) -> str | None:
    if text in PREFECTURES:
        return text
    for suffix in ("都", "府", "県", "道"):
        if text.endswith(suffix) and text[:-1] in PREFECTURES:
            return text[:-1]
    return None


def _by_reading(text: str) -> str | None:
    reading = hiragana(text)
    for suffix in ("", "と", "ふ", "けん", "どう"):
        if suffix and not reading.endswith(suffix):
            continue
        stem = reading[: len(reading) - len(suffix)]
        found = [name for name, said in READINGS.items() if said == stem]
        if found:
            return found[0]
    return None


def area_names(text: str) -> tuple[str, ...]:
    """Every prefecture `text` may name: one when it names one (`東京`, `東京都`, `とうきょう`, `相模`,
    `江戸`, `北海`), several for an old name that spans them (`武蔵`), none when it names none."""
    text = key(text)
    found = _bare(text) or _by_reading(text)
    if found:
        return (found,)
    if text in OLD_NAMES or text.removesuffix("国") in OLD_NAMES:
        return OLD_NAMES.get(text) or OLD_NAMES[text.removesuffix("国")]
    if len(text) >= 2:
        return tuple(name for name in PREFECTURES if len(name) > len(text) and name.startswith(text))
    return ()


def area_name(text: str) -> str | None:
    """A prefecture as the seed names it (`東京`), from any name that names it alone (`area_names`)."""
    found = area_names(text)
    return found[0] if len(found) == 1 else None


def similar_areas(text: str) -> tuple[str, ...]:
    """What an unreadable area name may have meant: the prefectures it may name, else the nearest
    spellings among the prefectures and the old names."""
    found = area_names(text)
    if found:
        return found
    words = [*PREFECTURES, *OLD_NAMES]
    near = difflib.get_close_matches(key(text), words, n=3, cutoff=0.5)
    return tuple(dict.fromkeys(area for word in near for area in area_names(word)))[:3]


def stat_name(text: str) -> str | None:
    text = key(text)
    text = STAT_ALIASES.get(text, text)
    return text if text in STATS else None


def troop_name(text: str) -> str | None:
    text = key(text)
    return text if text in TROOPS else None
