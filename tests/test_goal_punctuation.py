"""A quoted value that ends its own sentence does not get a second full stop after its closing
quote (issue 26, point 10: a German goal ended "…gelassen.'.")."""

from __future__ import annotations

import re

from openapps_sim.taskkit import all_families, instantiate, tidy_punctuation

from .tested_families import tested_families

DOUBLED = re.compile(r"""[.!?…]['"’”»“]+\.(\s|$)""")


def test_the_stop_after_a_quoted_sentence_is_dropped_and_no_other():
    assert tidy_punctuation("Schick Anna 'Ich habe die Schlüssel gelassen.'.") == (
        "Schick Anna 'Ich habe die Schlüssel gelassen.'"
    )
    assert tidy_punctuation("Send Bob 'On my way!'. Then tick 'x'.") == "Send Bob 'On my way!' Then tick 'x'."
    assert tidy_punctuation("Add 'Buy milk'.") == "Add 'Buy milk'."
    assert tidy_punctuation("Open 'v1.2.3'.") == "Open 'v1.2.3'."


def test_no_goal_ends_a_quoted_sentence_twice():
    from openapps_sim.web.world import World

    world = World()
    world.reset("default", 0)
    doubled = []
    tested = tested_families()
    for fid, fam in all_families().items():
        for language in ("en", "de"):
            if language not in fam.languages():
                continue
            # the other described apps' goals share the tested ones' templates: one seed each
            for seed in range(12 if "messenger" in fam.apps else 3 if fid in tested else 1):
                goal = instantiate(fam, world.state, world.config, seed, "default", language).goal
                if DOUBLED.search(goal):
                    doubled.append(f"{fid} {language} {seed}: {goal}")
    assert not doubled, "\n".join(doubled[:10])
