"""The stages of a question before the model runs: retrieve (with the gate's score) and the prompt."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from app.core.answering.evidence.excerpts import select_excerpts
from app.core.answering.evidence.focus import found_figures, found_passages, hinted_question
from app.core.answering.evidence.gate import GateScore, gate_score
from app.core.answering.evidence.locate import LocatedSentence
from app.core.answering.evidence.scoring import Embed
from app.core.answering.options import ResolvedAsk
from app.core.answering.pipeline.carry import Lookup, carried_hits
from app.core.answering.pipeline.history import names_little, prompt_history, question_in_its_language
from app.core.embed.engine import CosineScales
from app.core.errors import UsageError
from app.core.fusion import ranked, reciprocal_rank_fusion
from app.core.generate.chat_engine import ChatEngine
from app.core.generate.cite_grammar import citation_grammar
from app.core.generate.model import ChatRequest, ModelInfo
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import Hit, SearchResult
from app.core.prompt.budget import Budget, HistoryTurn, PromptPlan, assemble
from app.core.prompt.reuse import follow_up_order
from app.core.prompt.system import answer_instructions
from app.core.store.conversations import Turn

Search = Callable[[str, int], SearchResult]


@dataclass(frozen=True)
class Retrieval:
    """The passages found for a question and how well the best of them covers it."""

    hits: list[Hit]
    retrieval_ms: float
    gate: GateScore
    follow_up: bool = False  # the question alone did not cover its subject: it depends on the chat
    carried: bool = False  # the previous answer's passages, kept (carry.py)

    def passes(self, threshold: float) -> bool:
        """True when the model should be asked: passages found and the best covers the question."""
        return bool(self.hits) and self.gate.score >= threshold


def question_passages(
    search: Search,
    question: str,
    k: int,
    turns: Sequence[Turn],
    threshold: float,
    scales: CosineScales | None,
    lookup: Lookup | None = None,
) -> Retrieval:
    """The question's passages and how well they cover it (`found`, below); in a chat, the previous
    answer's passages instead while its best passage is one of them (carry.py: the prompt then
    reuses the previous one, which the model has evaluated; `lookup` fetches them)."""
    retrieval = found_passages_for(search, question, k, turns, threshold, scales)
    if lookup is None or not retrieval.passes(threshold):
        return retrieval
    kept = carried_hits(question, retrieval.hits, turns, lookup)
    if kept is None:
        return retrieval
    return replace(retrieval, hits=kept, carried=True)


def found_passages_for(
    search: Search,
    question: str,
    k: int,
    turns: Sequence[Turn],
    threshold: float,
    scales: CosineScales | None,
) -> Retrieval:
    """Search for the question and score how well the hits cover it. A follow-up in a chat
    ("and why did they rise?") names little of its subject: it is searched again with the chat's
    previous question before it (fused with the previous question's own search), and so is a
    question that fails the gate alone; the second search is kept when it covers more, or (a
    follow-up) when it passes the gate."""
    result = search(question, k)
    found = Retrieval(list(result.hits), result.retrieval_ms, gate_score(question, result.hits, scales))
    goes_on = bool(turns) and names_little(question)
    if not turns or (found.passes(threshold) and not goes_on):
        return replace(found, follow_up=goes_on)
    query = f"{turns[-1].question}\n{question}"
    again = search(query, k)
    spent = found.retrieval_ms + again.retrieval_ms
    hits = list(again.hits)
    if goes_on:  # and the previous question's own passages (a question in another language, say)
        before = search(turns[-1].question, k)
        spent += before.retrieval_ms
        hits = fused_hits([again.hits, before.hits], k)
    gate = gate_score(query, hits, scales)
    # a question that names little of its subject is about the chat's: its words with the previous
    # question's find the passages, unless they cover nothing ("And the S5?" over another topic)
    if hits and (gate.score > found.gate.score or (goes_on and gate.score >= threshold)):
        return Retrieval(hits, spent, gate, follow_up=True)
    return replace(found, retrieval_ms=spent, follow_up=True)


def fused_hits(lists: Sequence[Sequence[Hit]], k: int) -> list[Hit]:
    """The best `k` of several searches' hits, fused by rank (a chunk found twice counts twice)."""
    first: dict[int, Hit] = {}
    for hits in lists:
        for hit in hits:
            first.setdefault(hit.chunk_id, hit)
    order = ranked(reciprocal_rank_fusion([[hit.chunk_id for hit in hits] for hits in lists]))
    return [first[chunk_id] for chunk_id in order[:k]]


@dataclass(frozen=True)
class PreparedPrompt:
    """What the decode stage runs: the prompt's tokens, the passages it numbers, its budget."""

    tokens: list[int]
    passages: list[Hit]  # as stored (citations quote the stored text), in prompt order
    budget: Budget
    start_thinking: bool  # the template opened a thinking block itself
    continued: str  # the text of a cut-off answer the model continues after ("" for a new answer)
    grammar: str | None  # the citation grammar in "constrained" mode
    chat: ChatRequest | None = None  # the messages the tokens render (what a server is sent)


def prepare_prompt(
    ask: ResolvedAsk,
    engine: ChatEngine,
    info: ModelInfo,
    hits: list[Hit],
    turns: Sequence[Turn],
    embed: Embed | None,
    scales: CosineScales | None,
    submitted: float,
    follow_up: bool = False,
    located: Sequence[LocatedSentence] = (),
) -> PreparedPrompt:
    """The prompt within the token budget: the passages as the prompt shows them, best-first, then
    the newest history turns (a follow-up's trusted turns only: history.py); a continuation resumes
    inside the assistant turn. `located`: the sentences Folio found, which the prompt shows as
    Settings.answer_from says (focus.py). The instructions are Settings.prompt_style's, in the
    question's script."""
    settings = ask.settings
    target_s = settings.ttft_target_s
    rate = engine.prefill_rate() if target_s > 0 else None
    escape = engine.escape_special
    shown_turns = prompt_history(ask.question, turns, follow_up)
    history = [HistoryTurn(escape(turn.question), escape(turn.answer)) for turn in shown_turns]
    shown = prompt_passages(ask, hits, turns, embed, scales, located)
    question = escape(question_in_its_language(ask.question, shown_turns))
    escaped = [replace(hit, text=escape(hit.text)) for hit in shown]
    instructions = answer_instructions(settings.prompt_style, ask.question)

    def plan_for(text: str) -> PromptPlan:
        return assemble(
            engine,
            text,
            escaped,
            history,
            n_ctx=info.n_ctx,
            max_tokens=ask.sampling.max_tokens,
            enable_thinking=ask.thinking,
            ttft_limit_tokens=int(target_s * rate) if rate else None,
            instructions=instructions,
        )

    plan = plan_for(question)
    if settings.answer_from == "hinted" and located:
        hint = [replace(f, sentence=escape(f.sentence)) for f in located]
        plan = _hinted_plan(plan, question, hint, plan_for)
    budget = _with_excerpts(plan.budget, shown, hits, lambda text: engine.count_tokens(escape(text)))
    cached = engine.cached_prefix(plan.tokens)
    elapsed_ms = (time.perf_counter() - submitted) * 1000.0
    budget = budget.with_prediction(
        cached, rate or engine.known_prefill_rate, target_s * 1000.0 if target_s > 0 else None, elapsed_ms
    )
    originals = {hit.chunk_id: hit for hit in hits}
    passages = [originals[hit.chunk_id] for hit in plan.passages]
    continued = ask.continue_from.rstrip("\ufffd")  # never feed a broken character
    tokens, start_thinking = _prompt_tokens(ask, engine, info, plan, escape(continued) if continued else "")
    grammar = _answer_grammar(ask, located, len(passages))
    chat = ChatRequest(tuple(plan.messages), ask.thinking)
    return PreparedPrompt(tokens, passages, budget, start_thinking, continued, grammar, chat)


def _hinted_plan(
    plan: PromptPlan, question: str, hint: Sequence[LocatedSentence], plan_for: Callable[[str], PromptPlan]
) -> PromptPlan:
    """The plan of the question with the located sentences after it (answer_from "hinted"),
    numbered as the plan numbers the passages that fit; again if the hint made one drop out."""
    for _ in range(2):
        asked = hinted_question(question, plan.passages, hint)
        if asked == question:
            break
        hinted = plan_for(asked)
        if [h.chunk_id for h in hinted.passages] == [h.chunk_id for h in plan.passages]:
            return hinted
        plan = hinted
    return plan


def _prompt_tokens(
    ask: ResolvedAsk, engine: ChatEngine, info: ModelInfo, plan: PromptPlan, continued: str
) -> tuple[list[int], bool]:
    """The tokens the model runs and whether the template opened a thinking block; a continuation
    (`continued`, escaped: the cut-off answer's text) resumes inside the assistant turn."""
    if not continued:
        return plan.tokens, engine.opens_thinking(plan.prompt)
    tokens = engine.tokenize_prompt(plan.prompt + continued)
    if len(tokens) + ask.sampling.max_tokens > info.n_ctx:
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "there is no room left in the context to continue this answer")
        )
    return tokens, False


