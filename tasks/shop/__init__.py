"""The task families of the shop app."""
