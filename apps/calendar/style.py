"""Calendar's CSS."""

from __future__ import annotations

CSS = """
.cal-head{display:flex;align-items:center;gap:var(--gap);flex-wrap:wrap;margin-bottom:var(--pad)}
.cal-head h1{margin:0;min-width:8.5em;text-align:center}
.cal-head .spacer{flex:1 1 auto}
.cal-head .button{padding:calc(var(--gap)*.5) var(--gap)}
.cal-search{display:flex;gap:calc(var(--gap)/2);max-width:100%;flex:none}
.cal-search input{flex:0 1 auto;min-width:min(100%,6em)}
.layout-mobile .cal-grid th{font-size:.7em;padding:2px 0;white-space:nowrap;overflow:hidden}
.layout-desktop.app-calendar main{max-width:calc(var(--width) + 200px)}
.cal-layout{display:grid;grid-template-columns:minmax(0,2.4fr) minmax(0,1fr);gap:var(--pad);align-items:start}
.layout-mobile .cal-layout{grid-template-columns:1fr}
.cal-month{padding:calc(var(--pad)/2)}
table.cal-grid{table-layout:fixed;width:100%}
.cal-grid th{text-align:center;color:var(--muted);font-size:.8em;font-weight:600;padding:2px;border-bottom:var(--bw) solid var(--border)}
.cal-grid th.wk,.cal-grid td.wk{width:2.4em;color:var(--muted);font-size:.75em;text-align:center;vertical-align:middle}
.cal-grid td{vertical-align:top;height:5.8em;padding:3px;border:var(--bw) solid var(--border);overflow:hidden}
.cal-grid td.other{background:var(--background)}
.cal-grid td.other .cal-daynum{color:var(--muted);font-weight:400}
.cal-grid td.selected{box-shadow:inset 0 0 0 2px var(--accent)}
.cal-daynum{display:inline-block;min-width:1.9em;padding:0 .3em;text-align:center;border-radius:999px;
 text-decoration:none;font-weight:600;color:var(--text)}
.cal-daynum:hover{background:var(--border)}
.cal-grid td.today .cal-daynum{background:var(--primary);color:var(--on-primary)}
.cal-chip{display:block;font-size:.74em;line-height:1.35;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;
 text-decoration:none;color:var(--text);border-inline-start:3px solid var(--primary);padding:0 3px;margin-top:2px;
 background:var(--background);border-radius:2px}
.cal-chip.allday{background:var(--primary);color:var(--on-primary);border-inline-start-color:var(--primary)}
.cal-chip .t{color:var(--muted);margin-inline-end:3px}
.cal-more{display:block;font-size:.74em;color:var(--muted);margin-top:2px}
.cal-count{display:none}
.layout-mobile .cal-chip,.layout-mobile .cal-more{display:none}
.layout-mobile .cal-count{display:block;width:.5em;height:.5em;border-radius:50%;background:var(--accent);margin:2px auto 0}
.layout-mobile .cal-grid td{height:3.2em}
.cal-agenda h2{margin-bottom:calc(var(--gap)/2)}
.cal-agenda .date-head{font-weight:700;margin-top:var(--gap);font-size:.9em;color:var(--muted)}
.cal-agenda ul li{border-bottom:var(--bw) solid var(--border)}
.cal-agenda ul li:last-child{border-bottom:0}
.cal-agenda ul a{display:flex;flex-wrap:wrap;gap:0 var(--gap);padding:calc(var(--gap)*.75) 0;text-decoration:none;color:var(--text)}
.cal-agenda ul a:hover .cal-title{text-decoration:underline}
.cal-time{flex:none;min-width:4.6em;color:var(--muted);font-variant-numeric:tabular-nums}
.cal-what{flex:1 1 8em;unicode-bidi:plaintext;overflow-wrap:break-word}
.cal-title{font-weight:600;color:var(--primary)}
.cal-where{display:block;font-size:.85em;color:var(--muted)}
.cal-detail,.cal-form-card{max-width:48em}
.cal-detail h1{overflow-wrap:break-word;unicode-bidi:plaintext}
.cal-detail dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:calc(var(--gap)*.75) var(--pad);margin:var(--pad) 0}
.cal-detail dt{font-weight:600;color:var(--muted)}
.cal-detail dd{margin:0;overflow-wrap:break-word}
.layout-mobile .cal-detail dl{grid-template-columns:minmax(0,1fr);row-gap:2px}
.layout-mobile .cal-detail dd{margin-bottom:var(--gap)}
.cal-detail dd.desc{white-space:pre-wrap}
.cal-url{font-family:ui-monospace,monospace;font-size:.9em}
.cal-people{display:flex;flex-wrap:wrap;gap:4px}
.cal-person{border:var(--bw) solid var(--border);border-radius:999px;padding:0 .6em;font-size:.9em}
.cal-actions{display:flex;gap:var(--gap);flex-wrap:wrap;align-items:center}
.cal-actions form{margin:0}
.cal-form .field{margin-bottom:var(--pad)}
.cal-form input[type=text],.cal-form textarea{width:100%}
.cal-form .pair{display:flex;gap:var(--pad);flex-wrap:wrap}
.cal-form .hint{font-size:.85em;color:var(--muted);margin:2px 0 0 0}
"""
