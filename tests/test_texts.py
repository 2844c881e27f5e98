"""openapps_sim.config.texts: an app's `strings` record read from its strings.yaml (pure logic)."""

from __future__ import annotations

import pytest
from openapps_sim.apps.calendar.schema import ExactList

from openapps_sim.config.schema import ListOf, Str
from openapps_sim.config.texts import texts
from openapps_sim.errors import ConfigError


def _write(tmp_path, text: str):
    path = tmp_path / "strings.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_each_key_a_string_field_in_file_order_with_its_note(tmp_path):
    record = texts(_write(tmp_path, "save: Save\nmore: {text: '+{n} more', doc: '{n} is a count'}\nnum: 3\n"))
    assert list(record.fields) == ["save", "more", "num"]
    assert all(type(f) is Str for f in record.fields.values())
    assert record.default == {"save": "Save", "more": "+{n} more", "num": "3"}
    assert (record.fields["save"].doc, record.fields["more"].doc) == ("", "{n} is a count")


def test_typed_key_keeps_its_field_and_takes_the_files_default(tmp_path):
    path = _write(tmp_path, "months: [Jan, Feb]\nback: Back\n")
    record = texts(path, months=ListOf(Str()))
    assert isinstance(record.fields["months"], ListOf)
    assert record.check({}, "x", "strings")["months"] == ["Jan", "Feb"]
    with pytest.raises(ConfigError, match=r"strings\.months: expected a list"):
        record.check({"months": "Jan"}, "x", "strings")


def test_a_default_the_typed_field_refuses_names_the_file_and_key(tmp_path):
    path = _write(tmp_path, "days: [Mon, Tue]\n")
    with pytest.raises(ConfigError, match=r"strings\.yaml: days: expected exactly 7 names, got 2"):
        texts(path, days=ExactList(7))


def test_a_typed_key_missing_from_the_file_is_named_with_the_keys_there(tmp_path):
    path = _write(tmp_path, "save: Save\n")
    with pytest.raises(ConfigError, match=r"strings\.yaml: days: no text for this key.*save"):
        texts(path, days=ExactList(7))


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path):
    with pytest.raises(ConfigError, match=r"strings\.yaml: expected a mapping"):
        texts(_write(tmp_path, "- Save\n- Cancel\n"))
