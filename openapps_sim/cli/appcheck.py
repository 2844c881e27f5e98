"""What one round of ``openapps apps new`` checks in a model's ``app.yaml``: the format check
(``openapps apps check``), then the oracle over every family derived from the app, through the
pages and through the app tools on the text backend, in a sweep of its own process with the app
on the search path (so that nothing of the app stays in this process's catalogue)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from openapps_sim.config.discovery import check_app_folder
from openapps_sim.errors import ConfigError

ORACLE_TIMEOUT_S = 1800  # the whole oracle run of one round
SHOWN = 40  # the most problems one round reports


@dataclass
class OracleRun:
    """How a round's app is played: its name, seeds 0..seeds-1, the app version, both interfaces."""

    name: str
    seeds: int = 1
    variation: str = "default"
    taken: set[str] = field(default_factory=set)
    interfaces: tuple[str, ...] = ("gui", "api")


def round_problems(text: str, folder: Path, run: OracleRun) -> tuple[list[str], str]:
    """Every problem of the app ``text`` (written to ``folder/<name>/app.yaml``) and a one-line
    summary of the round: the format check's problems, else the families the oracle failed."""
    app = folder / run.name
    app.mkdir(parents=True)
    (app / "app.yaml").write_text(text, encoding="utf-8")
    problems = format_problems(app, run)
    if problems:
        return problems[:SHOWN], f"format check: {len(problems)} problems"
    problems, solved = oracle_problems(folder, run)
    return problems[:SHOWN], f"format check passed; oracle: {solved}"


def format_problems(app: Path, run: OracleRun) -> list[str]:
    """The format check's problems, each naming ``app.yaml`` (not this round's folder), the key
    and what is allowed."""
    try:
        spec = check_app_folder(app)
    except ConfigError as e:
        prefix = str(app) + os.sep
        return [str(one).replace(prefix, "") for one in e.each()]
    if spec.name != run.name:
        return [f"app.yaml: name: must be {run.name!r} or left out, got {spec.name!r}"]
    too_few = family_problem(spec, "app.yaml")
    return [str(too_few)] if too_few else []


MIN_FAMILIES = 8  # task families an app must derive (docs/apps/spec.md, "Checking")
#: what derives more families, for a description that derives too few: the marker of the
#: family ids it adds (after ``<app>.``) and what to write
MORE = (
    ("lookup_", "a field besides the title that every record fills in: a choice, a default (look a field up)"),
    ("create_", "actions.create: true on a collection (create a record; a todo to follow it up)"),
    ("delete_", "actions.delete: true (delete a record; delete one that is not there)"),
    ("edit_", "actions.edit: [fields] (edit a field)"),
    ("toggle_", "a boolean field in actions.toggle, or actions.star (toggle)"),
    ("set_", "a choice field as actions.status (set a status)"),
    ("count_", "filter or tabs: a choice field (count; with a price also total, average, highest / lowest)"),
    ("if_", "a choice field on a collection with two actions (a conditional)"),
    ("long_", "eight records or more in a collection with a status, a toggle, delete or edit (a long task)"),
    ("difference_", "price: a money or number field, in a collection of three records or more (difference)"),
    ("flow", "flows: a two-step flow (a booking, an order; with a date field also a calendar event, with "
     "a money total a message)"),
    ("change_setting", "settings: a toggle or a choice (change a setting)"),
)  # fmt: skip


def family_problem(spec, source: str) -> ConfigError | None:
    """One error when the described app ``spec`` derives fewer than :data:`MIN_FAMILIES` task
    families: how many and which, and what in the description would derive more."""
    from openapps_sim.taskkit.registry import derived_families

    desc = getattr(spec, "desc", None)
    ids = derived_families(spec.name, desc) if isinstance(desc, dict) else None
    if ids is None or len(ids) >= MIN_FAMILIES:
        return None
    kinds = [fid.split(".", 1)[1] for fid in ids]
    missing = [
        hint
        for marker, hint in MORE
        if not (desc["flows"] if marker == "flow" else any(k.startswith(marker) for k in kinds))
    ]
    return ConfigError(
        source,
        "",
        f"derives {len(ids)} task families ({', '.join(ids) or 'none'}); an app needs at least {MIN_FAMILIES}",
        "add what derives more: " + "; ".join(missing),
    )


