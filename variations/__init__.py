"""Variation packs shipped with the package (YAML files and folders; see docs/variations.md)."""
