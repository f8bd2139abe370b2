"""Read an EPUB (2 or 3) through its zip and XHTML: the spine's chapters in order, as sections.

A chapter's text before its first heading is filed under the chapter's table-of-contents title.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree

from app.core.ingest.html_reader import HtmlUnreadable, decode_html, read_markup
from app.core.ingest.page import PageContent
from app.core.ingest.read_base import UnreadableFile
from app.core.ingest.sections import SectionBuilder
from app.core.messages import QT_TRANSLATE_NOOP

# A chapter larger than this (uncompressed) is not read: a zip bomb must not fill the memory.
MAX_ENTRY_BYTES = 64 * 1024**2
_FONT_OBFUSCATION = ("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _first_attribute(root: ElementTree.Element, tag: str, attribute: str) -> str:
    """The `attribute` of the first element named `tag` (any namespace) under `root`, or ""."""
    return next((e.get(attribute, "") for e in root.iter() if _local(e.tag) == tag), "")


def _xml(archive: zipfile.ZipFile, name: str) -> ElementTree.Element:
    try:
        info = archive.getinfo(name)
    except KeyError as exc:
        raise ValueError(f"{name} is missing") from exc
    if info.file_size > MAX_ENTRY_BYTES:
        raise ValueError(f"{name} is too large")
    # The standard parser expands no external entities; defusing is not needed for reading.
    return ElementTree.fromstring(archive.read(info))


def _resolve(base: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), unquote(href.split("#", 1)[0])))


def _toc_titles(archive: zipfile.ZipFile, manifest: dict[str, tuple[str, str, str]]) -> dict[str, str]:
    """Chapter file -> its first title in the EPUB 3 nav document or the EPUB 2 NCX."""
    titles: dict[str, str] = {}
    for href, media, properties in manifest.values():
        try:
            if "nav" in properties.split():
                root = _xml(archive, href)
                for link in root.iter():
                    if _local(link.tag) == "a" and link.get("href"):
                        name = " ".join("".join(link.itertext()).split())
                        titles.setdefault(_resolve(href, link.get("href", "")), name)
            elif media == "application/x-dtbncx+xml":
                root = _xml(archive, href)
                for point in root.iter():
                    if _local(point.tag) != "navPoint":
                        continue
                    label = next((e for e in point.iter() if _local(e.tag) == "text"), None)
                    content = next((e for e in point if _local(e.tag) == "content"), None)
                    if label is not None and content is not None and content.get("src"):
                        name = " ".join("".join(label.itertext()).split())
                        titles.setdefault(_resolve(href, content.get("src", "")), name)
        except (ValueError, ElementTree.ParseError):
            continue  # a broken table of contents only costs the fallback titles
    return titles


def _encrypted(archive: zipfile.ZipFile) -> set[str]:
    """Files encrypted by DRM (font obfuscation does not count: fonts are not read)."""
    try:
        root = _xml(archive, "META-INF/encryption.xml")
    except (ValueError, ElementTree.ParseError):
        return set()
    locked: set[str] = set()
    for data in root.iter():
        if _local(data.tag) != "EncryptedData":
            continue
        method = _first_attribute(data, "EncryptionMethod", "Algorithm")
        reference = _first_attribute(data, "CipherReference", "URI")
        if reference and method not in _FONT_OBFUSCATION:
            locked.add(posixpath.normpath(unquote(reference)))
    return locked


def read_epub(path: Path) -> Iterator[PageContent]:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable EPUB") + f": {exc}") from exc
    with archive:
        try:
            container = _xml(archive, "META-INF/container.xml")
            rootfile = _first_attribute(container, "rootfile", "full-path")
            if not rootfile:
                raise ValueError("META-INF/container.xml names no package file")
            package = _xml(archive, rootfile)
        except (ValueError, ElementTree.ParseError) as exc:
            raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable EPUB") + f": {exc}") from exc
        manifest: dict[str, tuple[str, str, str]] = {}
        spine: list[str] = []
        for element in package.iter():
            tag = _local(element.tag)
            if tag == "item" and element.get("id") and element.get("href"):
                href = _resolve(rootfile, element.get("href", ""))
                manifest[element.get("id", "")] = (
                    href,
                    element.get("media-type", ""),
                    element.get("properties", ""),
                )
            elif tag == "itemref" and element.get("idref") and element.get("linear", "yes") != "no":
                spine.append(element.get("idref", ""))
        chapters = [manifest[idref][0] for idref in spine if idref in manifest]
        if not chapters:
            raise UnreadableFile(
                QT_TRANSLATE_NOOP("Core", "not a readable EPUB: its reading order (spine) is empty")
            )
        locked = _encrypted(archive)
        if any(chapter in locked for chapter in chapters):
            raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "password protected (DRM)"))
        titles = _toc_titles(archive, manifest)
        builder = SectionBuilder()
        for number, chapter in enumerate(chapters, start=1):
            try:
                info = archive.getinfo(chapter)
            except KeyError:
                continue  # a spine entry without its file: skip that chapter
            if info.file_size > MAX_ENTRY_BYTES:
                raise UnreadableFile(
                    QT_TRANSLATE_NOOP("Core", "not a readable EPUB") + f": chapter {chapter} is too large"
                )
            builder.start_part(titles.get(chapter, "") or f"Part {number}")
            try:
                read_markup(decode_html(archive.read(info)), builder)
            except (HtmlUnreadable, zipfile.BadZipFile, zlib.error, OSError) as exc:
                raise UnreadableFile(
                    QT_TRANSLATE_NOOP("Core", "not a readable EPUB") + f": {chapter}: {exc}"
                ) from exc
    pages = builder.pages()
    if not pages:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "no text (the book has no readable chapters)"))
    yield from pages
