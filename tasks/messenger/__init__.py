"""The task families of the messenger app."""
