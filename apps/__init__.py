"""The apps. Each sub-package exposes ``APP`` (an :class:`openapps_sim.appkit.AppSpec`)."""
