"""The chat history policy: history only for a follow-up, trusted answers only, the question's language."""

from __future__ import annotations

from app.core.answering.pipeline.history import WITHHELD, prompt_history, question_in_its_language, trusted
from app.core.store.conversations import Turn


def _turn(question: str, trace: dict[str, object]) -> Turn:
    return Turn(question, "an answer [1].", dict(trace))


def test_only_a_follow_up_gets_history_and_only_trusted_answers() -> None:
    turns = [
        _turn("What did the readings show?", {"verdict": "answered"}),
        _turn("When?", {"verdict": "not_answered"}),
        _turn("Where?", {"support_rate": 0.0}),  # an older trace without a verdict: nothing supported
        _turn("Who?", {"support_rate": 0.5}),
        _turn("Which?", {"verdict": "partly"}),
    ]
    assert prompt_history("Why did the readings rise?", turns, follow_up=False) == []
    shown = prompt_history("And why?", turns, follow_up=True)
    assert [t.question for t in shown] == ["What did the readings show?", "Who?", "Which?"]
    assert not trusted(_turn("x", {"verdict": "not_in_documents"}))
    # the follow-up is about the last question even when its answer is not trusted: the question
    # is shown, its answer withheld
    after_bad = prompt_history("And why?", turns[:2], follow_up=True)
    assert [(t.question, t.answer) for t in after_bad] == [
        ("What did the readings show?", "an answer [1]."),
        ("When?", WITHHELD),
    ]


def test_a_question_in_another_language_than_the_chat_asks_for_its_own() -> None:
    english = [_turn("Why is the first token slower?", {"verdict": "answered"})]
    chinese = [_turn("为什么第一个词慢？", {"verdict": "answered"})]
    assert question_in_its_language("那后面的词呢？", english) == "请用中文回答这个问题：\n那后面的词呢？"
    assert question_in_its_language("And the next ones?", chinese) == (
        "Answer this question in English:\nAnd the next ones?"
    )
    assert question_in_its_language("那后面的词呢？", chinese) == "那后面的词呢？"
    assert question_in_its_language("那后面的词呢？", []) == "那后面的词呢？"


def test_a_question_that_names_little_goes_on_from_the_chat() -> None:
    from app.core.answering.pipeline.history import names_little

    for question in (
        "Why?",
        "And why did they rise?",
        "What about the S5?",
        "那后面的词呢？",
        "如果这样做了还是不行呢？",
        "它的保修期是多久？",
    ):
        assert names_little(question), question
    for question in (
        "Why is the first token slower than the following ones?",
        "What does error code E7 mean on the Aurelia KX-40?",
        "为什么第一个词的生成比后面的词慢？",
        "清岚 S3 的复合滤网大约能用多少小时？",
    ):
        assert not names_little(question), question
