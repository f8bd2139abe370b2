"""What a question is about: a few passages (the usual path), one whole document ("summarise
report.pdf"), or each file of the library ("what does each file say about X?"); English and Chinese."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from app.core.errors import UsageError

PASSAGES, DOCUMENT, EACH_FILE = "passages", "document", "each_file"
SCOPE_CHOICES = ("auto", "passages", "each-file", "document:NAME")  # what --scope accepts

_SUMMARY = re.compile(
    r"\b(?:summari[sz]e|summari[sz]ing|summary|sum up|overview|outline|tl;?dr|gist|main points|key points)\b"
    r"|\bwhat(?:'s| is| are)\b.{0,60}\babout\b"
    r"|总结|概括|摘要|概述|归纳|综述|大意|要点|主要内容|讲(?:了|的是)?什么|说(?:了|的是)什么|是关于什么|关于什么",
    re.IGNORECASE,
)
_THIS_DOCUMENT = re.compile(
    r"\b(?:this|the|that)\s+(?:document|file|pdf|paper|report|book|article)\b"
    r"|(?:这|本|该)(?:个|份|篇|本)?(?:文档|文件|论文|报告|文章|书|资料|pdf|PDF)|本文",
    re.IGNORECASE,
)
_EACH_FILE = re.compile(
    r"\b(?:each|every)\s+(?:of\s+the\s+|of\s+my\s+)?(?:files?|documents?|pdfs?|papers?|reports?|sources?)\b"
    r"|\ball\s+(?:the\s+|my\s+|of\s+the\s+)?(?:files|documents|pdfs|papers|reports|sources)\b"
    r"|\b(?:per|by)\s+(?:file|document)\b"
    r"|(?:各个|每个|每份|每篇|各份|各篇|所有|全部|各)(?:的)?(?:文件|文档|论文|报告|资料|pdf|PDF)",
    re.IGNORECASE,
)
_EN_TOPIC = re.compile(r"\b(?:about|on|regarding|concerning)\s+(.+?)\s*[?.!]*$", re.IGNORECASE)
_ZH_TOPIC = re.compile(
    r"(?:对|关于|就|有关)(.+?)(?:怎么说|是怎么说的|说了什么|有什么说法|怎么看|的看法|的说法|的观点|有何|有什么|分别|是什么|[？?。，,]|$)"
)


@dataclass(frozen=True)
class Scope:
    """Where an answer reads: `kind` PASSAGES, DOCUMENT (`document` names it) or EACH_FILE
    (`topic`: what is asked of each file, the question itself when no narrower phrase is found)."""

    kind: str = PASSAGES
    document: str = ""
    topic: str = ""

    @property
    def whole(self) -> bool:
        """True for the whole-document and across-files paths (map over documents or chunks)."""
        return self.kind != PASSAGES


def parse_scope(value: str) -> Scope | None:
    """The scope a user picked: "" or "auto" (None: detect it from the question), "passages",
    "each-file", or "document:NAME"; UsageError for anything else."""
    value = value.strip()
    if value in ("", "auto"):
        return None
    if value == "passages":
        return Scope()
    if value in ("each-file", "each_file"):
        return Scope(EACH_FILE)
    if value.startswith("document:") and value[len("document:") :].strip():
        return Scope(DOCUMENT, document=value[len("document:") :].strip())
    raise UsageError(f"unknown scope {value!r}: use one of {', '.join(SCOPE_CHOICES)}")


def named_document(question: str, names: Sequence[str]) -> str:
    """The library document the question names, by file name ("report.pdf") or, when it is at least
    four characters and a word of its own, by stem ("the report"); "" when none or several do."""
    lowered = question.lower()
    full = [name for name in names if name and name.lower() in lowered]
    if len(full) == 1:
        return full[0]
    if full:  # "a.pdf" inside "data.pdf": the longest name that is there
        return max(full, key=len)
    stems = []
    for name in names:
        stem = PurePath(name).stem.lower()
        if len(stem) >= 4 and re.search(rf"(?<![\w]){re.escape(stem)}(?![\w])", lowered):
            stems.append(name)
    return stems[0] if len(stems) == 1 else ""


def asked_topic(question: str) -> str:
    """What an across-files question asks about ("X" of "what does each file say about X?");
    the question when no phrase names it."""
    for pattern in (_EN_TOPIC, _ZH_TOPIC):
        match = pattern.search(question)
        if match and match.group(1).strip(" ，,。？?"):
            topic = match.group(1).strip(" ，,。？?")
            if not _EACH_FILE.fullmatch(topic):
                return topic
    return question.strip()


def detect_scope(question: str, names: Sequence[str], selected: str = "") -> Scope:
    """The scope of a question over a library of documents `names` (`selected`: the document the
    user has selected, if any). A summary request that names a document, or says "this document"
    with one selected or only one in the library, reads that document whole; a question about each
    file reads one passage of each; anything else is the usual passages question."""
    if _EACH_FILE.search(question) and len(names) > 1:
        return Scope(EACH_FILE, topic=asked_topic(question))
    if not _SUMMARY.search(question):
        return Scope()
    named = named_document(question, names)
    if named:
        return Scope(DOCUMENT, document=named)
    if _THIS_DOCUMENT.search(question):
        if selected and selected in names:
            return Scope(DOCUMENT, document=selected)
        if len(names) == 1:
            return Scope(DOCUMENT, document=names[0])
    return Scope()
