"""Label-value pairs for the lexical agent: the goal writes a form's values after the labels of its
fields, unquoted ("... enter Account Travel Card, Payee Green Basket · Old Town, Amount €30.08 and
confirm", "set the Servings of 'Gyoza' to 8", "so its Cost is €122.50").

Only labels the page shows are looked for, written as on the page (or quoted in any case). The
value runs from after the label (after "of '<item>' ... to" or "is" when the goal says so) to the
next comma, semicolon, closing parenthesis, " and ", " then ", or the end of the sentence."""

from __future__ import annotations

import re

from openapps_sim.agents.lexical_goal import QUOTE_PATTERNS, extract_dates_times, fold

from .page import TEXT_INPUT_ROLES, Element

ON_WORDS = {"on", "yes", "true", "checked", "enabled", "ticked"}
OFF_WORDS = {"off", "no", "false", "unchecked", "disabled", "unticked"}
_OPEN_QUOTES = "'\"‘“„«「"
_CLOSE_QUOTES = "'\"’”“»」"
_CONNECTOR = re.compile(r"\s*(?::|=|is\b|to\b|as\b|should be\b|becomes\b)\s*")  # lower case: "To try" is a value
_LATER_CONNECTOR = re.compile(r"\s(?:to|is|as|becomes)\s")
_SOFT_END = re.compile(r",|;|\)|\?|!|\s+(?:and|then)\s")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?|-?\d+(?:,\d+)?")
_ABBREVIATION = re.compile(r"(?:^|\s)[A-Z][a-z]{0,2}$|\d$")  # "Dr." "St." or "3." is no sentence end


def quote_spans(goal: str) -> list[tuple[int, int]]:
    """Where the goal's quoted values are, their quotes included."""
    spans: list[tuple[int, int]] = []
    for pat in QUOTE_PATTERNS:
        for m in pat.finditer(goal):
            if not any(s < m.end() and m.start() < e for s, e in spans):
                spans.append((m.start(), m.end()))
    return sorted(spans)


def _sentence_end(text: str) -> int:
    """Where the first sentence of ``text`` ends (a full stop after a word, not an abbreviation)."""
    for m in re.finditer(r"\.(?=\s|$)", text):
        if not _ABBREVIATION.search(text[: m.start()]) or m.end() == len(text.rstrip()):
            return m.start()
    return len(text)


def _cut(text: str) -> str:
    text = text[: _sentence_end(text)]
    m = _SOFT_END.search(text)
    return text[: m.start()] if m else text


def _value_after(goal: str, end: int, spans: list[tuple[int, int]], app: str) -> str:
    pos, stop = end, len(goal)  # where the value may start and end
    of = re.match(r"\s+of\s+", goal[end:])
    after_quote = next((e for s, e in spans if of and s == end + of.end()), None)
    if after_quote is not None:  # "the Servings of 'Gyoza' (in recipes) to 8" / "... 'Gyoza' 8"
        pos = after_quote
        later = _LATER_CONNECTOR.search(goal, pos, pos + _sentence_end(goal[pos:]))
        if later:
            pos = later.end()
    else:
        connector = _CONNECTOR.match(goal, pos)
        if connector and connector.end() > pos:
            pos = connector.end()
        elif not goal[pos : pos + 1].isspace():
            return ""
    pos += len(goal[pos:stop]) - len(goal[pos:stop].lstrip())
    quoted = next((goal[s + 1 : e - 1] for s, e in spans if s == pos), None)  # "to 'On'"
    later = next((s for s, _ in spans if s > pos), len(goal))  # "to On for 'Read'": not the item's name
    value = (
        quoted
        if quoted is not None
        else re.sub(r"\s+(?:for|of|in|on|at|to|from|with)$", "", _cut(goal[pos:later]).strip())
    )
    if app:
        value = re.split(r"\s+(?:in|at|on)\s+(?:the\s+)?" + re.escape(app), value, flags=re.I)[0]
    value = value.strip().strip(_OPEN_QUOTES + _CLOSE_QUOTES).strip()
    if not value or len(value) > 80 or re.match(r"(?:in|of|from|for|with|and|the|it|its)\b", value, re.I):
        return ""
    return value


