"""Number words, one rule at a time (issue 42, point 11): which words of every shipped language
are numbers, when adjacent words make one number (tens then a unit, a unit, a connector and tens,
a tens word glued to its unit) and when they stay apart, the words that also mean "a", the
phrases that hold no number, and the folding of letters, digits and separators they rest on.
Every expected value is written out; none is computed by the code under test. No browser."""

from __future__ import annotations

import signal

import pytest

from openapps_sim.taskkit import language
from openapps_sim.taskkit.answers import parse_numbers, same_answer
from openapps_sim.taskkit.answervalues import canonical
from openapps_sim.taskkit.numberwords import fold, unspaced, word_numbers


def within(seconds: float, fn, *args):
    """``fn(*args)``, failing (not hanging) when it takes longer than ``seconds``."""

    def stop(signum, frame):
        raise TimeoutError(f"{fn.__name__}{args} took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- words of every language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("zero", "en", [0.0]),
        ("nineteen", "en", [19.0]),
        ("ninety", "en", [90.0]),
        ("null", "de", [0.0]),
        ("zwölf", "de", [12.0]),
        ("dreißig", "de", [30.0]),
        ("dreissig", "de", [30.0]),
        ("zéro", "fr", [0.0]),
        ("seize", "fr", [16.0]),
        ("dix-neuf", "fr", [19.0]),
        ("soixante-dix", "fr", [70.0]),
        ("quatre-vingts", "fr", [80.0]),
        ("quatre vingt dix", "fr", [90.0]),
        ("dieciséis", "es", [16.0]),
        ("veinte", "es", [20.0]),
        ("quattordici", "it", [14.0]),
        ("novanta", "it", [90.0]),
        ("صفر", "ar", [0.0]),
        ("أحد عشر", "ar", [11.0]),
        ("تسعين", "ar", [90.0]),
        ("〇", "zh", [0.0]),
        ("两", "zh", [2.0]),
        ("九十", "zh", [90.0]),
        # English is read beside every language
        ("seven", "de", [7.0]),
        ("seven", "zh", [7.0]),
    ],
)
def test_a_number_word_of_every_language(text, lang, want):
    assert parse_numbers(text, lang) == want


@pytest.mark.parametrize(
    "text,lang,want",
    [
        # tens then a unit: with a hyphen, a space, a connector or nothing between them
        ("twenty-one", "en", [21.0]),
        ("twenty one", "en", [21.0]),
        ("twenty - nine", "en", [29.0]),
        ("vingt et un", "fr", [21.0]),
        ("trente-deux", "fr", [32.0]),
        ("cuarenta y seis", "es", [46.0]),
        ("venti e tre", "it", [23.0]),
        ("ستة و أربعون", "ar", [46.0]),
        ("ستة وأربعون", "ar", [46.0]),
        ("十三", "zh", [13.0]),
        ("十一", "zh", [11.0]),
        ("二十九", "zh", [29.0]),
        # 60 and 80 then 10-19 (French)
        ("soixante et onze", "fr", [71.0]),
        ("soixante dix-sept", "fr", [77.0]),
        ("quatre-vingt-onze", "fr", [91.0]),
        ("quatre-vingt-dix-neuf", "fr", [99.0]),
        ("sixty ten", "en", [70.0]),
        ("sixty nineteen", "en", [79.0]),
        ("eighty nineteen", "en", [99.0]),
        ("eighty eleven", "en", [91.0]),
        # a unit, a connector and tens (German, old English)
        ("vier und zwanzig", "de", [24.0]),
        ("neun und neunzig", "de", [99.0]),
        ("ein und zwanzig", "de", [21.0]),
        ("four and twenty", "en", [24.0]),
    ],
)
def test_adjacent_words_that_compose_make_one_number(text, lang, want):
    assert parse_numbers(text, lang) == want


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("three four", "en", [3.0, 4.0]),  # two units
        ("twenty thirty", "en", [20.0, 30.0]),  # two tens
        ("ten ten", "en", [10.0, 10.0]),
        ("twenty-one two", "en", [21.0, 2.0]),  # a unit after a composed number
        ("sixty ten seven", "en", [70.0, 7.0]),  # a unit after 60 + 10
        ("zero one", "en", [0.0, 1.0]),  # zero takes no unit
        ("twenty eleven", "en", [20.0, 11.0]),  # only 60 and 80 take 10-19
        ("fifty twelve", "en", [50.0, 12.0]),
        ("seventy ten", "en", [70.0, 10.0]),
        ("sixty twenty", "en", [60.0, 20.0]),
        ("vier zwanzig", "de", [4.0, 20.0]),  # unit then tens needs a connector
        ("null und zwanzig", "de", [0.0, 20.0]),
        ("zehn und zwanzig", "de", [10.0, 20.0]),
        ("drei und zehn", "de", [3.0, 10.0]),
        ("drei und fünfundzwanzig", "de", [3.0, 25.0]),
        ("twenty, one", "en", [20.0, 1.0]),  # a comma keeps them apart
        ("twenty or nine", "en", [20.0, 9.0]),
        ("twenty and then nine", "en", [20.0, 9.0]),
    ],
)
def test_adjacent_words_that_do_not_compose_stay_apart(text, lang, want):
    assert parse_numbers(text, lang) == want


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("sechsundvierzig", "de", [46.0]),
        ("einundzwanzig", "de", [21.0]),
        ("neunundneunzig", "de", [99.0]),
        ("quarantasei", "it", [46.0]),
        ("ventotto", "it", [28.0]),
        ("trentuno", "it", [31.0]),
        ("ventitré", "it", [23.0]),
        ("veintiséis", "es", [26.0]),
        ("veintiún", "es", [21.0]),
        ("twentyfive", "en", [25.0]),
        ("sechsundvierzig oder drei", "de", [46.0, 3.0]),
        ("drei oder sechsundvierzig", "de", [3.0, 46.0]),
        ("fiftyfifty", "en", []),  # tens glued to tens
        ("sechsundzehn", "de", []),  # a unit glued to ten
        ("zehnundzwanzig", "de", []),
        ("someone", "en", []),  # a number word inside a word
        ("often", "en", []),
        ("tone", "en", []),
    ],
)
def test_a_tens_word_glued_to_its_unit(text, lang, want):
    assert parse_numbers(text, lang) == want


