"""Kinds read off the page: which app, what a heading says, where a control is, what kind of
control it is, how many entries a list shows, which entry comes first, where a link leads."""

from __future__ import annotations

from openapps_sim.analysis.questions.kinds import Kind, Page, kind
from openapps_sim.analysis.questions.options import near_numbers, same

REGIONS = {
    "banner": "the top bar",
    "navigation": "a navigation bar",
    "search": "the search area",
    "main": "the main content",
    "contentinfo": "the footer",
    "complementary": "a side panel",
    "tablist": "a row of tabs",
}
CONTROLS = {
    "button": "a button",
    "link": "a link",
    "textbox": "a text field",
    "searchbox": "a search field",
    "combobox": "a drop-down list",
    "checkbox": "a checkbox",
    "switch": "a switch",
    "tab": "a tab",
    "radio": "a radio button",
    "slider": "a slider",
}

# a control of one kind that is also fairly called another: never a distractor of it
ALSO = {
    "a search field": ("a text field",),
    "a text field": ("a search field",),
    "a switch": ("a checkbox",),
    "a checkbox": ("a switch",),
}


def app_title(page: Page, app: str) -> str:
    return str((page.config.get(app) or {}).get("title") or "")


@kind
class AppName(Kind):
    """Which app the page belongs to: its title (the world's configuration), shown in the top bar."""

    name = "app_name"
    concept = "identification"

    def subjects(self, page):
        return [{}]

    def truth(self, page, subject):
        return app_title(page, page.app)

    def candidates(self, page, subject):
        return [app_title(page, a) for a in sorted(page.config) if a in page.apps and a not in (page.app, "start")]

    def text(self, page, subject):
        return "Which app is this page from?"


def first_heading(page: Page) -> str:
    return next((n.name.strip() for n in page.tree.in_main() if n.role == "heading" and n.name.strip()), "")


@kind
class Heading(Kind):
    """What the first heading of the main content says (distractors: other apps' headings)."""

    name = "heading"
    concept = "element_content"

    def subjects(self, page):
        return [{}] if first_heading(page) else []

    def truth(self, page, subject):
        return first_heading(page)

    def candidates(self, page, subject):
        headings = [n.name.strip() for n in page.tree.in_main() if n.role == "heading"]
        return headings[1:] + list(page.others.get("headings", []))

    def text(self, page, subject):
        return "What does the first heading in the page's main content say?"


def unique_controls(page: Page) -> dict[str, str]:
    """Named controls whose name no other control of the page has: ``{name: role}``."""
    seen: dict[str, list[str]] = {}
    for n in page.tree.interactive():
        seen.setdefault(n.name.strip(), []).append(n.role)
    return {name: roles[0] for name, roles in seen.items() if len(roles) == 1 and len(name) <= 80}


@kind
class ControlType(Kind):
    """What kind of control a named element is (a button, a link, a text field...)."""

    name = "control_type"
    concept = "identification"

    def subjects(self, page):
        return [{"name": name} for name, role in sorted(unique_controls(page).items()) if role in CONTROLS]

    def truth(self, page, subject):
        role = unique_controls(page).get(subject["name"])
        return CONTROLS.get(role or "", "")

    def candidates(self, page, subject):
        return list(CONTROLS.values())

    def also_true(self, page, subject, option):
        return option in ALSO.get(self.truth(page, subject), ())

    def text(self, page, subject):
        return f"What kind of control is {subject['name']!r} on this page?"


def control_region(page: Page, name: str) -> str:
    node = next((n for n in page.tree.interactive() if n.name.strip() == name), None)
    region = page.tree.landmark(node) if node is not None else None
    return REGIONS.get(region or "", "")


@kind
class Region(Kind):
    """In which region of the page (top bar, navigation, search area, main content...) a
    control sits: the innermost landmark holding it."""

    name = "region"
    concept = "location"

    def subjects(self, page):
        return [{"name": name} for name in sorted(unique_controls(page)) if control_region(page, name)]

    def truth(self, page, subject):
        return control_region(page, subject["name"])

    def candidates(self, page, subject):
        return list(REGIONS.values())

    def text(self, page, subject):
        return f"In which part of the page is {subject['name']!r}? (the innermost part that holds it)"


