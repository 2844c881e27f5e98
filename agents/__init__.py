"""Agents (see docs/agents.md)."""
