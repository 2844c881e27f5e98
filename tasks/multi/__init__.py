"""The task families of several apps together."""
