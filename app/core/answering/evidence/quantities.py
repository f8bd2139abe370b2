"""Numbers with their units ("12 s", "2.5 metres", "1.2 升") in one canonical form, so that an answer
that moves a passage's number to another unit ("12 minutes" for "12 seconds") is caught."""

from __future__ import annotations

import re

from app.core.numbers import NUMBER, number_form, spell_numbers

# canonical unit: its spellings. Latin spellings match whole words, case-insensitively; the one-letter
# symbols are in _SYMBOLS (case matters there: "5 M" is five million, not five metres).
_UNITS: dict[str, tuple[str, ...]] = {
    "m": ("metre", "metres", "meter", "meters", "米"),
    "km": ("km", "kilometre", "kilometres", "kilometer", "kilometers", "公里", "千米"),
    "cm": ("cm", "centimetre", "centimetres", "centimeter", "centimeters", "厘米"),
    "mm": ("mm", "millimetre", "millimetres", "millimeter", "millimeters", "毫米"),
    "ft": ("ft", "foot", "feet"),
    "inch": ("inch", "inches", "英寸"),
    "mile": ("mile", "miles", "英里"),
    "l": ("litre", "litres", "liter", "liters", "升"),
    "ml": ("ml", "millilitre", "millilitres", "milliliter", "milliliters", "毫升"),
    "gal": ("gal", "gallon", "gallons", "加仑"),
    "kg": ("kg", "kilogram", "kilograms", "kilo", "kilos", "千克", "公斤"),
    "g": ("gram", "grams", "克"),
    "t": ("tonne", "tonnes", "ton", "tons", "吨"),
    "lb": ("lb", "lbs", "pound", "pounds", "磅"),
    "oz": ("oz", "ounce", "ounces", "盎司"),
    "s": ("sec", "secs", "second", "seconds", "秒", "秒钟"),
    "min": ("min", "mins", "minute", "minutes", "分钟"),
    "h": ("hr", "hrs", "hour", "hours", "小时", "个小时"),
    "day": ("day", "days", "天"),
    "week": ("week", "weeks", "周", "星期", "个星期"),
    "month": ("month", "months", "个月"),
    "year": ("year", "years", "yr", "yrs"),
    "%": ("%", "percent", "per cent"),
    "byte": ("byte", "bytes", "字节"),
    "kb": ("kb", "kilobyte", "kilobytes"),
    "kib": ("kib",),
    "mb": ("mb", "megabyte", "megabytes"),
    "mib": ("mib",),
    "gb": ("gb", "gigabyte", "gigabytes"),
    "gib": ("gib",),
    "tb": ("tb", "terabyte", "terabytes"),
    "w": ("watt", "watts", "瓦"),
    "kw": ("kw", "kilowatt", "kilowatts", "千瓦"),
    "v": ("volt", "volts", "伏"),
    "db": ("db", "dba", "db(a)", "decibel", "decibels", "分贝"),
    "bar": ("bar", "bars"),
    "mah": ("mah",),
    "hz": ("hz", "hertz"),
    "khz": ("khz",),
    "mhz": ("mhz",),
    "ghz": ("ghz",),
    "deg": ("°", "°c", "°f", "℃", "℉", "degree", "degrees", "度"),
    "x": ("×", "times", "倍"),
    "m2": ("m²", "sq m", "square metre", "square metres", "square meter", "square meters", "平方米"),
    "km2": (
        "km²",
        "sq km",
        "square kilometre",
        "square kilometres",
        "square kilometer",
        "square kilometers",
        "平方公里",
        "平方千米",
    ),
    "people": ("people", "inhabitants", "residents", "persons", "人", "名"),
    # a count of things, by the Chinese measure word after the number ("七个桥孔", "两块网卡"): a figure
    # of no unit-bound kind, so "7 米" for "七个" clashes (longer spellings first: 个月 is a month)
    "count": (
        "个",
        "座",
        "块",
        "台",
        "道",
        "项",
        "条",
        "张",
        "本",
        "辆",
        "栋",
        "间",
        "家",
        "所",
        "层",
        "份",
        "件",
    ),
    "m3": ("m³", "cubic metre", "cubic metres", "cubic meter", "cubic meters", "立方米"),
    "cm3": (
        "cm³",
        "cubic centimetre",
        "cubic centimetres",
        "cubic centimeter",
        "cubic centimeters",
        "立方厘米",
    ),
    # money: what follows the figure ("12 yuan", "3 元", "5 美元"); a symbol before it is in _MONEY
    "money": (
        "yuan",
        "rmb",
        "cny",
        "usd",
        "eur",
        "euro",
        "euros",
        "dollar",
        "dollars",
        "元",
        "块钱",
        "美元",
        "欧元",
        "英镑",
        "日元",
    ),
}
_SYMBOLS = {"m": "m", "l": "l", "L": "l", "g": "g", "s": "s", "h": "h", "W": "w", "V": "v"}
_CANONICAL = {spelling.lower(): unit for unit, spellings in _UNITS.items() for spelling in spellings}
_SPELLINGS = sorted([*_CANONICAL, *_SYMBOLS], key=len, reverse=True)
_QUANTITY = re.compile(
    rf"(?<![\d.,])(?P<number>{NUMBER})\s?-?\s?(?P<unit>"
    + "|".join(re.escape(s) for s in _SPELLINGS)
    + r")(?![A-Za-z])",
    re.IGNORECASE,
)

