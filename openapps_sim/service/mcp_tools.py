"""The MCP server's own tools (``openapps mcp``): the catalogue of tasks and packs, and one
episode per MCP session (reset, observe, act, reward). Each session's environment is found
through the server (``Sessions`` on ``mcp.sessions``, :mod:`openapps_sim.service.mcp_server`)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.fastmcp import Context, Image
from mcp.types import ImageContent, TextContent
from pydantic import WithJsonSchema

from openapps_sim.config.limits import SEED_LIMIT
from openapps_sim.config.packs import list_packs, pack_description
from openapps_sim.envs.actions import ACTION_SPACES
from openapps_sim.envs.apptools import DEFAULT_INTERFACE
from openapps_sim.errors import unknown_name
from openapps_sim.service.mcp_results import Episode, PackInfo, Reward, Step, TaskInfo, Tasks, Variations
from openapps_sim.service.session import OBSERVE_MODES, EnvSession
from openapps_sim.sweeps.record import parse_viewport
from openapps_sim.taskkit import all_families

# A seed as the client sent it: the schema says a whole number, and the one seed rule
# (config.limits.check_seed, run by the world spec) checks it, so that "3", 3.0 or true is
# refused here as it is by gym.make, a sweep spec and OpenEnv (pydantic would turn them into 3, 3, 1).
Seed = Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 0, "maximum": SEED_LIMIT - 1})]


def _session(ctx: Context) -> EnvSession:
    """The environment of the MCP session ``ctx`` belongs to."""
    return ctx.fastmcp.sessions.get(ctx)


def _parse_viewport(text: str) -> dict:
    return parse_viewport(text, "reset")


def list_tasks(app: str = "") -> Tasks:
    """The task families (id, apps, description, step budget, and for a task that returns a
    value the answer's type and JSON Schema); `app` filters by app name."""
    families = all_families()
    apps = sorted({a for f in families.values() for a in f.apps})
    if app and app not in apps:
        raise unknown_name("list_tasks", "app", app, apps, listing="openapps apps", noun="apps", what="app")
    rows = [
        TaskInfo(
            id=fid,
            apps=list(f.apps),
            description=f.description,
            max_steps=f.max_steps,
            answer_schema=f.answer_spec() if f.returns_value else None,
        )
        for fid, f in families.items()
        if not app or app in f.apps
    ]
    return Tasks(tasks=rows)


def list_variations() -> Variations:
    """The shipped variation packs (name and description). Compose them with '+', e.g.
    'dark_theme+german'; 'random-<seed>' generates a version."""
    return Variations(variations=[PackInfo(name=n, description=pack_description(n)) for n in list_packs()])


async def reset(
    ctx: Context,
    task: str,
    variation: str = "default",
    seed: Seed = 0,
    language: str = "auto",
    action_space: str = "bid",
    viewport: str = "1280x720",
    interface: str = DEFAULT_INTERFACE,
    backend: str = "chromium",
    termination: str = "auto",
) -> Episode:
    """Start an episode of `task` in app version `variation` with task seed `seed`; returns the
    goal, in `language` (auto: the app version's own). `action_space`: bid (element ids), coord
    (pixels) or all. `interface`: gui (page actions only, the default, as in a sweep), api (app
    tools only) or mixed (both); the app tools are listed once an episode's interface has them.
    `backend`: chromium (a real browser) or text (no browser, the same accessibility tree; no
    screenshots). `termination`: auto (the episode ends once the state is right) or agent (only
    when you declare it done with send_msg_to_user or report_infeasible, or at the step budget).
    A task that returns a value gives `answer_schema`: the answer's type and JSON Schema."""
    env = _session(ctx)
    vp = _parse_viewport(viewport)
    had_tools = env.listed_tool_apps()
    result = await env.call(
        env.reset, task, variation, seed, language, action_space, vp, interface, backend, termination
    )
    if env.listed_tool_apps() != had_tools:  # the tools this session lists have changed
        await ctx.session.send_tool_list_changed()
    return Episode(**result)


async def observe(ctx: Context, mode: str = "text") -> list[TextContent | ImageContent]:
    """The current page: 'text' (accessibility tree with [bid] marks), 'screenshot' or 'both'."""
    if mode not in OBSERVE_MODES:
        raise unknown_name("observe", "mode", mode, OBSERVE_MODES, what="mode", keep_order=True)
    env = _session(ctx)
    out: list[TextContent | ImageContent] = []
    if mode in ("text", "both"):
        out.append(TextContent(type="text", text=await env.call(env.observe_text)))
    if mode in ("screenshot", "both"):
        out.append(Image(data=await env.call(env.screenshot_png), format="png").to_image_content())
    return out


async def act(ctx: Context, action: str) -> Step:
    """Run one BrowserGym action string, e.g. click('12'), fill('7', 'oat milk'),
    select_option('9', 'Friday'), goto('/todo/') (a path is resolved against app_url()),
    send_msg_to_user('3 items')."""
    env = _session(ctx)
    return Step(**await env.call(env.act, action))


async def get_reward(ctx: Context) -> Reward:
    """The episode's reward (the environment's verdict after its last step, your answer or report
    included), with its partial reward once the episode has ended, and the episodes this session
    ended before (attempts). A server started for an evaluator, openapps mcp --evaluator, shows
    it at any time and explains which state paths differ."""
    env = _session(ctx)
    return Reward(**await env.call(env.reward))


def describe_action_space(space: str = "bid") -> str:
    """The actions of an action space (bid, coord or all) with their signatures and examples."""
    from openapps_sim.envs.env import action_set  # BrowserGym's action sets: loaded when asked for

    if space not in ACTION_SPACES:
        raise unknown_name("describe_action_space", "space", space, ACTION_SPACES, what="action space", keep_order=True)
    return action_set(space).describe(with_long_description=False, with_examples=True)


async def app_url(ctx: Context) -> str:
    """The address of this session's apps. The world there answers only this session's own
    browser: it changes only through the episode's counted actions (watch it with observe)."""
    env = _session(ctx)
    return await env.call(env.app_url)


async def close(ctx: Context) -> str:
    """End this session's episode and free its browser."""
    env = _session(ctx)
    await env.call(env.close)
    return "closed"


# in the order clients list them
TOOLS = [list_tasks, list_variations, reset, observe, act, get_reward, describe_action_space, app_url, close]
# tools whose result is content blocks (a page's text and image), not an object
UNSTRUCTURED = {observe}
