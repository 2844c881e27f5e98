"""Global appearance: the ``theme`` and ``shell`` sections every pack may change, and their CSS.

Apps style themselves only through the CSS custom properties written here (``var(--primary)``
and so on), so one theme pack restyles all six apps at once.
"""

from __future__ import annotations

import re
from functools import lru_cache

from openapps_sim.web.fonts import font_face_css, font_stack

# Below this viewport width the desktop layout takes the phone rules too: a desktop page in a
# narrow window (or the 480 px resolution sweep) stacks its columns like the phone layout.
NARROW = 640
_MOBILE = re.compile(r"\.layout-mobile(?![\w-])")


def theme_css(theme: dict) -> str:
    c = theme["colors"]
    sp = theme["spacing"]
    heading = theme["heading_font"]
    heading_stack = font_stack(theme["font"] if heading == "same" else heading)
    fonts = {theme["font"]} | ({heading} if heading != "same" else set())
    faces = "".join(font_face_css(f) for f in sorted(fonts))
    vars_ = "".join(f"--{k.replace('_', '-')}:{v};" for k, v in c.items())
    width = 430 if theme["layout"] == "mobile" else theme["content_width"]
    shadow = "0 1px 3px rgba(0,0,0,.12)" if theme["shadows"] else "none"
    return (
        faces
        + ":root{"
        + vars_
        + f"--font:{font_stack(theme['font'])};--heading-font:{heading_stack};"
        + f"--fs:{theme['font_size']}px;--lh:{theme['line_height']};--ls:{theme['letter_spacing']}em;"
        + f"--radius:{theme['radius']}px;--gap:{round(8 * sp, 2)}px;--pad:{round(12 * sp, 2)}px;"
        + f"--bw:{theme['border_width']}px;--width:{width}px;--shadow:{shadow};"
        + f"--btn-transform:{'uppercase' if theme['uppercase_buttons'] else 'none'};"
        + "}"
    )


BASE_CSS = """
*{box-sizing:border-box}
html,body{margin:0;padding:0}
body{background:var(--background);color:var(--text);font-family:var(--font);font-size:var(--fs);
 line-height:var(--lh);letter-spacing:var(--ls);overflow-wrap:break-word}
img,svg,video{max-width:100%}
pre{max-width:100%;overflow-x:auto}
h1,h2,h3{font-family:var(--heading-font);margin:0 0 var(--gap) 0;line-height:1.2}
h1{font-size:1.6em}h2{font-size:1.25em}h3{font-size:1.05em}
a{color:var(--primary)}
.topbar{display:flex;flex-wrap:wrap;align-items:center;gap:var(--gap);padding:var(--gap) var(--pad);
 background:var(--surface);border-bottom:var(--bw) solid var(--border)}
.topbar .brand{font-weight:700;color:var(--muted)}
.topbar a{text-decoration:none;font-weight:600}
.nav-bottom .topbar{position:fixed;bottom:0;inset-inline:0;border-top:var(--bw) solid var(--border);border-bottom:0;z-index:5}
.nav-bottom main{padding-bottom:64px}
main{max-width:var(--width);margin:0 auto;padding:var(--pad)}
.card{background:var(--surface);border:var(--bw) solid var(--border);border-radius:var(--radius);
 padding:var(--pad);margin-bottom:var(--pad);box-shadow:var(--shadow)}
.row{display:flex;gap:var(--gap);align-items:center;flex-wrap:wrap}
.grow{flex:1 1 auto;min-width:0}
.muted{color:var(--muted)}
.small{font-size:.85em}
.stack>*+*{margin-top:var(--gap)}
input,select,textarea{font:inherit;color:var(--text);background:var(--surface);border:var(--bw) solid var(--border);
 border-radius:calc(var(--radius)/2);padding:calc(var(--gap)*.75) var(--gap);max-width:100%}
textarea{width:100%}
label{display:block;font-weight:600;margin-bottom:4px}
button,.button{font:inherit;cursor:pointer;border:var(--bw) solid var(--primary);background:var(--primary);
 color:var(--on-primary);border-radius:var(--radius);padding:calc(var(--gap)*.75) var(--pad);
 text-transform:var(--btn-transform);text-decoration:none;display:inline-block;line-height:1.2;word-break:keep-all}
form[role=search]{flex-wrap:wrap}
form[role=search] button{white-space:nowrap;flex:none}
form[role=search] input[type=search]{field-sizing:content;flex:1 0 auto;max-width:100%}
button.secondary,.button.secondary{background:transparent;color:var(--primary)}
button.danger,.button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
button.link{background:none;border:none;color:var(--primary);padding:0;text-decoration:underline}
ul.plain{list-style:none;margin:0;padding:0}
.badge{display:inline-block;background:var(--accent);color:var(--on-accent);border-radius:999px;padding:0 .6em;font-size:.8em}
.flash{background:var(--success);color:#fff;padding:var(--gap) var(--pad);border-radius:var(--radius);margin-bottom:var(--pad)}
.error{background:var(--danger);color:#fff;padding:var(--gap) var(--pad);border-radius:var(--radius);margin-bottom:var(--pad)}
.icon{width:1.2em;height:1.2em;vertical-align:-.2em}
table{border-collapse:collapse;width:100%}
th,td{text-align:start;padding:calc(var(--gap)/2) var(--gap);border-bottom:var(--bw) solid var(--border)}
.layout-mobile main{padding:calc(var(--pad)*.75)}
.layout-mobile .card{padding-inline:calc(var(--pad)*.5)}
.layout-mobile .row{flex-direction:column;align-items:stretch}
.layout-mobile .topbar{flex-wrap:wrap}
"""


def _top_level_rules(css: str):
    """``(selector, body)`` of each plain rule at the top level (at-rules are skipped)."""
    depth, start, selector = 0, 0, ""
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                selector, start = css[start:i].strip(), i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if not selector.startswith("@"):
                    yield selector, css[start:i]
                start = i + 1


@lru_cache(maxsize=64)
def narrow_css(css: str, breakpoint: int = NARROW) -> str:
    """The phone rules of ``css`` (rules whose every selector starts with ``.layout-mobile``)
    again for the desktop layout in a viewport narrower than ``breakpoint`` pixels, so that an
    app writes its phone layout once and no page is wider than a phone's screen."""
    rules = []
    for selector, body in _top_level_rules(css):
        parts = [s.strip() for s in selector.split(",")]
        if parts and all(_MOBILE.match(s) for s in parts):
            rules.append(",".join(_MOBILE.sub(".layout-desktop", s, count=1) for s in parts) + "{" + body + "}")
    return f"@media (max-width:{breakpoint}px){{{''.join(rules)}}}" if rules else ""