def goal_pairs(goal: str, labels: list[str], app: str = "") -> dict[str, str]:
    """The value the goal gives after each of ``labels`` (written as on the page, or quoted),
    outside quoted item names. ``app``: the app's title, cut from the end of a value."""
    goal = goal or ""
    spans = quote_spans(goal)
    named = [m.span() for m in re.finditer(re.escape(app), goal, re.I)] if app else []  # "Garage Log"
    out: dict[str, str] = {}
    for label in sorted({lab.strip() for lab in labels if lab and lab.strip()}, key=len, reverse=True):
        pattern = re.compile(
            r"(?<![\w])(?P<q>["
            + _OPEN_QUOTES
            + r"]?)"
            + re.escape(label)
            + r"(?P<c>["
            + _CLOSE_QUOTES
            + r"]?)(?![\w])",
            re.I,
        )
        for m in pattern.finditer(goal):
            quoted = bool(m.group("q")) and bool(m.group("c"))
            if not quoted and goal[m.start() : m.start() + len(label)] != label:
                continue  # unquoted labels only as the page writes them
            if not quoted and any(s <= m.start() < e for s, e in spans):
                continue  # inside an item's quoted name
            if any(s < m.end() and m.start() < e for s, e in spans if not (quoted and (s, e) == m.span())):
                continue
            if any(m.start() < e and s < m.end() for s, e in _taken(out, goal) + named):
                continue
            value = _value_after(goal, m.end(), spans, app)
            if value:
                out[label] = value
                break
    return out


def _taken(out: dict[str, str], goal: str) -> list[tuple[int, int]]:
    """Where the values found so far are (a shorter label inside a longer label's value is none)."""
    spans = []
    for value in out.values():
        i = goal.find(value)
        if i >= 0:
            spans.append((i, i + len(value)))
    return spans


def field_label(el: Element) -> str:
    """The label of a form field, or of a toggle button named "Label: State"."""
    if el.role == "button":
        m = re.fullmatch(r"(.+?):\s*(\S+)", el.name.strip())
        return m.group(1) if m and fold(m.group(2)) in ON_WORDS | OFF_WORDS else ""
    if el.role in TEXT_INPUT_ROLES | {"checkbox", "switch", "listbox"} and el.role != "searchbox":
        return "" if "search" in fold(el.name) else el.name.strip()
    return ""


def _switch_state(value: str) -> bool | None:
    v = fold(value)
    return True if v in ON_WORDS else False if v in OFF_WORDS else None


def pair_action(el: Element, value: str) -> str | None:
    """The action that gives the field ``el`` the goal's ``value``; None when it already holds it
    or cannot take it."""
    if el.role == "button":  # "Paused: Off" -> On
        want = _switch_state(value)
        now = _switch_state(el.name.rsplit(":", 1)[1])
        return f"click({el.bid!r})" if want is not None and now is not None and want != now else None
    if el.role in ("checkbox", "switch"):
        want = _switch_state(value)
        now = str(el.properties.get("checked", "false")).lower() == "true"
        return f"click({el.bid!r})" if want is not None and want != now else None
    options = el.option_names()
    if options:
        option = best_option(options, value)
        if option is None or fold(option) == fold(el.value) or _selected(el, option):
            return None
        return f"select_option({el.bid!r}, {option!r})"
    if el.role == "spinbutton":
        value = _number_text(value)
        if value is None:
            return None
    elif el.role in ("Date", "DateTime", "InputTime"):
        found = extract_dates_times(value)
        kind = 0 if el.role != "InputTime" else 1
        picked = [v for v in found if (":" in v) == bool(kind)]
        value = picked[0] if picked else value
    if fold(el.value) == fold(value):
        return None
    return f"fill({el.bid!r}, {value!r})"


def _selected(el: Element, option: str) -> bool:
    return any(d.role == "option" and d.name == option and d.properties.get("selected") for d in el.descendants())


def best_option(options: list[str], value: str) -> str | None:
    """The option the value names: the same text, else the longest option that contains the value
    or that the value contains."""
    v = fold(value)
    exact = [o for o in options if fold(o) == v]
    if exact:
        return exact[0]
    near = [o for o in options if len(fold(o)) >= 2 and (v in fold(o) or fold(o) in v) and fold(o) != "—"]
    return max(near, key=lambda o: len(o)) if near else None


