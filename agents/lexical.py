"""The lexical agent: a non-LLM baseline that matches words of the goal to the page.

It reads only the goal text and the accessibility tree (never ``task_info``):

1. **Goal analysis.** Quoted text (``'...'``, ``"..."``, curly and angle quotes) is taken as
   the values of the task; the remaining words give the verb (add, delete, mark done, rename,
   send, search...) and the app.
2. **App choice.** On the start page it scores every launcher link by the goal words found in
   the app's title (weight 3) and description (weight 1) and opens the best one.
3. **In the app**, one step at a time:

   * *label-value pairs* first (:mod:`lexical_fields`): for the labels of the page's fields and
     of a record's description list, the goal's unquoted value after the label ("Amount
     €30.08", "the Servings of 'X' to 8", "its Cost is €122.50"): it fills or chooses the
     field, flips a ``Label: On`` button, steps ``+ Label``/``− Label`` toward a number,
     presses a button named like the value or the record's edit link, and on a page that shows
     the goal's values presses its first form button when the goal says "confirm";
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
(button names and field labels no longer match the goal), by misleading app descriptions (the
app choice follows the description), and by distracting content (item names that look like
commands); it reads no conditions (a decision task gets the first value the goal gives)."""

from __future__ import annotations

import copy
import re
from functools import partial

from openapps_sim.agents.lexical_fields import page_labels, pair_step
from openapps_sim.agents.lexical_goal import (
    APP_WORDS,
    CONFIRM_WORDS,
    DATE_RE,
    ITEM_VERBS,
    VERBS,
    content_stems,
    detect_verb,
    extract_dates_times,
    extract_quantity,
    extract_quotes,
    fold,
    name_matches,
    stem,
)
from openapps_sim.agents.lexical_page import (
    app_launchers,
    field_score,
    form_of,
    goal_mentions,
    item_target,
    option_elements,
    page_key,
    page_path,
    select_offering,
    url_path,
    visible_text,
)

from openapps_sim.config.schema import Int, Str

from .base import ConfigurableAgent
from .page import TEXT_INPUT_ROLES, Element, interactive_elements, page_elements


