"""The report's headline, made to read at a glance: it fits a 1280-px screen (each interval on a
line of its own under its value; a column that says the same thing for every agent, such as no
tokens or no unscored episode, is left out and said once under the table), and its per-agent
ranges say how they differ from Figure 4, which leaves out the tasks an agent never solved."""

from __future__ import annotations

import re
from typing import Any

from openapps_sim.analysis.doc.blocks import Bullets, Cell, P, Section, Shown, Table
from openapps_sim.analysis.doc.cells import agent_cell
from openapps_sim.analysis.doc.fmt import DASH, fmt_pct
from openapps_sim.analysis.metrics.reliability import version_label, version_success
from openapps_sim.analysis.metrics.stats import success_rate
from openapps_sim.analysis.report.analysis import Analysis, headline_headers, headline_rows

# columns left out when every agent reads this value in them, and what is said instead
QUIET_COLUMNS = {
    "Tokens (USD)": (DASH, "no tokens recorded (no agent called a model)"),
    "Agent exceptions": ("0", "no agent exception"),
    "Not scored (infra / model)": ("0 / 0", "no episode left unscored (infrastructure / model service)"),
}
_INTERVAL = re.compile(r"^(?P<value>.+?) (?P<interval>\[[^\]]*\]|\(\$[^)]*\))$")


def stacked(text: str) -> Cell | str:
    """``51.7% [40.0, 65.0]`` as its value over its interval (and ``7,170 ($0.43)`` as tokens over
    cost) in HTML; the same text in Markdown."""
    from fasthtml.common import Br, Span

    found = _INTERVAL.match(text)
    if not found:
        return text
    return Cell(text, Span(found["value"], Br(), Span(found["interval"], cls="ci")))


def quiet_columns(headers: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]], list[str]]:
    """The headers and rows without the columns of :data:`QUIET_COLUMNS` that read the same
    quiet value for every agent, and a phrase for each column left out."""
    keep, said = [], []
    for i, h in enumerate(headers):
        values = {r[i] for r in rows}
        if h in QUIET_COLUMNS and rows and values == {QUIET_COLUMNS[h][0]}:
            said.append(QUIET_COLUMNS[h][1])
        else:
            keep.append(i)
    return [headers[i] for i in keep], [[r[i] for i in keep] for r in rows], said


def headline(a: Analysis) -> Section:
    headers, rows, said = quiet_columns(headline_headers(a.headline), headline_rows(a.headline, a.deviation_ci))
    rows = [[agent_cell(a, r[0]), *[stacked(c) for c in r[1:]]] for r in rows]
    blocks: list[Any] = [Table(headers, rows, cls="headline")]
    if said:
        blocks.append(P(f"The same for every agent, so not a column: {'; '.join(said)}.", cls="muted"))
    blocks.append(Bullets(range_sentences(a)))
    return Section("headline", "Headline", blocks)


def kept_tasks(a: Analysis) -> dict[str, tuple[int, int]]:
    """Per agent: the tasks Figure 4 keeps (those it solved in some version) and all its tasks."""
    per = success_rate(a.df, ["agent", "task"])
    out = {}
    for ag in a.agents:
        g = per[per["agent"] == ag]
        out[str(ag)] = (int((g["successes"] > 0).sum()), len(g))
    return out


def range_sentences(a: Analysis) -> list[str]:
    """Per agent: the best and worst version by average task success over all its tasks, and
    where Figure 4 (which leaves out the tasks the agent never solved) reads otherwise, what it reads."""
    out = []
    vs = a.agent_versions
    fig4 = version_success(a.df, ["agent"], a.version, drop_unsolved=True)
    kept = kept_tasks(a)
    for ag in a.agents:
        g = vs[vs["agent"] == ag]
        if len(g) < 2:
            continue
        hi, lo = g.loc[g["success_rate"].idxmax()], g.loc[g["success_rate"].idxmin()]
        name = lambda r: version_label([r[c] for c in a.version])  # noqa: E731
        n_kept, n_all = kept.get(str(ag), (0, 0))
        if hi["success_rate"] == lo["success_rate"]:
            text = f"{ag}: average task success is {fmt_pct(hi['success_rate'])} in each of its {len(g)} versions"
        else:
            text = (
                f"{ag}: average task success over all {n_all} tasks ranges from {fmt_pct(lo['success_rate'])} "
                f"({name(lo)}) to {fmt_pct(hi['success_rate'])} ({name(hi)}) across {len(g)} versions"
            )
        f = fig4[fig4["agent"] == ag]
        if n_kept < n_all and len(f):
            text += (
                f"; Figure 4 leaves out the {n_all - n_kept} task(s) it never solved and reads "
                f"{fmt_pct(f['success_rate'].min())} to {fmt_pct(f['success_rate'].max())}"
            )
        elif n_kept < n_all:
            text += "; Figure 4 leaves it out (it solved no task)"
        out.append(text + ".")
    return out


SHOWN = [Shown(10, lambda d: headline(d.a), summary=True)]
