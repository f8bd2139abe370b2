"""Numbers in text: number words as digits ("thirty-one" → "31", "两百" → "200"), one form per number."""

from __future__ import annotations

import re

# A number as written, its groups separated by "." or "," ("4,095", "3.2", "1,5").
NUMBER = r"\d+(?:[.,]\d+)*"
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")

_ONES = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}  # "one" stays a word: it is a pronoun as often as a number
_UNITS = {"one": 1, **{k: v for k, v in _ONES.items() if v < 10}}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_ENGLISH = re.compile(
    rf"\b(?:(?P<tens>{'|'.join(_TENS)})(?:[\s-](?P<unit>{'|'.join(_UNITS)}))?|(?P<ones>{'|'.join(_ONES)}))"
    rf"(?:\s+(?P<scale>{'|'.join(_SCALES)}))?\b",
    re.IGNORECASE,
)
_CJK_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CJK_SCALES = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
# A lone numeral is a number only before a measure word (三次, 两倍, 五年); 一 never is (一些, 一起).
_MEASURE = "个次年月日天周米秒分时倍种位台层级度元岁人条项张页章节遍层块克升瓦伏档段篇句"
_CJK = re.compile(r"(?<!第)[〇零一二两三四五六七八九十百千万亿]+")
# ...or the first of a range whose second is one: 五到八段, 三至五年 (5 to 8 passages, 3 to 5 years)
_RANGE = re.compile(r"[到至~～-][〇零二两三四五六七八九十百千万亿]+[" + _MEASURE + "]")


def _english(match: re.Match[str]) -> str:
    words = {key: (value or "").lower() for key, value in match.groupdict().items()}
    if words["tens"]:
        value = _TENS[words["tens"]] + (_UNITS[words["unit"]] if words["unit"] else 0)
    else:
        value = _ONES[words["ones"]]
    if words["scale"]:
        value *= _SCALES[words["scale"]]
    return str(value)


def _cjk_value(run: str) -> int | None:
    total = section = digit = 0
    for char in run:
        if char in _CJK_DIGITS:
            digit = _CJK_DIGITS[char]
        elif char in ("万", "亿"):
            total = (total + section + digit) * _CJK_SCALES[char]
            section = digit = 0
        else:
            section += (digit or 1) * _CJK_SCALES[char]
            digit = 0
    return total + section + digit


def _cjk(match: re.Match[str]) -> str:
    run = match.group()
    following = match.string[match.end() : match.end() + 1]
    ranged = _RANGE.match(match.string, match.end())
    if ranged:
        following = match.string[ranged.end() - 1]  # the range's measure word
    scaled = any(char in _CJK_SCALES for char in run)
    if len(run) == 1 and (run == "一" or not following or following not in _MEASURE) and not scaled:
        return run
    if len(run) > 1 and not scaled and not (following and following in _MEASURE):
        return run  # 一一, 三三两两: words, not numbers
    value = _cjk_value(run)
    return run if value is None else str(value)


_TIMES = re.compile(r"\b(twice|thrice)\b", re.IGNORECASE)
# An Arabic number with a Chinese multiplier: "4.6 万" is 46000, "3 亿" 300000000.
_ARABIC_SCALED = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)\s?([万亿])")


def _arabic_scaled(match: re.Match[str]) -> str:
    value = float(match.group(1)) * _CJK_SCALES[match.group(2)]
    return str(int(value)) if value.is_integer() else str(value)


def spell_numbers(text: str) -> str:
    """`text` with number words replaced by digits (English and Chinese); everything else unchanged."""
    text = _TIMES.sub(lambda m: "2 times" if m.group().lower() == "twice" else "3 times", text)
    text = _ENGLISH.sub(_english, text)
    text = _ARABIC_SCALED.sub(_arabic_scaled, text)
    return _CJK.sub(_cjk, text)


def number_form(token: str) -> str:
    """The one form of a written number (a NUMBER match): thousands separators dropped ("4,095" →
    "4095"), a decimal comma as a point ("1,5" → "1.5")."""
    return token.replace(",", "") if _THOUSANDS.fullmatch(token) else token.replace(",", ".")


_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\.?,?\s+(\d{{4}})\b", re.I
)
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_MONTH_YEAR = re.compile(rf"\b({_MONTH})\.?,?\s+(\d{{4}})\b", re.I)
_ISO = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
_CJK_DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*[日号])?")


def _date(year: str, month: int, day: str | None = None) -> str:
    if not 1 <= month <= 12 or (day is not None and not 1 <= int(day) <= 31):
        return ""
    return f"{year}-{month}" + (f"-{int(day)}" if day is not None else "")


def normalize_dates(text: str) -> str:
    """Dates in one form, so "31 December 2025", "December 31, 2025", "2025/12/31" and
    "2025年12月31日" all read "2025-12-31" (and "December 2025" reads "2025-12")."""

    def keep(match: re.Match[str], value: str) -> str:
        return value or match.group(0)

    text = _DAY_MONTH_YEAR.sub(
        lambda m: keep(m, _date(m.group(3), _MONTHS[m.group(2).lower()], m.group(1))), text
    )
    text = _MONTH_DAY_YEAR.sub(
        lambda m: keep(m, _date(m.group(3), _MONTHS[m.group(1).lower()], m.group(2))), text
    )
    text = _MONTH_YEAR.sub(lambda m: keep(m, _date(m.group(2), _MONTHS[m.group(1).lower()])), text)
    text = _ISO.sub(lambda m: keep(m, _date(m.group(1), int(m.group(2)), m.group(3))), text)
    return _CJK_DATE.sub(lambda m: keep(m, _date(m.group(1), int(m.group(2)), m.group(3))), text)
