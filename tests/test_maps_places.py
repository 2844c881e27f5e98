"""The maps gazetteer in every language pack (issue 26.9): 333 of the 441 places kept their
English names and descriptions in every pack ("Naples" in German, "London" in Italian, Latin
letters among Arabic names). Pure data checks, no browser.

The threshold is zero, on purpose: any description equal to the English one, and any name equal
to the English one that the pack does not list, fails. A description is a sentence, and no
language writes a sentence as English does; a name a language really shares with English
(Paris, Berlin, Machu Picchu) is listed in the pack (``# same_as_english:`` above its places),
so the list is reviewed where the names are, and a listed place whose name is not the English
one fails too (a stale list). Arabic and Chinese write every name in their own script."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openapps_sim.config.catalog import compose

VARIATIONS = Path(__file__).resolve().parent.parent / "variations"
PACKS = ["german", "french", "italian", "spanish", "arabic", "mandarin"]

# names each language really writes its own way (from the issue): a pack may not list them
EXONYMS = {
    "german": {"naples": "Neapel", "milan": "Mailand", "venice": "Venedig", "lisbon": "Lissabon", "munich": "München"},
    "french": {"london": "Londres", "venice": "Venise", "lisbon": "Lisbonne"},
    "italian": {"paris": "Parigi", "london": "Londra", "munich": "Monaco di Baviera"},
    "spanish": {"london": "Londres", "new_york": "Nueva York", "munich": "Múnich"},
}


def _listed(pack: str) -> set[str]:
    """The ids a pack lists as named in English too (``# same_as_english:`` comment lines)."""
    text = (VARIATIONS / pack / "maps.yaml").read_text(encoding="utf-8")
    ids: set[str] = set()
    for line in re.findall(r"^# same_as_english:(.*)$", text, flags=re.M):
        ids.update(w for w in line.split() if w != "(none)")
    return ids


def _pairs(pack: str) -> list[tuple[dict, dict]]:
    english = {p["id"]: p for p in compose("default")["maps"]["places"]}
    return [(english[p["id"]], p) for p in compose(pack)["maps"]["places"]]


@pytest.mark.parametrize("pack", PACKS)
def test_every_place_is_described_in_the_language(pack):
    left = [en["id"] for en, p in _pairs(pack) if p["description"].strip() == en["description"].strip()]
    assert not left, f"{pack}: {len(left)} place descriptions in English: {', '.join(left[:20])}"


@pytest.mark.parametrize("pack", PACKS)
def test_a_place_named_in_english_is_one_the_pack_lists(pack):
    listed = _listed(pack)
    same = {en["id"] for en, p in _pairs(pack) if p["name"] == en["name"]}
    unlisted, stale = sorted(same - listed), sorted(listed - same)
    assert not unlisted, f"{pack}: {len(unlisted)} places keep their English name unlisted: {', '.join(unlisted[:30])}"
    assert not stale, f"{pack}: listed as named in English but not: {', '.join(stale)}"
    assert all(en["id"] not in listed for en, _ in _pairs(pack) if en["id"] in EXONYMS.get(pack, {}))


@pytest.mark.parametrize("pack", sorted(EXONYMS))
def test_the_names_a_language_writes_its_own_way(pack):
    names = {p["id"]: p["name"] for p in compose(pack)["maps"]["places"]}
    assert {pid: names[pid] for pid in EXONYMS[pack]} == EXONYMS[pack]


@pytest.mark.parametrize("pack", ["arabic", "mandarin"])
def test_arabic_and_chinese_names_are_in_their_script(pack):
    latin = [p["name"] for p in compose(pack)["maps"]["places"] if re.search(r"[A-Za-z]", p["name"])]
    assert not latin and not _listed(pack), f"{pack}: names in Latin letters: {latin}"


@pytest.mark.parametrize("pack", PACKS)
def test_two_places_never_share_a_name(pack):
    """A search by name must tell places apart in every language, as in English."""
    names = [p["name"].casefold() for p in compose(pack)["maps"]["places"]]
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"{pack}: names used twice: {twice}"
