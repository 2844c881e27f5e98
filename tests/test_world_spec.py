"""The world spec (issue 24, point 3): variation, seed, language and overrides are one checked
value, made where the user gives them and passed down; the goal's language follows the
variation unless the user names one."""

from __future__ import annotations

import numpy as np
import pytest

from openapps_sim.config.world import AUTO, WorldSpec
from openapps_sim.envs.registration import make_env
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import EpisodeSpec, new_record
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.taskkit.language import goal_languages


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"variation": "dark_theme+germn"}, ["task_kwargs: variation: unknown name 'germn'", "allowed:", "german"]),
        ({"variation": 3}, ["task_kwargs: variation: expected a string, got 3"]),
        ({"seed": -1}, ["task_kwargs: seed: expected a whole number >= 0, got -1", "allowed: 0, 1, 2"]),
        ({"seed": 1.5}, ["task_kwargs: seed: expected a whole number, got 1.5"]),
        ({"seed": True}, ["task_kwargs: seed: expected a whole number, got True"]),
        ({"language": "xx"}, ["task_kwargs: language: unknown language 'xx'", "allowed: en,", "auto"]),
        ({"overrides": "todo.title=x"}, ["task_kwargs: overrides: expected a list of strings"]),
    ],
)
def test_a_bad_world_is_one_error_at_make_naming_the_key_and_what_is_allowed(kwargs, words):
    with pytest.raises(ConfigError) as err:
        make_env("todo.add_item", task_kwargs=kwargs, backend="text")  # no server, no browser yet
    for w in words:
        assert w in str(err.value)


def test_a_spec_is_canonical_and_keeps_what_it_was_given():
    spec = WorldSpec.make("here", " dark_theme + german ", 3, "de", ["todo.title=T"], languages=goal_languages())
    assert spec == WorldSpec("dark_theme+german", 3, "de", ("todo.title=T",))
    assert WorldSpec.make("here", "german").goal_language() == "de"
    assert WorldSpec.make("here", "german", language="en").goal_language() == "en"
    assert WorldSpec.make("here").goal_language() == "en"
    assert WorldSpec.make("here", seed=np.int64(4)).seed == 4  # gymnasium users pass numpy ints


def test_the_goal_follows_the_variation_unless_the_user_names_a_language():
    env = make_env("todo.add_item", task_kwargs={"variation": "german"}, backend="text")
    try:
        obs, info = env.reset(seed=1)
        assert info["task_info"]["language"] == "de"
        assert info["task_info"]["goal_language"] == "de" and "Hafermilch" in obs["goal"]
        obs_en, info_en = env.reset(seed=1, options={"task_kwargs": {"language": "en"}})
        assert info_en["task_info"]["language"] == "en" and obs_en["goal"] != obs["goal"]
        with pytest.raises(ConfigError, match="reset options.task_kwargs: language: unknown language 'xx'"):
            env.reset(seed=1, options={"task_kwargs": {"language": "xx"}})
        with pytest.raises(ConfigError, match="reset: options.world: expected a WorldSpec"):
            env.reset(options={"world": {"variation": "german"}})
        # a world given as a value wins over the env's, its seed over the reset's
        obs_v, info_v = env.reset(seed=0, options={"world": WorldSpec("default", 1, "en")})
        assert info_v["seed"] == 1 and info_v["task_info"]["language"] == "en"
        assert env.unwrapped.task.world == WorldSpec("default", 1, "en")
    finally:
        env.close()


def test_sweeps_default_to_the_worlds_language_and_english_worlds_keep_their_episode_ids(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text("agents: [oracle]\ntasks: [todo.add_item]\nvariations: [default, german]\nseeds: 1\n")
    auto = load_spec(path)
    assert auto.languages == [AUTO]
    path.write_text(path.read_text() + "languages: [en, auto]\n")
    both = load_spec(path)
    ids = {(e.world.variation, e.language): e.episode_id for e in both.episodes()}
    # auto in an English world is the English episode (one episode, the id an English sweep had)
    assert len(both.episodes()) == 3 and ("default", "auto") not in ids
    assert {e.episode_id for e in auto.episodes()} == {ids[("default", "en")], ids[("german", "auto")]}
    german = EpisodeSpec(agent="oracle", task="todo.add_item", world=WorldSpec("german", 0))
    assert new_record(german, "r", 1)["language"] == "de"  # the record names the language it ran in
    assert (
        german.episode_id
        != EpisodeSpec(agent="oracle", task="todo.add_item", world=WorldSpec("german", 0, "en")).episode_id
    )
