"""The lexical agent: a non-LLM baseline that matches words of the goal to the page.

It reads only the goal text and the accessibility tree (never ``task_info``):

1. **Goal analysis.** Quoted text (``'...'``, ``"..."``, curly and angle quotes) is taken as
   the values of the task; the remaining words give the verb (add, delete, mark done, rename,
   send, search...) and the app.
2. **App choice.** On the start page it scores every launcher link by the goal words found in
   the app's title (weight 3) and description (weight 1) and opens the best one.
3. **In the app**, one step at a time:

   * quoted values that are already on the page are *items*: it clicks the element of the
     item's row whose name matches the verb (``Delete: Water the plants``), or the item's own
     link when no button matches (to open a conversation, a product...);
   * quoted values not on the page are *new values*: it fills each into the most fitting text
     field (a field that holds the item being edited, a field whose label shares words with the
     goal, a date or time field for a date or time, else the first free field) or picks it in a
     drop-down that offers it;
   * then it clicks the button that matches the verb, preferring the form of the field it
     filled.

4. It never repeats an action on the same page and stops with ``send_msg_to_user('done')``
   when nothing is left to try.

Because it relies on English words and on visible text, it is hurt by translated interfaces
(button names no longer match the verb), by misleading app descriptions (the app choice
follows the description), and by distracting content (item names that look like commands).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from .base import ConfigurableAgent, Option
from .page import TEXT_INPUT_ROLES, Element, interactive_elements, page_elements

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
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
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


class LexicalAgent(ConfigurableAgent):
    """Matches the goal's words and quoted values to the accessibility tree; no LLM, no task_info."""

    name = "lexical"
    obs_mode = "axtree"
    action_space = "bid"

    OPTIONS = {
        "max_apps": Option(int, 2, "how many apps to try (best launcher match first) before giving up"),
        "stop_message": Option(str, "done", "the message sent to the user when nothing is left to try"),
    }

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        self.goal = goal or ""
        self.quotes, self.masked = extract_quotes(self.goal)
        self.verb = detect_verb(self.masked, len(self.quotes))
        self.goal_stems = content_stems(self.masked)
        self.quote_stems = content_stems(" ".join(self.quotes))
        self.extra_values = extract_dates_times(self.masked)
        if any(DATE_RE.match(v) for v in self.extra_values) or any(DATE_RE.match(q) for q in self.quotes):
            self.goal_stems = self.goal_stems | {"date"}
        self.tried_apps: list[str] = []
        self.done_actions: set[tuple[str, str]] = set()
        self.acted_items: set[str] = set()  # items clicked with a verb-named element
        self.opened_items: set[str] = set()  # items opened through their own link
        self.followed: set[str] = set()  # names of links followed because they share goal words
        self.quantity = extract_quantity(self.masked)
        self.chosen: set[str] = set()  # drop-down choices and quantity already set
        self.consumed: set[str] = set()  # quoted values used up (e.g. the name of the app opened)
        self.searched: set[str] = set()  # items looked for with the page's search box
        self.pending_enter: str | None = None  # the search box to submit next
        self.filled: dict[str, str] = {}  # value -> bid of the field
        self.last_form_bid: str | None = None
        self.submitted = False
        self.finished = False
        self.trace: list[str] = []

    # -- helpers ------------------------------------------------------------------------------
    def _emit(self, obs: dict, action: str, why: str) -> str:
        self.done_actions.add((_page_key(obs), action))
        self.trace.append(f"{action}  # {why}")
        return action

    def _fresh(self, obs: dict, action: str) -> bool:
        return (_page_key(obs), action) not in self.done_actions

    def _stop(self) -> str:
        self.finished = True
        return f"send_msg_to_user({self.options['stop_message']!r})"

    # -- policy -------------------------------------------------------------------------------
    def act(self, obs: dict) -> str:
        if self.finished:
            return "noop()"
        elements = interactive_elements(obs)
        launchers = _launchers(obs, elements) if _path(obs) == "/" else []
        if launchers:
            return self._choose_app(obs, launchers)
        action = self._in_app(obs, elements)
        if action:
            return action
        # nothing left here: try the next app, if any scored
        home = next((e for e in elements if e.role == "link" and _url_path(e) == "/"), None)
        if home is not None and len(self.tried_apps) < self.options["max_apps"] and not self.submitted:
            action = f"click({home.bid!r})"
            if self._fresh(obs, action):
                return self._emit(obs, action, "back to the start page to try another app")
        return self._stop()

    def _choose_app(self, obs: dict, launchers: list[tuple[Element, str, str]]) -> str:
        scored = []
        for order, (el, title, desc) in enumerate(launchers):
            app = _url_path(el)
            if app in self.tried_apps:
                continue
            t, d = content_stems(title), content_stems(desc)
            hinted = {stem(w) for key, ws in APP_WORDS.items() if key in t for w in ws.split()}
            score = (
                3 * len(self.goal_stems & t)
                + 2 * len(self.goal_stems & hinted)
                + len(self.goal_stems & d)
                + len(self.quote_stems & (t | d | hinted))
            )
            if any(fold(q) == fold(title) for q in self.quotes):
                score += 6  # the goal names the app
            scored.append((-score, order, el, app))
        if not scored or len(self.tried_apps) >= self.options["max_apps"]:
            return self._stop()
        scored.sort(key=lambda s: (s[0], s[1]))
        neg, _, el, app = scored[0]
        if neg == 0 and self.tried_apps:
            return self._stop()
        self.tried_apps.append(app)
        title = launchers[scored[0][1]][1]
        self.consumed.update(q for q in self.quotes if fold(q) == fold(title))
        return self._emit(obs, f"click({el.bid!r})", f"open {app} (score {-neg})")

    def _in_app(self, obs: dict, elements: list[Element]) -> str | None:
        all_nodes = page_elements(obs)
        page_text = fold(" ".join(n.name for n in all_nodes if n.role != "InlineTextBox"))
        field_values = " | ".join(fold(e.value) for e in elements if e.value)
        quotes = [q for q in self.quotes if q not in self.consumed]
        if self.verb in ("delete", "done", "undone", "open", "cart", "duplicate"):
            item_quotes = quotes
        elif self.verb == "edit" and len(quotes) >= 2:
            item_quotes = quotes[:1]
        else:
            item_quotes = []
        present = [q for q in quotes if q not in self.filled and (fold(q) in page_text or fold(q) in field_values)]
        new_values = [
            q
            for q in quotes
            if q not in present and q not in self.filled and q not in self.acted_items and q not in item_quotes
        ]

        if self.pending_enter is not None:
            bid, self.pending_enter = self.pending_enter, None
            if any(e.bid == bid for e in elements):
                return self._emit(obs, f"press({bid!r}, 'Enter')", "submit the search")

        # 1. act on an item named in the goal (quoted, or a row's text the goal mentions). An
        #    item opened through its own link can still be acted on with a verb-named button.
        items = present + [m for m in _mentions(all_nodes, self.masked) if m not in present]
        if self.verb in ITEM_VERBS or not new_values:
            for q in items:
                if q in self.acted_items or (q in self.opened_items and new_values):
                    continue
                if q in self.opened_items:
                    choice = self._named_choice(obs, elements)  # options before "Add to cart"
                    if choice:
                        return choice
                target, matched = self._item_target(obs, elements, q, need_match=q in self.opened_items)
                if target is not None:
                    (self.acted_items if matched else self.opened_items).add(q)
                    return self._emit(obs, f"click({target.bid!r})", f"{self.verb} on item {q!r}")

        # 1b. an item the goal names is not on this page: search for it
        for q in item_quotes:
            if q in present or q in self.acted_items or q in self.opened_items or q in self.searched:
                continue
            search = next(
                (
                    e
                    for e in elements
                    if e.role == "searchbox" or (e.role in TEXT_INPUT_ROLES and "search" in fold(e.name))
                ),
                None,
            )
            if search is not None:
                self.searched.add(q)
                self.pending_enter = search.bid
                return self._emit(obs, f"fill({search.bid!r}, {q!r})", f"search for {q!r}")

        # 2. put new values into fields or drop-downs (dates and times only into date and time fields)
        extras = (
            [v for v in self.extra_values if v not in self.filled] if self.verb in ("add", "edit", "duplicate") else []
        )
        for q in new_values + extras:
            select = self._select_offering(elements, q)
            if select is not None:
                opt = next(o for o in _options(select) if fold(o) == fold(q))
                action = f"select_option({select.bid!r}, {opt!r})"
                if self._fresh(obs, action):
                    self.filled[q] = select.bid
                    self.last_form_bid = _form_of(select)
                    return self._emit(obs, action, f"choose {q!r}")
            field = self._best_field(obs, elements, q, strict=q in extras and q not in new_values)
            if field is not None:
                action = f"fill({field.bid!r}, {q!r})"
                self.filled[q] = field.bid
                self.last_form_bid = _form_of(field)
                return self._emit(obs, action, f"type {q!r} into {field.name!r}")

        # 2b. drop-down options and a quantity the goal names in its own words ("in Purple", "quantity 2")
        choice = self._named_choice(obs, elements)
        if choice:
            return choice

        # 3. press the button that does the verb
        button = self._verb_button(obs, elements)
        if button is not None:
            self.submitted = True
            return self._emit(obs, f"click({button.bid!r})", f"press {button.name!r} for {self.verb}")

        # 4. follow a link that shares words with the goal ("cart", "saved places"), once each
        best: tuple | None = None
        for order, el in enumerate(elements):
            if el.role != "link" or el.name in self.followed or _url_path(el) == "/":
                continue
            if any(fold(q) in fold(el.name) for q in self.quotes):
                continue
            shared = len(content_stems(el.name) & self.goal_stems)
            if shared and (best is None or shared > best[0]):
                best = (shared, -order, el)
        if best is not None and len(self.followed) < 3:
            el = best[2]
            self.followed.add(el.name)
            return self._emit(obs, f"click({el.bid!r})", f"follow {el.name!r}, which shares words with the goal")
        return None

    def _named_choice(self, obs: dict, elements: list[Element]) -> str | None:
        """Pick a drop-down option or set a quantity that the goal names, once each."""
        goal = fold(self.masked)
        for el in elements:
            if el.role not in ("combobox", "listbox"):
                continue
            for opt in _option_elements(el):
                if opt.properties.get("selected") or not opt.name or len(opt.name) < 2:
                    continue
                key = f"{el.name}={opt.name}"
                if key in self.chosen:
                    continue
                if re.search(r"(?<!\w)" + re.escape(fold(opt.name)) + r"(?!\w)", goal):
                    self.chosen.add(key)
                    self.last_form_bid = _form_of(el)
                    return self._emit(obs, f"select_option({el.bid!r}, {opt.name!r})", f"choose {opt.name!r}")
        if self.quantity is not None and "quantity" not in self.chosen:
            for f in elements:
                label = fold(f.name)
                if f.role in ("spinbutton", "textbox") and any(k in label for k in ("quantity", "qty", "amount")):
                    self.chosen.add("quantity")
                    self.last_form_bid = _form_of(f)
                    if f.value == self.quantity:
                        continue
                    return self._emit(obs, f"fill({f.bid!r}, {self.quantity!r})", "set the quantity")
        return None

    def _item_target(
        self, obs: dict, elements: list[Element], q: str, need_match: bool = False
    ) -> tuple[Element | None, bool]:
        fq = fold(q)
        verb_words = VERBS[self.verb][1] if self.verb in VERBS else ()
        best: tuple | None = None
        for order, el in enumerate(elements):
            if el.role in TEXT_INPUT_ROLES:
                continue
            if not self._fresh(obs, f"click({el.bid!r})"):
                continue
            own = fq in fold(el.name)
            distance = None if own else _row_distance(el, fq)
            if not own and distance is None:
                continue
            score = 3.0 if own else 2.0 - 0.4 * distance
            label = fold(el.name).replace(fq, " ")  # the verb must not come from the item's own words
            is_undo = name_matches(label, VERBS["undone"][1])
            is_do = name_matches(label, VERBS["done"][1]) and not is_undo
            if self.verb == "done":
                match, opposite = is_do, is_undo
            elif self.verb == "undone":
                match, opposite = is_undo, is_do
            else:
                match, opposite = bool(verb_words) and name_matches(label, verb_words), False
            if match:
                score += 5
            elif opposite:
                score -= 4  # "Mark done" is the opposite of "mark as not done"
            elif self.verb not in ("open", "send") and el.role == "button":
                score -= 1  # a button that does something else on the row
            if need_match and not match:
                continue
            if fold(el.name) == fq:
                score += 1  # the item's own link
            if best is None or score > best[0]:
                best = (score, -order, el, match)
        return (best[2], best[3]) if best and best[0] > 0 else (None, False)

    def _select_offering(self, elements: list[Element], q: str) -> Element | None:
        for el in elements:
            if el.role in ("combobox", "listbox") and any(fold(o) == fold(q) for o in _options(el)):
                return el
        return None

    def _best_field(self, obs: dict, elements: list[Element], q: str, strict: bool = False) -> Element | None:
        fields = [e for e in elements if e.role in TEXT_INPUT_ROLES and not _options(e)]
        used = set(self.filled.values())
        best: tuple[float, int, Element] | None = None
        for order, f in enumerate(fields):
            if f.bid in used:
                continue
            label = fold(f.name)
            stems = content_stems(f.name)
            score = 0.0
            if any(fold(item) == fold(f.value) for item in self.acted_items | self.opened_items):
                score += 4  # the field holding the item being edited
            score += 1.5 * len(stems & self.goal_stems)
            is_search = "search" in label or f.role == "searchbox"
            if is_search and self.verb != "search":
                continue  # typing a message into a search box helps nobody
            if DATE_RE.match(q):
                fits = f.role in ("Date", "DateTime") or "date" in label or "day" in label
                if strict and not fits:
                    continue
                score += 3 if fits else -1
            elif TIME_RE.match(q):
                fits = f.role == "InputTime" or "time" in label or "hour" in label
                if strict and not fits:
                    continue
                score += 3 if fits else -1
            elif EMAIL_RE.match(q):
                score += 3 if "mail" in label or "to" in label.split() else 0
            elif NUMBER_RE.match(q):
                score += 2 if f.role == "spinbutton" or "qty" in label or "quantit" in label else 0
            elif any(k in label for k in ("date", "time")) or f.role in ("Date", "InputTime", "DateTime"):
                score -= 2
            if f.value and not score:
                score -= 0.5  # already holds something unrelated
            if best is None or score > best[0]:
                best = (score, -order, f)
        return best[2] if best else None

    def _verb_button(self, obs: dict, elements: list[Element]) -> Element | None:
        """The button that performs the verb: in the form just filled, or named like the verb."""
        verb_words = VERBS[self.verb][1] if self.verb in VERBS else ()
        if self.filled:
            verb_words = tuple(verb_words) + CONFIRM_WORDS
        best: tuple[float, int, Element] | None = None
        for order, el in enumerate(elements):
            if el.role not in ("button", "link", "menuitem"):
                continue
            if not self._fresh(obs, f"click({el.bid!r})"):
                continue
            same_form = self.last_form_bid is not None and _form_of(el) == self.last_form_bid
            named = bool(verb_words) and name_matches(el.name, verb_words)
            if not (same_form or named):
                continue
            score = (3.0 if same_form else 0.0) + (4.0 if named else 0.0)
            if el.role == "link":
                score -= 1
            if not same_form and el.container({"listitem", "row", "article"}) is not None:
                score -= 2  # a button of one row of a list: rows were handled above
            if best is None or score > best[0]:
                best = (score, -order, el)
        if best is None or best[0] < 3:
            return None
        return best[2]


