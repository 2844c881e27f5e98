"""The task families of the todo app."""