def _answer_grammar(ask: ResolvedAsk, located: Sequence[LocatedSentence], passages: int) -> str | None:
    """The citation grammar ("constrained" mode, or the figures Folio found when figures_from is
    "found"); None while thinking (thinking text stays free) or without passages."""
    found = ask.settings.figures_from == "found" and located
    figures = found_figures(ask.question, located) if found else None
    if (ask.cite_mode == "constrained" or figures is not None) and not ask.thinking and passages:
        return citation_grammar(passages, figures)
    return None


def prompt_passages(
    ask: ResolvedAsk,
    hits: list[Hit],
    turns: Sequence[Turn],
    embed: Embed | None,
    scales: CosineScales | None,
    located: Sequence[LocatedSentence] = (),
) -> list[Hit]:
    """The hits as the prompt shows them: only the located sentences (answer_from "found"), or cut to
    the sentences that matter (when set), and in a chat with the previous answer's passages first,
    as it showed them (KV cache reuse)."""
    shown = hits
    if ask.settings.answer_from == "found" and located:
        shown = found_passages(hits, located)
    elif ask.settings.evidence_selection:
        shown = select_excerpts(ask.question, hits, embed, scales)
    previous = Budget.from_json(dict(turns[-1].trace.get("budget") or {})) if turns else None
    return follow_up_order(shown, previous, hits)


def _with_excerpts(
    budget: Budget, shown: Sequence[Hit], stored: Sequence[Hit], count_tokens: Callable[[str], int]
) -> Budget:
    """The budget with the texts the prompt showed of the passages it cut, and the tokens saved."""
    full = {hit.chunk_id: hit.text for hit in stored}
    excerpts = {
        hit.chunk_id: hit.text
        for hit in shown
        if hit.chunk_id in budget.passages_used and hit.text != full.get(hit.chunk_id, hit.text)
    }
    saved = sum(count_tokens(full[chunk]) - count_tokens(text) for chunk, text in excerpts.items())
    return replace(budget, excerpts=excerpts, evidence_saved_tokens=max(0, saved))
