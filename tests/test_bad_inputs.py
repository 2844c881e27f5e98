"""Bad input, probed as a user meets it (issue 42, point 10): every bad spec, agent config, pack,
command-line flag, ``task_kwargs`` and MCP argument is one sentence naming the file (or flag)
and the key, with what is allowed: exit status 2 or a ``ConfigError``, never a traceback, and
nothing written (no output folder, no partial results). Bounded before anything is expanded:
an alias bomb, 10**8 seeds or a seed of 2**32 fail at once, in milliseconds."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from openapps_sim.cli.main import main
from openapps_sim.errors import ConfigError

SPEC = "agents: [oracle]\ntasks: [todo.add_item]\nbackends: [text]\n"
# nine levels of nine aliases: 9**9 (387 million) strings from about 300 bytes, under a key
# every kind of file takes (a spec's, a pack's and an agent config's description)
BOMB = 'description:\n  a: &a ["x","x","x","x","x","x","x","x","x"]\n' + "".join(
    f"  {chr(98 + i)}: &{chr(98 + i)} [{','.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)
# the same with YAML's merge key: each level merges nine copies of the one before
MERGE_BOMB = (
    "description:\n  a: &a {"
    + ", ".join(f"k{j}: 1" for j in range(9))
    + "}\n"
    + "".join(f"  {chr(98 + i)}: &{chr(98 + i)} {{<<: [{', '.join([f'*{chr(97 + i)}'] * 9)}]}}\n" for i in range(8))
)
DEEP = "k: " + "[" * 100 + "]" * 100 + "\n"
RUN = ("run", "--task", "todo.add_item", "--backend", "text", "--out", "out")
SWEEP = ("sweep", "spec.yaml", "--out", "out", "--quiet", "--no-report")

# (id, files to write, command line, words the one error line holds)
CLI_CASES = [
    # -- the YAML reader, for every kind of file -----------------------------------------------
    ("spec-alias-bomb", {"spec.yaml": SPEC + BOMB}, SWEEP, ["spec.yaml: refused: its aliases repeat", "10000 nodes"]),
    (
        "spec-self-alias",
        {"spec.yaml": SPEC + "name: &n [*n]\n"},
        SWEEP,
        ["spec.yaml: refused: an alias inside its own"],
    ),
    ("spec-merge-bomb", {"spec.yaml": SPEC + MERGE_BOMB}, SWEEP, ["spec.yaml: refused: its aliases repeat"]),
    ("spec-too-deep", {"spec.yaml": SPEC + DEEP}, SWEEP, ["spec.yaml: refused: nested deeper than 64 levels"]),
    ("spec-latin1", {"spec.yaml": SPEC.encode() + b"name: caf\xe9\n"}, SWEEP, ["spec.yaml: is not UTF-8 text", "0xe9"]),
    (
        "spec-utf16",
        {"spec.yaml": SPEC.encode("utf-16")},
        SWEEP,
        ["spec.yaml: is not UTF-8 text (byte 0xff at offset 0)"],
    ),
    ("spec-bad-date", {"spec.yaml": SPEC + "description: 2024-13-45\n"}, SWEEP, ["spec.yaml: malformed YAML value"]),
    ("spec-bad-int-tag", {"spec.yaml": SPEC + "workers: !!int x\n"}, SWEEP, ["spec.yaml: malformed YAML value"]),
    (
        "spec-python-tag",
        {"spec.yaml": SPEC + "name: !!python/name:os.system x\n"},
        SWEEP,
        ["spec.yaml: malformed YAML"],
    ),
    # -- counts, seeds and sizes in a sweep spec -----------------------------------------------
    (
        "seeds-1e8",
        {"spec.yaml": SPEC + "seeds: 100000000\n"},
        SWEEP,
        ["spec.yaml: seeds: expected a whole number from 1 to 100000, got 100000000"],
    ),
    (
        "seeds-zero",
        {"spec.yaml": SPEC + "seeds: 0\n"},
        SWEEP,
        ["spec.yaml: seeds: expected a whole number from 1 to 100000, got 0"],
    ),
    (
        "seed-2**32",
        {"spec.yaml": SPEC + "seeds: [1, 4294967296]\n"},
        SWEEP,
        ["spec.yaml: seeds[1]: expected a whole number < 2**32, got 4294967296"],
    ),
    (
        "seed-2**64",
        {"spec.yaml": SPEC + f"seeds: [{2**64}]\n"},
        SWEEP,
        ["spec.yaml: seeds[0]: ", "allowed: 0, 1, 2, ... 4294967295"],
    ),
    (
        "seed-negative",
        {"spec.yaml": SPEC + "seeds: [-1]\n"},
        SWEEP,
        ["spec.yaml: seeds[0]: expected a whole number >= 0, got -1"],
    ),
    ("seed-float", {"spec.yaml": SPEC + "seeds: [1.5]\n"}, SWEEP, ["spec.yaml: seeds[0]: expected a whole number"]),
    ("seed-string", {"spec.yaml": SPEC + "seeds: ['3']\n"}, SWEEP, ["spec.yaml: seeds[0]: expected a whole number"]),
    ("seed-bool", {"spec.yaml": SPEC + "seeds: [true]\n"}, SWEEP, ["spec.yaml: seeds[0]: expected a whole number"]),
    ("seeds-empty", {"spec.yaml": SPEC + "seeds: []\n"}, SWEEP, ["spec.yaml: seeds: the list is empty"]),
    (
        "trials-1e8",
        {"spec.yaml": SPEC + "trials: 100000000\n"},
        SWEEP,
        ["spec.yaml: trials: expected a whole number from 1 to 1000, got 100000000"],
    ),
    (
        "trials-zero",
        {"spec.yaml": SPEC + "trials: 0\n"},
        SWEEP,
        ["spec.yaml: trials: expected a whole number from 1 to 1000, got 0"],
    ),
    (
        "max-steps-negative",
        {"spec.yaml": SPEC + "max_steps: -5\n"},
        SWEEP,
        ["spec.yaml: max_steps: expected a whole number from 1 to 1000, got -5"],
    ),
    (
        "max-steps-huge",
        {"spec.yaml": SPEC + "max_steps: 10000000\n"},
        SWEEP,
        ["spec.yaml: max_steps: ", "allowed: 1, 2, ... 1000"],
    ),
    (
        "workers-1e8",
        {"spec.yaml": SPEC + "workers: 100000000\n"},
        SWEEP,
        ["spec.yaml: workers: expected a whole number from 1 to 512"],
    ),
    ("variations-empty", {"spec.yaml": SPEC + "variations: []\n"}, SWEEP, ["spec.yaml: variations: the list is empty"]),
    ("variation-plus", {"spec.yaml": SPEC + "variations: ['+']\n"}, SWEEP, ["spec.yaml: variations[0]: an empty pack"]),
    ("variation-double-plus", {"spec.yaml": SPEC + "variations: [dark_theme++german]\n"}, SWEEP, ["variations[0]:"]),
    ("variation-mapping", {"spec.yaml": SPEC + "variations: [[dark_theme]]\n"}, SWEEP, ["spec.yaml: variations[0]: "]),
    (
        "sample-n-1e8",
        {"spec.yaml": SPEC + "variations: [{sample: {n: 100000000}}]\n"},
        SWEEP,
        ["variations[0].sample.n: expected a whole number from 1 to 10000, got 100000000"],
    ),
    (
        "sample-n-negative",
        {"spec.yaml": SPEC + "variations: [{sample: {n: -3}}]\n"},
        SWEEP,
        ["variations[0].sample.n: expected a whole number from 1 to 10000, got -3"],
    ),
    ("sample-n-text", {"spec.yaml": SPEC + "variations: [{sample: {n: many}}]\n"}, SWEEP, ["spec.yaml: variations[0]"]),
    (
        "sample-seed-2**32",
        {"spec.yaml": SPEC + f"variations: [{{sample: {{seed: {2**32}}}}}]\n"},
        SWEEP,
        ["variations[0].sample.seed: expected a whole number < 2**32"],
    ),
    (
        "sample-extra-key",
        {"spec.yaml": SPEC + "variations: [{sample: {n: 2, m: 3}}]\n"},
        SWEEP,
        ["variations[0].sample.m: unknown key; allowed: n, seed"],
    ),
    (
        "episodes-over-cap",
        {"spec.yaml": SPEC.replace("todo.add_item", "'todo.*'") + "seeds: 100000\n"},
        SWEEP,
        ["episodes per sweep"],
    ),
    (
        "viewport-zero",
        {"spec.yaml": SPEC + "viewports: ['0x0']\n"},
        SWEEP,
        ["spec.yaml: viewport: '0x0' is out of range"],
    ),
    (
        "viewport-huge",
        {"spec.yaml": SPEC + "viewports: [99999x720]\n"},
        SWEEP,
        ["spec.yaml: viewport: ", "100 to 10000"],
    ),
    ("temperature-nan", {"spec.yaml": SPEC + "temperatures: [.nan]\n"}, SWEEP, ["spec.yaml: temperatures[0]: "]),
    # -- agent configs -------------------------------------------------------------------------
    ("config-alias-bomb", {"cfg.yaml": BOMB}, (*RUN, "--agent-config", "cfg.yaml"), ["cfg.yaml: refused: its aliases"]),
    (
        "config-latin1",
        {"cfg.yaml": b"agent: oracle\n# \xff\n"},
        (*RUN, "--agent-config", "cfg.yaml"),
        ["cfg.yaml: is not"],
    ),
    (
        "config-bad-value",
        {"cfg.yaml": "agent: oracle\nx: !!float y\n"},
        (*RUN, "--agent-config", "cfg.yaml"),
        ["cfg.yaml"],
    ),
    (
        "config-unknown-option",
        {"cfg.yaml": "colour: red\n"},
        (*RUN, "--agent", "lexical", "--agent-config", "cfg.yaml"),
        ["cfg.yaml: colour: unknown option"],
    ),
    # -- variation packs (a file, a folder) -----------------------------------------------------
    (
        "pack-alias-bomb",
        {"bomb.yaml": BOMB},
        (*RUN, "--variation", "bomb.yaml"),
        ["bomb.yaml: refused"],
    ),
    (
        "pack-latin1",
        {"p.yaml": b"description: caf\xe9\n"},
        (*RUN, "--variation", "p.yaml"),
        ["p.yaml: is not UTF-8 text"],
    ),
    (
        "pack-folder-latin1",
        {"pk/pack.yaml": "description: d\n", "pk/todo.yaml": b"title: caf\xe9\n"},
        (*RUN, "--variation", "./pk"),
        ["pk/todo.yaml: is not UTF-8 text"],
    ),
    (
        "pack-too-deep",
        {"p.yaml": "description: d\n" + DEEP},
        (*RUN, "--variation", "p.yaml"),
        ["p.yaml: refused: nested"],
    ),
    (
        "set-alias-bomb",
        {},
        (
            "variations",
            "show",
            "default",
            "--set",
            "todo.title={" + BOMB.replace("description:\n", "").replace("\n", ", ") + "}",
        ),
        ["--set"],
    ),
    # -- command-line flags ---------------------------------------------------------------------
    ("run-seed-2**32", {}, (*RUN, "--seed", str(2**32)), ["--seed: expected a whole number < 2**32, got '4294967296'"]),
    ("run-seed-arabic-digits", {}, (*RUN, "--seed", "٣"), ["--seed: '٣' is not a whole number"]),
    ("run-seed-superscript", {}, (*RUN, "--seed", "²"), ["--seed: '²' is not a whole number"]),
    ("run-variation-plus", {}, (*RUN, "--variation", "+"), ["variation: an empty pack name in '+'"]),
    ("run-variation-trailing-plus", {}, (*RUN, "--variation", "dark_theme+"), ["an empty pack name in 'dark_theme+'"]),
    (
        "run-max-steps-1e8",
        {},
        (*RUN, "--max-steps", "100000000"),
        ["--max-steps: expected a whole number from 1 to 1000, got '100000000'"],
    ),
    ("run-viewport-zero", {}, (*RUN, "--viewport", "0x0"), ["--viewport: viewport: '0x0' is out of range"]),
    (
        "tasks-seeds-1e8",
        {},
        ("tasks", "--seeds", "100000000"),
        ["--seeds: expected a whole number from 0 to 100000, got '100000000'"],
    ),
    (
        "sample-n-flag-1e8",
        {},
        ("variations", "sample", "--n", "100000000", "--out", "out"),
        ["--n: expected a whole number from 1 to 10000"],
    ),
    (
        "sample-seed-flag",
        {},
        ("variations", "sample", "--seed", str(2**40), "--out", "out"),
        ["--seed: expected a whole number < 2**32"],
    ),
    ("serve-seed-negative", {}, ("serve", "--seed", "-1"), ["--seed: expected a whole number >= 0, got '-1'"]),
    (
        "sweep-workers-flag",
        {"spec.yaml": SPEC},
        (*SWEEP, "--workers", "100000000"),
        ["--workers: expected a whole number from 1 to 512"],
    ),
    (
        "gallery-width",
        {},
        ("gallery", "--width", "5", "--out", "out"),
        ["--width: expected a whole number from 100 to 10000, got '5'"],
    ),
    (
        "report-loop-repeats",
        {},
        ("report", ".", "--loop-repeats", "-3"),
        ["--loop-repeats: expected a whole number from 2 to 1000, got '-3'"],
    ),
    (
        "offline-seeds",
        {},
        ("offline", "--tasks", "todo.add_item", "--seeds", "-4", "--out", "out"),
        ["--seeds: expected a whole number >= 0, got '-4'"],
    ),
    # -- a failed command leaves no folder behind -----------------------------------------------
    ("export-no-runs", {"empty/x": ""}, ("export", "empty", "--out", "out"), ["empty: results.jsonl: not found"]),
    (
        "offline-no-gold",
        {},
        ("offline", "nothing-here", "--agent", "oracle", "--out", "out/deep"),
        ["GOLD: nothing-here"],
    ),
    ("offline-no-episode", {"g/x": ""}, ("offline", "g", "--agent", "oracle", "--out", "out"), ["GOLD"]),
    # -- a misspelt name: the few closest allowed names, and a long list named by its listing ----
    (
        "task-misspelt",
        {},
        ("run", "--task", "todo.add_iten", "--backend", "text"),
        [
            "--task: task: unknown name 'todo.add_iten' (did you mean todo.add_item, todo.add_count_open or "
            "todo.edit_item?); allowed: one of ",
            " task ids; openapps tasks (MCP: list_tasks) lists them",
        ],
    ),
    (
        "agent-misspelt",
        {},
        (*RUN, "--agent", "oracel"),
        ["--agent: agent: unknown name 'oracel' (did you mean oracle?); allowed: anthropic, lexical, openai, oracle"],
    ),
    (
        "variation-misspelt",
        {},
        (*RUN, "--variation", "dark_them"),
        [
            "variation: unknown name 'dark_them' (did you mean dark_theme?); allowed: one of ",
            " packs or random-<seed>; openapps variations (MCP: list_variations) lists them",
        ],
    ),
    (
        "spec-name-misspelt",
        {},
        ("sweep", "papr", "--out", "out"),
        ["papr: no such sweep spec file (did you mean paper?); allowed: a path, or one of ", "openapps sweep --help"],
    ),
    (
        "spec-path-missing",  # a path, not a name: the shipped specs are still what is listed
        {},
        ("sweep", "specs/mine.yaml", "--out", "out"),
        ["specs/mine.yaml: no such sweep spec file; allowed: a path, or one of ", "openapps sweep --help"],
    ),
    (
        "option-misspelt",
        {},
        (*RUN, "--model", "m", "-o", "temprature=0.5"),
        ["-o: temprature: unknown option (did you mean temperature?); allowed: action_space, "],
    ),
    (
        "base-url-not-a-url",  # else the run goes on and every step fails as the agent's own
        {},
        (*RUN, "--model", "m", "--base-url", "localhost:8000/v1"),
        ["agent options: base_url: 'localhost:8000/v1' is not an http(s) URL; allowed: e.g. http://127.0.0.1:8000/v1"],
    ),
    (
        "spec-agent-option-value",  # found when the agent is built: the spec and its entry are named
        {"spec.yaml": "tasks: [todo.add_item]\nbackends: [text]\nagents: [{name: openai, base_url: x}]\n"},
        SWEEP,
        ["spec.yaml: agents[0]: model: required: the model name the server expects"],
    ),
    (
        "config-option-misspelt",
        {"cfg.yaml": "agent: openai\nmodle: x\n"},
        (*RUN, "--agent-config", "cfg.yaml"),
        ["cfg.yaml: modle: unknown option (did you mean model or obs_mode?); allowed: action_space, "],
    ),
    ("command-misspelt", {}, ("swep", "spec.yaml"), ["argument COMMAND: invalid choice: 'swep' (did you mean sweep?)"]),
    (
        "backend-flag-misspelt",
        {},
        ("run", "--task", "todo.add_item", "--backend", "txt"),
        ["argument --backend: invalid choice: 'txt' (did you mean text?); allowed: chromium, text"],
    ),
    (
        "language-flag-misspelt",
        {},
        (*RUN, "--language", "dee"),
        ["argument --language: invalid choice: 'dee' (did you mean de?); allowed: en, "],
    ),
    (
        "spec-key-misspelt",
        {"spec.yaml": SPEC + "seeed: 3\n"},
        SWEEP,
        ["spec.yaml: seeed: unknown key (did you mean seeds?)"],
    ),
    (
        "spec-task-misspelt",
        {"spec.yaml": SPEC.replace("todo.add_item", "todo.add_iten")},
        SWEEP,
        [
            "spec.yaml: tasks[0]: unknown name 'todo.add_iten' (did you mean todo.add_item, todo.add_count_open or todo.edit_item?)"
        ],
    ),
    (
        "spec-agent-misspelt",
        {"spec.yaml": SPEC.replace("oracle", "oracel")},
        SWEEP,
        ["spec.yaml: agents[0].name: unknown name 'oracel' (did you mean oracle?)"],
    ),
    (
        "spec-inline-option-misspelt",
        {"spec.yaml": SPEC.replace("[oracle]", "[{name: lexical, max_app: 2}]")},
        SWEEP,
        ["spec.yaml: agents[0].max_app: unknown option (did you mean max_apps?); allowed: name, config, label, "],
    ),
    (
        "spec-style-misspelt",
        {"spec.yaml": SPEC + "style: plian\n"},
        SWEEP,
        ["spec.yaml: style: unknown style 'plian' (did you mean plain?); allowed: plain, casual, context"],
    ),
    (
        "spec-backend-misspelt",
        {"spec.yaml": SPEC.replace("[text]", "[txt]")},
        SWEEP,
        ["spec.yaml: backends[0]: unknown backend 'txt' (did you mean text?); allowed: chromium, text"],
    ),
    (
        "spec-interface-misspelt",
        {"spec.yaml": SPEC + "interface: apii\n"},
        SWEEP,
        ["spec.yaml: interface: unknown interface 'apii' (did you mean api?); allowed: gui, api, mixed"],
    ),
    (
        "pack-field-misspelt",
        {"p.yaml": "description: d\ntheme:\n  colours: {}\n"},
        (*RUN, "--variation", "p.yaml"),
        ["p.yaml: theme.colours: unknown key (did you mean colors?); allowed: colors, font, "],
    ),
    (
        "set-key-misspelt",
        {},
        ("variations", "show", "default", "--set", "todo.titel=X"),
        ["--set: todo.titel: unknown key (did you mean title or items?); allowed: title, description, "],
    ),
]


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def refused_lines(tmp_path, monkeypatch, capsys, files: dict, argv) -> list[str]:
    """The error lines of ``openapps ARGV`` run in a folder holding ``files``, once it is checked
    that the command exited 2, quickly, without a traceback and without writing anything."""
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISPLAY", raising=False)
    before = _files(tmp_path)
    started = time.monotonic()
    try:
        code = main(list(argv))  # an exception escaping here is a traceback for the user
    except SystemExit as e:  # argparse's own errors
        code = e.code
    seconds = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert _files(tmp_path) == before, "the command wrote something"
    assert seconds < 20, f"{seconds:.1f} s to refuse it"
    return [line for line in err.splitlines() if "error:" in line]


@pytest.mark.parametrize("files, argv, words", [c[1:] for c in CLI_CASES], ids=[c[0] for c in CLI_CASES])
def test_a_bad_input_is_one_sentence_and_writes_nothing(tmp_path, monkeypatch, capsys, files, argv, words):
    lines = refused_lines(tmp_path, monkeypatch, capsys, files, argv)
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]


# (id, files to write, command line, words each error line holds: one line per problem, in order)
MULTI_CASES = [
    (
        "spec-three-mistakes",
        {
            "spec.yaml": "agents: [{name: lexical, max_app: 2}]\ntasks: [todo.add_iten]\nseeds: [1, -4]\nbackends: [text]\n"
        },
        SWEEP,
        [
            "spec.yaml: agents[0].max_app: unknown option (did you mean max_apps?); allowed: name, config, label, ",
            "spec.yaml: tasks[0]: unknown name 'todo.add_iten' (did you mean todo.add_item, todo.add_count_open or ",
            "spec.yaml: seeds[1]: expected a whole number >= 0, got -4; allowed: 0, 1, 2, ... 4294967295",
        ],
    ),
    (
        "spec-every-key",
        {
            "spec.yaml": "agents: [oracel]\ntasks: [todo.add_item]\nvariations: [germn]\nseeed: 3\nstyle: plian\n"
            "backends: [txt]\ntrials: 0\n"
        },
        SWEEP,
        [
            "spec.yaml: agents[0].name: unknown name 'oracel' (did you mean oracle?)",
            "spec.yaml: variations[0]: unknown name 'germn' (did you mean german?)",
            "spec.yaml: seeed: unknown key (did you mean seeds?)",
            "spec.yaml: style: unknown style 'plian' (did you mean plain?)",
            "spec.yaml: backends[0]: unknown backend 'txt' (did you mean text?)",
            "spec.yaml: trials: expected a whole number from 1 to 1000, got 0",
        ],
    ),
    (
        "spec-pack-and-config",
        {
            "spec.yaml": "agents: [{name: lexical, config: cfg.yaml}]\ntasks: [todo.add_item]\nvariations: [p.yaml]\n"
            "backends: [text]\n",
            "cfg.yaml": "max_app: 2\n",
            "p.yaml": "description: d\ntheme:\n  colours: {}\n",
        },
        SWEEP,
        [
            "p.yaml: theme.colours: unknown key (did you mean colors?)",
            "cfg.yaml: max_app: unknown option (did you mean max_apps?)",
        ],
    ),
    (
        "config-three-mistakes",
        {"cfg.yaml": "agent: openai\nmodle: x\ntemperature: hot\nmax_tokns: 3\n"},
        (*RUN, "--agent-config", "cfg.yaml"),
        [
            "cfg.yaml: modle: unknown option (did you mean model or obs_mode?)",
            "cfg.yaml: temperature: expected a number, got 'hot'",
            "cfg.yaml: max_tokns: unknown option (did you mean max_tokens, max_actions or max_tokens_param?)",
        ],
    ),
    (
        "run-flags-four-mistakes",
        {},
        ("run", "--task", "todo.add_iten", "--variation", "germn+dark_them", "--agent", "lexical", "-o", "max_app=2"),
        [
            "--task: task: unknown name 'todo.add_iten' (did you mean todo.add_item, ",
            "variation: unknown name 'germn' (did you mean german?)",
            "variation: unknown name 'dark_them' (did you mean dark_theme?)",
            "-o: max_app: unknown option (did you mean max_apps?); allowed: max_apps, stop_message",
        ],
    ),
    (
        "pack-three-fields",
        {"p.yaml": "description: d\ntodo:\n  titel: X\n  itemz: []\ntheme:\n  colours: {}\n"},
        (*RUN, "--variation", "p.yaml"),
        [
            "p.yaml: todo.titel: unknown key (did you mean title or items?)",
            "p.yaml: todo.itemz: unknown key (did you mean items, theme or title?)",
            "p.yaml: theme.colours: unknown key (did you mean colors?)",
        ],
    ),
]


@pytest.mark.parametrize("files, argv, lines", [c[1:] for c in MULTI_CASES], ids=[c[0] for c in MULTI_CASES])
def test_every_problem_of_an_input_is_one_line_in_one_run(tmp_path, monkeypatch, capsys, files, argv, lines):
    """An input with several mistakes reports each on its own line (file, key, what is allowed)
    in one run, where it used to take one run per mistake."""
    got = refused_lines(tmp_path, monkeypatch, capsys, files, argv)
    assert len(got) == len(lines), got
    for line, words in zip(got, lines, strict=True):
        assert words in line, line


def test_a_misspelt_task_is_a_short_message(tmp_path, monkeypatch, capsys):
    """The closest ids and where the list is, instead of every id (2.2 KB before)."""
    (line,) = refused_lines(tmp_path, monkeypatch, capsys, {}, ("run", "--task", "todo.add_iten"))
    assert len(line) < 300 and "calendar.add_event" not in line, line


def test_every_count_and_seed_rule_is_probed():
    """The table is broad: at least 40 distinct inputs over specs, configs, packs and flags."""
    assert len({c[0] for c in CLI_CASES}) == len(CLI_CASES) >= 60


# -- task_kwargs, reset and MCP's reset: the same rules, raised as ConfigError ----------------------
def _make(**task_kwargs):
    from openapps_sim.envs.registration import make_env

    return make_env("todo.add_item", task_kwargs=task_kwargs, backend="text")


def _reset(seed=None, **options):
    env = _make()
    try:
        env.reset(seed=seed, options=options)
    finally:
        env.close()


def _mcp_reset(seed=0, variation="default"):
    from openapps_sim.service.session import EnvSession

    EnvSession().reset("todo.add_item", variation, seed, "auto", "bid", {"width": 1280, "height": 720}, backend="text")


API_CASES = [
    ("kwargs-unknown-key", lambda: _make(colour="red"), "task_kwargs: colour: unknown key; allowed: variation, seed"),
    ("kwargs-typo", lambda: _make(variaton="german"), "task_kwargs: variaton: unknown key"),
    (
        "kwargs-seed-2**32",
        lambda: _make(seed=2**32),
        "task_kwargs: seed: expected a whole number < 2**32, got 4294967296",
    ),
    ("kwargs-seed-string", lambda: _make(seed="3"), "task_kwargs: seed: expected a whole number, got '3'"),
    ("kwargs-seed-float", lambda: _make(seed=2.0), "task_kwargs: seed: expected a whole number, got 2.0"),
    ("kwargs-style", lambda: _make(style="shouty"), "task_kwargs: style: unknown style 'shouty'"),
    ("kwargs-termination", lambda: _make(termination="never"), "task_kwargs: termination: unknown termination"),
    ("kwargs-variation-plus", lambda: _make(variation="german+"), "task_kwargs: variation: an empty pack name"),
    ("reset-seed-2**32", lambda: _reset(seed=2**32), "reset: seed: expected a whole number < 2**32"),
    ("reset-seed-negative", lambda: _reset(seed=-1), "reset: seed: expected a whole number >= 0, got -1"),
    (
        "reset-max-steps-negative",
        lambda: _reset(max_steps=-1),
        "reset: options.max_steps: expected a whole number from 1 to 1000, got -1",
    ),
    ("reset-kwargs-key", lambda: _reset(task_kwargs={"bogus": 1}), "reset options.task_kwargs: bogus: unknown key"),
    ("mcp-seed-2**32", lambda: _mcp_reset(seed=2**32), "reset: seed: expected a whole number < 2**32"),
    ("mcp-variation-plus", lambda: _mcp_reset(variation="+"), "reset: variation: an empty pack name in '+'"),
]


@pytest.mark.parametrize("call, words", [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES])
def test_bad_task_kwargs_are_one_config_error(call, words):
    with pytest.raises(ConfigError) as caught:
        call()
    message = str(caught.value)
    assert words in message and "\n" not in message, message