def _shown(term: Element) -> str:
    """The text of the definition that follows a term of a description list."""
    siblings = term.parent.children if term.parent is not None else []
    later = siblings[siblings.index(term) + 1 :] if term in siblings else []
    return later[0].text() if later and later[0].role == "definition" else ""


def pair_step(goal: str, app: str, elements: list[Element], nodes: list[Element], fresh) -> tuple | None:
    """The next action that gives the page the goal's label-value pairs, as ``(element, action,
    value)``: fill or choose a labelled field, flip a "Label: On" button; on a record's page that
    shows the label with another value, press a button named like the value, else its edit link.
    The action is None when a field already holds its value and nothing else is to do.
    ``fresh(action)``: whether the action was not done on this page yet."""
    fields = [(lab, e) for e in elements for lab in [field_label(e)] if lab]
    terms = {n.name.strip(): n for n in nodes if n.role == "term" and n.name.strip()}
    pairs = goal_pairs(goal, [lab for lab, _ in fields] + list(terms), app)
    held = None  # a field that already holds its value: its form is ready to be sent
    for lab, el in fields:
        action = pair_action(el, pairs[lab]) if lab in pairs else None
        if action and fresh(action):
            return el, action, pairs[lab]
        if lab in pairs and action is None and held is None:
            held = (el, None, pairs[lab])
    labels = {lab for lab, _ in fields}
    shown_right = False
    quoted = {fold(goal[s + 1 : e - 1]) for s, e in quote_spans(goal)}
    named = any(n.role == "heading" and fold(n.name) in quoted for n in nodes)  # the goal's record
    for lab, term in terms.items():
        value = pairs.get(lab)
        if value is None or lab in labels or fold(_shown(term)) == fold(value):
            shown_right = shown_right or value is not None
            continue
        if not named:
            continue
        step = _stepper(elements, lab, _shown(term), value)
        if step is not None:
            return step
        for el in elements:
            named = fold(el.name) == fold(value) or fold(el.name).startswith("edit")
            if el.role in ("button", "link") and named and fresh(f"click({el.bid!r})"):
                return el, f"click({el.bid!r})", value
    review = re.search(r"\bconfirm", goal, re.I) or any(fold(e.name) in ("edit", "back") for e in elements)
    if shown_right and not fields and review:
        return _confirm(elements, fresh) or held  # a page that shows the goal's values: send them
    return held


def _number_text(text: str) -> str | None:
    """The first number written in ``text``, as a number field takes it: a comma groups
    thousands beside a point ("1,250.50"), else it is the decimal point ("2,5")."""
    m = _NUMBER.search(text or "")
    if not m:
        return None
    return m.group(0).replace(",", "") if "." in m.group(0) else m.group(0).replace(",", ".")


def _number(text: str) -> float | None:
    found = _number_text(text)
    try:
        return float(found) if found is not None else None
    except ValueError:
        return None


def _stepper(elements: list[Element], label: str, shown: str, value: str) -> tuple | None:
    """A "+ Label" or "− Label" button that moves the number shown toward the goal's (pressed
    again while the number changes: the page is new each time)."""
    now, want = _number(shown), _number(value)
    if now is None or want is None or now == want:
        return None
    signs = ("+",) if want > now else ("−", "-")
    for el in elements:
        name = el.name.strip()
        if el.role == "button" and name.startswith(signs) and fold(name[1:]) == fold(label):
            return el, f"click({el.bid!r})", value
    return None


NOT_CONFIRM = ("edit", "cancel", "back", "delete", "remove", "change")


def _confirm(elements: list[Element], fresh) -> tuple | None:
    """The first button of a form that does not go back or change anything (a review page's)."""
    for el in elements:
        if el.role != "button" or not any(a.role == "form" for a in el.ancestors()) or ":" in el.name:
            continue
        if not fold(el.name).startswith(NOT_CONFIRM) and fresh(f"click({el.bid!r})"):
            return el, f"click({el.bid!r})", el.name
    return None


def page_labels(elements: list[Element], nodes: list[Element]) -> set[str]:
    """The labels of this page's fields and of its record's terms, folded."""
    return {
        fold(lab) for lab in [field_label(e) for e in elements] + [n.name for n in nodes if n.role == "term"] if lab
    }
