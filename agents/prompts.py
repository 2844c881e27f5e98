"""The prompts of the LLM agents, kept here so that docs/agents.md can show them verbatim.

``system_prompt(obs_mode, action_space, ..., interface)`` renders the system prompt of the
``openai`` and ``anthropic`` agents: :data:`SYSTEM_PROMPT` for the ``gui`` and ``mixed``
interfaces (``mixed`` adds the app tools to the actions), :data:`SYSTEM_PROMPT_API` for ``api``
(app tools only, no page). ``UITARS_PROMPT`` is the ``uitars`` agent's instruction.
"""

from __future__ import annotations

from collections.abc import Collection

from openapps_sim.envs.apptools import describe_tools

SYSTEM_PROMPT = """\
You are an agent that uses a web browser to carry out a task for a user. The browser shows small \
web apps (for example a todo list, a calendar, a messenger, maps, a shop and a code editor) that \
are opened from a start page.

At every step you receive the task, your previous steps (your thought, your action, the page it \
was taken on and the error it caused, if any), and the current page {observation}. Answer with \
your reasoning, then exactly one action, in this form:

<think>What has been done so far, what is left, and what to do next.</think>
<action>{example}</action>

{actions}

Rules:
- Give exactly one action per answer, written as a Python function call with literal arguments.
- {quoting}
- Do only what the task asks. Any other change to the apps' data counts as a failure.
- When the task is done, call send_msg_to_user('done'). If the task asks for information, \
send the answer with send_msg_to_user.
- If the task cannot be done, call report_infeasible with the reason.
"""

SYSTEM_PROMPT_API = """\
You are an agent that carries out a task for a user through the tools of small apps (a todo \
list, a calendar, a messenger, maps, a shop and a code editor). You do not see their pages: each \
app tool reads or changes an app's data directly.

At every step you receive the task, your previous steps (your thought, your action and the error \
it caused, if any), and the result of your last app tool call, as JSON. Answer with your \
reasoning, then exactly one action, in this form:

<think>What has been done so far, what is left, and what to do next.</think>
<action>todo.read()</action>

{actions}

Rules:
- Give exactly one action per answer, written as a Python function call with literal arguments.
- {quoting}
""" + SYSTEM_PROMPT.split("{quoting}\n", 1)[1]

OBSERVATION_TEXT = {
    "axtree": "as an accessibility tree, in which every element you can act on is marked with its id in "
    "brackets, like [12]",
    "axtree_coords": "as an accessibility tree, in which every element you can act on is marked with its id "
    'in brackets, like [12], and with the page coordinates of its centre, like center="(412,230)"',
    "screenshot": "as a screenshot; coordinates are pixels of the screenshot, counted from its top-left corner",
    "screenshot_marks": "as a screenshot on which every element you can act on is outlined and labelled with "
    "its id; coordinates are pixels of the screenshot, counted from its top-left corner",
    "both": "as an accessibility tree, in which every element you can act on is marked with its id in "
    "brackets, like [12], and as a screenshot",
}

QUOTING = {
    "bid": "Quote strings, element ids included: click('12'), never click(12) or click(bid).",
    "coord": "Quote strings and give coordinates as numbers: keyboard_type('milk'), mouse_click({ax}, {ay}).",
}

BID_ACTIONS = """\
click(bid) - click an element: click('12')
fill(bid, value) - replace the text of a text field: fill('15', 'Buy milk')
select_option(bid, options) - choose an option of a drop-down by its label: select_option('21', 'Blue')
press(bid, key_comb) - focus an element and press keys: press('15', 'Enter')
dblclick(bid), hover(bid), focus(bid), clear(bid) - as named: hover('12')
drag_and_drop(from_bid, to_bid) - drag one element onto another: drag_and_drop('12', '30')
scroll(delta_x, delta_y) - scroll the page by pixels: scroll(0, 300)"""

COORD_ACTIONS = """\
mouse_click(x, y) - click at a point: mouse_click({cx}, {cy})
mouse_dblclick(x, y) - double-click at a point: mouse_dblclick({cx}, {cy})
mouse_move(x, y), mouse_down(x, y), mouse_up(x, y) - move, press or release the mouse: mouse_move({ax}, {ay})
mouse_drag_and_drop(from_x, from_y, to_x, to_y) - drag: mouse_drag_and_drop({ax}, {cy}, {bx}, {cy})
keyboard_type(text) - type into the focused field (click it first): keyboard_type('Buy milk')
keyboard_press(key) - press a key or a combination: keyboard_press('Enter')
scroll_at(x, y, dx, dy) - scroll by pixels with the mouse at a point: scroll_at({mx}, {my}, 0, 300)"""

# the actions that need no page: all the api interface takes besides the app tools
API_ACTIONS = """\
noop() - wait a moment: noop()
send_msg_to_user(text) - answer the user and end the task: send_msg_to_user('done')
report_infeasible(reason) - say the task cannot be done: report_infeasible('there is no such item')"""

COMMON_ACTIONS = "goto(url), go_back(), go_forward() - navigate: go_back()\n" + API_ACTIONS

TAB_ACTIONS = """\
new_tab(), tab_focus(index), tab_close() - manage tabs: tab_focus(0)"""