Quantity = tuple[str, str]  # (number as in content terms, canonical unit)


def is_unit(word: str) -> bool:
    """Whether `word` spells a unit ("dB", "kW", "GB"): a measure, not a code token."""
    return word.lower() in _CANONICAL


def _unit(spelling: str) -> str | None:
    if len(spelling) == 1 and spelling.isascii() and spelling.isalpha():
        return _SYMBOLS.get(spelling)  # case-sensitive: "m" metres, "M" not a unit
    return _CANONICAL.get(spelling.lower())


# a currency symbol before the figure ("$5", "€ 12.50", "¥300")
_MONEY = re.compile(rf"[$€£¥￥]\s?(?P<number>{NUMBER})")

_SCALED_QUANTITY = re.compile(
    rf"(?<![\d.,])(?P<number>{NUMBER})\s?[万亿]\s?(?P<unit>"
    + "|".join(re.escape(s) for s in _SPELLINGS)
    + r")(?![A-Za-z])",
    re.IGNORECASE,
)


def quantities(text: str) -> frozenset[Quantity]:
    """The (number, unit) pairs of normalised text: "31 m tall" and "thirty-one metres" both give
    ("31", "m"); "每12秒" gives ("12", "s"); "4.6 万人" gives ("46000", "people") and, as written,
    ("4.6", "people"), so that "4.6 平方米" clashes with it."""
    found: set[Quantity] = set()
    for match in _SCALED_QUANTITY.finditer(text):
        unit = _unit(match.group("unit"))
        if unit is not None:
            found.add((number_form(match.group("number")), unit))
    for match in _QUANTITY.finditer(spell_numbers(text)):
        unit = _unit(match.group("unit"))
        if unit is not None:
            found.add((number_form(match.group("number")), unit))
    found.update((number_form(match.group("number")), "money") for match in _MONEY.finditer(text))
    return frozenset(found)


def clashes(claimed: frozenset[Quantity], held: frozenset[Quantity]) -> int:
    """How many claimed quantities the passages contradict: the number is there, but only with
    other units ("12 minutes" against "12 seconds"). A number the passages hold without a unit, or
    not at all, is no clash (the other checks judge it)."""
    numbers = {number for number, _ in held}
    return sum(1 for quantity in claimed if quantity not in held and quantity[0] in numbers)


