"""What every reader shares: the refusal error, the read options and text-file decoding."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from app.core.messages import QT_TRANSLATE_NOOP


class UnreadableFile(Exception):
    """The file cannot be ingested; the message is the reason shown to the user."""


@dataclass(frozen=True)
class ReadOptions:
    """How to read: `ocr` recognises PDF pages that have no text layer."""

    ocr: bool = True


def decode_text(data: bytes) -> str:
    """Bytes of a text file as text: BOM, then UTF-8, then GB18030, then cp1252."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(encoding)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    for encoding in ("gb18030", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable text file: unknown text encoding"))
