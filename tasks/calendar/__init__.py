"""The task families of the calendar app."""
