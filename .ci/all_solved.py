"""Fail (exit 1) when a sweep's results hold an episode that is not solved, naming each one;
``python .ci/all_solved.py RESULTS.jsonl [SPEC]`` (with SPEC: also when an episode of the spec
has no result yet)."""

from __future__ import annotations

import sys
from pathlib import Path

from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results


def unsolved(results: list[dict]) -> list[str]:
    return [
        f"{r['task']} / {r['variation']} / seed {r['seed']}: reward {r['reward']}"
        + (f", {r.get('error_kind') or 'error'}: {str(r['error'])[:200]}" if r.get("error") else "")
        for r in results
        if r.get("reward") != 1
    ]


def main(argv: list[str]) -> int:
    # the last record of each episode (a resumed sweep runs an infrastructure failure again)
    results = list({r["episode_id"]: r for r in read_results(Path(argv[0]))}.values())
    bad = unsolved(results)
    missing = 0
    if len(argv) > 1:
        done = {r["episode_id"] for r in results}
        try:
            episodes = load_spec(argv[1]).episodes()
        except ConfigError as err:
            print(err, file=sys.stderr)
            return 2
        missing = sum(1 for e in episodes if e.episode_id not in done)
    print(f"{argv[0]}: {len(results) - len(bad)} / {len(results)} episodes solved, {missing} without a result")
    for line in bad:
        print("  not solved:", line)
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
