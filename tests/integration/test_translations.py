"""The Chinese translation is complete and current: every marked string of app/ has a finished
translation in resources/i18n/folio_zh_CN.ts, with its placeholders and shortcut; the CLI speaks it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    """packaging/translations.py, the one place lupdate and lrelease are run from."""
    spec = importlib.util.spec_from_file_location("translations", REPO / "packaging" / "translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()
lrelease, lupdate, ts_files = TOOL.lrelease, TOOL.lupdate, TOOL.ts_files
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%n|%\d")


def messages(ts: Path) -> list[tuple[str, str, str | None, str]]:
    """(context, source, translation type or None when finished, translation text) of every message."""
    found = []
    for context in ElementTree.parse(ts).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            forms = [form.text or "" for form in translation.iter("numerusform")]
            text = " | ".join(forms) if forms else translation.text or ""
            found.append((name, message.findtext("source", ""), translation.get("type"), text))
    return found


def test_every_marked_string_has_a_finished_translation_and_the_ts_is_current(tmp_path: Path) -> None:
    """lupdate over app/ into a copy of the repo's .ts: a new string comes out unfinished, a string
    gone from the code comes out vanished; either fails (README "Chinese interface" says what to run)."""
    (repo_ts,) = ts_files()
    copy = tmp_path / repo_ts.name
    shutil.copy(repo_ts, copy)
    lupdate([copy], keep_obsolete=True)
    fresh = messages(copy)
    untranslated = [(c, s) for c, s, kind, text in fresh if kind == "unfinished" or not text.strip()]
    stale = [(c, s) for c, s, kind, _text in fresh if kind in ("vanished", "obsolete")]
    assert untranslated == [], f"strings without a Chinese translation: {untranslated}"
    assert stale == [], f"strings no longer in the code (run packaging/translations.py update): {stale}"
    assert len(fresh) == len(messages(repo_ts)) > 400


# Texts that read the same in Chinese: the app's name, sampling parameters' names, key names, pure
# layout.
SAME_IN_CHINESE = {
    *("Folio", "Top-k", "Top-p", "Min-p"),
    *("Enter", "Shift+Enter", "Tab / Shift+Tab"),
    *("{0} — Folio", "{0}/{1} · OCR", "{0} — {1}", "{0} / {1}"),
}


def test_translations_keep_placeholders_and_shortcuts_and_are_chinese() -> None:
    (repo_ts,) = ts_files()
    for context, source, _kind, text in messages(repo_ts):
        for form in text.split(" | "):
            assert sorted(PLACEHOLDER.findall(form)) == sorted(PLACEHOLDER.findall(source)), (context, source)
            assert source.count("&") == form.count("&"), (context, source)
            if source not in SAME_IN_CHINESE and re.search(r"[A-Za-z]", source):
                assert re.search(r"[\u4e00-\u9fff]", form), (context, source, form)


def test_lrelease_builds_a_qm_from_the_ts(tmp_path: Path) -> None:
    (repo_ts,) = ts_files()
    copy = tmp_path / repo_ts.name
    shutil.copy(repo_ts, copy)
    (built,) = lrelease([copy])
    assert built == tmp_path / "folio_zh_CN.qm"
    assert built.stat().st_size > 10_000


def folio(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
        check=False,
    )


def cli_env(tmp_path: Path, lang: str, setting: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG=lang, FOLIO_CONFIG_DIR=str(tmp_path / "config"), FOLIO_LIBRARY=str(tmp_path / "lib"))
    if setting is not None:
        (tmp_path / "config").mkdir(parents=True, exist_ok=True)
        (tmp_path / "config" / "settings.json").write_text(json.dumps({"language": setting}))
    return env


def test_the_cli_speaks_the_locales_language_and_its_json_stays_as_it_is(tmp_path: Path) -> None:
    chinese = cli_env(tmp_path, "zh_CN.UTF-8")
    listed = folio(["documents", "--no-server"], chinese)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == "0 个文档"
    empty = folio(["search", "  ", "--no-server"], chinese)
    assert empty.returncode == 2 and empty.stderr.strip() == "folio: 问题为空"
    helped = folio(["--help"], chinese)
    assert "查找与问题匹配的段落" in helped.stdout
    as_json = folio(["documents", "--json", "--no-server"], chinese)
    assert json.loads(as_json.stdout) == {"documents": []}
    english = folio(["documents", "--no-server"], cli_env(tmp_path, "C.UTF-8"))
    assert english.stdout.strip() == "0 documents"


def test_the_language_setting_overrides_the_locale_in_the_cli(tmp_path: Path) -> None:
    english = folio(["documents", "--no-server"], cli_env(tmp_path / "a", "zh_CN.UTF-8", setting="en"))
    assert english.stdout.strip() == "0 documents", english.stderr
    chinese = folio(["documents", "--no-server"], cli_env(tmp_path / "b", "C.UTF-8", setting="zh_CN"))
    assert chinese.stdout.strip() == "0 个文档", chinese.stderr


def test_the_cli_in_chinese_never_loads_qt(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from app.cli import run_cli\n"
        "code = run_cli(['documents', '--no-server'])\n"
        "assert 'PySide6' not in sys.modules, sorted(m for m in sys.modules if 'PySide6' in m)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path, "zh_CN.UTF-8"),
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0 个文档"
