"""Small described apps (docs/apps/spec.md) that several test modules write to a folder."""

# two plants in two rooms, one of them thirsty: a create and a toggle action
PLANTS = """
title: Leafy
category: House & Home
collections:
  plants:
    label: Plants
    title: name
    fields:
      name: {type: text}
      room: {type: choice, choices: [kitchen, bedroom]}
      thirsty: {type: boolean}
    actions: {create: true, toggle: [thirsty]}
    records:
      - {name: Monstera, room: kitchen}
      - {name: Fern, room: bedroom, thirsty: true}
"""
