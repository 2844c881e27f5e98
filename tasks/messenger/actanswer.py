"""Act, then answer, on the messenger: send a message, then answer how many messages the
conversation holds now (see taskkit/answers.py, ``ActAnswerFamily``)."""

from __future__ import annotations

from openapps_sim.apps.messenger import model as logic
from openapps_sim.tasks.messenger.edits import SendMessage, read_chat

from openapps_sim.taskkit import family
from openapps_sim.taskkit.answers import ActAnswerFamily, pack_lang
from openapps_sim.taskkit.language import words


@family("messenger.send_then_count", apps="messenger", max_steps=10, category="count", answer_kind="number")
class SendThenCount(SendMessage, ActAnswerFamily):
    """Send a given text to a given contact, then answer how many messages the conversation with
    them holds now (theirs and ours)."""

    def sample(self, state, config, rng):
        """A seeded start state: zero to three more messages the contact sent first (``arrivals``)."""
        params = SendMessage.sample(self, state, config, rng)
        arrivals = rng.sample(words(config, "messenger.incoming"), rng.randint(0, 3))
        return dict(params, arrivals=[a for a in arrivals if a != params["text"]], lang=pack_lang(config))

    def prepare(self, state, params):
        for text in params.get("arrivals", []):
            logic.receive(state["messenger"], params["contact_id"], text)

    def answer(self, state, params):
        return str(len(state["messenger"]["conversations"].get(params["contact_id"], [])))

    def answer_pages(self, params):
        return [f"/messenger/chat/{params['contact_id']}"]

    def solve(self, params, ui):
        """Send the message, then count the bubbles of the chat page it stays on."""
        obs = yield from ui.through(SendMessage.solve(self, params, ui))
        yield ui.answer(str(len(read_chat(obs))))
