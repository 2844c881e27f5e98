"""Goal and content languages: every family in every language pack (shipped, on the search path,
and the outside-the-package Japanese pack of ``tests/data/packs``), the English fallback with a
note, and no per-language table in Python (issue 24, points 4 and 5)."""

from __future__ import annotations

import ast
import logging
import os
import re
from pathlib import Path

import pytest

import openapps_sim.config.catalog as catalog
from openapps_sim.config import packs
from openapps_sim.config.packs import language_packs
from openapps_sim.taskkit import all_families, instantiate
from openapps_sim.taskkit import language as lang_data
from openapps_sim.taskkit.language import content_file, content_languages, goal_languages, words
from openapps_sim.web.world import World

from .oracle_play import play_oracle
from .tested_families import tested_families

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_PACKS = Path(__file__).resolve().parent / "data" / "packs"  # a language from outside the package
FAMILIES = sorted(tested_families())  # the other described apps' families are the same code (CI's sweeps)
SHIPPED = {"en", "de", "fr", "es", "zh", "it", "ar"}


def _shipped_languages() -> set[str]:
    return {p.stem for p in (lang_data.package_tasks_dir() / "phrasings").glob("*.yaml")}


def _clear_caches() -> None:
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()
    packs._load_pack_file.cache_clear()
    lang_data.clear_cache()


def _with_search_path(monkeypatch, folder: Path) -> None:
    current = os.environ.get("OPENAPPS_VARIATIONS", "")
    monkeypatch.setenv("OPENAPPS_VARIATIONS", os.pathsep.join(p for p in (current, str(folder)) if p))
    _clear_caches()


@pytest.fixture()
def search_path(monkeypatch):
    """Put a folder on the pack search path for one test (caches cleared before and after)."""
    yield lambda folder: _with_search_path(monkeypatch, folder)
    monkeypatch.undo()
    _clear_caches()


@pytest.fixture(scope="module")
def local_world():
    return World()


# every language pack the tests can see: shipped ones, any on OPENAPPS_VARIATIONS, the fixture's
LANGUAGE_PACKS = [(name, lang, None) for name, lang in sorted(language_packs().items())] + [
    (name, lang, FIXTURE_PACKS) for name, lang in sorted(language_packs([FIXTURE_PACKS]).items())
]


