"""What counts as "the same" free text and the same place (openapps_sim/config/normalise.py),
with every expectation written out (pure logic, no browser). ``make mutants`` runs these against
the module's mutants."""

from __future__ import annotations

import pytest

from openapps_sim.config.normalise import distance_km, norm_text

FOLDED = [
    # white space of every kind, inside and around, collapses to one plain space
    ("Buy  milk", "buy milk"),
    ("Buy\tmilk", "buy milk"),
    ("Buy\n\nmilk", "buy milk"),
    ("Buy \t\r\n milk", "buy milk"),
    ("Buy\u00a0milk", "buy milk"),  # no-break space
    ("Buy\u3000milk", "buy milk"),  # ideographic space
    ("Buy\u2003\u2009milk", "buy milk"),  # em and thin spaces
    ("买  牛奶", "买 牛奶"),
    ("اشتر   حليبا", "اشتر حليبا"),
    ("  Buy MILK. ", "buy milk"),
    ("\n\tBuy milk\t\n", "buy milk"),
    # case folds, width folds (NFKC), surrounding punctuation goes
    ("Ｆｕｌｌ width", "full width"),
    ("Straße", "strasse"),
    ("«Zitat»", "zitat"),
    ("¿Qué?", "qué"),
    ("„Hallo“", "hallo"),
    ('"quoted" ', "quoted"),
    ("(v1.2)", "v1.2"),
    ("[done]!", "done"),
    (" . buy milk . ", "buy milk"),
    # inner punctuation stays
    ("v1.2", "v1.2"),
    ("x  ,y", "x ,y"),
    ("", ""),
    ("...", ""),
]


@pytest.mark.parametrize("text, want", FOLDED)
def test_norm_text_folds_to_the_written_form(text, want):
    assert norm_text(text) == want


@pytest.mark.parametrize("text, want", FOLDED)
def test_a_str_subclass_folds_the_same_as_a_str(text, want):
    assert norm_text(type("S", (str,), {})(text)) == want


def test_values_that_are_not_text_fold_through_their_text():
    assert norm_text(12) == "12"
    assert norm_text(2.5) == "2.5"
    assert norm_text(None) == "none"
    assert norm_text(True) == "true"


def test_texts_that_differ_in_more_than_spacing_case_or_edges_stay_different():
    assert norm_text("v1.2") != norm_text("v12")
    assert norm_text("buy milk") != norm_text("buymilk")
    assert norm_text("buy-milk") != norm_text("buy milk")


@pytest.mark.parametrize(
    "a, b, km",
    [
        ((0.0, 0.0), (0.0, 1.0), 111.19),  # one degree of longitude on the equator
        ((0.0, 0.0), (1.0, 0.0), 111.19),  # one degree of latitude
        ((48.8566, 2.3522), (51.5074, -0.1278), 343.56),  # Paris - London
        ((-33.8688, 151.2093), (40.7128, -74.006), 15988.76),  # Sydney - New York
        ((0.0, 0.0), (0.0, 180.0), 20015.09),  # antipodes: the asin argument is clamped to 1
        ((52.52, 13.405), (52.52, 13.405), 0.0),
    ],
)
def test_distance_km_is_the_great_circle_distance(a, b, km):
    assert distance_km(*a, *b) == pytest.approx(km, abs=0.01)
    assert distance_km(*b, *a) == pytest.approx(km, abs=0.01)
