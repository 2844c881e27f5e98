"""dev/mutants.py [GROUP ...]: mutation testing of the scoring and metric code (``make mutants``).

Each group is one module (or a few) of the reward, normalisation, answer-matching and metric code,
run by mutmut (a dev tool from PyPI, installed by ``make mutants``, not by ``make test``) against
the group's own fast tests: text and logic only, no Chromium. A group runs in its own scratch
folder, ``runs/mutants/<group>/``, holding a copy of ``openapps_sim/`` and ``tests/`` and a
``pyproject.toml`` that names the group's modules and test files, so mutmut's first pass (which
test covers which function) runs only those tests and each mutant runs only the tests that reach
its function.

A surviving mutant listed in ``docs/mutants.md`` (its mutmut name in backticks at the start of a
table row) is counted as *equivalent*: no test can tell it from the code. The figures (killed,
survived, equivalent, timeout, no tests) are printed and written to ``runs/mutants/mutants.json``
with every survivor's diff; the exit status is 1 when a group's score, killed / (mutants -
equivalent), is under ``MIN_SCORE`` or the run itself failed.

``MUTANTS_JOBS`` (default 1) is the number of mutants run at once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "runs" / "mutants"
EQUIVALENT_DOC = ROOT / "docs" / "mutants.md"
MIN_SCORE = 0.95
MAX_DIFFS = 25
FAST = "not browser and not slow"

# group -> (modules mutated, test files run against them): the fast tests that reach the module
DECISION_TESTS = [
    "test_changes_the_world_makes_on_its_own_are_no_operations_of_the_agent",
    "test_wlcs_weights_later_gold_steps_more",
    "test_an_operation_matches_on_what_the_log_records",
    "test_decisions_per_depth",
    "test_milestone_summary",
]
METRIC_TESTS = ["tests/test_metric_rules.py", "tests/test_metrics.py"]
GROUPS: dict[str, tuple[list[str], list[str]]] = {
    "normalise": (
        ["openapps_sim/config/normalise.py"],
        ["tests/test_normalise_rules.py", "tests/test_normalise_reuse.py"],
    ),
    "reward": (
        ["openapps_sim/taskkit/reward.py"],
        [
            "tests/test_reward_rules.py",
            "tests/test_reward_diff_rules.py",
            "tests/test_reward_memo_rules.py",
            "tests/test_normalise_reuse.py",
        ],
    ),
    "scoring": (
        ["openapps_sim/taskkit/scoring.py", "openapps_sim/taskkit/progress.py"],
        [
            "tests/test_reward_rules.py",
            "tests/test_scoring_rules.py",
            "tests/test_progress_rules.py",
            *(f"tests/test_decisions.py::{t}" for t in DECISION_TESTS),
        ],
    ),
    "metrics.stats": (["openapps_sim/analysis/metrics/stats.py"], [*METRIC_TESTS, "tests/test_metric_stats_rules.py"]),
    "metrics.values": (
        ["openapps_sim/analysis/metrics/values.py"],
        [*METRIC_TESTS, "tests/test_metric_values_rules.py"],
    ),
    "metrics.robustness": (
        ["openapps_sim/analysis/metrics/robustness.py"],
        ["tests/test_metric_rules.py", "tests/test_robustness.py", "tests/test_metric_robustness_rules.py"],
    ),
    "metrics.drift": (
        ["openapps_sim/analysis/metrics/drift.py"],
        ["tests/test_metric_rules.py", "tests/test_robustness.py", "tests/test_metric_drift_rules.py"],
    ),
    "metrics.table": (
        ["openapps_sim/analysis/metrics/table.py"],
        [*METRIC_TESTS, "tests/test_metric_table_rules.py", "tests/test_metric_prepare_rules.py"],
    ),
    "metrics.rates": (["openapps_sim/analysis/metrics/rates.py"], [*METRIC_TESTS, "tests/test_metric_rates_rules.py"]),
    "metrics.completion": (
        ["openapps_sim/analysis/metrics/completion.py"],
        [*METRIC_TESTS, "tests/test_metric_completion_rules.py"],
    ),
    "metrics.progress": (
        ["openapps_sim/analysis/metrics/progress.py"],
        [*METRIC_TESTS, "tests/test_metric_progress_rules.py"],
    ),
    "metrics.reliability": (
        ["openapps_sim/analysis/metrics/reliability.py"],
        [*METRIC_TESTS, "tests/test_metric_reliability_rules.py"],
    ),
    "metrics.categories": (
        ["openapps_sim/analysis/metrics/categories.py"],
        ["tests/test_metric_rules.py", "tests/test_categories.py", "tests/test_metric_categories_rules.py"],
    ),
    "metrics.behaviour": (
        ["openapps_sim/analysis/metrics/behaviour.py"],
        [*METRIC_TESTS, "tests/test_metric_behaviour_rules.py"],
    ),
    "metrics.axes": (["openapps_sim/analysis/metrics/axes.py"], [*METRIC_TESTS, "tests/test_metric_axes_rules.py"]),
    "metrics.breaks": (
        ["openapps_sim/analysis/metrics/breaks.py"],
        [*METRIC_TESTS, "tests/test_metric_breaks_rules.py", "tests/test_metric_breaks_section_rules.py"],
    ),
    "metrics.paper": (
        ["openapps_sim/analysis/metrics/paper.py"],
        [*METRIC_TESTS, "tests/test_metric_paper_rules.py", "tests/test_metric_paper_section_rules.py"],
    ),
    # answer matching: the families' answer rules, the typed values read out of a reply, number words
    "answers": (
        [
            "openapps_sim/taskkit/answers.py",
            "openapps_sim/taskkit/answervalues.py",
            "openapps_sim/taskkit/numberwords.py",
        ],
        [
            "tests/test_answers.py",
            "tests/test_answer_matrix.py",
            "tests/test_answer_value_rules.py",
            "tests/test_number_word_rules.py",
            "tests/test_answer_family_rules.py",
        ],
    ),
}
# a name that is a prefix of groups runs them all (``metrics``: every metric module)


def expand(names: list[str]) -> list[str] | None:
    out: list[str] = []
    for name in names:
        hits = [g for g in GROUPS if g == name or g.startswith(name + ".")]
        if not hits:
            return None
        out += [g for g in hits if g not in out]
    return out


STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped"}
TIMEOUTS = {-24, 24, 36, 152, 255}


def status_of(code: int | None) -> str:
    if code is None:
        return "not run"
    if code in TIMEOUTS:
        return "timeout"
    return STATUS.get(code, "suspicious")


def equivalent_names() -> set[str]:
    """The mutant names docs/mutants.md lists as equivalent (a table row starting with one)."""
    if not EQUIVALENT_DOC.exists():
        return set()
    text = EQUIVALENT_DOC.read_text(encoding="utf-8")
    return set(re.findall(r"^\|\s*`([\w.]+__mutmut_\d+)`", text, flags=re.MULTILINE))


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(i) for i in items) + "]"


def prepare(group: str, modules: list[str], tests: list[str]) -> Path:
    """A fresh scratch folder for ``group``: the package, the tests and mutmut's configuration."""
    work = OUT / group
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("openapps_sim", "tests"):
        shutil.copytree(ROOT / folder, work / folder, ignore=ignore)
    write_config(group, work, modules, tests)
    return work


