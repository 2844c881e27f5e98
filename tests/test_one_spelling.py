"""One spelling, one world (issue 39, point 2): every spelling of one pack composition is parsed,
where the user wrote it, into one canonical text, the world's id and label, so a sweep, gym.make,
the command line, MCP and OpenEnv give it one episode id, one version label and one result; and
one seed rule (config.limits.check_seed) answers a seed such as ``"3"`` the same everywhere."""

from __future__ import annotations

import pytest

from openapps_sim.config.catalog import composed_json
from openapps_sim.config.world import WorldSpec, canonical
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.spec import load_spec

from .mcp_play import memory_server, run

SPELLINGS = [
    "dark_theme+german",
    "dark_theme + german",
    " dark_theme+german",
    "dark_theme+german ",
    "default+dark_theme+german",
    "dark_theme+default+german",
    "dark_theme+dark_theme+german",
    "dark_theme+german+german",
    "default + dark_theme + dark_theme + german + default",
]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_one_composition_is_one_canonical_text(spelling):
    assert canonical(spelling) == "dark_theme+german"
    assert WorldSpec.make("here", spelling).variation == "dark_theme+german"


def test_order_and_apart_repeats_are_kept_because_they_change_the_world():
    assert canonical("german+dark_theme") == "german+dark_theme"
    assert canonical("dark_theme+german+dark_theme") == "dark_theme+german+dark_theme"
    assert canonical("default") == canonical("") == canonical("default+default") == "default"
    assert canonical("./pk") == canonical("pk/") == "./pk"  # still a path, never a pack name
    assert canonical("./packs/x.yaml+packs//x.yaml") == "packs/x.yaml"
    # why the order stays: interruption packs add theirs in order, a later pack overrides
    a, b = "interrupt_cookies", "interrupt_login"
    assert composed_json(f"{a}+{b}", ()) != composed_json(f"{b}+{a}", ())
    assert composed_json(f"{a}+{b}+{a}", ()) != composed_json(f"{b}+{a}", ())


@pytest.mark.parametrize("pack", ["dark_theme", "german", "interrupt_mixed", "mobile", "dense", "random-3"])
def test_what_canonical_drops_changes_no_world(pack):
    """The rule's ground: ``default`` is empty and a pack applied twice in a row is applied once."""
    once = composed_json(pack, ())
    assert composed_json(f"{pack}+{pack}", ()) == once
    assert composed_json(f"default+{pack}+default", ()) == once


def test_three_spellings_in_one_sweep_are_one_episode_one_label(tmp_path):
    spec_file = tmp_path / "spec.yaml"
    spec_file.write_text(
        "agents: [oracle]\ntasks: [todo.add_item]\nseeds: [0]\nbackends: [text]\n"
        "variations: ['dark_theme+german', 'dark_theme + german', ' dark_theme+german', "
        "'default+dark_theme+german', 'german+dark_theme']\n"
    )
    spec = load_spec(spec_file)
    assert spec.variations == ["dark_theme+german", "german+dark_theme"]
    episodes = spec.episodes()
    assert [e.world.variation for e in episodes] == ["dark_theme+german", "german+dark_theme"]
    assert len({e.episode_id for e in episodes}) == 2


def test_gym_make_and_reset_take_any_spelling_as_the_one_world():
    from openapps_sim.envs.registration import make_env

    for spelling in (" dark_theme + german", "dark_theme+dark_theme+german"):
        env = make_env("todo.add_item", task_kwargs={"variation": spelling}, backend="text")
        try:
            assert env.world_spec.variation == "dark_theme+german"
        finally:
            env.close()


def test_mcp_and_openenv_sessions_take_any_spelling_as_the_one_world():
    from openapps_sim.service.session import EnvSession

    session = EnvSession()
    try:
        viewport = {"width": 1280, "height": 720}
        started = session.reset(
            "todo.add_item", " default+dark_theme + german+german", 1, "auto", "bid", viewport, backend="text"
        )
        assert started["variation"] == "dark_theme+german" == session.episode["variation"]
    finally:
        session.close()


