"""The infeasible family of the messenger: the goal names something it does not hold (the base and
what such a family is: ``tasks/infeasible.py``)."""

from __future__ import annotations

from openapps_sim.tasks.infeasible import InfeasibleFamily

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import family, pick
from openapps_sim.taskkit.language import words


def missing_contact_names(state: dict) -> list[str]:
    """A contact's first name with another contact's surname, where no contact has that name
    (nor a name containing it, so searching for it finds nobody)."""
    names = [c["name"] for c in state["messenger"]["contacts"]]
    parts = [n.split(" ", 1) for n in names if " " in n.strip()]
    folded = [norm_text(n) for n in names]
    out = []
    for i, (first, _) in enumerate(parts):
        for j, (_, last) in enumerate(parts):
            name = f"{first} {last}"
            if i != j and not any(norm_text(name) in f for f in folded) and name not in out:
                out.append(name)
    return out


@family("messenger.message_unknown_contact", apps="messenger", max_steps=8)
class MessageUnknownContact(InfeasibleFamily):
    """Send a message to a contact who is not in the contact list (infeasible: report it, change
    nothing)."""

    def sample(self, state, config, rng):
        name = pick(rng, missing_contact_names(state), "name of a missing contact")
        return {"name": name, "text": rng.choice(words(config, "messenger.new_messages"))}

    searched_in = "messenger"

    def reason(self, params):
        return f"There is no contact named {params['name']!r}."