def write_config(group: str, work: Path, modules: list[str], tests: list[str]) -> None:
    """mutmut's configuration in ``work``: the modules to mutate and the group's tests (as
    ``GROUPS`` names them now: a rerun after new test files takes them in)."""
    missing = [t for t in tests if not (ROOT / t.split("::")[0]).exists()]
    if missing:
        raise SystemExit(f"dev/mutants.py: group {group!r} names test files that do not exist: {missing}")
    (work / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        'source_paths = ["openapps_sim"]\n'
        f"only_mutate = {toml_list(modules)}\n"
        f"pytest_add_cli_args = {toml_list(['-p', 'no:randomly', '-p', 'no:xdist', '-p', 'no:cacheprovider', '-m', FAST])}\n"
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
        "timeout_multiplier = 10.0\n"
        "\n[tool.pytest.ini_options]\n"
        'markers = ["browser: drives a real headless Chromium", "slow: long sweeps"]\n'
        'python_functions = ["test_*"]\n',
        encoding="utf-8",
    )


def results(work: Path) -> dict[str, int | None]:
    """mutant name -> mutmut's exit code, from the ``.meta`` files mutmut leaves."""
    codes: dict[str, int | None] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes.update(data.get("exit_code_by_key", {}))
    return codes


def diff_of(work: Path, name: str) -> str:
    shown = subprocess.run([mutmut(), "show", name], cwd=work, capture_output=True, text=True, check=False)
    return shown.stdout.strip()


