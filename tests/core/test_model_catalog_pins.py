"""The real model catalog and its pins: every model has a recipe whose parts add up, chat models pin
what the installer checks, the defaults are the files Folio loads and set-up installs only them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import paths
from app.core.config import Settings
from app.core.generate import catalog
from tests.core.installer_module import im, rc


def test_every_catalog_model_has_a_recipe_whose_parts_add_up() -> None:
    assert set(im.RECIPES) == {m.key for m in catalog.CATALOG}
    for model in catalog.CATALOG:
        recipe = im.RECIPES[model.key]
        if isinstance(recipe, rc.FileRecipe):
            assert sum(p.size for p in recipe.parts) == model.size_bytes, model.key
            assert tuple(p.requirement for p in recipe.parts) == model.sources, model.key
        elif isinstance(recipe, rc.DerivedRecipe):
            source = catalog.by_key(recipe.source)
            assert isinstance(im.RECIPES[source.key], rc.FileRecipe), model.key
            assert source.sources == model.sources and source.kind == model.kind, model.key
        else:
            assert sum(size for size, _ in recipe.files.values()) == model.size_bytes, model.key
            assert (recipe.requirement,) == model.sources, model.key


def test_chat_models_pin_what_the_installer_checks() -> None:
    for model in catalog.chat_models():
        assert model.sha256 and len(model.sha256) == 64, model.key
        assert model.architecture and model.gguf_name, model.key
        assert model.context_length is not None and model.context_length >= Settings().n_ctx, model.key


def test_catalog_defaults_are_the_files_folio_loads() -> None:
    assert catalog.default_model("chat").file == paths.DEFAULT_CHAT_MODEL_FILE
    assert catalog.default_model("embedder").file == paths.DEFAULT_EMBED_MODEL_DIR
    assert [m.role for m in catalog.CATALOG].count("default") == 2
    assert catalog.by_file(paths.DEFAULT_CHAT_MODEL_FILE) == catalog.default_model("chat")
    assert catalog.by_file("unknown.gguf") is None
    with pytest.raises(KeyError, match="known: smollm2-135m"):
        catalog.by_key("nope")


def test_set_up_installs_the_defaults_and_more_only_on_request() -> None:
    default = [m.key for m in im.selected([], everything=False)]
    assert default == [m.key for m in catalog.CATALOG if m.role in ("default", "fast", "former")]
    assert "all-minilm-l6-v2" in default  # the libraries written with it keep opening
    assert "qwen2.5-coder-1.5b" not in default
    assert "qwen2.5-coder-1.5b" in [m.key for m in im.selected(["qwen2.5-coder-1.5b"], everything=False)]
    assert len(im.selected([], everything=True)) == len(catalog.CATALOG)


def test_the_installed_default_models_match_their_pins(models_dir: Path) -> None:
    for model in catalog.CATALOG:
        if model.installed_by_default:
            assert im.installed_problems(models_dir, model, im.RECIPES[model.key]) == [], model.key
