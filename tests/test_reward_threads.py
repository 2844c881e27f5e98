"""The reward's memo of normalised app states is shared by the threads of one process (the
sessions of `openapps openenv` score on their own threads): filling and emptying it from several
threads at once never fails a step. Before the lock, 64 OpenEnv text sessions hit "dictionary
changed size during iteration" in `normalise_world` (found by `make bench`)."""

from __future__ import annotations

import sys
import threading

import pytest

from openapps_sim.taskkit import reward


def test_threads_filling_and_emptying_the_memo_at_once_never_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reward, "NORMALISED_KEPT", 3)  # every new state lets the oldest go
    monkeypatch.setattr(reward, "_NORMALISED", {})
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    errors: list[BaseException] = []

    def work(thread: int) -> None:
        try:
            for i in range(400):
                title = f"item {thread}-{i % 7}"
                state = {"todo": {"items": [{"id": "t1", "title": title, "done": False}]}}
                got = reward.normalise_world(state, memo=True)
                assert got["todo"] == reward.normalise_world(state)["todo"]
        except BaseException as e:  # noqa: BLE001 - collected and reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == [], f"{len(errors)} threads failed, the first with {errors[0]!r}"
    assert len(reward._NORMALISED) <= 3
