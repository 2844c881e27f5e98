"""Sweep specifications shipped with the package (YAML; see docs/sweeps.md)."""