def test_the_command_line_lists_of_versions_take_any_spelling():
    from openapps_sim.cli.main import build_parser

    args = build_parser().parse_args(["parity", "--variations", " german + dark_theme", "default+german+german"])
    assert args.variations == ["german+dark_theme", "german"]
    args = build_parser().parse_args(["serve", "--variation", "dark_theme + german"])
    assert args.variation == "dark_theme+german"


# -- one seed rule -------------------------------------------------------------------------------
REFUSED_SEEDS = ["3", 3.0, True, -1, 2**32]


def _make(seed):
    from openapps_sim.envs.registration import make_env

    return make_env("todo.add_item", task_kwargs={"seed": seed}, backend="text")


def _reset(seed):
    from openapps_sim.envs.registration import make_env

    env = make_env("todo.add_item", backend="text")
    try:
        env.reset(seed=seed)
    finally:
        env.close()


def _sweep(seed, tmp_path):
    spec_file = tmp_path / "spec.yaml"
    spec_file.write_text(f"agents: [oracle]\ntasks: [todo.add_item]\nseeds: [{seed!r}]\n".replace("'", '"'))
    load_spec(spec_file)


def _session(seed):
    from openapps_sim.service.session import EnvSession

    EnvSession().reset("todo.add_item", "default", seed, "auto", "bid", {"width": 1280, "height": 720}, backend="text")


@pytest.mark.parametrize("seed", REFUSED_SEEDS, ids=repr)
def test_a_seed_is_refused_alike_by_gym_make_reset_a_sweep_and_openenv(seed, tmp_path):
    for call in (lambda: _make(seed), lambda: _reset(seed), lambda: _sweep(seed, tmp_path), lambda: _session(seed)):
        with pytest.raises(ConfigError, match="expected a whole number"):
            call()


def test_mcp_reset_refuses_the_seeds_every_other_entry_refuses():
    """MCP's reset turned "3" into 3, 3.0 into 3 and true into 1 (the SDK's type coercion),
    where gym.make, a sweep spec and OpenEnv refuse them."""
    answers = {}

    async def main():
        async with memory_server() as (_, client):
            for seed in REFUSED_SEEDS:
                result = await client.call_tool("reset", {"task": "todo.add_item", "seed": seed, "backend": "text"})
                answers[repr(seed)] = (result.isError, result.content[0].text)

    run(main)
    for seed, (is_error, text) in answers.items():
        assert is_error and text.startswith("reset: seed: expected a whole number"), (seed, text)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_an_episode_spec_made_anywhere_has_one_id_per_world(spelling):
    """Whoever makes an EpisodeSpec (a sweep spec, openapps run, parity, a script) gives it a world
    spec made where the user wrote it: its id, the variation it records and the world it runs in
    follow the world, not the spelling."""
    from openapps_sim.sweeps.record import EpisodeSpec, new_record

    world = WorldSpec.make("a script", spelling, 3)
    spec = EpisodeSpec(agent="oracle", task="todo.add_item", world=world, backend="text")
    assert spec.episode_id == "d776510574c8765b"  # this episode's id since session 20
    assert spec.world == WorldSpec("dark_theme+german", 3, "auto")
    assert new_record(spec, "r", 1)["variation"] == "dark_theme+german"


@pytest.mark.parametrize("text", ["3", " 3 ", "+3", "-2", "abc", "3.0", "٣", "4294967296", "4294967295"])
def test_a_seed_typed_on_the_command_line_or_in_the_explore_form_is_read_by_one_rule(text):
    """``openapps run --seed`` and the explore page's seed field accept the same texts as the same
    seeds and refuse the same ones (they had two readers: ``+3`` was 3 on the command line and
    no whole number in the form)."""
    import argparse

    from openapps_sim.cli.args import seed
    from openapps_sim.web.explore import form_seed

    def outcome(read, *args):
        try:
            return read(text, *args)
        except (argparse.ArgumentTypeError, ConfigError):
            return "refused"

    assert outcome(seed) == outcome(form_seed, "seed")
    assert outcome(seed) == {"3": 3, " 3 ": 3, "+3": 3, "4294967295": 4294967295}.get(text, "refused")
