"""Perception questions (``openapps questions``, docs/questions.md): multiple-choice questions
derived from a world's state and the accessibility tree of an app's page, asked of any agent
with the page's tree or screenshot, and scored per kind, app and pack.

``kinds`` (the question kinds and their registry), ``pagekinds`` and ``statekinds`` (the
kinds), ``tree`` (a page's accessibility tree read into nodes), ``options`` (seeded
distractors), ``generate`` (apps × packs × seeds), ``qfile`` (the JSONL file), ``answer`` (what
an agent is shown and how its reply is read; the oracle and the random chooser), ``run`` (the
questions asked in an environment) and ``scores`` (accuracy per kind, app and pack, and the
spread within and across versions). Importing this package loads none of them.
"""
