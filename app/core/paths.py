"""Where Folio finds its bundled files and keeps the user's data (platformdirs, env overrides)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "Folio"
# The default answers correctly far more often (benchmarks/eval_answers.py); the fast option is
# kept selectable in Settings (app/core/generate/catalog.py).
DEFAULT_CHAT_MODEL_FILE = "Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf"
FAST_CHAT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# New libraries: the multilingual embedder (a question finds pages in the other language;
# benchmarks/README.md, "Embedders"). Libraries written before keep the English-only one they
# recorded until they are re-indexed.
DEFAULT_EMBED_MODEL_DIR = "use-multilingual-v3"
ENGLISH_EMBED_MODEL_DIR = "all-MiniLM-L6-v2"


def install_root() -> Path:
    """The read-only tree Folio runs from: the PyInstaller bundle or the source checkout."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle)
    return Path(__file__).resolve().parents[2]


def models_dir() -> Path:
    override = os.environ.get("FOLIO_MODELS")
    return Path(override) if override else install_root() / "models"


def fonts_dir() -> Path:
    """The fonts Folio ships (fonts/ beside the app, filled by set-up and the bundle build)."""
    override = os.environ.get("FOLIO_FONTS")
    return Path(override) if override else install_root() / "fonts"


def resources_dir() -> Path:
    return install_root() / "resources"


def default_chat_model() -> Path:
    return models_dir() / DEFAULT_CHAT_MODEL_FILE


def fast_chat_model() -> Path:
    return models_dir() / FAST_CHAT_MODEL_FILE


def default_embed_model() -> Path:
    return models_dir() / DEFAULT_EMBED_MODEL_DIR


def english_embed_model() -> Path:
    """all-MiniLM-L6-v2: the default of libraries written before the multilingual one."""
    return models_dir() / ENGLISH_EMBED_MODEL_DIR


def default_library_dir() -> Path:
    """The library (SQLite store + FAISS index): `FOLIO_LIBRARY`, else the platform data dir."""
    override = os.environ.get("FOLIO_LIBRARY")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "library"


def config_dir() -> Path:
    override = os.environ.get("FOLIO_CONFIG_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Files Folio can always make again (the embedder's load cache): `FOLIO_CACHE_DIR`, else the
    platform cache dir."""
    override = os.environ.get("FOLIO_CACHE_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def settings_file() -> Path:
    return config_dir() / "settings.json"