# -- page reading -------------------------------------------------------------------------------


def _path(obs: dict) -> str:
    return urlsplit(obs.get("url") or "").path or "/"


def _page_key(obs: dict) -> str:
    parts = urlsplit(obs.get("url") or "")
    return parts.path + ("?" + parts.query if parts.query else "")


def _url_path(el: Element) -> str | None:
    url = el.properties.get("url")
    if not url:
        return None
    return urlsplit(str(url)).path


def _launchers(obs: dict, elements: list[Element]) -> list[tuple[Element, str, str]]:
    """Links to an app's front page (``/<app>/``) with their title and description."""
    out = []
    for el in elements:
        if el.role != "link":
            continue
        path = _url_path(el)
        if not path or not re.fullmatch(r"/[^/]+/", path):
            continue
        title = next((d.name for d in _descendants(el) if d.role == "heading"), "")
        desc = " ".join(d.name for d in _descendants(el) if d.role == "paragraph" or d.role == "StaticText")
        if not title:
            continue
        out.append((el, title, desc))
    return out


def _descendants(el: Element):
    stack = list(el.children)
    while stack:
        node = stack.pop(0)
        yield node
        stack.extend(node.children)


def _options(el: Element) -> list[str]:
    return [d.name for d in _descendants(el) if d.role == "option" and d.name]


