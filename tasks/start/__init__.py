"""The task families of the start page."""
