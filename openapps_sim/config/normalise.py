"""Normalisation shared by apps and rewards: what counts as "the same" free text."""

from __future__ import annotations

import functools
import math
import re
import unicodedata

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = "\"'`.,;:!?¡¿«»„“”‘’()[]{}"


def norm_text(value: object) -> str:
    """Case-folded, white space collapsed, surrounding punctuation removed.

    ``"  Buy milk. "`` and ``"buy MILK"`` compare equal; inner punctuation is kept, so
    ``"v1.2"`` and ``"v12"`` do not.
    """
    if type(value) is str:  # a state check folds the same texts again and again: kept once folded
        return _norm_str(value)
    return _fold(str(value))


@functools.lru_cache(maxsize=65536)
def _norm_str(value: str) -> str:
    return _fold(value)


def _fold(value: str) -> str:
    text = unicodedata.normalize("NFKC", value)
    text = _SPACE.sub(" ", text).strip().strip(_EDGE_PUNCT).strip()
    return text.casefold()


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(a)))
