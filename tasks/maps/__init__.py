"""The task families of the maps app."""
