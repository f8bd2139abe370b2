"""`folio add-folder`, `folders`, `sync`, `remove-folder` in subprocesses, on a real library and files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.integration.test_cli_library import folio_cli


def _json(result: object) -> dict[str, object]:
    assert result.returncode in (0, 1), result.stderr  # type: ignore[attr-defined]
    data: dict[str, object] = json.loads(result.stdout)  # type: ignore[attr-defined]
    return data


def test_a_watched_folder_is_kept_in_step_by_sync(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "tea.md").write_text("Green tea is steeped at 80 degrees.\n", encoding="utf-8")
    (docs / "sub" / "coffee.txt").write_text("Espresso is brewed at 9 bars.\n", encoding="utf-8")
    lib = ["--library", str(library)]

    added = folio_cli("add-folder", str(docs), *lib, "--json")
    assert added.returncode == 0, added.stderr
    assert sorted(f["status"] for f in _json(added)["ingest"]["files"]) == ["added", "added"]  # type: ignore[index]

    (docs / "sub" / "coffee.txt").rename(docs / "coffee-notes.txt")  # moved
    (docs / "tea.md").write_text("Green tea is steeped at 75 degrees.\n", encoding="utf-8")  # changed
    (docs / "juice.txt").write_text("Orange juice is pressed cold.\n", encoding="utf-8")  # new
    synced = _json(folio_cli("sync", *lib, "--json"))
    folder = synced["folders"][0]  # type: ignore[index]
    assert [Path(m["to"]).name for m in folder["moved"]] == ["coffee-notes.txt"]
    assert {Path(f["path"]).name: f["status"] for f in synced["ingest"]["files"]} == {  # type: ignore[index]
        "juice.txt": "added",
        "tea.md": "updated",
    }
    documents = _json(folio_cli("documents", *lib, "--json"))["documents"]
    assert sorted(d["document"] for d in documents) == ["coffee-notes.txt", "juice.txt", "tea.md"]  # type: ignore[union-attr]

    (docs / "juice.txt").unlink()
    asked = _json(folio_cli("sync", *lib, "--json"))  # the default, "ask": kept, reported
    assert [d["document"] for d in asked["awaiting_confirmation"]] == ["juice.txt"]  # type: ignore[union-attr]
    assert asked["removed"] == []
    plain = folio_cli("sync", *lib)
    assert "kept until `folio sync --delete`" in plain.stdout
    deleted = _json(folio_cli("sync", "--delete", *lib, "--json"))
    assert [d["document"] for d in deleted["removed"]] == ["juice.txt"]  # type: ignore[union-attr]

    shutil.move(docs, tmp_path / "unplugged")
    listed = _json(folio_cli("folders", *lib, "--json"))["folders"]
    assert listed == [
        {"path": str(docs.resolve()), "offline": True, "reason": listed[0]["reason"], "documents": 2}  # type: ignore[index]
    ]
    offline = _json(folio_cli("sync", *lib, "--json"))
    assert offline["folders"][0]["offline"] and offline["removed"] == []  # type: ignore[index]
    assert len(_json(folio_cli("documents", *lib, "--json"))["documents"]) == 2  # type: ignore[arg-type]

    stop = folio_cli("remove-folder", str(docs), *lib)
    assert stop.returncode == 0 and "its documents stay" in stop.stdout
    again = folio_cli("remove-folder", str(docs), *lib)
    assert again.returncode == 2 and "is not a watched folder" in again.stderr
    missing = folio_cli("add-folder", str(tmp_path / "nowhere"), *lib)
    assert missing.returncode == 2 and "is not a folder" in missing.stderr