# What a unit measures: two figures compete for one subject only when they measure the same thing.
_DIMENSIONS = {
    **dict.fromkeys(("m", "km", "cm", "mm", "ft", "inch", "mile"), "length"),
    **dict.fromkeys(("l", "ml", "gal", "m3", "cm3"), "volume"),
    **dict.fromkeys(("kg", "g", "t", "lb", "oz"), "mass"),
    **dict.fromkeys(("s", "min", "h", "day", "week", "month", "year"), "time"),
    **dict.fromkeys(("byte", "kb", "kib", "mb", "mib", "gb", "gib", "tb"), "data"),
    **dict.fromkeys(("w", "kw"), "power"),
    **dict.fromkeys(("m2", "km2"), "area"),
    "people": "people",
    "count": "count",
    **dict.fromkeys(("hz", "khz", "mhz", "ghz"), "frequency"),
    "%": "share",
    "deg": "temperature",
    "db": "loudness",
    "bar": "pressure",
    "money": "money",
}


# The kinds of figure never written without their unit: a disk's size is not "2", nor a bridge's
# width "7" (a year, a count of people, a share or a price may be a bare number).
UNIT_BOUND = frozenset(
    {"data", "length", "mass", "volume", "temperature", "loudness", "pressure", "power", "area"}
)


def dimensions(held: frozenset[Quantity]) -> frozenset[str]:
    """What the quantities measure ("time", "money", …): each unit's dimension."""
    return frozenset(_DIMENSIONS.get(unit, unit) for _, unit in held)


def new_quantities(claimed: frozenset[Quantity], named: frozenset[str]) -> frozenset[Quantity]:
    """The quantities of `claimed` whose number is not one of `named` (the question's own)."""
    return frozenset(q for q in claimed if q[0] not in named)


def measure_another_kind(given: frozenset[Quantity], asked: frozenset[str]) -> bool:
    """Whether figures with units are `given` and none measures a kind in `asked` ("300 吨" for
    annual sales, "3000 小时" for a price)."""
    measured = dimensions(given)
    return bool(measured) and not measured & asked


# A number glued to letters names a thing ("E7", "KX-40", "LP-07", "v2"), and a page or section
# reference ("Page 4 of 5", "第 2 页,共 3 页", "Section 7.4") locates one: neither is a figure stated
# about a subject.
_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9.])[A-Za-z]+-?(\d+(?:\.\d+)*)\b|\b(\d+)[A-Za-z]+\b")
_PAGE_REFERENCE = re.compile(
    r"\b(?:page|p\.|pp\.)\s*(\d+)(?:\s*(?:of|/|–|-)\s*(\d+))?|第\s*(\d+)\s*页(?:\s*[,，]?\s*共\s*(\d+)\s*页)?"
    # a part of a text: "Section 7.4", "Table 2.19", "chapter 5", "§ 3", "第 5 章", "第 2.1 节"
    r"|(?:\b(?:section|sections|chapter|chapters|table|figure|fig\.|appendix)|§)\s*(\d+(?:\.\d+)*)"
    r"|第\s*(\d+(?:\.\d+)*)\s*[章节]",
    re.IGNORECASE,
)


def naming_numbers(text: str) -> frozenset[str]:
    """The numbers of normalised text that are part of a name or a page reference, as content terms
    write them ("E7" gives "7", "Page 4 of 5" gives "4" and "5"); units ("12s", "5km") are figures."""
    found: set[str] = set()
    for match in _IDENTIFIER.finditer(text):
        whole = match.group(0)
        if match.group(2) is not None and _unit(whole[len(match.group(2)) :]) is not None:
            continue
        found.update(number_form(g) for g in match.groups() if g)
    for match in _PAGE_REFERENCE.finditer(text):
        found.update(number_form(g) for g in match.groups() if g)
    return frozenset(found)


def number_kinds(numbers: frozenset[str], held: frozenset[Quantity]) -> dict[str, str]:
    """What each number of a text is: the dimension of its unit ("time", "volume", …) when the text
    gives it one, else "plain:N" with N its count of integer digits (a year, a port, a count)."""
    kinds: dict[str, str] = {}
    for number, unit in held:
        kinds.setdefault(number, _DIMENSIONS.get(unit, unit))
    for number in numbers:
        digits = len(number.split(".")[0].replace(",", ""))
        kinds.setdefault(number, f"plain:{digits}")
    return kinds
