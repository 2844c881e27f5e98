"""Code editor's CSS."""

from __future__ import annotations

MONO = "ui-monospace,'SFMono-Regular','DejaVu Sans Mono',Menlo,Consolas,monospace"

CSS = f"""
.layout-desktop.app-code_editor main{{max-width:calc(var(--width) + 240px)}}
.ce-layout{{display:grid;grid-template-columns:minmax(190px,260px) minmax(0,1fr);gap:var(--pad);align-items:start}}
.layout-mobile .ce-layout{{grid-template-columns:minmax(0,1fr)}}
.layout-mobile .ce-main{{order:-1}}
.ce-side .toolbar{{display:flex;gap:calc(var(--gap)/2);flex-wrap:wrap;margin-bottom:var(--gap)}}
.ce-side .toolbar .button{{padding:calc(var(--gap)*.5) var(--gap);font-size:.9em}}
.ce-side h2{{font-size:.8em;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 var(--gap) 0}}
.ce-filter{{display:flex;gap:calc(var(--gap)/2);margin-bottom:var(--gap)}}
.ce-filter input{{flex:1 1 auto;min-width:0;padding:calc(var(--gap)*.4) calc(var(--gap)*.6)}}
.ce-filter button{{flex:none;white-space:nowrap;padding:calc(var(--gap)*.4) calc(var(--gap)*.8)}}
.ce-tree ul{{list-style:none;margin:0;padding:0;padding-inline-start:.9em}}
.ce-tree>ul{{padding-inline-start:0}}
.ce-tree a{{display:flex;gap:.35em;align-items:center;padding:1px 4px;border-radius:calc(var(--radius)/2);
 text-decoration:none;color:var(--text);overflow-wrap:break-word;font-size:.92em;unicode-bidi:plaintext}}
.ce-tree a:hover{{background:var(--background)}}
.ce-tree a.current{{background:var(--primary);color:var(--on-primary)}}
.ce-tree .folder-link{{font-weight:600}}
.ce-tree .icon{{flex:none;width:1em;height:1em;color:var(--muted)}}
.ce-tree a.current .icon{{color:var(--on-primary)}}
.ce-tree .folder-link .icon,.ce-list .folder-icon{{color:var(--accent)}}
.ce-crumbs{{display:flex;flex-wrap:wrap;gap:.3em;align-items:center;color:var(--muted);font-size:.9em;margin-bottom:var(--gap)}}
.ce-crumbs a{{text-decoration:none}}
.ce-head{{display:flex;gap:var(--gap);align-items:center;flex-wrap:wrap;margin-bottom:var(--gap)}}
.ce-head h1{{margin:0;font-size:1.3em;overflow-wrap:break-word}}
.ce-head .actions{{display:flex;gap:calc(var(--gap)/2);flex-wrap:wrap;margin-inline-start:auto}}
.ce-head form,.ce-list form{{display:inline}}
.ce-list td{{vertical-align:middle}}
.ce-list td.name a{{display:inline-flex;gap:.35em;align-items:center;text-decoration:none;overflow-wrap:break-word;unicode-bidi:plaintext}}
.ce-list td.actions{{white-space:nowrap;text-align:end}}
.layout-mobile .ce-list .kind,.layout-mobile .ce-list .size{{display:none}}
.layout-mobile .ce-list td.actions{{white-space:normal}}
.layout-mobile .ce-list thead{{display:none}}
.layout-mobile .ce-list tr{{display:flex;flex-wrap:wrap;align-items:center;border-bottom:var(--bw) solid var(--border)}}
.layout-mobile .ce-list td{{border:0}}
.layout-mobile .ce-list td.name{{flex:1 1 8em}}
.ce-list .button,.ce-list button{{padding:calc(var(--gap)*.35) calc(var(--gap)*.8);font-size:.85em}}
.ce-editor{{direction:ltr;display:flex;border:var(--bw) solid var(--border);border-radius:var(--radius);overflow:hidden;
 background:var(--surface);font-family:{MONO};font-size:.9em}}
.ce-gutter{{flex:none;contain:size;overflow:hidden;margin:0;padding:var(--gap) .6em var(--gap) .4em;text-align:end;
 color:var(--muted);background:var(--background);border-inline-end:var(--bw) solid var(--border);user-select:none;
 font:inherit;line-height:1.5}}
.ce-editor textarea{{flex:1 1 auto;min-width:0;width:auto;border:0;border-radius:0;margin:0;padding:var(--gap);
 font:inherit;line-height:1.5;background:var(--surface);color:var(--text);resize:vertical;field-sizing:content;
 overflow:auto}}
.ce-editor textarea.nowrap{{white-space:pre;overflow-wrap:normal}}
.ce-editor textarea:focus{{outline:2px solid var(--primary);outline-offset:-2px}}
.ce-status{{display:flex;gap:var(--pad);flex-wrap:wrap;color:var(--muted);font-size:.85em;margin-top:calc(var(--gap)/2)}}
.ce-savebar{{display:flex;gap:var(--gap);align-items:center;flex-wrap:wrap;margin-top:var(--gap)}}
.ce-readme pre{{direction:ltr;text-align:left;white-space:pre-wrap;overflow-wrap:break-word;font-family:{MONO};font-size:.88em;margin:0}}
.ce-form label{{margin-top:var(--gap)}}
.ce-form .hint{{font-size:.85em;color:var(--muted);margin:2px 0 0 0}}
.ce-form input[type=text],.ce-form select{{width:100%;max-width:32em}}
.ce-form .buttons{{display:flex;gap:var(--gap);margin-top:var(--pad);flex-wrap:wrap}}
.ce-flash{{background:var(--success);color:#fff;padding:calc(var(--gap)*.6) var(--pad);border-radius:var(--radius);
 margin-bottom:var(--gap)}}
.ce-error{{background:var(--danger);color:#fff;padding:calc(var(--gap)*.6) var(--pad);border-radius:var(--radius);
 margin:var(--gap) 0}}
.ce-lang{{font-size:.75em}}
"""
