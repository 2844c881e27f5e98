"""The parsed-YAML cache: a file read again is the same document, never a stale or a refused one."""

from __future__ import annotations

from pathlib import Path

import pytest

from openapps_sim.config.yamlfile import read_yaml
from openapps_sim.errors import ConfigError

ROWS = "".join(
    f"  - {{name: item {i}, price: {i}.5, tags: [a, b], when: 2026-01-{i % 28 + 1:02d}}}\n" for i in range(60)
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPENAPPS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "yaml"


def write(tmp_path: Path, text: str, name: str = "doc.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_read_again_comes_from_the_cache_and_is_a_copy(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "rows:\n" + ROWS)
    first = read_yaml(path)
    assert len(list(cache.glob("*.pickle"))) == 1
    first["rows"][0]["name"] = "changed by the caller"
    again = read_yaml(path)
    assert again["rows"][0] == {"name": "item 0", "price": 0.5, "tags": ["a", "b"], "when": first["rows"][0]["when"]}
    assert str(again["rows"][0]["when"]) == "2026-01-01"
    assert again["rows"][59]["name"] == "item 59"


def test_changed_bytes_are_read_anew(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "rows:\n" + ROWS)
    read_yaml(path)
    write(tmp_path, "rows:\n" + ROWS.replace("item 7,", "item seven,"))
    assert read_yaml(path)["rows"][7]["name"] == "item seven"
    assert len(list(cache.glob("*.pickle"))) == 2


def test_a_damaged_cache_file_is_read_again(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "rows:\n" + ROWS)
    read_yaml(path)
    (stored,) = cache.glob("*.pickle")
    stored.write_bytes(b"\x80\x05not a pickle")
    assert read_yaml(path)["rows"][3]["price"] == 3.5
    assert read_yaml(path)["rows"][3]["price"] == 3.5


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAPPS_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = write(tmp_path, "rows:\n" + ROWS)
    assert read_yaml(path)["rows"][1]["name"] == "item 1"
    assert not (tmp_path / "xdg").exists()


def test_a_folder_that_cannot_be_made_costs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = write(tmp_path, "a file where the cache folder would be", "blocker")
    monkeypatch.setenv("OPENAPPS_CACHE_DIR", str(blocker))
    path = write(tmp_path, "rows:\n" + ROWS)
    assert read_yaml(path)["rows"][2]["name"] == "item 2"
    assert read_yaml(path)["rows"][2]["name"] == "item 2"


def test_a_refused_file_is_never_stored_and_stays_refused(tmp_path: Path, cache: Path) -> None:
    bomb = "a: &a [" + ", ".join(["x"] * 200) + "]\n"
    for level in "bcdef":
        prev = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [" + ", ".join([f"*{prev}"] * 20) + "]\n"
    path = write(tmp_path, bomb + "# " + "padding " * 300 + "\n")
    for _ in range(2):
        with pytest.raises(ConfigError, match="aliases repeat"):
            read_yaml(path)
    assert not cache.exists() or not list(cache.glob("*.pickle"))


def test_small_files_are_not_stored(tmp_path: Path, cache: Path) -> None:
    assert read_yaml(write(tmp_path, "a: 1\nb: [2, 3]\n")) == {"a": 1, "b": [2, 3]}
    assert not cache.exists()
