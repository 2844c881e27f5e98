"""Kinds read off the page: which app, what a heading says, where a control is, what kind of
control it is, how many entries a list shows, which entry comes first, where a link leads."""

from __future__ import annotations

from openapps_sim.analysis.questions.kinds import CountKind, Kind, Page, kind
from openapps_sim.analysis.questions.options import same

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


@kind("app_name", "identification")
class AppName(Kind):
    """Which app the page belongs to: its title (the world's configuration), shown in the top bar."""

    question = "Which app is this page from?"

    def subjects(self, page):
        return [{}]

    def truth(self, page, subject):
        return app_title(page, page.app)

    def candidates(self, page, subject):
        return [app_title(page, a) for a in sorted(page.config) if a in page.apps and a not in (page.app, "start")]


def first_heading(page: Page) -> str:
    return next((n.name.strip() for n in page.tree.in_main() if n.role == "heading" and n.name.strip()), "")


@kind("heading", "element_content")
class Heading(Kind):
    """What the first heading of the main content says (distractors: other apps' headings)."""

    question = "What does the first heading in the page's main content say?"

    def subjects(self, page):
        return [{}] if first_heading(page) else []

    def truth(self, page, subject):
        return first_heading(page)

    def candidates(self, page, subject):
        headings = [n.name.strip() for n in page.tree.in_main() if n.role == "heading"]
        return headings[1:] + list(page.others.get("headings", []))


def unique_controls(page: Page) -> dict[str, str]:
    """Named controls whose name no other control of the page has: ``{name: role}``."""
    seen: dict[str, list[str]] = {}
    for n in page.tree.interactive():
        seen.setdefault(n.name.strip(), []).append(n.role)
    return {name: roles[0] for name, roles in seen.items() if len(roles) == 1 and len(name) <= 80}


@kind("control_type", "identification")
class ControlType(Kind):
    """What kind of control a named element is (a button, a link, a text field...)."""

    question = "What kind of control is {name!r} on this page?"
    answers = tuple(CONTROLS.values())

    def subjects(self, page):
        return [{"name": name} for name, role in sorted(unique_controls(page).items()) if role in CONTROLS]

    def truth(self, page, subject):
        role = unique_controls(page).get(subject["name"])
        return CONTROLS.get(role or "", "")

    def also_true(self, page, subject, option):
        return option in ALSO.get(self.truth(page, subject), ())


def control_region(page: Page, name: str) -> str:
    node = next((n for n in page.tree.interactive() if n.name.strip() == name), None)
    region = page.tree.landmark(node) if node is not None else None
    return REGIONS.get(region or "", "")


@kind("region", "location")
class Region(Kind):
    """In which region of the page (top bar, navigation, search area, main content...) a
    control sits: the innermost landmark holding it."""

    question = "In which part of the page is {name!r}? (the innermost part that holds it)"
    answers = tuple(REGIONS.values())

    def subjects(self, page):
        return [{"name": name} for name in sorted(unique_controls(page)) if control_region(page, name)]

    def truth(self, page, subject):
        return control_region(page, subject["name"])


@kind("entry_count", "counting")
class EntryCount(CountKind):
    """How many entries the page's main list shows."""

    question = "How many entries does the main list of this page show?"

    def subjects(self, page):
        return [{}] if page.tree.entries() else []

    def truth(self, page, subject):
        return str(len(page.tree.entries()))


def entry_labels(page: Page) -> list[str]:
    return [page.tree.label(e) for e in page.tree.entries()]


@kind("entry_position", "location")
class FirstEntry(Kind):
    """Which entry the main list shows first (or last)."""

    question = "Which entry is listed {end} in the main list of this page?"

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


@kind("link_target", "navigation")
class LinkTarget(Kind):
    """Which page a link opens (named by the heading of the page it opens)."""

    question = "Which page does the link {name!r} open?"

    def subjects(self, page):
        links = app_links(page)[:4]
        return [{"name": name, "path": path} for name, path in links] if len(links) >= 3 else []

    def truth(self, page, subject):
        return page_label(page, subject["path"])

    def candidates(self, page, subject):
        return [page_label(page, p) for _, p in app_links(page)[:4] if p != subject["path"]]


ARROWS = "↑↓▲▼"


def sort_links(page: Page) -> list[tuple[str, bool]]:
    """``(name without arrow, whether it is the current order)`` of the list's sort links."""
    out = []
    for n in page.tree.in_main():
        if n.role == "link" and "sort=" in (n.prop("url") or "") and n.name.strip():
            name = n.name.strip()
            out.append((name.rstrip(ARROWS + " ").strip(), name[-1:] in ARROWS))
    return out


@kind("selected_sort", "state")
class SortedBy(Kind):
    """Which sort order of the list is selected (the one the page marks with an arrow)."""

    question = "By which field is the list on this page sorted now?"

    def subjects(self, page):
        links = sort_links(page)
        return [{}] if sum(on for _, on in links) == 1 and len(links) >= 3 else []

    def truth(self, page, subject):
        return next((name for name, on in sort_links(page) if on), "")

    def candidates(self, page, subject):
        return [name for name, on in sort_links(page) if not on]
