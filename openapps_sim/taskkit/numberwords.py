"""Number words in an answer, in every language with a content file: ``three``, ``vier``,
``vingt et un``, ``cuarenta y seis``, ``ventotto``, ``ستة وأربعون``, ``二十三``.

The words are data (``number.words``, ``tens``, ``articles`` and ``not_numbers`` in
``tasks/content/<lang>.yaml``); the rule that reads them is one for every language:

* a word (or phrase) of the reply's language or English is a number; adjacent number words
  make one number when they compose (tens then a unit, ``vingt-deux``, ``cuarenta y seis``;
  a unit, ``und`` / ``و`` and tens, ``vier und zwanzig``; a tens word glued to a unit,
  ``sechsundvierzig``, ``quarantasei``, ``veintiséis``), otherwise each is a number of its own;
* a word that also means "a" (``one``, ``un``, ``eine``, ``一``) is a number where no word
  follows it (``3 or one.``), or where the reply holds no other number (``Only one is open``);
* a phrase of ``not_numbers`` (``no one``, ``十分``, ``星期三``) holds no number.

Scripts written without spaces (Chinese) are read character by character: a word there needs
no space around it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

CONNECTORS = ("and", "und", "et", "y", "e", "و")


def fold(text: str) -> str:
    """Lower case without accents, character for character (positions stay valid): ``Fünf`` ->
    ``funf``; any decimal digit (Arabic-Indic, full-width...) -> its ASCII digit, the Arabic
    decimal and thousands separators -> ``.`` and ``,``."""
    out = []
    for ch in text:
        digit = unicodedata.decimal(ch, None)
        if digit is not None:
            out.append(str(digit))
            continue
        low = ch.lower()
        base = unicodedata.normalize("NFD", low if len(low) == 1 else ch)[0]
        out.append({"٫": ".", "٬": ",", "：": ":"}.get(base, base))
    return "".join(out)


def unspaced(ch: str) -> bool:
    """Whether ``ch`` belongs to a script written without spaces between words (Han, kana,
    Thai...): a word there may touch its neighbours."""
    if unicodedata.east_asian_width(ch) in ("W", "F") and ch.isalpha():
        return True
    return unicodedata.name(ch, "").split(" ")[0] in ("THAI", "LAO", "KHMER", "MYANMAR")


@dataclass(frozen=True)
class Vocabulary:
    words: dict[str, int]  # folded phrase -> value (0-19 and the tens)
    articles: frozenset[str]
    not_numbers: tuple[str, ...]


@lru_cache(maxsize=32)
def vocabulary(lang: str) -> Vocabulary:
    """The number words of ``lang`` and English (an answer in English is common everywhere)."""
    from openapps_sim.taskkit.language import content_file

    words: dict[str, int] = {}
    articles: set[str] = set()
    masks: list[str] = []
    for code in dict.fromkeys((lang, "en")):
        spec = content_file(code).get("number") or {}
        groups = [(v, g) for v, g in enumerate(str(spec.get("words", "")).split())]
        groups += [(20 + 10 * i, g) for i, g in enumerate(str(spec.get("tens", "")).split())]
        for value, group in groups:
            for word in group.split("|"):
                words.setdefault(fold(word.replace("_", " ").replace("-", " ")), value)
        articles |= {fold(a) for a in str(spec.get("articles", "")).split("|") if a}
        masks += [fold(m) for m in str(spec.get("not_numbers", "")).split("|") if m]
    return Vocabulary(words, frozenset(articles), tuple(sorted(set(masks), key=len, reverse=True)))


@lru_cache(maxsize=32)
def _phrase_pattern(lang: str) -> re.Pattern:
    voc = vocabulary(lang)
    alts = "|".join(
        re.escape(w).replace(r"\ ", r"[\s-]+").replace(r"\-", r"[\s-]+")
        for w in sorted(voc.words, key=len, reverse=True)
    )
    return re.compile(rf"(?:{alts})")


def clear_cache() -> None:
    """Forget the vocabularies read (a test that writes a content file, and every test of the
    answer rules: mutation testing forks after one test run, so a vocabulary cached then would
    hide a changed :func:`fold` from the tests)."""
    vocabulary.cache_clear()
    _phrase_pattern.cache_clear()


_TOKEN = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class WordNumber:
    start: int
    end: int
    value: int
    article: bool  # a lone word that also means "a", followed by another word


def _boundary(text: str, i: int) -> bool:
    """Whether a word may start or end at ``i`` (no letter of a spaced script on both sides)."""
    if i <= 0 or i >= len(text):
        return True
    a, b = text[i - 1], text[i]
    return not (a.isalpha() and b.isalpha()) or unspaced(a) or unspaced(b)


def _glued(token: str, voc: Vocabulary) -> int | None:
    """A tens word and a unit written as one word (``sechsundvierzig``, ``quarantasei``,
    ``ventotto``, ``veintiseis``), or None."""
    for i in range(2, len(token) - 1):
        head, tail = token[:i], token[i:]
        for a, b in ((head, tail), (tail, head.removesuffix("und"))):
            units = voc.words.get(b)
            for tens_word in (a, a + "a", a + "e", a + "i", a + "o"):  # ventotto: venti less its vowel
                tens = voc.words.get(tens_word)
                if tens is not None and tens >= 20 and tens % 10 == 0 and units is not None and 1 <= units <= 9:
                    return tens + units
    return None


def _raw_words(text: str, lang: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of every number word or phrase in folded ``text``."""
    voc = vocabulary(lang)
    found: list[tuple[int, int, int]] = []
    for m in _phrase_pattern(lang).finditer(text):
        if _boundary(text, m.start()) and _boundary(text, m.end()):
            found.append((m.start(), m.end(), voc.words[re.sub(r"[\s-]+", " ", m.group(0))]))
    taken = [(a, b) for a, b, _ in found]
    for m in _TOKEN.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        token = m.group(0)
        value = _glued(token, voc)
        if value is not None:
            found.append((m.start(), m.end(), value))
        elif token.startswith("و") and token[1:] in voc.words:  # وأربعون: "and forty"
            found.append((m.start() + 1, m.end(), voc.words[token[1:]]))
    return sorted(found)


