"""BrowserGym's lenient reading of an action string -- every call found anywhere in the text --
in time linear in the text.

BrowserGym's ``HighLevelActionSet.to_python_code`` (not ``strict``) runs its pyparsing grammar's
``search_string``, which tries the whole grammar at every character: about 0.4 ms a character
on prose and quadratic on long runs of letters (a minute for 100,000 of them). A call can only
start where an identifier does (pyparsing's, Latin-1 letters) whose run of identifier characters
is followed, after white space, by ``(`` (or a ``#`` comment, which the grammar skips); trying
a later character of the same run gives the same failure as the run's first letter (the same
identifier end, the same text after it); and the search skips a ``#`` comment to the end of its
line wherever its character-by-character walk meets one (inside quotes too). :func:`find_calls` tries the grammar at those
places only, and finds exactly the calls ``search_string`` finds (``tests/test_raw_env_input.py``
compares the two on random text). Both backends read actions through it.
"""

from __future__ import annotations

import re

import pyparsing as pp
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.action.parsers import highlevel_action_parser

_IDENTIFIER = pp.pyparsing_common.identifier
_RUNS = re.compile("[" + "".join(re.escape(c) for c in sorted(_IDENTIFIER.bodyChars)) + "]+")
_STARTS = frozenset(_IDENTIFIER.initChars)
_NEXT = re.compile("[" + re.escape(pp.ParserElement.DEFAULT_WHITE_CHARS) + "]*[(#]")
_LOCATED = pp.Located(highlevel_action_parser).parse_with_tabs()  # the text is expanded once


def find_calls(text: str) -> list:
    """``sum(highlevel_action_parser.search_string(text).as_list(), [])``: the calls in ``text``
    as ``[name, [args...]]`` lists, found in linear time (see the module's docstring)."""
    if not highlevel_action_parser.keepTabs:
        text = text.expandtabs()  # as pyparsing reads its input (tabs in strings too)
    calls: list = []
    end = scanned = 0  # where the search goes on; up to where no ``#`` is left unseen
    for run in _RUNS.finditer(text):
        if not _NEXT.match(text, run.end()):
            continue
        start = next((i for i in range(run.start(), run.end()) if text[i] in _STARTS), None)
        if start is None:
            continue
        end = _past_comments(text, max(end, scanned), start, end)
        scanned = start
        if run.start() < end:
            continue
        try:
            _, found, stop = _LOCATED.parse_string(text[start:])
        except pp.ParseException:
            continue
        calls.extend(found.as_list())
        end = start + stop
    return calls


def _past_comments(text: str, frm: int, to: int, end: int) -> int:
    """Where the search goes on (``end``, or later): the search, stepping through the text one
    character at a time, skips a ``#`` comment to the end of its line wherever it meets one."""
    hash_at = text.find("#", frm, to)
    while hash_at >= 0:
        newline = text.find("\n", hash_at)
        end = len(text) if newline < 0 else newline
        if end >= to:
            break
        hash_at = text.find("#", end, to)
    return end


def check_calls(action_set: HighLevelActionSet, calls: list) -> None:
    """Refuse the parsed ``(name, args)`` calls of one action string as BrowserGym does: none,
    several where ``action_set`` takes one, or a function outside its actions."""
    if not calls:
        raise ValueError("Received an empty action.")
    if len(calls) > 1 and not action_set.multiaction:
        raise ValueError("Received a multi-action, only single-actions are allowed.")
    for name, _ in calls:
        if name not in action_set.action_set:
            raise NameError(f"Invalid action type '{name}'.")


def python_code(action_set: HighLevelActionSet, action: str) -> str:
    """What ``action_set.to_python_code(action)`` returns (or raises), for a lenient (not
    ``strict``) action set, with the calls found by :func:`find_calls`."""
    calls = find_calls(action)
    check_calls(action_set, calls)
    lines = [f"{name}({', '.join(repr(arg) for arg in args)})\n" for name, args in calls]
    return action_set.python_includes + "".join(lines)


def fast_mapping(mapping, action):
    """``mapping(action)``, through :func:`python_code` when ``mapping`` is a lenient BrowserGym
    action set's ``to_python_code`` (any other mapping, a harness's own, is called as it is)."""
    owner = getattr(mapping, "__self__", None)
    if isinstance(owner, HighLevelActionSet) and not owner.strict and isinstance(action, str):
        return python_code(owner, action)
    return mapping(action)
