"""``openapps questions``: perception questions (docs/questions.md).

``generate`` derives multiple-choice questions from each world's state and each app's page
(apps × packs × seeds) into a JSONL file; ``run`` asks an agent every question on its page and
writes its answers and scores; ``kinds`` lists the question kinds.

Commands import what only they need (the environments, pandas) inside their functions, so that
``openapps --help`` and the other commands start without it.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from openapps_sim.cli.agentflags import add_agent_flags, agent_choice
from openapps_sim.cli.args import HelpFormatter, add_command, positive, seed, variation
from openapps_sim.errors import ConfigError, Problems, unknown_name

BACKENDS = ("text", "chromium")


SUMMARY = "perception questions: generate multiple-choice questions about app pages, ask an agent, score it"
DESCRIPTION = (
    "Multiple-choice questions derived from the world's state and each app's page (element "
    "content, state, location, identification, interaction, counting, navigation), asked of any agent "
    "with the page's tree or screenshot, scored per kind, app and pack (docs/questions.md)."
)


def add_parser(sub) -> None:
    s = add_command(sub, "questions", SUMMARY, DESCRIPTION)
    qs = s.add_subparsers(dest="action", required=True, metavar="ACTION", help="generate, run or kinds")
    g = qs.add_parser(
        "generate", formatter_class=HelpFormatter, help="write questions over apps x packs x seeds to a JSONL file"
    )
    g.add_argument(
        "--packs", nargs="+", type=variation, default=None,
        help="pack expressions (default: every shipped pack but the live interruptions and pop-ups)",
    )  # fmt: skip
    g.add_argument("--seeds", nargs="+", type=seed, default=[0], help="world seeds (default: 0)")
    g.add_argument("--apps", nargs="+", default=None, help="only these apps (default: every app)")
    g.add_argument("--kinds", nargs="+", default=None, help="only these kinds (default: every kind)")
    g.add_argument("--out", required=True, help="the questions file to write (JSONL)")
    g.add_argument("--quiet", action="store_true", help="no progress line per world (default: off)")
    g.set_defaults(func=cmd_generate)
    r = qs.add_parser("run", formatter_class=HelpFormatter, help="ask an agent the questions of a file and score it")
    r.add_argument("--questions", required=True, help="a questions file written by openapps questions generate")
    r.add_argument("--agent", default=None, help="oracle, random, an LLM agent or any agent (default: the config's)")
    r.add_argument("--agent-config", default=None, help="a YAML path or a name in agents/configs/ (default: none)")
    add_agent_flags(r)
    r.add_argument("--backend", choices=BACKENDS, default="text", help="text: the tree; chromium: screenshots too")
    r.add_argument("--seed", type=seed, default=0, help="the agent's seed (the random chooser's stream) (default: 0)")
    r.add_argument("--limit", type=positive, default=None, help="ask at most this many questions (default: all)")
    r.add_argument("--out", required=True, help="folder for answers.jsonl, questions.json and questions.md")
    r.set_defaults(func=cmd_run)
    k = qs.add_parser("kinds", formatter_class=HelpFormatter, help="list the question kinds")
    k.set_defaults(func=cmd_kinds)


def cmd_kinds(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.questions.registry import all_kinds

    for name, k in sorted(all_kinds().items()):
        doc = " ".join((type(k).__doc__ or "").split())
        print(f"{name:<16} {k.concept:<16} {doc}")
    return 0


def check_generate(args: argparse.Namespace) -> None:
    """Every problem of the apps and kinds named, at once."""
    from openapps_sim.analysis.questions.generate import question_apps
    from openapps_sim.analysis.questions.registry import all_kinds

    problems = Problems()
    apps = question_apps()
    for app in args.apps or []:
        with problems.guard():
            if app not in apps:
                raise unknown_name("--apps", "", app, apps, listing="openapps apps", what="app")
    for name in args.kinds or []:
        with problems.guard():
            if name not in all_kinds():
                raise unknown_name(
                    "--kinds", "", name, sorted(all_kinds()), listing="openapps questions kinds", what="kind"
                )
    problems.raise_any()


def cmd_generate(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.questions.generate import default_packs, generate
    from openapps_sim.analysis.questions.qfile import write_questions

    check_generate(args)
    packs = args.packs or default_packs()
    out = Path(args.out)
    if out.is_dir():
        raise ConfigError("--out", str(out), "is a folder", "a file path, e.g. questions.jsonl")
    seen: set[tuple[str, int]] = set()

    def progress(q) -> None:
        if not args.quiet and (q.pack, q.seed) not in seen:
            seen.add((q.pack, q.seed))
            print(f"world {len(seen)}/{len(packs) * len(args.seeds)}: {q.pack}, seed {q.seed}", file=sys.stderr)

    questions = generate(packs, args.seeds, args.apps, args.kinds, progress)
    write_questions(out, questions)
    kinds = collections.Counter(q.kind for q in questions)
    apps = len({q.app for q in questions})
    print(f"wrote {len(questions)} questions to {out} ({apps} apps, {len(packs)} packs, {len(args.seeds)} seeds)")
    for name, n in sorted(kinds.items()):
        print(f"  {name:<16} {n}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from openapps_sim.analysis.questions.qfile import read_questions
    from openapps_sim.analysis.questions.run import make_chooser, run_questions

    questions = read_questions(Path(args.questions))
    if args.limit is not None:
        questions = questions[: args.limit]
    choice = agent_choice(args, default="oracle")
    chooser = make_chooser(choice.name, choice.config, choice.overrides, args.seed)
    summary = run_questions(questions, chooser, Path(args.out), args.backend)
    print(
        f"{choice.label or choice.name}: {summary['n']} questions, accuracy {summary['accuracy']:.1%} "
        f"(chance {summary['chance']:.1%}), {summary['unanswered']} unanswered -> {args.out}"
    )
    for name, v in summary["by_kind"].items():
        print(f"  {name:<16} {v['accuracy']:6.1%}  (chance {v['chance']:.1%}, n={v['n']})")
    for row in summary["spread"]:
        print(
            f"  spread over {row['n_versions']} packs: within std {_num(row.get('within_std'))}, "
            f"across std {_num(row.get('across_std'))}"
        )
    return 0


def _num(value) -> str:
    return "—" if value is None else f"{value:.3f}"
