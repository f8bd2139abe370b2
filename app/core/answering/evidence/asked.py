"""What a question asks for: a quantity ("how many", "which year", 多少, 几) or something else."""

from __future__ import annotations

import re

from app.core.answering.evidence.lexical import normalize
from app.core.keywords import content_terms, is_number

_LATIN_QUANTITY = re.compile(
    r"\bhow\s+(?:many|much|long|old|tall|high|big|large|wide|deep|far|soon|often|heavy|fast|hot|cold|loud)\b"
    r"|\b(?:what|which)\s+(?:year|date|day|month|time|age|size|height|length|width|depth|weight|"
    r"temperature|speed|percentage|percent|number|port|version|capacity|volume|voltage|power|"
    r"frequency|distance|price|cost|limit|level|value|rate|interval|share|proportion|fraction|ratio|"
    r"amount|quantity|pressure)\b"
    r"|\bin\s+(?:which|what)\s+year\b|\bwhen\b|\bup\s+to\s+what\b",
    re.IGNORECASE,
)
_CJK_QUANTITY = re.compile("多少|多久|多长|多大|多高|多重|多远|多深|多宽|几|哪一年|哪年|何时|什么时候|第几")


# What a quantity the question asks for measures, by the words that ask it (the dimensions of
# quantities.py; "how long" may be a time or a length). A question none of these name is not checked.
_ASKED_DIMENSIONS: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = tuple(
    (frozenset(dims), re.compile(pattern, re.IGNORECASE))
    for dims, pattern in (
        (
            ("money",),
            r"(?<!-)\b(?:price|prices|priced|cost|costs|fee|fees|revenue|sales|turnover|salary|wages?|budget|"
            r"spend|spent|expensive|how\s+much\s+money)\b"
            r"|钱|价格|价钱|售价|单价|费用|成本|花费|销售额|营业额|营收|工资|薪水|预算|造价|票价",
        ),
        (
            ("time", "length"),
            r"\bhow\s+long\b",
        ),
        (
            ("time",),
            r"\bhow\s+(?:often|soon)\b|\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|months|years)\b"
            r"|\b(?:duration|interval)\b|多久|多长时间|多少时间|(?:多少|几)(?:秒|分钟|个?小时|天|周|个?星期|个月)|时长|间隔"
            r"|\bwhen\s+(?:is|was|are|were|did|does|do|will)\b|\b(?:what|which)\s+(?:year|date|day|month)\b"
            r"|\bin\s+(?:which|what)\s+year\b|什么时候|何时|哪一?年|哪天|几月",
        ),
        (
            ("length",),
            r"\bhow\s+(?:tall|high|far|wide|deep)\b|\b(?:height|distance|width|depth|altitude)\b"
            r"|多高|多远|多宽|多深|高度|距离|宽度|深度|海拔|多长(?!时间)",
        ),
        (("mass",), r"\bhow\s+heavy\b|\b(?:weight|weigh|weighs)\b|多重|重量|(?:多少|几)(?:公斤|千克|克|吨)"),
        (
            ("volume",),
            r"\bhow\s+many\s+(?:litres|liters|millilitres|milliliters)\b|(?:多少|几)(?:升|毫升|立方)|容积|库容",
        ),
        (
            ("data",),
            r"\b(?:ram|memory|disk\s+space|storage)\b|内存|硬盘空间|磁盘空间|存储空间"
            # the size of a disk, a partition or a USB stick ("硬盘最少要多大", "how big a partition")
            r"|(?:硬盘|磁盘|U\s?盘|优盘|分区)[^，,。？?]{0,12}(?:多大|多少容量|多少空间)"
            r"|多大(?:的)?(?:硬盘|磁盘|U\s?盘|优盘|分区)"
            r"|\bhow\s+(?:big|large)\b[^.?]{0,40}\b(?:disks?|hard\s+drives?|partitions?|usb\s+(?:sticks?|drives?))\b"
            r"|\b(?:disks?|hard\s+drives?|partitions?)\b[^.?]{0,40}\bhow\s+(?:big|large)\b",
        ),
        (
            ("people",),
            r"\bhow\s+many\s+(?:people|persons|inhabitants|residents|visitors)\b|\bpopulation\b"
            r"|多少(?:个)?人|人口|游客|居民|人次",
        ),
        (("share",), r"\b(?:percentage|percent|proportion)\b|\bwhat\s+share\b|百分之|百分比|比例|占比"),
        (("temperature",), r"\b(?:temperature|how\s+hot|how\s+cold)\b|温度|多少度"),
        (
            ("loudness",),
            r"\bhow\s+(?:loud|noisy)\b|\b(?:noise\s+level|loudness|decibels?)\b|噪音|噪声|分贝|多响",
        ),
        (("pressure",), r"\bpressure\b|压力|气压|水压"),
        (("power",), r"\b(?:wattage|power\s+draw|power\s+consumption)\b|功率"),
        (("area",), r"\barea\b|面积"),
    )
)


def asked_dimensions(question: str) -> frozenset[str]:
    """What the figure the question asks for measures ("money" for "how much does it cost?",
    "time" for "多久"); empty when it asks for no quantity or does not say what kind."""
    return named_dimensions(question) if asks_quantity(question) else frozenset()


def named_dimensions(question: str) -> frozenset[str]:
    """The kinds of figure the question's words name, whether or not it asks with "how much" or 多少
    ("money" for "What is the retail price of …?" and for "它的售价是？")."""
    text = normalize(question)
    return frozenset(dim for dims, pattern in _ASKED_DIMENSIONS if pattern.search(text) for dim in dims)


def asks_quantity(question: str) -> bool:
    """True when the question asks for a number, a measure or a date."""
    text = normalize(question)
    return bool(_LATIN_QUANTITY.search(text) or _CJK_QUANTITY.search(text))


def named_numbers(question: str) -> frozenset[str]:
    """The numbers the question names itself ("E7", "3.2"), as content terms write them."""
    return frozenset(term for term in content_terms(normalize(question)) if is_number(term))


def new_numbers(terms: set[str] | frozenset[str], named: frozenset[str]) -> bool:
    """True when `terms` hold a number that is not among the question's own (`named_numbers`)."""
    return any(is_number(term) and term not in named for term in terms)
