"""Normalisation, sentence splitting, keyword forms and chunking with the real tokenizer."""

from __future__ import annotations

from app.core.embed.embedder import Embedder
from app.core.ingest.chunker import Chunker, chunk_pages, split_sentences
from app.core.keywords import terms_query, terms_text, trigram_query
from app.core.normalize import normalize_text


def test_normalize_nfkc_hyphenation_and_whitespace() -> None:
    assert normalize_text("ﬁle  name\n\twith   spaces") == "file name with spaces"
    assert normalize_text("infor-\nmation retrieval") == "information retrieval"
    assert normalize_text("Full－width ＡＢＣ１２３") == "Full-width ABC123"
    # line breaks inside Chinese text are wrapping, not word gaps
    assert normalize_text("中文的\n句子被\n换行了。") == "中文的句子被换行了。"
    # a hyphen before a capital letter is a real hyphen, not a line-end break
    assert normalize_text("Jean-\nPaul") == "Jean- Paul"


def test_split_sentences_latin_and_cjk() -> None:
    text = normalize_text("第一句。第二句！第三句？ Hello world. This is it! 中文；英文")
    pieces = [text[a:b] for a, b in split_sentences(text)]
    assert pieces == ["第一句。", "第二句!", "第三句?", "Hello world.", "This is it!", "中文;", "英文"]
    assert split_sentences("") == []
    assert split_sentences("no end mark") == [(0, 11)]


def test_terms_text_makes_cjk_bigrams_and_characters() -> None:
    assert terms_text("模型缓存 Config") == "模型 型缓 缓存 模 型 缓 存 config"
    assert terms_text("的") == "的"
    assert terms_query("模型") == '"模型"'
    assert terms_query("  ") is None
    assert trigram_query("模型") is None  # too short for the trigram index
    assert trigram_query("retrieval 模型缓存") == '"retrieval" OR "模型缓" OR "型缓存"'


def _chunker(embedder: Embedder, target: int = 60, overlap: int = 10) -> Chunker:
    return Chunker(embedder.count_tokens, embedder.split_by_tokens, target, overlap, embedder.max_tokens - 2)


def test_chunks_respect_token_limit_and_keep_page_provenance(embedder: Embedder) -> None:
    page1 = normalize_text(" ".join(f"Sentence number {i} talks about apples and pears." for i in range(30)))
    page2 = normalize_text("。".join(f"第{i}句讨论缓存和模型" for i in range(40)) + "。")
    pages = {1: page1, 2: page2}
    chunks = list(chunk_pages(_chunker(embedder), pages.items()))
    assert len(chunks) > 4
    for chunk in chunks:
        assert embedder.count_tokens([chunk.text])[0] <= 60 + 2
        # the offsets really locate the chunk's first and last sentences in their pages
        assert chunk.text.startswith(pages[chunk.page_start][chunk.char_start : chunk.char_start + 8])
        assert chunk.text.endswith(pages[chunk.page_end][chunk.char_end - 8 : chunk.char_end])
    assert any(c.page_start == 1 and c.page_end == 2 for c in chunks), "a chunk should cross the page break"
    # consecutive chunks overlap by trailing sentences
    assert chunks[1].text.split(".")[0] in chunks[0].text


def test_overlong_sentence_is_cut_at_token_boundaries(embedder: Embedder) -> None:
    text = "word " * 500 + "end."
    chunks = list(chunk_pages(_chunker(embedder, target=50, overlap=0), [(1, text.strip())]))
    assert len(chunks) >= 10
    assert all(embedder.count_tokens([c.text])[0] <= 52 for c in chunks)
    assert chunks[-1].text.endswith("end.")


def test_default_chunk_size_stays_below_model_limit(embedder: Embedder) -> None:
    text = normalize_text(
        " ".join("Retrieval augmented generation needs well sized chunks." for _ in range(200))
    )
    chunker = Chunker(embedder.count_tokens, embedder.split_by_tokens, 200, 30, embedder.max_tokens - 2)
    chunks = list(chunk_pages(chunker, [(1, text)]))
    counts = embedder.count_tokens([c.text for c in chunks])
    assert max(counts) <= embedder.max_tokens - 2
    assert min(counts[:-1]) >= 150  # chunks are filled, not fragments
