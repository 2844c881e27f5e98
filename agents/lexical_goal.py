"""Reading a goal for the lexical agent: quoted values, the verb, dates, times and quantities,
and the word lists it matches against (English)."""

from __future__ import annotations

import re
import unicodedata

QUOTE_PATTERNS = (
    re.compile(r"(?<![\w])'(.+?)'(?![\w])"),
    re.compile(r'(?<![\w])"(.+?)"(?![\w])'),
    re.compile(r"‘(.+?)’"),
    re.compile(r"“(.+?)”"),
    re.compile(r"„(.+?)[“”]"),
    re.compile(r"«\s*(.+?)\s*»"),
    re.compile(r"「(.+?)」"),
)


STOPWORDS = set(
    """a an the to of in on at for from by with and or but my me i you your please pls can could would will
    it its this that these those is are be was were am do does did so just some any all hey hi quick
    real really now up into onto as about also then there here what which who how when where if
    anyway while again us our we let lets app list""".split()
)


# canonical verb -> (words in the goal that ask for it, words in element names that perform it)
VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "undone": (
        ("undone", "unmark", "uncheck", "reopen", "incomplete", "unfinished"),
        ("not done", "undo", "reopen", "uncheck", "unmark", "incomplete"),
    ),
    "done": (
        ("mark", "tick", "complete", "completed", "done", "finished", "check"),
        ("mark done", "done", "complete", "check", "finish"),
    ),
    "delete": (
        ("delete", "remove", "erase", "drop", "trash", "discard", "rid", "cancel", "unsave", "unbookmark", "unstar"),
        ("delete", "remove", "trash", "discard", "cancel", "unsave"),
    ),
    "clear": (("clear", "purge", "empty"), ("clear", "empty", "purge")),
    "edit": (
        ("rename", "change", "edit", "update", "modify", "correct", "retitle"),
        ("edit", "rename", "change", "modify"),
    ),
    "send": (("send", "message", "tell", "reply", "text", "write", "dm"), ("send", "reply", "post")),
    "cart": (("buy", "purchase", "cart", "basket", "order"), ("add to cart", "buy", "add to basket", "add")),
    "search": (("search", "find", "look", "locate", "lookup"), ("search", "find", "go", "look")),
    "duplicate": (("duplicate", "copy", "repeat", "clone"), ("duplicate", "copy", "clone")),
    "add": (
        (
            "add",
            "create",
            "put",
            "jot",
            "stick",
            "new",
            "insert",
            "note",
            "schedule",
            "book",
            "plan",
            "make",
            "save",
            "remember",
            "set",
            "bookmark",
            "favourite",
            "favorite",
            "star",
        ),
        ("add", "create", "new", "save", "submit", "book", "schedule", "ok", "post", "bookmark", "favourite", "star"),
    ),
    "open": (("open", "show", "view", "go", "navigate", "visit", "display", "see", "check"), ("open", "view", "show")),
}


# English words that point to an app, keyed by a word of the app's launcher title. Only English
# launcher titles are recognised: a translated start page loses this help.
APP_WORDS = {
    "todo": "todo task item list chore tick done remind",
    "calendar": "calendar event meeting appointment schedule agenda birthday deadline date",
    "messenger": "messenger message chat text write send forward conversation contact dm reply",
    "shop": "shop buy order cart basket purchase product checkout store",
    "map": "map place location pin city address landmark save direction",
    "code": "code editor file folder project repository script rename source",
    "mail": "mail email inbox",
    "note": "note notes",
}


# after an edit, a second click confirms
CONFIRM_WORDS = ("save", "update", "ok", "confirm", "apply", "submit", "rename")


ITEM_VERBS = {"undone", "done", "delete", "edit", "open", "send", "cart", "duplicate"}


MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}


_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))


NEGATIONS = ("not done", "not finished", "not complete", "as undone", "as open", "as active", "as incomplete")


DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$")


TIME_RE = re.compile(r"^\d{1,2}:\d{2}(\s?[ap]m)?$", re.I)


EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.\w+$")


NUMBER_RE = re.compile(r"^\d+([.,]\d+)?$")


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "").casefold()
    return " ".join(text.split())


def stem(word: str) -> str:
    w = word.lower().strip("'’")
    for suffix, repl, min_len in (
        ("ies", "y", 5),
        ("'s", "", 3),
        ("sses", "ss", 5),
        ("ings", "", 7),  # "settings" as "setting"
        ("ing", "", 6),
        ("es", "", 5),
        ("ed", "", 5),
        ("s", "", 4),
    ):
        if w.endswith(suffix) and len(w) >= min_len and not (suffix == "s" and w.endswith("ss")):
            return w[: len(w) - len(suffix)] + repl
    return w


