"""The start page's CSS."""

CSS = """
.launcher{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:var(--pad)}
.layout-mobile .launcher{grid-template-columns:1fr}
.tile{display:flex;gap:var(--pad);align-items:flex-start;text-decoration:none;color:var(--text)}
.tile .icon-wrap{flex:none;width:48px;height:48px;border-radius:var(--radius);background:var(--primary);
 color:var(--on-primary);display:flex;align-items:center;justify-content:center}
.tile .icon{width:28px;height:28px}
.tile h2{margin:0 0 4px 0;color:var(--primary)}
.tile p{margin:0;color:var(--muted);overflow-wrap:break-word;min-width:0}
.tile>div{min-width:0}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin:var(--pad) 0}
.chip{padding:2px 10px;border:1px solid var(--border);border-radius:999px;text-decoration:none;color:var(--text);
 font-size:.9em}
.chip[aria-current=page]{background:var(--primary);color:var(--on-primary);border-color:var(--primary)}
"""