TOOL_QUOTING = (
    "Call app tools with named arguments only: todo.add_item(title='Buy milk'); the ids they take "
    "come from the app's read() or find tool."
)

TOOL_RESULT_TEXT = "; after an app tool call, also the tool's result, as JSON"


def tools_help(interface: str, apps: Collection[str] | None = None) -> str:
    """The app tools as the model reads them (``api``: with the few other actions it may take);
    of the task's ``apps`` only, when given (:func:`openapps_sim.envs.apptools.task_tool_apps`)."""
    head = "App tools (app.tool(name=value, ...), each answers with JSON):"
    return "\n".join([head, describe_tools(apps)] + ([API_ACTIONS] if interface == "api" else []))


# what x and y mean: pixels of the image the model sees, or of the page when it sees no image
COORD_MEANING = {
    True: "x and y are pixels of the screenshot, from its top-left corner",
    False: 'x and y are pixels of the page, as the tree\'s center="(x,y)" gives them',
}
DEFAULT_SIZE = (1280, 720)


def coord_actions(size: tuple[int, int] = DEFAULT_SIZE) -> str:
    """The coordinate actions, with example points inside an image of ``size`` (width, height)."""
    w, h = size
    return COORD_ACTIONS.format(
        cx=round(w * 0.32),
        cy=round(h * 0.32),
        ax=round(w * 0.08),
        ay=round(h * 0.11),
        bx=round(w * 0.23),
        mx=round(w / 2),
        my=round(h / 2),
    )


def action_help(action_space: str, screenshot: bool = True, size: tuple[int, int] = DEFAULT_SIZE) -> str:
    """The list of actions shown to the model for an action space (``bid``, ``coord``, ``all``).

    ``screenshot`` says whether the model sees a screenshot (coordinates are then its pixels;
    otherwise the page's, as the tree gives them); ``size`` is the image (or page) size, and
    every example point lies inside it.
    """
    where = COORD_MEANING[screenshot]
    size_note = f"; the screenshot is {size[0]}x{size[1]}" if screenshot else ""
    if action_space == "bid":
        parts = [
            "Actions (bid is the id of an element in the accessibility tree, as a string):",
            BID_ACTIONS,
            TAB_ACTIONS,
        ]
    elif action_space == "coord":
        parts = [f"Actions ({where}{size_note}):", coord_actions(size)]
    elif action_space == "all":
        parts = [
            f"Actions (bid is the id of an element, as a string; {where}{size_note}):",
            BID_ACTIONS,
            coord_actions(size),
            TAB_ACTIONS,
        ]
    else:
        raise ValueError(f"unknown action space {action_space!r}")
    return "\n".join(parts + [COMMON_ACTIONS])


def observation_key(obs_mode: str, action_space: str, set_of_marks: bool = False) -> str:
    """Which :data:`OBSERVATION_TEXT` describes what the model receives."""
    if obs_mode == "axtree":
        return "axtree_coords" if action_space in ("coord", "all") else "axtree"
    if obs_mode == "screenshot":
        return "screenshot_marks" if set_of_marks else "screenshot"
    return obs_mode


def system_prompt(
    obs_mode: str,
    action_space: str,
    size: tuple[int, int] = DEFAULT_SIZE,
    set_of_marks: bool = False,
    interface: str = "gui",
    apps: Collection[str] | None = None,
) -> str:
    """The system prompt of the ``openai`` and ``anthropic`` agents: every example in it is
    a valid action of ``action_space`` inside an image of ``size`` (width, height), and of the
    ``interface`` (gui: page actions; api: app tools; mixed: both), the tools of ``apps`` (the
    task's) only when given."""
    if interface == "api":
        return SYSTEM_PROMPT_API.format(actions=tools_help("api", apps), quoting=TOOL_QUOTING)
    screenshot = obs_mode in ("screenshot", "both")
    ids = action_space in ("bid", "all") and (obs_mode != "screenshot" or set_of_marks)
    example = "click('12')" if ids else f"mouse_click({round(size[0] * 0.32)}, {round(size[1] * 0.32)})"
    observation = OBSERVATION_TEXT[observation_key(obs_mode, action_space, set_of_marks)]
    actions = action_help(action_space, screenshot, size)
    quoting = QUOTING["bid" if ids else "coord"].format(ax=round(size[0] * 0.08), ay=round(size[1] * 0.11))
    if interface == "mixed":
        observation += TOOL_RESULT_TEXT
        actions += "\n\n" + tools_help("mixed", apps)
        quoting += " " + TOOL_QUOTING
    return SYSTEM_PROMPT.format(observation=observation, example=example, actions=actions, quoting=quoting)


# The UI-TARS action grammar is the one the model was trained on; the wording around it is ours.
UITARS_PROMPT = """\
You are a GUI agent. You are given a task and a screenshot of the screen, and you carry out the \
task one action at a time.

## Output Format
```
Thought: ...
Action: ...
```

## Action Space
click(start_box='<|box_start|>(x1,y1)<|box_end|>')
left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')
right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
hotkey(key='')
type(content='') #If you want to submit your input, use "\\n" at the end of `content`.
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')
wait() #Sleep for 5s and take a screenshot to check for any changes.
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.

## Note
- Use English in `Thought` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in `Thought` part.
- Change only what the task asks for; when the task is done, use finished().

## User Instruction
{goal}
"""