def mutmut() -> str:
    return str(Path(sys.executable).with_name("mutmut"))


def run_group(group: str, jobs: int) -> Path:
    """mutmut over ``group`` in a fresh scratch folder; its wall time and exit status are kept there."""
    modules, tests = GROUPS[group]
    work = prepare(group, modules, tests)
    started = time.monotonic()
    with open(work / "mutmut.log", "w", encoding="utf-8") as log:
        proc = subprocess.run(
            [mutmut(), "run", "--max-children", str(jobs)], cwd=work, stdout=log, stderr=subprocess.STDOUT, check=False
        )
    run = {"seconds": round(time.monotonic() - started, 1), "exit_code": proc.returncode, "jobs": jobs}
    (work / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return work


def rerun_survivors(group: str, jobs: int) -> Path:
    """The group's surviving mutants (and those not run, or that no test reached) again, against
    the tests as they are now: the tests are copied afresh (with the group's test files as
    ``GROUPS`` names them now) and mutmut's map of which test reaches which function is made anew;
    every other mutant keeps its verdict, and so does a survivor docs/mutants.md lists as
    equivalent (no test can kill it; running it again costs a full run of the group's tests)."""
    work = OUT / group
    codes = results(work)
    equivalent = equivalent_names()
    names = sorted(
        n for n, c in codes.items() if c is None or (status_of(c) != "killed" and not (c == 0 and n in equivalent))
    )
    shutil.rmtree(work / "tests")
    shutil.copytree(ROOT / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    write_config(group, work, *GROUPS[group])
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    run = json.loads((work / "run.json").read_text(encoding="utf-8"))
    started = time.monotonic()
    with open(work / "mutmut-rerun.log", "w", encoding="utf-8") as log:
        proc = subprocess.run(
            [mutmut(), "run", "--max-children", str(jobs), *names],
            cwd=work,
            stdout=log,
            stderr=subprocess.STDOUT,
            check=False,
        )
    run.update(rerun_seconds=round(time.monotonic() - started, 1), rerun_exit_code=proc.returncode, rerun=len(names))
    (work / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return work


def refresh(work: Path, modules: list[str]) -> None:
    """The scratch folder's copies of ``openapps_sim/`` and ``tests/`` made afresh from the
    worktree, its ``mutants/`` kept; the mutated modules' copies dated now, so that mutmut makes
    their mutants again: it keeps the verdict of every mutant whose function's text is unchanged
    and clears it for a function that changed."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("openapps_sim", "tests"):
        shutil.rmtree(work / folder, ignore_errors=True)
        shutil.copytree(ROOT / folder, work / folder, ignore=ignore)
    for module in modules:
        os.utime(work / module)


def resume_group(group: str, jobs: int) -> Path:
    """The group's mutants without a verdict (a run stopped part way) run against the package and
    the tests as they are now; every verdict already found is kept (``--survivors`` then runs the
    survivors again). mutmut's map of which test reaches which function is made anew. A group
    never run is run in full."""
    work = OUT / group
    if not (work / "mutants").is_dir():
        return run_group(group, jobs)
    modules, tests = GROUPS[group]
    refresh(work, modules)
    write_config(group, work, modules, tests)
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    before = json.loads((work / "run.json").read_text(encoding="utf-8")) if (work / "run.json").exists() else {}
    unrun = sum(1 for c in results(work).values() if c is None)
    started = time.monotonic()
    with open(work / "mutmut-resume.log", "w", encoding="utf-8") as log:
        proc = subprocess.run(
            [mutmut(), "run", "--max-children", str(jobs)], cwd=work, stdout=log, stderr=subprocess.STDOUT, check=False
        )
    seconds = round(time.monotonic() - started, 1)
    run = {"jobs": jobs, **before}  # seconds: of every run of the group this folder has a record of
    run.update(seconds=before.get("seconds", 0.0) + seconds, exit_code=proc.returncode, resume_seconds=seconds)
    run.update(resumed=unrun)
    (work / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return work


def summarise(group: str, work: Path, equivalent: set[str]) -> dict:
    """The figures of a group's finished run (its scratch folder), equivalent mutants counted apart."""
    modules, tests = GROUPS[group]
    run = json.loads((work / "run.json").read_text(encoding="utf-8"))
    statuses = {name: status_of(code) for name, code in results(work).items()}
    for name, status in statuses.items():
        if status == "survived" and name in equivalent:
            statuses[name] = "equivalent"
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    judged = len(statuses) - counts.get("equivalent", 0)
    score = counts.get("killed", 0) / judged if judged else 1.0
    survivors = sorted(n for n, s in statuses.items() if s not in ("killed", "equivalent"))
    return {
        "group": group,
        "modules": modules,
        "tests": tests,
        "mutants": len(statuses),
        "counts": counts,
        "score": round(score, 4),
        **run,
        "log": str((work / "mutmut.log").relative_to(ROOT)),
        # a diff costs a mutmut process: the first MAX_DIFFS survivors get one, the rest their name
        "survivors": {
            n: {"status": statuses[n], "diff": diff_of(work, n) if i < MAX_DIFFS else ""}
            for i, n in enumerate(survivors)
        },
    }


def line(r: dict) -> str:
    c = r["counts"]
    return (
        f"{r['group']:<20} {r['mutants']:>5} mutants  killed {c.get('killed', 0):>4}  survived {c.get('survived', 0):>3}"
        f"  equivalent {c.get('equivalent', 0):>3}  timeout {c.get('timeout', 0):>2}  no tests {c.get('no tests', 0):>3}"
        f"  score {r['score']:.1%}  {r['seconds']:.0f} s"
    )


def main(argv: list[str]) -> int:
    """``dev/mutants.py [--report | --survivors | --resume] [GROUP ...]``: run the groups (all by
    default); ``--report`` only reads the figures of the groups' last runs; ``--survivors`` runs
    the last runs' surviving mutants again (after new tests); ``--resume`` runs only the mutants a
    stopped run left without a verdict."""
    report_only = "--report" in argv
    survivors_only = "--survivors" in argv
    resume = "--resume" in argv
    argv = [a for a in argv if a not in ("--report", "--survivors", "--resume")]
    wanted = expand(argv) if argv else list(GROUPS)
    if wanted is None:
        print(f"dev/mutants.py: unknown group in {argv}; the groups are {list(GROUPS)}", file=sys.stderr)
        return 2
    jobs = int(os.environ.get("MUTANTS_JOBS", "1"))
    equivalent = equivalent_names()
    OUT.mkdir(parents=True, exist_ok=True)
    report_path = OUT / "mutants.json"
    failed = False
    for group in wanted:
        work = OUT / group
        if report_only or survivors_only:
            if not (work / "run.json").exists():
                print(f"{group:<20} not run")
                continue
            if survivors_only:
                rerun_survivors(group, jobs)
        else:
            print(f"mutants: {group} ({', '.join(GROUPS[group][0])}) ...", flush=True)
            work = resume_group(group, jobs) if resume else run_group(group, jobs)
        r = summarise(group, work, equivalent)
        # read again just before writing: another run may have added its groups meanwhile
        report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
        report[group] = r
        report_path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(line(r), flush=True)
        for name, s in r["survivors"].items():
            print(f"  {s['status']}: {name}\n    " + s["diff"].replace("\n", "\n    "))
        if r["exit_code"] != 0 or r["score"] < MIN_SCORE:
            failed = True
            if r["exit_code"] != 0:
                print(f"  mutmut exited {r['exit_code']}: see {r['log']}")
    print(f"mutants: written to {report_path.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