@kind
class EntryCount(Kind):
    """How many entries the page's main list shows."""

    name = "entry_count"
    concept = "counting"

    def subjects(self, page):
        return [{}] if page.tree.entries() else []

    def truth(self, page, subject):
        return str(len(page.tree.entries()))

    def candidates(self, page, subject):
        return near_numbers(len(page.tree.entries()))

    def text(self, page, subject):
        return "How many entries does the main list of this page show?"


def entry_labels(page: Page) -> list[str]:
    return [page.tree.label(e) for e in page.tree.entries()]


@kind
class FirstEntry(Kind):
    """Which entry the main list shows first (or last)."""

    name = "entry_position"
    concept = "location"

    def subjects(self, page):
        labels = [x for x in entry_labels(page) if x]
        return [{"end": "first"}, {"end": "last"}] if len(labels) >= 3 else []

    def truth(self, page, subject):
        labels = entry_labels(page)
        return labels[0] if subject["end"] == "first" else labels[-1]

    def candidates(self, page, subject):
        return entry_labels(page)

    def also_true(self, page, subject, option):
        return same(option, self.truth(page, subject))

    def text(self, page, subject):
        return f"Which entry is listed {subject['end']} in the main list of this page?"


def page_label(page: Page, url: str) -> str:
    """What names a page: its first main heading other than its app's title, else its title."""
    tree = page.open_tree(url) if page.open_tree else None
    if tree is None:
        return ""
    title = app_title(page, page.app)
    heads = [n.name.strip() for n in tree.in_main() if n.role == "heading" and n.name.strip()]
    return next((h for h in heads if not same(h, title)), tree.title)


def app_links(page: Page) -> list[tuple[str, str]]:
    """``(name, path)`` of the links of the main content to other pages of the app, one per name."""
    out: dict[str, str] = {}
    for n in page.tree.in_main():
        url = n.prop("url") or ""
        path = "/" + url.split("/", 3)[3] if url.count("/") >= 3 else ""
        if n.role == "link" and n.name.strip() and path.startswith(f"/{page.app}/") and "?" not in path:
            if path.rstrip("/") != page.url.rstrip("/"):
                out.setdefault(n.name.strip(), path.split("#")[0])
    return sorted(out.items())


@kind
class LinkTarget(Kind):
    """Which page a link opens (named by the heading of the page it opens)."""

    name = "link_target"
    concept = "navigation"

    def subjects(self, page):
        links = app_links(page)[:4]
        return [{"name": name, "path": path} for name, path in links] if len(links) >= 3 else []

    def truth(self, page, subject):
        return page_label(page, subject["path"])

    def candidates(self, page, subject):
        return [page_label(page, p) for _, p in app_links(page)[:4] if p != subject["path"]]

    def text(self, page, subject):
        return f"Which page does the link {subject['name']!r} open?"


ARROWS = "↑↓▲▼"


def sort_links(page: Page) -> list[tuple[str, bool]]:
    """``(name without arrow, whether it is the current order)`` of the list's sort links."""
    out = []
    for n in page.tree.in_main():
        if n.role == "link" and "sort=" in (n.prop("url") or "") and n.name.strip():
            name = n.name.strip()
            out.append((name.rstrip(ARROWS + " ").strip(), name[-1:] in ARROWS))
    return out


@kind
class SortedBy(Kind):
    """Which sort order of the list is selected (the one the page marks with an arrow)."""

    name = "selected_sort"
    concept = "state"

    def subjects(self, page):
        links = sort_links(page)
        return [{}] if sum(on for _, on in links) == 1 and len(links) >= 3 else []

    def truth(self, page, subject):
        return next((name for name, on in sort_links(page) if on), "")

    def candidates(self, page, subject):
        return [name for name, on in sort_links(page) if not on]

    def text(self, page, subject):
        return "By which field is the list on this page sorted now?"
