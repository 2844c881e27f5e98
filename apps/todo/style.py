"""Todo's CSS."""

CSS = """
.todo-list li{display:flex;flex-wrap:wrap;align-items:center;gap:var(--gap);padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.todo-list li:last-child{border-bottom:0}
.todo-list .title{flex:1 1 6em;overflow-wrap:break-word}
.todo-list .actions{display:flex;flex-wrap:wrap;justify-content:flex-end;align-items:center;gap:var(--gap);flex:0 1 auto;min-width:0;margin-inline-start:auto}
.todo-list .actions form{margin:0}
.todo-list .done .title.strike{text-decoration:line-through;color:var(--muted)}
.todo-list .check{width:1.6em;height:1.6em;border-radius:50%;border:2px solid var(--primary);background:transparent;
 padding:0;color:var(--primary);font-weight:700}
.todo-list .done .check{background:var(--success);border-color:var(--success);color:#fff}
.todo-add input[type=text]{flex:1 1 auto}
.filters a{margin-inline-end:var(--gap)}
.filters a.active{font-weight:700;text-decoration:none}
.notes{display:block;font-size:.85em}
"""
