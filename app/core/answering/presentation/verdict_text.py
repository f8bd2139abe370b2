"""The verdict in words, once, for the window, the command line and the exports (Qt-free, translatable)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import Citation
from app.core.script import cjk_language

# (context, text) -> the text in the interface's language; the caller's translator
Translate = Callable[[str, str], str]
CONTEXT = "Verdict"

VERDICT_TEXT = {
    "answered": QT_TRANSLATE_NOOP("Verdict", "Answered from your documents"),
    "partly": QT_TRANSLATE_NOOP("Verdict", "Partly answered: check the underlined statements"),
    "not_answered": QT_TRANSLATE_NOOP(
        "Verdict",
        "Not verified: Folio could not match this answer to your documents; read the sentences it found",
    ),
    "not_in_documents": QT_TRANSLATE_NOOP("Verdict", "Your documents do not answer this question"),
}
# the line's style in the window: how far the answer can be trusted
VERDICT_KIND = {
    "answered": "full",
    "partly": "partial",
    "not_answered": "partial",
    "not_in_documents": "none",
}
COUNT_TEXT = QT_TRANSLATE_NOOP("Verdict", "{0} of {1} statements are supported by your documents")

# After a complete answer none of whose statements Folio could verify, in the question's language;
# never "the documents do not answer" (the sentences Folio found may hold the answer).
UNVERIFIED_NOTICE_EN = (
    "Folio could not verify this answer against your documents: check it against the sentences found above."
)
UNVERIFIED_NOTICE_ZH = "Folio 无法在您的文档中核实这个回答：请对照上面找到的原文。"
# After a complete answer that states nothing (it only says the question again, or is a bare
# citation marker): what Folio found and where, in the question's language (at most FOUND_SHOWN).
# (Worded so that it is true also when the judge took an answer for a restatement that was not one.)
FOUND_INSTEAD_EN = "Folio could not verify this answer; it may only repeat the question. Folio found this:"
FOUND_INSTEAD_ZH = "Folio 无法核实这个回答，它可能只是重复了问题。Folio 找到的原文："
FOUND_SHOWN = 2
# The same note's first wording (answers saved with it: benchmarks/results/eval-held-out-judge.json).
EARLIER_FOUND_LEADS = (
    "The answer above does not state what your documents say. Folio found this:",
    "上面的回答没有说出文档中的内容。Folio 找到的原文：",
)
# What earlier releases appended instead (answers saved then still carry it).
EARLIER_NOTICES = (
    "None of these statements was found in your documents: the documents do not answer this question.",
    "以上内容在您的文档中都找不到依据：文档没有回答这个问题。",
)


def as_written(_context: str, text: str) -> str:
    """No translation: English."""
    return text


def verdict_words(verdict: str | None, translate: Translate = as_written) -> str:
    """The verdict in words ("" for none)."""
    text = VERDICT_TEXT.get(verdict or "")
    return translate(CONTEXT, text) if text else ""


def count_words(supported: int, judged: int, translate: Translate = as_written) -> str:
    """ "2 of 3 statements are supported by your documents"."""
    return translate(CONTEXT, COUNT_TEXT).format(supported, judged)


def verdict_line(
    verdict: str | None, supported: int, judged: int, translate: Translate = as_written
) -> tuple[str, str]:
    """The line under an answer and its style ("full", "partial", "none"): the verdict, with the
    statement count when some statements were judged and the verdict is not a refusal; the count
    alone for an answer saved before verdicts existed."""
    words = verdict_words(verdict, translate)
    count = count_words(supported, judged, translate) if judged else ""
    if not words:
        return count, ("full" if supported == judged else "partial") if judged else ""
    if count and verdict in ("answered", "partly"):
        words = f"{words} · {count}"
    return words, VERDICT_KIND.get(verdict or "", "partial")


def unverified_notice(question: str) -> str:
    """Appended to a complete answer none of whose statements Folio could verify."""
    return UNVERIFIED_NOTICE_ZH if cjk_language(question) is not None else UNVERIFIED_NOTICE_EN


def place_words(citation: Citation, chinese: bool = False) -> str:
    """Where a passage is, as a person reads it: "guide.pdf, p. 3", "guide.pdf, pp. 3–4", or its
    section for a document without pages; "guide.pdf 第 3 页" in Chinese text."""
    if citation.section:
        return f"{citation.document}, {citation.section}"
    span = citation.page_end > citation.page
    if chinese:
        pages = f"{citation.page}–{citation.page_end}" if span else str(citation.page)
        return f"{citation.document} 第 {pages} 页"
    pages = f"pp. {citation.page}–{citation.page_end}" if span else f"p. {citation.page}"
    return f"{citation.document}, {pages}"


def found_instead(question: str, found: Sequence[tuple[Citation, str]]) -> str:
    """Appended to a complete answer that states nothing: the sentences Folio found for the question
    (the best first) with where each is, in the question's language; "" when it found none."""
    if not found:
        return ""
    chinese = cjk_language(question) is not None
    lead = FOUND_INSTEAD_ZH if chinese else FOUND_INSTEAD_EN
    quote = "“{1}”（{0}）" if chinese else "{0}: “{1}”"
    lines = [quote.format(place_words(c, chinese), " ".join(s.split())) for c, s in found[:FOUND_SHOWN]]
    return "\n".join([lead, *lines])


def strip_note(text: str) -> str:
    """The model's own text without the note Folio appended after it (either kind, or an earlier
    release's)."""
    for lead in (FOUND_INSTEAD_EN, FOUND_INSTEAD_ZH, *EARLIER_FOUND_LEADS):
        at = text.rfind(f"\n\n{lead}")
        if at >= 0:
            return text[:at].rstrip()
    for notice in (UNVERIFIED_NOTICE_EN, UNVERIFIED_NOTICE_ZH, *EARLIER_NOTICES):
        if text.endswith(notice):
            return text[: -len(notice)].rstrip()
    return text
