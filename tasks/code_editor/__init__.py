"""The task families of the code_editor app."""
