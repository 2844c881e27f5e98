"""The base of the infeasible families (one per app: ``tasks/<app>/infeasible.py``): the goal
names something this world does not hold, so it cannot be done.

The right answer is to say so (``report_infeasible(...)``) and to change nothing: success is the
report with the complete state unchanged, under either termination mode; adding a similar
product, messaging a similar contact or renaming onto the existing file fails. What the goal
names is made from the world's own content, in its language, so that it reads like any other
goal: a product of one series under another series' name ("Zephyr Mixing Bowl" where only
"Aurora Mixing Bowl" is on sale), a contact's first name with another contact's surname, a
todo or an event title the task content offers that the list does not hold, a sibling file's
name, a place the gazetteer does not know. Each seed also draws a start state (which todos are
done, the cart, extra saved places), and what is missing is part of the instance
(``infeasible_target``).

The oracle looks first (opens the app, searches for the name or opens the form) and then
reports; under the api interface it reads the app's data and reports.
"""

from __future__ import annotations

from openapps_sim.tasks.picks import open_shop

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import TaskFamily


class InfeasibleFamily(TaskFamily):
    """Success is ``report_infeasible`` with nothing changed (the expected state is the initial one)."""

    infeasible = True
    category = "infeasible"
    structure = "single"
    target_key = "name"

    def plan(self, params, initial):
        """Nothing: the world must stay as it is."""
        return []

    def infeasible_target(self, params):
        return f"{self.id}:{params[self.target_key]}"

    def reason(self, params) -> str:
        return f"{params[self.target_key]!r} does not exist here"

    def solve_api(self, params, api):
        yield api.read(self.apps[0])
        yield api.report_infeasible(self.reason(params))

    #: for families whose oracle looks the name up first: the app whose search box it tries
    searched_in = ""

    def solve(self, params, ui):
        """Open the app, search for the name, then report."""
        yield from (open_shop(ui) if self.searched_in == "shop" else ui.open_app(self.searched_in))
        yield ui.fill(f"{self.searched_in}-search", params[self.target_key])
        yield ui.click(f"{self.searched_in}-search-submit")
        yield ui.report_infeasible(self.reason(params))


def taken_names(names) -> set[str]:
    return {norm_text(n) for n in names}


# -- todo ------------------------------------------------------------------------------------------


# -- calendar --------------------------------------------------------------------------------------


# -- messenger -------------------------------------------------------------------------------------


# -- shop ------------------------------------------------------------------------------------------


# -- code editor -----------------------------------------------------------------------------------


# -- maps ------------------------------------------------------------------------------------------