# -- words that also mean "a", phrases that hold no number ---------------------------------------


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("3 or one.", "en", [3.0, 1.0]),  # nothing follows it: a number
        ("3 apples and one pear", "en", [3.0]),  # a word follows it: "a"
        ("3 apples and one  pear", "en", [3.0]),
        ("one pear", "en", [1.0]),  # nothing else: a number
        ("Only one is open", "en", [1.0]),
        ("3 items, one of them open", "en", [3.0]),
        ("no one came", "en", []),
        ("3 and one\npear", "en", [3.0, 1.0]),  # only spaces lead to the next word
        ("3 and one\tpear", "en", [3.0, 1.0]),
        ("xone", "en", []),  # a number word's start inside a word
        ("twox", "en", []),
        ("有three条", "zh", [3.0]),  # beside a character of a script without spaces
        ("three条", "zh", [3.0]),
        ("有three", "zh", [3.0]),
        ("3 Einträge in einer Liste", "de", [3.0]),
        ("Es ist eine", "de", [1.0]),
        ("3 tâches dans une liste", "fr", [3.0]),
        ("3 tareas en una lista", "es", [3.0]),
        ("3 attività in una lista", "it", [3.0]),
        ("一共有3条", "zh", [3.0]),
        ("一条", "zh", [1.0]),
        ("星期三有3条", "zh", [3.0]),
        ("十分好", "zh", []),
    ],
)
def test_a_word_that_also_means_a(text, lang, want):
    assert parse_numbers(text, lang) == want


def test_word_numbers_give_spans_values_and_the_article_flag():
    assert [(w.start, w.end, w.value, w.article) for w in word_numbers("one pear or two", "en")] == [
        (0, 3, 1, True),
        (12, 15, 2, False),
    ]
    assert [(w.start, w.end, w.value, w.article) for w in word_numbers("twenty-one one", "en")] == [
        (0, 10, 21, False),
        (11, 14, 1, False),
    ]
    assert [(w.start, w.end, w.value, w.article) for w in word_numbers(fold("ستة وأربعون"), "ar")] == [
        (0, 11, 46, False)
    ]
    assert [(w.start, w.end, w.value) for w in word_numbers("共二十三条", "zh")] == [(1, 4, 23)]
    assert word_numbers("no one", "en") == []
    assert [(w.start, w.end, w.value) for w in word_numbers("no one but two", "en")] == [(11, 14, 2)]
    assert [(w.start, w.end, w.value) for w in word_numbers("这十分好, 三条", "zh")] == [(6, 7, 3)]
    assert [w.value for w in word_numbers("twenty X one", "en")] == [20, 1]
    assert [w.value for w in word_numbers("twenty\none", "en")] == [20, 1]
    # the article flag on text as given: only spaces are skipped to the next word
    assert [w.article for w in word_numbers("one X.", "en")] == [True]
    assert [w.article for w in word_numbers("one  .", "en")] == [False]
    assert [w.article for w in word_numbers("one", "en")] == [False]


# -- canonical text and folding ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,lang,articles,want",
    [
        ("Fünf Äpfel", "de", False, "5 apfel"),
        ("twenty-one items", "en", False, "21 items"),
        ("one apple", "en", False, "one apple"),
        ("one apple", "en", True, "1 apple"),
        ("3,four", "en", False, "3, 4"),
        ("four,5", "en", False, "4 ,5"),
        ("3four", "en", False, "3 4"),
        ("1.two", "en", False, "1. 2"),
        ("two.", "en", False, "2 ."),
        ("two!", "en", False, "2!"),
        ("four5", "en", False, "4 5"),
        ("下午两点半", "zh", False, "下午2点半"),
    ],
)
def test_canonical_text(text, lang, articles, want):
    assert canonical(text, lang, articles) == want