def _composes(total: int, last: int, value: int, connector: bool) -> bool:
    if total % 10 == 0 and total >= 10 and 1 <= value <= 9 and last == total:
        return True  # twenty-one, dix-sept, cuarenta y seis, 十三
    if total in (60, 80) and last == total and 10 <= value <= 19:
        return True  # soixante-dix-sept, quatre-vingt-onze
    return connector and 1 <= total <= 9 and value >= 20 and value % 10 == 0  # vier und zwanzig


def _joint(text: str, a: int, b: int) -> tuple[bool, bool] | None:
    """What lies between two words: (adjacent, a connector), or None when they are apart."""
    gap = text[a:b].strip(" -")
    if not gap:
        return True, False
    if gap in CONNECTORS:
        return True, True
    return None


def word_numbers(text: str, lang: str) -> list[WordNumber]:
    """Every number written in words in folded ``text`` (see the module docstring)."""
    voc = vocabulary(lang)
    for mask in voc.not_numbers:
        text = re.sub(re.escape(mask), lambda m: " " * len(m.group(0)), text)
    raw = _raw_words(text, lang)
    out: list[WordNumber] = []
    i = 0
    while i < len(raw):
        start, end, total = raw[i]
        last = total
        j = i + 1
        while j < len(raw):
            joint = _joint(text, end, raw[j][0])
            if joint is None or not _composes(total, last, raw[j][2], joint[1]):
                break
            total, last, end = total + raw[j][2], raw[j][2], raw[j][1]
            j += 1
        lone = j == i + 1 and text[start:end] in voc.articles
        out.append(WordNumber(start, end, total, lone and _word_follows(text, end)))
        i = j
    return out


def _word_follows(text: str, end: int) -> bool:
    rest = text[end:].lstrip(" ")
    return bool(rest) and rest[0].isalpha()
