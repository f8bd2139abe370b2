"""The re-ask: an answer that states nothing (the question again, a bare marker) is asked once more,
by continuing its frame (a Chinese restatement) or by a turn that points at what Folio found."""

from __future__ import annotations

from dataclasses import replace

from app.core.answering.evidence.focus import numbered_found
from app.core.answering.judge.judge import Judgement
from app.core.answering.pipeline.frame import FILL_GRAMMAR, answer_frame
from app.core.answering.pipeline.stages import PreparedPrompt
from app.core.answering.run import AnswerRun
from app.core.generate.chat_engine import ChatEngine
from app.core.generate.model import ChatRequest
from app.core.prompt.system import reask_turn


def wants_reask(judgement: Judgement, run: AnswerRun, prompt: PreparedPrompt) -> bool:
    """Ask again when a complete new answer stated nothing the judge could rule on as an answer
    (Judgement.says_nothing) and Folio found sentences to point the model at; a continued answer,
    a refusal or an answer with something to verify is kept as written."""
    return (
        judgement.says_nothing
        and bool(run.located)
        and not prompt.continued
        and prompt.chat is not None
        and run.end is not None
        and run.end.finish_reason == "stop"
    )


def complete_prompt(engine: ChatEngine, prompt: PreparedPrompt, run: AnswerRun) -> PreparedPrompt | None:
    """The first prompt with the answer's frame (frame.py: a Chinese restatement up to the slot its
    asking word leaves open) written as the start of the model's answer, for the model to fill under
    a grammar that keeps the asking word out; the first prompt's tokens stay a cached prefix. None
    without a frame, with an engine that cannot continue an answer (a server), or when it would not fit."""
    assert prompt.chat is not None and run.info is not None
    frame = answer_frame("".join(run.answer))
    if frame is None or not engine.continues:
        return None
    escaped = engine.escape_special(frame)
    tokens = engine.tokenize_prompt(engine.render_chat(prompt.chat.messages, False) + escaped)
    if len(tokens) + run.sampling.max_tokens > run.info.n_ctx:
        return None
    return replace(prompt, tokens=tokens, start_thinking=False, continued=escaped, grammar=FILL_GRAMMAR)


def reask_prompt(engine: ChatEngine, prompt: PreparedPrompt, run: AnswerRun) -> PreparedPrompt | None:
    """The first conversation (its tokens stay a cached prefix), the answer as the model wrote it,
    then a turn that says it repeated the question and shows the found sentences numbered as the
    prompt numbers their passages. None when nothing found is in the prompt or it would not fit."""
    assert prompt.chat is not None and run.info is not None
    escape = engine.escape_special
    lines = [escape(line) for line in numbered_found(run.passages, run.located)]
    if not lines:
        return None
    first = escape("".join(run.answer).strip())
    messages = (
        *prompt.chat.messages,
        {"role": "assistant", "content": first},
        {"role": "user", "content": reask_turn(escape(run.question), lines)},
    )
    rendered = engine.render_chat(messages, False)
    tokens = engine.tokenize_prompt(rendered)
    if len(tokens) + run.sampling.max_tokens > run.info.n_ctx:
        return None
    return replace(
        prompt,
        tokens=tokens,
        start_thinking=engine.opens_thinking(rendered),
        continued="",
        chat=ChatRequest(messages, False),
    )