def _option_elements(el: Element) -> list[Element]:
    return [d for d in _descendants(el) if d.role == "option"]


def _form_of(el: Element) -> str | None:
    for a in el.ancestors():
        if a.role == "form":
            return a.node_id
    return None


MENTION_ROWS = {"listitem", "row", "cell", "gridcell", "article", "treeitem"}


def _mentions(nodes: list[Element], masked_goal: str) -> list[str]:
    """Texts of list rows and table cells that the goal mentions (e.g. a contact's name).

    Only names that read like names count: written the same way in the goal, at least four
    characters, and either several words or capitalised.
    """
    out: list[str] = []
    goal = unicodedata.normalize("NFKC", masked_goal)
    for n in nodes:
        if n.role not in ("StaticText", "link", "button") or not n.name or n.name in out:
            continue
        name = n.name.strip()
        if len(name) < 4 or not any(ch.isalpha() for ch in name):
            continue
        if " " not in name and not name[0].isupper():
            continue
        if not any(a.role in MENTION_ROWS for a in n.ancestors()):
            continue
        if re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", goal):
            out.append(name)
    return out


STOP_CONTAINERS = {
    "list",
    "table",
    "grid",
    "main",
    "RootWebArea",
    "tree",
    "listbox",
    "navigation",
    "rowgroup",
    "tablist",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "dialog",
    "region",
}


def _row_distance(el: Element, fq: str, max_up: int = 4) -> int | None:
    """How many levels up the nearest ancestor whose text contains ``fq`` is (a row)."""
    for depth, a in enumerate(el.ancestors(), start=1):
        if depth > max_up or a.role in STOP_CONTAINERS:
            return None
        text = fold(a.text(limit=800))
        if len(text) > 600:
            return None  # a whole section, not a row
        if fq in text:
            return depth
    return None
