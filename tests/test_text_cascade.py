"""The text backend's shortcuts for first visits of a page (issue 22, point 4), each checked
against the work it skips: the cascade kept per style sheet against matching every rule, a page
with the same HTML at another URL against a fresh parse there, and the task's evaluation kept
across pages for goals that do not name a page."""

from __future__ import annotations

import functools

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401 - registers the envs
from openapps_sim.envs.observe import testid_bids
from openapps_sim.envs.text.cascade import _computed, compute_styles
from openapps_sim.envs.text.css import declarations, matches, stylesheet
from openapps_sim.envs.text.dom import Element, parse
from openapps_sim.envs.text.page import TextPage
from openapps_sim.web.server import app_server
from tests.test_text_reuse import fresh_observation, todo_env

SHEET = """
:root { --shown: block; --case: uppercase; }
.row { display: var(--shown); }
.box .row { text-transform: var(--case); }
.box > .row.quiet { visibility: hidden; }
ul.menu li:first-child { list-style-type: square; }
li:not(.on) { white-space: pre; }
.row + .row { list-style-type: decimal; }
.row ~ .tail { display: flex; }
[data-kind=note] { display: none; }
[hidden] { display: block; }
#main .row span { text-transform: lowercase; }
input:focus { visibility: collapse; }
@media (max-width: 600px) { .row { display: inline; } }
"""
BODY = """
<div class="row">top <span>a</span></div>
<section class="box" id="main">
  <div class="row">one <span>b</span></div>
  <div class="row quiet">two</div>
  <div class="row" data-kind="note">three</div>
  <div class="row" data-kind="other" hidden>four</div>
  <p class="tail">end</p>
  <div class="other"><div class="row"><span>deep</span></div></div>
</section>
<ul class="menu"><li class="on">x</li><li>y</li><li class="on">z</li></ul>
<ul><li>first, not in a menu</li></ul>
<input id="q" autofocus><input type="hidden" name="h">
"""


def full_cascade(el: Element, sheet: str, width: int, focused, expected: dict, parent=None, scope=None) -> None:
    """Every rule matched against every element, no shortcut: ``expected[el.index]``."""
    index, universal = stylesheet(sheet).active(width)
    rules = [r for group in index.values() for r in group] + list(universal)
    found = sorted((r for r in rules if matches(el, r.parts, focused)), key=lambda r: (r.specificity, r.order))
    declared: dict = {}
    for rule in found:
        declared.update(rule.decls)
    if el.attrs.get("style"):
        declared.update(declarations(el.attrs["style"]))
    input_hidden = el.tag == "input" and el.input_type == "hidden"
    style, scope = _computed(el.tag, declared, parent, scope or {}, el.has("hidden"), input_hidden)
    expected[el.index] = vars(style)
    for child in el.children:
        if isinstance(child, Element):
            full_cascade(child, sheet, width, focused, expected, style, scope)


def styles_match_the_full_cascade(html: str, width: int) -> int:
    """Two documents (the second styled with what the first left in the memo); returns how
    many elements were compared."""
    compared = 0
    for _ in range(2):
        doc = parse(html, "http://127.0.0.1:9/")
        compute_styles(doc.root, doc.stylesheet, width, doc.focused)
        expected: dict = {}
        full_cascade(doc.root, doc.stylesheet, width, doc.focused, expected)
        for el in doc.elements:
            assert vars(el.style) == expected[el.index], (el, el.attrs)
            compared += 1
    return compared


@pytest.mark.parametrize("width", [1280, 390])
def test_the_kept_cascade_gives_what_matching_every_rule_gives(width):
    html = f"<html><head><style>{SHEET}</style></head><body>{BODY}</body></html>"
    assert styles_match_the_full_cascade(html, width) > 20


def test_the_kept_cascade_on_every_app_page(server):
    world = app_server().add(served=False)
    try:
        world.reset("arabic+mobile", 1)
        tab = TextPage(world.url, {"width": 390}, functools.partial(app_server().call, world))
        for path in ("/", "/todo/", "/calendar/", "/messenger/", "/maps/", "/shop/", "/code_editor/"):
            _, html = tab._fetch("GET", world.url + path, None)
            for width in (390, 1280):
                assert styles_match_the_full_cascade(html, width) > 50
    finally:
        app_server().drop(world)


def test_the_same_html_at_another_url_is_not_parsed_again_and_shows_that_url():
    env, obs = todo_env()
    try:
        doc = env.unwrapped.browser_tabs.page.doc
        obs, *_ = env.step(f"click('{testid_bids(obs)['todo-filter-all']}')")  # same page, ?filter=all
        page = env.unwrapped.browser_tabs.page
        assert page.url.endswith("/todo/?filter=all") and page.doc is doc
        axtree, snapshot = fresh_observation(env)
        assert obs["axtree_object"] == axtree and obs["dom_object"] == snapshot
        assert obs["url"] == page.url
    finally:
        env.close()


def test_another_page_keeps_the_evaluation_unless_the_goal_names_a_page():
    env, obs = todo_env()
    try:
        task = env.unwrapped.task
        kept = task.last_evaluation
        env.step(f"click('{testid_bids(obs)['todo-filter-all']}')")
        assert task.last_evaluation is kept  # nothing changed that the goal reads
    finally:
        env.close()
    env = gym.make("browsergym/openapps.start.navigate_to_app", task_kwargs={"seed": 0}, backend="text")
    try:
        obs, _ = env.reset()
        app = env.unwrapped.task.instance.params["app"]
        obs, reward, terminated, *_ = env.step(f"click('{testid_bids(obs)['launch-' + app]}')")
        assert reward == 1.0 and terminated  # the page is the goal: evaluated again
    finally:
        env.close()
