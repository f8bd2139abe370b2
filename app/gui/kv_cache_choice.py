"""Settings > Model: the KV cache type, offered as far as the loaded llama.cpp model takes it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from app.core.api import KV_CACHE_TYPES, format_bytes
from app.gui.i18n import QT_TRANSLATE_NOOP

LABELS = {
    "f16": QT_TRANSLATE_NOOP("KvCacheChoice", "f16 (llama.cpp's default)"),
    "q8_0": QT_TRANSLATE_NOOP("KvCacheChoice", "q8_0 (about half the memory)"),
}
# what the eval measured with the default model (README "The KV cache"); shown on the q8_0 item
Q8_0_MEASURED = QT_TRANSLATE_NOOP(
    "KvCacheChoice",
    "Keys and values in 8 bits, with flash attention: about half the memory (the default model at "
    "4,096 tokens: 25.5 MiB instead of 48 MiB). On a 43-question sample of the eval it answered one "
    "question fewer right (16 against 17) and its first token came later (median 9.8 s against "
    "6.7 to 8.2 s): README, The KV cache.",
)


class KvCacheChoice(QComboBox):
    """The KV cache types the loaded model's llama.cpp takes; the saved type stays selectable."""

    def __init__(self, current: str, model_info: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("kvCacheType")
        self.current = current
        self.set_model_info(model_info)

    def offered(self, model_info: Any) -> tuple[str, ...]:
        """What this computer's model takes (known once it has loaded); else the saved type only."""
        if model_info is None or bool(getattr(model_info, "server", "")):
            return (self.current,)
        types = tuple(getattr(model_info, "kv_cache_types", ()) or ())
        return tuple(t for t in KV_CACHE_TYPES if t in types or t == self.current)

    def set_model_info(self, model_info: Any) -> None:
        chosen = self.value() if self.count() else self.current
        self.clear()
        for kv_type in self.offered(model_info):
            self.addItem(self.tr(LABELS[kv_type]), kv_type)
            if kv_type == "q8_0":
                self.setItemData(self.count() - 1, self.tr(Q8_0_MEASURED), Qt.ItemDataRole.ToolTipRole)
        self.setCurrentIndex(max(0, self.findData(chosen)))
        server = model_info is not None and bool(getattr(model_info, "server", ""))
        self.setEnabled(self.count() > 1)
        if server:
            self.setToolTip(self.tr("A server keeps its own KV cache (set it on the server)."))
        elif model_info is None:
            self.setToolTip(self.tr("The types llama.cpp takes are known once the model has loaded."))
        else:
            size = getattr(model_info, "kv_cache_bytes", None)
            loaded = getattr(model_info, "kv_cache_type", None) or "?"
            known = format_bytes(size) if isinstance(size, int) else self.tr("not known")
            self.setToolTip(
                self.tr("Now: {0}, {1} for {2} tokens. A change loads the model again.").format(
                    loaded, known, model_info.n_ctx
                )
            )

    def value(self) -> str:
        data = self.currentData()
        return str(data) if data else self.current
