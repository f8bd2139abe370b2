"""The frame of a Chinese restatement (answering/pipeline/frame.py): its words up to the slot."""

from __future__ import annotations

from app.core.answering.pipeline.frame import answer_frame


def test_a_chinese_restatement_is_cut_before_its_last_asking_word() -> None:
    restated = "根据文档内容，LP-07 加完硫酸、沉淀溶解以后，要量取多少毫升的样品去滴定。"
    assert answer_frame(restated) == "LP-07 加完硫酸、沉淀溶解以后，要量取"  # the lead-in dropped
    assert answer_frame("手册建议最好别超过几个字符。") == "手册建议最好别超过"
    # the last asking word is the slot: "哪个 Debian 软件包" belongs to the frame
    assert (
        answer_frame("系统里有一个文件，我想查它是哪个 Debian 软件包装进来的，用什么命令？")
        == "系统里有一个文件，我想查它是哪个 Debian 软件包装进来的，用"
    )


def test_a_restatement_that_ends_where_the_value_goes_is_kept_whole() -> None:
    assert answer_frame("收件地址是 [1, 3]。") == "收件地址是"  # markers and the full stop dropped
    assert answer_frame("清岚 S5 能不能用手机应用远程控制。") is None  # no slot to fill


def test_only_the_first_sentence_and_only_chinese_answers_have_a_frame() -> None:
    assert answer_frame("SQLite 默认最多允许几个 SELECT。它的上限可以改。") == "SQLite 默认最多允许"
    assert answer_frame("The command to fix the screen is [1].") is None  # English: not continued
    assert answer_frame("谁？") is None  # too short to say anything
    assert answer_frame("") is None