class LexicalAgent(ConfigurableAgent):
    """Matches the goal's words and quoted values to the accessibility tree; no LLM, no task_info."""

    name = "lexical"

    OPTIONS = {
        "max_apps": Int(2, "how many apps to try (best launcher match first) before giving up"),
        "stop_message": Str("done", "the message sent to the user when nothing is left to try"),
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
        self.app_title = ""
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
        self.done_actions.add((page_key(obs), action))
        self.trace.append(f"{action}  # {why}")
        return action

    def _fresh(self, obs: dict, action: str) -> bool:
        return (page_key(obs), action) not in self.done_actions

    def _stop(self) -> str:
        self.finished = True
        return f"send_msg_to_user({self.options['stop_message']!r})"

    # -- policy -------------------------------------------------------------------------------
    def act(self, obs: dict) -> str:
        self._before = copy.deepcopy({k: v for k, v in vars(self).items() if k not in ("_before", "_answer")})
        self._answer = self._act(obs)
        return self._answer

    def follow(self, action: str) -> None:
        """Offline evaluation: when the gold action was not its answer, it forgets its answer (its
        bookkeeping of apps tried, values filled, actions done is as it was before it)."""
        if action != getattr(self, "_answer", action) and getattr(self, "_before", None):
            vars(self).update(self._before)

    def _act(self, obs: dict) -> str:
        if self.finished:
            return "noop()"
        elements = interactive_elements(obs)
        launchers = app_launchers(obs, elements) if page_path(obs) == "/" else []
        if launchers:
            return self._choose_app(obs, launchers)
        action = self._in_app(obs, elements)
        if action:
            return action
        # nothing left here: try the next app, if any scored
        home = next((e for e in elements if e.role == "link" and url_path(e) == "/"), None)
        if home is not None and len(self.tried_apps) < self.options["max_apps"] and not self.submitted:
            action = f"click({home.bid!r})"
            if self._fresh(obs, action):
                return self._emit(obs, action, "back to the start page to try another app")
        return self._stop()

    def _choose_app(self, obs: dict, launchers: list[tuple[Element, str, str]]) -> str:
        scored = []
        for order, (el, title, desc) in enumerate(launchers):
            app = url_path(el)
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
        title = self.app_title = launchers[scored[0][1]][1]
        self.consumed.update(q for q in self.quotes if fold(q) == fold(title))
        if self.verb == "open":  # "Open Pawprint and add ...": the verb of the rest
            rest = re.sub(r"\bopen\s+(?:the\s+)?" + re.escape(title), " ", self.masked, flags=re.I)
            self.verb = detect_verb(rest, len(self.quotes)) or self.verb
        return self._emit(obs, f"click({el.bid!r})", f"open {app} (score {-neg})")

    def _in_app(self, obs: dict, elements: list[Element]) -> str | None:
        all_nodes = page_elements(obs)
        paired = pair_step(self.goal, self.app_title, elements, all_nodes, partial(self._fresh, obs))
        if paired is not None:  # 0. "Amount €30.08": the value of a field the page shows
            el, action, value = paired
            self.filled[value], self.last_form_bid = el.bid, form_of(el) or self.last_form_bid
            if action:
                return self._emit(obs, action, f"give {el.name!r} the goal's value {value!r}")
        page_text = visible_text(all_nodes)  # what is typed into a search box is not on the page
        field_values = " | ".join(fold(e.value) for e in elements if e.value and e.role != "searchbox")
        labels = page_labels(elements, all_nodes)  # a quoted label ('Paused') is no value
        quotes = [q for q in self.quotes if q not in self.consumed and fold(q) not in labels]
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
        items = present + [m for m in goal_mentions(all_nodes, self.masked) if m not in present]
        return (
            self._act_on_item(obs, elements, items, new_values)
            or self._search_item(obs, elements, item_quotes, present)
            or self._fill_values(obs, elements, new_values)
            # 2b. drop-down options and a quantity the goal names in its own words ("in Purple", "quantity 2")
            or self._named_choice(obs, elements)
            or self._press_verb_button(obs, elements)
            or self._follow_goal_link(obs, elements)
        )

    def _act_on_item(self, obs: dict, elements: list[Element], items: list[str], new_values: list[str]) -> str | None:
        """1. Act on an item named in the goal (quoted, or a row's text the goal mentions). An
        item opened through its own link can still be acted on with a verb-named button."""
        if not (self.verb in ITEM_VERBS or not new_values):
            return None
        for q in items:
            if q in self.acted_items or (q in self.opened_items and new_values):
                continue
            if q in self.opened_items:
                choice = self._named_choice(obs, elements)  # options before "Add to cart"
                if choice:
                    return choice
            fresh = partial(self._fresh, obs)
            target, matched = item_target(elements, q, self.verb, fresh, need_match=q in self.opened_items)
            if target is not None:
                (self.acted_items if matched else self.opened_items).add(q)
                return self._emit(obs, f"click({target.bid!r})", f"{self.verb} on item {q!r}")
        return None

    def _search_item(
        self, obs: dict, elements: list[Element], item_quotes: list[str], present: list[str]
    ) -> str | None:
        """1b. An item the goal names is not on this page: search for it."""
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
        return None

    def _fill_values(self, obs: dict, elements: list[Element], new_values: list[str]) -> str | None:
        """2. Put new values into fields or drop-downs (dates and times only into date and time fields)."""
        extras = (
            [v for v in self.extra_values if v not in self.filled] if self.verb in ("add", "edit", "duplicate") else []
        )
        for q in new_values + extras:
            select = select_offering(elements, q)
            if select is not None:
                opt = next(o for o in select.option_names() if fold(o) == fold(q))
                action = f"select_option({select.bid!r}, {opt!r})"
                if self._fresh(obs, action):
                    self.filled[q] = select.bid
                    self.last_form_bid = form_of(select)
                    return self._emit(obs, action, f"choose {q!r}")
            field = self._best_field(obs, elements, q, strict=q in extras and q not in new_values)
            if field is not None:
                action = f"fill({field.bid!r}, {q!r})"
                self.filled[q] = field.bid
                self.last_form_bid = form_of(field)
                return self._emit(obs, action, f"type {q!r} into {field.name!r}")
        return None

    def _press_verb_button(self, obs: dict, elements: list[Element]) -> str | None:
        """3. Press the button that does the verb."""
        button = self._verb_button(obs, elements)
        if button is None:
            return None
        self.submitted = True
        return self._emit(obs, f"click({button.bid!r})", f"press {button.name!r} for {self.verb}")

    def _follow_goal_link(self, obs: dict, elements: list[Element]) -> str | None:
        """4. Follow a link that shares words with the goal ("cart", "saved places"), once each."""
        best: tuple | None = None
        for order, el in enumerate(elements):
            if el.role != "link" or el.name in self.followed or url_path(el) == "/":
                continue
            if any(fold(q) in fold(el.name) for q in self.quotes):
                continue
            shared = len(content_stems(el.name) & self.goal_stems)
            if shared and (best is None or shared > best[0]):
                best = (shared, -order, el)
        if best is None or len(self.followed) >= 3:
            return None
        el = best[2]
        self.followed.add(el.name)
        return self._emit(obs, f"click({el.bid!r})", f"follow {el.name!r}, which shares words with the goal")

    def _named_choice(self, obs: dict, elements: list[Element]) -> str | None:
        """Pick a drop-down option or set a quantity that the goal names, once each."""
        goal = fold(self.masked)
        for el in elements:
            if el.role not in ("combobox", "listbox"):
                continue
            for opt in option_elements(el):
                if opt.properties.get("selected") or not opt.name or len(opt.name) < 2:
                    continue
                key = f"{el.name}={opt.name}"
                if key in self.chosen:
                    continue
                if re.search(r"(?<!\w)" + re.escape(fold(opt.name)) + r"(?!\w)", goal):
                    self.chosen.add(key)
                    self.last_form_bid = form_of(el)
                    return self._emit(obs, f"select_option({el.bid!r}, {opt.name!r})", f"choose {opt.name!r}")
        if self.quantity is not None and "quantity" not in self.chosen:
            for f in elements:
                label = fold(f.name)
                if f.role in ("spinbutton", "textbox") and any(k in label for k in ("quantity", "qty", "amount")):
                    self.chosen.add("quantity")
                    self.last_form_bid = form_of(f)
                    if f.value == self.quantity:
                        continue
                    return self._emit(obs, f"fill({f.bid!r}, {self.quantity!r})", "set the quantity")
        return None

    def _best_field(self, obs: dict, elements: list[Element], q: str, strict: bool = False) -> Element | None:
        fields = [e for e in elements if e.role in TEXT_INPUT_ROLES and not e.option_names()]
        used = set(self.filled.values())
        best: tuple[float, int, Element] | None = None
        for order, f in enumerate(fields):
            if f.bid in used:
                continue
            score = field_score(f, q, self.verb, self.goal_stems, self.acted_items | self.opened_items, strict)
            if score is None:
                continue
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
            same_form = self.last_form_bid is not None and form_of(el) == self.last_form_bid
            named = bool(verb_words) and name_matches(el.name.split(": ", 1)[0], verb_words)  # "☆: <a post>"
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