def words(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


def content_stems(text: str) -> set[str]:
    tokens = [t for t in words(text) if t not in STOPWORDS and not t.isdigit()]
    out = {stem(t) for t in tokens}
    raw = words(text)
    for a, b in zip(raw, raw[1:], strict=False):  # "to do" -> "todo", "e mail" -> "email"
        out.add(stem(a + b))
    return out


def extract_quotes(goal: str) -> tuple[list[str], str]:
    """The quoted values of a goal in order, and the goal with them masked out."""
    found: list[tuple[int, int, str]] = []
    for pat in QUOTE_PATTERNS:
        for m in pat.finditer(goal):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            value = m.group(1).strip()
            if value:
                found.append((m.start(), m.end(), value))
    found.sort()
    masked = goal
    for s, e, _ in reversed(found):
        masked = masked[:s] + " " * (e - s) + masked[e:]
    return [v for _, _, v in found], masked


def detect_verb(masked_goal: str, quoted: int = 1) -> str | None:
    """The canonical verb of a goal (quoted values masked out).

    Negations ("as not done") and completion phrases ("to done", "tick off") win; otherwise the
    verb nearest before the first quoted value, or the first verb when nothing is quoted.
    """
    raw = unicodedata.normalize("NFKC", masked_goal or "").casefold()
    text = " ".join(raw.split())
    if any(n in text for n in NEGATIONS):
        return "undone"
    if re.search(
        r"\b(as|to) (done|complete|completed|finished)\b|\btick\b|\bcheck (it )?off\b|\bcross (it )?off\b", text
    ):
        return "done"
    first_gap = re.search(r"\s{3,}", raw)
    anchor = first_gap.start() if (first_gap and quoted) else None
    tokens = [(m.start(), m.group(0)) for m in re.finditer(r"\w+", raw)]
    best: tuple[float, str] | None = None
    for verb, (triggers, _) in VERBS.items():
        for pos, tok in tokens:
            if tok in triggers or stem(tok) in triggers:
                if anchor is None:
                    distance = float(pos)
                else:
                    distance = anchor - pos if pos <= anchor else 10_000 + pos
                if verb == "done" and tok == "check":
                    distance += 5_000  # "check" alone is more often "look at"
                if best is None or distance < best[0]:
                    best = (distance, verb)
    verb = best[1] if best else None
    if quoted >= 2 and verb in ("add", None) and re.search(r"\b(set|make|change|update|move)\b.*\bto\b", text):
        verb = "edit"  # "set the time of 'X' to '11:30'"
    if verb in ("delete", "clear", "done") and quoted == 0 and re.search(r"\b(done|completed|finished|ticked)\b", text):
        return "clear"
    if verb == "add" and re.search(r"\b(cart|basket)\b", text):
        return "cart"
    return verb


def extract_dates_times(masked_goal: str) -> list[str]:
    """The last date (as YYYY-MM-DD) and the last time (as HH:MM) written in the goal's own words."""
    text = fold(masked_goal)
    dates: list[tuple[int, str]] = []
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        dates.append((m.start(), m.group(0)))
    for m in re.finditer(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", text):
        dates.append((m.start(), f"{m.group(3)}-{MONTHS[m.group(1)]:02d}-{int(m.group(2)):02d}"))
    for m in re.finditer(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?,?\s+(\d{{4}})\b", text):
        dates.append((m.start(), f"{m.group(3)}-{MONTHS[m.group(2)]:02d}-{int(m.group(1)):02d}"))
    times: list[tuple[int, str]] = []
    for m in re.finditer(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b\.?|\b(\d{1,2}):(\d{2})\b", text):
        if m.group(4) is not None:
            h, mi = int(m.group(4)), int(m.group(5))
        else:
            h, mi = int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0), int(m.group(2) or 0)
        if h < 24 and mi < 60:
            times.append((m.start(), f"{h:02d}:{mi:02d}"))
    out = []
    if dates:
        out.append(max(dates)[1])
    if times:
        out.append(max(times)[1])
    return out


def extract_quantity(masked_goal: str) -> str | None:
    """A quantity written in the goal: "quantity 2", "qty: 3", "3 ×", "3 x"."""
    text = fold(masked_goal)
    m = re.search(r"\b(?:quantity|qty|amount)\s*(?:of\s*)?:?\s*(\d+)\b|\b(\d+)\s*(?:×|x)\s", text)
    if not m:
        return None
    return m.group(1) or m.group(2)


def name_matches(name: str, phrases) -> bool:
    n = " " + " ".join(words(name)) + " "
    return any(" " + " ".join(words(p)) + " " in n for p in phrases)


def verb_match(label: str, verb: str, verb_words: tuple) -> tuple[bool, bool]:
    """Whether an element named ``label`` does ``verb`` (its words ``verb_words``), and whether it
    does the opposite ("Mark done" against "mark as not done")."""
    is_undo = name_matches(label, VERBS["undone"][1])
    is_do = name_matches(label, VERBS["done"][1]) and not is_undo
    if verb == "done":
        return is_do, is_undo
    if verb == "undone":
        return is_undo, is_do
    return bool(verb_words) and name_matches(label, verb_words), False
