"""Perception drift, after D-GARA (arXiv 2511.16590): once a crash has restarted an app, an
agent may keep acting on the page it saw *before* the restart. A step counts as **stale** when
its action names a ``bid`` that was on a page from before the restart and aims, on the page the
action was taken on, at an element that no longer exists or is another element now.

Bids are counted afresh on every page load (document order, as BrowserGym counts them), so the
same number names unrelated elements on two pages; the number alone says nothing. What is
compared is the element's identity -- role, accessible name and ``data-testid`` -- on the page
from before the restart (where a stale agent saw it) and on the page the action was taken on:

* the bid is on no element now: the element it named **no longer exists** (stale);
* the bid names the element it named before: the same element, nothing drifted;
* the bid names another element, and the element it named before is still on the page under
  another bid: the agent's id **points at another element now** (stale);
* the bid names another element and the one it named before is gone (or had neither a name nor
  a test id, so it cannot be found again): the action is what an agent reading the current page
  would do, and nothing tells it from one -- not counted. An agent that picks its elements on
  the page in front of it (the oracle) is therefore never flagged however the bids were
  renumbered.

Only what every backend reports is used: the ``bid``, role and name of each element of the
accessibility tree and the test ids of the DOM (the server writes the bids into the page, so
they are the same on Chromium and on the text backend) and the interruption log of the world
(``kind: crash``, the env step it was shown after and the env step that answered it). Env steps
and runner steps differ where an action never reached the env (an invalid action), so the step
log records, for each runner step, how many env steps were done before it (``seen``).

For a crash shown after env step ``j`` and answered by env step ``r``, the pages "from before
the restart" are the ones the env actions ``j`` .. ``r`` were taken on (the last page before the
crash and the crash screen itself); the steps taken after env step ``r`` are checked against
them, up to the end of the episode (against the latest restart when there were several). A
coordinate action names no element and is never stale; without a restart nothing is.
"""

from __future__ import annotations

from collections.abc import Sequence

Elements = dict[str, tuple[str, ...]]
"""The elements of one page: bid -> (role, name, test id) (``steplog.page_elements`` reads them;
the test id "" where there is none)."""

CRASH = "crash"


def restarts(shown: Sequence[dict]) -> list[tuple[int, int]]:
    """``(shown_after, answered_by)`` env steps of each crash that was answered (a crash left on
    screen restarted nothing)."""
    out = []
    for entry in shown:
        if entry.get("kind") != CRASH or entry.get("resolved_step") is None or entry.get("step") is None:
            continue
        out.append((int(entry["step"]), int(entry["resolved_step"])))
    return sorted(out, key=lambda pair: pair[1])


def _before(restart: tuple[int, int], seen: Sequence[int], pages: Sequence[Elements]) -> dict[str, set]:
    """bid -> the elements it named on the pages env actions ``j`` .. ``r`` were taken on."""
    first, last = restart
    out: dict[str, set] = {}
    for done, page in zip(seen, pages, strict=True):
        if first - 1 <= done <= last - 1:
            for bid, element in page.items():
                out.setdefault(bid, set()).add(element)
    return out


def stale_steps(
    targets: Sequence[str | None], seen: Sequence[int], pages: Sequence[Elements], shown: Sequence[dict]
) -> list[bool]:
    """Per runner step, whether its action aimed at an element of a page from before a restart.

    ``targets``: the bid each step's action names (None: none); ``seen``: env steps done before
    each step; ``pages``: the elements of the page each step was taken on; ``shown``: the
    episode's interruption log."""
    flags = [False] * len(targets)
    done_restarts = restarts(shown)
    if not done_restarts:
        return flags
    olds = [_before(r, seen, pages) for r in done_restarts]
    for i, (bid, done, page) in enumerate(zip(targets, seen, pages, strict=True)):
        latest = [old for (_, answered), old in zip(done_restarts, olds, strict=True) if done >= answered]
        if bid is None or not latest or bid not in latest[-1]:
            continue
        flags[i] = _stale(latest[-1][bid], page.get(bid), page)
    return flags


def _findable(element: tuple[str, ...]) -> bool:
    """Whether an element can be found again on another page: it has a name or a test id."""
    return any(element[1:])


def _stale(before: set, now: tuple[str, ...] | None, page: Elements) -> bool:
    """Whether an action on a bid that named the elements ``before`` (on the pages from before
    the restart) and names ``now`` (None: nothing) on ``page`` aims at an element that no
    longer exists or is another element now."""
    if now is None:
        return True
    if now in before:
        return False
    here = set(page.values())
    return any(_findable(element) and element in here for element in before)


def stale_count(flags: Sequence[bool], shown: Sequence[dict]) -> int | None:
    """The episode's stale actions, or None when no crash restarted an app (nothing to drift from)."""
    return sum(1 for f in flags if f) if restarts(shown) else None
