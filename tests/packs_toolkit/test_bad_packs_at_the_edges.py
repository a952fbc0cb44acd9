"""Content packs at the edges (issue 14 item 6): whatever is in the directory, loading gives
one ContentError naming the file and the key, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.kernel import ContentError


def _load_error(overlay: Path) -> ContentError:
    with pytest.raises(ContentError) as raised:
        load_pack(overlay)
    return raised.value


def _pack(tmp_path: Path) -> Path:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "user"\nversion = "1"\n')
    return tmp_path


def test_deeply_nested_toml_is_a_content_error_naming_the_file(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    (pack / "deep.toml").write_text("x = " + "[" * 50_000 + "]" * 50_000 + "\n")
    error = _load_error(pack)
    assert [(p.file, p.path) for p in error.problems] == [("overlay/deep.toml", "$")]
    assert "nested too deeply" in str(error)


def test_a_file_name_that_is_not_utf8_is_a_content_error(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    name = os.fsdecode(b"units-\xff.toml")
    try:
        (pack / name).write_text("")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses non-UTF-8 names")
    error = _load_error(pack)
    assert any("not valid UTF-8" in p.message and "units-" in p.file for p in error.problems)
