"""The words of にじ野望: troop types, stats, terrains, the 47 areas with their regions, and how a name
typed by a player is matched (NFKC, spaces and ・ ignored, 都/府/県 optional)."""

from __future__ import annotations

import unicodedata

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


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def key(name: str) -> str:
    """The form names are compared in: NFKC, without spaces and ・ (`フレン・ E・ルスタリオ` →
    `フレンEルスタリオ`); also the liver's id in the state and in 設定 paths."""
    return "".join(ch for ch in nfkc(name) if not ch.isspace() and ch not in "・･")


def area_name(text: str) -> str | None:
    """A prefecture as the seed names it (`東京`), from `東京` or `東京都`, `大阪府`, `愛知県`."""
    text = key(text)
    if text in PREFECTURES:
        return text
    for suffix in ("都", "府", "県"):
        if text.endswith(suffix) and text[:-1] in PREFECTURES:
            return text[:-1]
    return None


def stat_name(text: str) -> str | None:
    text = key(text)
    text = STAT_ALIASES.get(text, text)
    return text if text in STATS else None


def troop_name(text: str) -> str | None:
    text = key(text)
    return text if text in TROOPS else None