@pytest.mark.parametrize(
    "text,want",
    [
        ("Fünf", "funf"),
        ("ÉLAN", "elan"),
        ("İstanbul", "Istanbul"),
        ("١٢٣", "123"),
        ("１２：３０", "12:30"),
        ("١٢٫٥", "12.5"),
        ("١٬٢٣٤", "1,234"),
        ("۱۲", "12"),
        ("MAßE", "maße"),
    ],
)
def test_fold(text, want):
    assert fold(text) == want


@pytest.mark.parametrize(
    "ch,want",
    [
        ("三", True),
        ("か", True),
        ("Ａ", True),  # a full-width letter
        ("ก", True),  # Thai
        ("ລ", True),  # Lao
        ("ក", True),  # Khmer
        ("က", True),  # Myanmar
        ("a", False),
        ("ش", False),
        ("３", False),  # a full-width digit is no letter
        ("，", False),
        ("\x00", False),  # a character without a name
        ("\U000e0001", False),
    ],
)
def test_unspaced_scripts(ch, want):
    assert unspaced(ch) is want


# -- a language of the pack search path ----------------------------------------------------------

TOY_NUMBERS = (
    "number:\n"
    "  decimal: '.'\n"
    "  words: nul bo di u ot' 'iv\n"  # 0-5: a unit of one letter, two with an apostrophe (un')
    "  tens: ka pase poso\n"  # 20 30 40: a tens word of two letters, two ending in e and o
    "  articles: ''\n"
    "  not_numbers: ''\n"
)


@pytest.fixture()
def toy_language(pack_dir):
    """A pack on the search path with a content file for the language ``tq``: its number words."""
    pack = pack_dir / "toy"
    (pack / "tasks" / "content").mkdir(parents=True)
    (pack / "pack.yaml").write_text("description: toy numbers\nshell: {lang: tq}\n", encoding="utf-8")
    (pack / "tasks" / "content" / "tq.yaml").write_text(TOY_NUMBERS, encoding="utf-8")
    language.clear_cache()
    yield "tq"
    language.clear_cache()


@pytest.mark.parametrize(
    "text,want",
    [
        ("u", [3.0]),
        ("ka bo", [21.0]),
        ("kabo", [21.0]),  # a tens word of two letters glued to its unit
        ("kadi", [22.0]),
        ("pasbo", [31.0]),  # pase less its e
        ("posdi", [42.0]),  # poso less its o
        ("boundka", [21.0]),  # a unit, und, tens
        ("bopase", [31.0]),  # a unit glued before tens
        ("kbo", []),  # a tens word keeps two letters at least
        ("kau", []),  # a glued unit has two letters at least
        ("kaka", []),
        ("ot'", [4.0]),
    ],
)
def test_glued_words_of_a_language_from_the_search_path(toy_language, text, want):
    assert parse_numbers(text, toy_language) == want


def test_a_glued_word_touching_a_word_with_an_apostrophe(toy_language):
    spans = [(w.start, w.end, w.value) for w in word_numbers("ot'kabo", toy_language)]
    assert spans == [(0, 3, 4), (3, 7, 21)]  # right after a word ending in an apostrophe
    spans = [(w.start, w.end, w.value) for w in word_numbers("kabo'iv", toy_language)]
    assert spans == [(0, 4, 21), (4, 7, 5)]  # right before one starting with it


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("twenty-one", "en", [21]),
        ("twenty-one and three", "en", [21, 3]),
        ("vingt et un, soixante-dix-sept", "fr", [21, 77]),
        ("二十三和四", "zh", [23, 4]),
    ],
)
def test_reading_number_words_ends(text, lang, want):
    """The reading walks the words once, forward: it ends (a ten-second bound, not a hang)."""
    assert [w.value for w in within(10, word_numbers, fold(text), lang)] == want


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("三四条", "zh", [3.0, 4.0]),  # "three or four": two numbers, not 34
        ("五六个", "zh", [5.0, 6.0]),
        ("十二三", "zh", [12.0, 3.0]),
        ("二十三四", "zh", [23.0, 4.0]),
        ("三十四", "zh", [34.0]),
        ("two three", "en", [2.0, 3.0]),
    ],
)
def test_number_words_side_by_side_stay_two_numbers(text, lang, want):
    assert parse_numbers(text, lang) == want


def test_a_hedge_of_two_touching_number_words_fails():
    assert same_answer("number", "三四条", "34", lang="zh") is False
    assert same_answer("number", "三四条", "3", lang="zh") is False
    assert canonical("三四", "zh") == "3 4"


def test_words_touching_after_an_apostrophe_stay_two_numbers(toy_language):
    assert parse_numbers("ot'kabo", toy_language) == [4.0, 21.0]
    assert parse_numbers("kabo'iv", toy_language) == [21.0, 5.0]
