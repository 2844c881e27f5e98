"""Task families (see docs/tasks.md)."""