def oracle_problems(folder: Path, run: OracleRun) -> tuple[list[str], str]:
    """The oracle's episodes over every family of the app (a sweep in a process of its own, the
    app's folder first on the search path): one problem per failed episode, and what was solved."""
    spec = folder / "oracle.yaml"
    seeds = ", ".join(str(s) for s in range(run.seeds))
    spec.write_text(
        f"name: new_{run.name}\nagents: [oracle]\ntasks: [{json.dumps(run.name + '.*')}]\nbackends: [text]\n"
        f"seeds: [{seeds}]\nvariations: [{json.dumps(run.variation)}]\n"
        f"interface: [{', '.join(run.interfaces)}]\nworkers: 1\n",
        encoding="utf-8",
    )
    out = folder / "oracle"
    search = os.pathsep.join(p for p in (str(folder), os.environ.get("OPENAPPS_APPS", "")) if p)
    command = [
        sys.executable,
        "-m",
        "openapps_sim.cli",
        "sweep",
        str(spec),
        "--out",
        str(out),
        "--quiet",
        "--no-report",
    ]
    done = subprocess.run(
        command,
        env={**os.environ, "OPENAPPS_APPS": search},
        capture_output=True,
        text=True,
        timeout=ORACLE_TIMEOUT_S,
    )
    if done.returncode != 0:
        said = [ln.removeprefix("openapps: error: ") for ln in done.stderr.strip().splitlines()[-SHOWN:]]
        prefix = str(folder / run.name) + os.sep
        return [f"the oracle could not play the app: {ln.replace(prefix, '')}" for ln in said], "could not run"
    return episode_problems(out / "results.jsonl")


def episode_problems(results: Path) -> tuple[list[str], str]:
    """One problem per episode the oracle did not solve (its family, seed, interface and what was
    wrong) and the count solved."""
    from openapps_sim.sweeps.store import read_results

    records = [r for r in {r["episode_id"]: r for r in read_results(results)}.values() if not _pages_only(r)]
    if not records:
        return ["the app has no task family: give a collection actions, a filter, a flow or settings"], "no family"
    problems = [describe_failure(r) for r in records if r.get("reward") != 1]
    families = {r["task"] for r in records}
    bad = {r["task"] for r in records if r.get("reward") != 1}
    solved = f"{len(records) - len(problems)} / {len(records)} episodes solved over {len(families)} families"
    return problems, solved + (f" ({len(bad)} failed)" if bad else "")


def _pages_only(record: dict) -> bool:
    """An episode through app tools of a family only pages can solve (a navigation goal): the
    oracle says so with ``report_infeasible`` and the episode fails by design, not by the app."""
    actions = record.get("actions") or []
    return (
        record.get("interface") == "api"
        and record.get("reward") != 1
        and bool(actions)
        and str(actions[0]).startswith("report_infeasible(")
    )


def describe_failure(record: dict) -> str:
    """What went wrong in an episode the oracle did not solve, for the model to fix."""
    where = f"family {record['task']} (seed {record['seed']}, {record.get('interface', 'gui')})"
    what = [f"reward {record.get('reward')}"]
    if record.get("error"):
        what.append(f"{record.get('error_kind') or 'error'}: {str(record['error'])[:300]}")
    if record.get("agent_error"):
        what.append(f"oracle: {str(record['agent_error'])[:300]}")
    diff = record.get("state_diff") or []
    if diff:
        what.append("state differs: " + "; ".join(str(d) for d in diff[:3])[:300])
    if record.get("goal"):
        what.append(f"goal was {record['goal']!r}")
    return f"{where}: " + ", ".join(what)
