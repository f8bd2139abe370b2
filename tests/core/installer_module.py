"""packaging/install_models.py loaded from its path for the tests (`packaging` is also a PyPI library)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def load_installer() -> ModuleType:
    # Loaded from its path: `packaging` is also the name of a PyPI library.
    spec = importlib.util.spec_from_file_location("install_models", REPO / "packaging" / "install_models.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["install_models"] = module
    spec.loader.exec_module(module)
    return module


im = load_installer()
rc = sys.modules["model_recipes"]  # the pins, imported by the installer from beside it