def _leaves(node: object):
    if isinstance(node, dict):
        for value in node.values():
            yield from _leaves(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _leaves(value)
    elif isinstance(node, str):
        yield node


def _holds(initial: dict, world: dict, world_leaves: dict):
    """Whether a string is one of the instance's initial state: an app it left as the world's
    very object is looked up in ``world_leaves`` (the world's strings per app, gathered once
    per world), so the 64 apps' leaves are not walked again for every family."""
    kept = [world_leaves[app] for app, value in initial.items() if app in world and value is world[app]]
    own = {s for app, value in initial.items() if not (app in world and value is world[app]) for s in _leaves(value)}
    return lambda s: s in own or any(s in leaves for leaves in kept)


def test_the_fixture_is_a_language_from_outside_the_package():
    assert [(n, lang) for n, lang, where in LANGUAGE_PACKS if where] == [("japanese_sample", "ja")]
    assert SHIPPED == _shipped_languages() and SHIPPED <= set(content_languages())
    for name, lang, where in LANGUAGE_PACKS:  # a shipped language pack has its files in the package
        if where is None and packs.list_packs()[name].parent == packs.builtin_dir():
            assert lang in SHIPPED, name


@pytest.mark.parametrize("pack, lang, where", LANGUAGE_PACKS, ids=[p for p, _, _ in LANGUAGE_PACKS])
def test_every_family_speaks_the_worlds_language(local_world, search_path, pack, lang, where):
    """Every family in every language pack: ``auto`` picks the world's language; the goal is in
    it (or, where the language lacks the family's phrasing, in English with a note); content a
    task brings in is never English unless the instance notes that fallback. A shipped language
    has every goal and every content key: no fallback at all."""
    if where is not None:
        search_path(where)
    shipped = lang in _shipped_languages()
    english = set(_leaves(content_file("en")))
    own = set(_leaves(content_file(lang)))
    for seed in (0, 1):
        local_world.reset(pack, seed)  # instantiating leaves the world as it was
        world_leaves = {app: set(_leaves(value)) for app, value in local_world.draw_all().items()}
        for fid in FAMILIES:
            fam = all_families()[fid]
            inst = instantiate(fam, local_world.state, local_world.config, seed, pack, "auto")
            info, where_ = inst.public_info(), f"{fid} / {pack} / seed {seed}"
            assert inst.language == lang and info["language"] == lang, where_
            if shipped:
                assert not inst.fallbacks, f"{where_}: {inst.fallbacks}"
            if fam.styles(lang):
                assert info["goal_language"] == lang and inst.style in fam.styles(lang), where_
            else:
                assert info["goal_language"] == "en", where_
                note = [n for n in inst.fallbacks if n.startswith(f"goal of {fid}") and f"no '{lang}' phrasing" in n]
                assert note, f"{where_}: no note of the English goal in {inst.fallbacks}"
            held = _holds(inst.initial, local_world.state, world_leaves)
            brought = {s for s in _leaves(inst.params) if not held(s) and not re.fullmatch(r"[a-z_]*", s)}
            stray = sorted(s for s in brought if s in english and s not in own)
            content_notes = [n for n in inst.fallbacks if n.startswith("content ")]
            assert not stray or content_notes, f"{where_}: English content {stray} in a {lang} world, unnoted"
            if seed == 1 and info["goal_language"] == lang:
                en = instantiate(fam, local_world.state, local_world.config, seed, pack, "en")
                assert inst.goal != en.goal, f"{where_}: the {lang} goal is the English one"


def test_no_language_table_in_python():
    """Per-language data lives in tasks/content/<lang>.yaml, never in a dict keyed by language
    codes in the tasks or the task kit (``multi.busy_evening`` had one, for three languages)."""
    codes = SHIPPED | {"ja", "pt", "ru", "nl", "ko"}
    found = []
    for folder in (ROOT / "tasks", ROOT / "openapps_sim" / "taskkit"):
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                    if len(keys & codes) >= 2:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {sorted(keys & codes)}")
    assert not found, "per-language tables in Python (move them to tasks/content/<lang>.yaml):\n" + "\n".join(found)


def test_busy_evening_speaks_every_shipped_language(local_world):
    fam = all_families()["multi.busy_evening"]
    texts = {}
    for pack, lang in language_packs([packs.builtin_dir()]).items():
        local_world.reset(pack, 0)
        params = instantiate(fam, local_world.state, local_world.config, 0, pack, "auto").params
        assert params["cant"] == words(lang, "multi.cant_make_dinner"), pack
        first = params["contact"].split()[0]
        assert params["dinner"] == words(lang, "multi.dinner_with").format(name=first), pack
        texts[lang] = params["cant"]
    assert len(set(texts.values())) == len(texts) == len(SHIPPED) - 1, texts  # en has no language pack


# -- a language from outside the package --------------------------------------------------------------
def test_a_pack_folder_brings_its_own_language(search_path):
    search_path(FIXTURE_PACKS)
    assert "ja" in goal_languages() and "ja" in content_languages()
    assert words("ja", "todo.new_items")[0] == "オーツミルクを買う"
    from openapps_sim.cli.main import build_parser

    args = build_parser().parse_args(["run", "--agent", "oracle", "--task", "todo.add_item", "--language", "ja"])
    assert args.language == "ja"


def test_missing_content_falls_back_key_by_key(local_world, search_path, tmp_path, caplog):
    pack = tmp_path / "klingon"
    (pack / "tasks" / "content").mkdir(parents=True)
    (pack / "tasks" / "phrasings").mkdir(parents=True)
    (pack / "pack.yaml").write_text("description: x\nshell: {lang: tlh}\n", encoding="utf-8")
    (pack / "tasks" / "content" / "tlh.yaml").write_text("todo: {new_items: [Qapla]}\n", encoding="utf-8")
    (pack / "tasks" / "phrasings" / "tlh.yaml").write_text("goals: {todo.add_item: ['{title} chel']}\n")
    search_path(tmp_path)
    local_world.reset("klingon", 0)
    with caplog.at_level(logging.WARNING, logger="openapps_sim.taskkit.language"):
        add = instantiate(all_families()["todo.add_item"], local_world.state, local_world.config, 0, "klingon", "auto")
        pin = instantiate(all_families()["maps.drop_pin"], local_world.state, local_world.config, 0, "klingon", "auto")
    assert (add.goal, add.goal_language, add.fallbacks) == ("Qapla chel", "tlh", [])
    assert pin.params["label"] in words("en", "maps.pin_labels") and pin.goal_language == "en"
    note = "content maps.pin_labels: none in 'tlh' (in "
    assert any(n.startswith(note) and "klingon/tasks/content/tlh.yaml" in n for n in pin.fallbacks)
    assert any(
        n.startswith("goal of maps.drop_pin: no 'tlh' phrasing") for n in pin.public_info()["language_fallbacks"]
    )
    # one warning for the language's content, counting what it lacks (it has one entry of them all)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("no 'tlh' content")]
    assert len(said) == 1 and said[0].startswith("no 'tlh' content for 70 of 71 content entries (in "), said
    assert "klingon/tasks/content/tlh.yaml); the English content is used: " in said[0], said


def test_a_pack_without_phrasings_warns_once_with_the_count(local_world, search_path, tmp_path, caplog):
    """A language pack with no task files: every family's goal falls back to English, and the log
    says so once, with the count and a few names (it printed one line per family: 91 lines),
    and once for its content; each instance still notes its own fallbacks."""
    (tmp_path / "klingon").mkdir()
    (tmp_path / "klingon" / "pack.yaml").write_text("description: x\nshell: {lang: tlh}\n", encoding="utf-8")
    search_path(tmp_path)
    local_world.reset("klingon", 0)
    with caplog.at_level(logging.WARNING, logger="openapps_sim.taskkit.language"):
        for fid in FAMILIES:
            inst = instantiate(all_families()[fid], local_world.state, local_world.config, 0, "klingon", "auto")
            # "goal of <family>: ..." or, phrased by a shared entry, "goal of <family> (<entry>): ..."
            assert any(n.startswith(f"goal of {fid}") and "no 'tlh' phrasing" in n for n in inst.fallbacks), fid
    said = [r.getMessage() for r in caplog.records]
    assert len(FAMILIES) > 80 and len(said) == 2, said
    goals = [m for m in said if "goal phrasing" in m]
    every = sorted(all_families())  # the warning counts the registry's families, shown or not
    n, first = len(every), ", ".join(every[:3])
    assert goals[0].startswith(f"no 'tlh' goal phrasing for {n} of {n} task families (no phrasings/tlh.yaml in ")
    assert goals[0].endswith(f"their goals are in English: {first} and {n - 3} more"), goals[0]
    assert [m for m in said if m.startswith("no 'tlh' content for ")], said


def test_a_language_without_any_file_falls_back_to_english(local_world, search_path, tmp_path):
    (tmp_path / "klingon").mkdir()
    (tmp_path / "klingon" / "pack.yaml").write_text("description: x\nshell: {lang: tlh}\n", encoding="utf-8")
    search_path(tmp_path)
    assert language_packs()["klingon"] == "tlh"  # discovered, like a shipped language
    local_world.reset("klingon", 0)
    inst = instantiate(all_families()["todo.add_item"], local_world.state, local_world.config, 0, "klingon", "auto")
    english = instantiate(all_families()["todo.add_item"], local_world.state, local_world.config, 0, "klingon", "en")
    assert (inst.language, inst.goal_language, inst.goal) == ("tlh", "en", english.goal)
    assert [n.split(":")[0] for n in inst.fallbacks] == ["content todo.new_items", "goal of todo.add_item"]
    assert "no phrasings/tlh.yaml in" in inst.fallbacks[1]


def test_the_package_is_never_shadowed(search_path, tmp_path):
    """A pack on the search path adds what the package lacks; it never replaces a shipped entry."""
    (tmp_path / "extra" / "tasks" / "phrasings").mkdir(parents=True)
    (tmp_path / "extra" / "pack.yaml").write_text("description: x\n", encoding="utf-8")
    (tmp_path / "extra" / "tasks" / "phrasings" / "de.yaml").write_text(
        "goals:\n  todo.add_item: ['Ersetzt']\n  todo.some_new_family: ['Neu: {title}']\n", encoding="utf-8"
    )
    shipped = lang_data.family_styles("todo.add_item", "de")
    search_path(tmp_path)
    assert lang_data.family_styles("todo.add_item", "de") == shipped
    assert lang_data.family_styles("todo.some_new_family", "de") == {"de": ["Neu: {title}"]}


# -- the oracle in the outside language, through the text backend -------------------------------------
ORACLE_SAMPLE = [
    "todo.add_item",  # Japanese goal and content
    "calendar.add_event",
    "messenger.send_message",
    "multi.busy_evening",  # the content moved out of Python
    "multi.todo_and_message",  # Japanese clauses and joiners
    "maps.drop_pin",  # English goal, English pin label: both noted
    "shop.add_to_cart",
    "code_editor.edit_file",
]


def test_the_oracle_solves_families_in_a_language_from_outside_the_package(search_path):
    from openapps_sim.envs.registration import make_env

    search_path(FIXTURE_PACKS)
    env = make_env("todo.add_item", backend="text", obs_mode="axtree")
    try:
        for fid in ORACLE_SAMPLE:
            kwargs = {"family": fid, "variation": "japanese_sample", "language": "auto"}
            obs, info = env.reset(seed=0, options={"task_kwargs": kwargs})
            task_info = info["task_info"]
            assert task_info["language"] == "ja", fid
            if task_info["goal_language"] == "ja":
                assert re.search(r"[\u3040-\u30ff]", obs["goal"]), (fid, obs["goal"])
            else:
                assert task_info["language_fallbacks"], fid
            reward, last = play_oracle(env, obs, task_info)
            assert reward == 1.0, (fid, last["task_info"].get("explanation"))
    finally:
        env.close()


def test_an_unknown_goal_language_is_a_mistake_not_a_fallback(local_world):
    """``language="english"`` is a typo: one clear message naming the languages there are (only a
    language that exists but lacks a family's goal falls back)."""
    from openapps_sim.errors import ConfigError

    local_world.reset("default", 0)
    with pytest.raises(ConfigError) as err:
        instantiate(all_families()["todo.add_item"], local_world.state, local_world.config, 0, "default", "english")
    message = str(err.value)
    assert message.startswith("task_kwargs: language: no goal phrasings in 'english'"), message
    assert "allowed: en, ar, de" in message and message.endswith("auto"), message
