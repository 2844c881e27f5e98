"""The stylesheet of ``openapps view``: the report's (:mod:`openapps_sim.analysis.doc.style`),
then the view's own (the bar on top, the filters, the episode table, step rows with the page
and the exchange)."""

from __future__ import annotations

from openapps_sim.analysis.doc.style import CSS as REPORT_CSS

VIEW_CSS = """
main{max-width:1480px;padding:18px 28px 64px}
a{color:var(--accent)}
header.top{display:flex;flex-wrap:wrap;align-items:baseline;gap:6px 20px;padding:10px 28px;border-bottom:1px solid var(--line);background:var(--soft)}
header.top .brand{font-weight:700;font-size:16px;color:var(--ink);text-decoration:none}
header.top nav a{margin-right:16px;text-decoration:none}
header.top nav a.here{color:var(--ink);font-weight:600;border-bottom:2px solid var(--accent)}
header.top .runs{margin-left:auto;color:var(--muted);font-size:12.5px;word-break:break-all}
h1{font-size:21px;margin:6px 0 4px}
form.filters{display:flex;flex-wrap:wrap;gap:10px 12px;align-items:flex-end;background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0 12px}
form.filters label{display:flex;flex-direction:column;font-size:11.5px;color:var(--muted);gap:2px;text-transform:uppercase;letter-spacing:.03em}
form.filters select,form.filters input{font:inherit;font-size:13px;text-transform:none;letter-spacing:0;padding:4px 6px;border:1px solid #c3cad4;border-radius:6px;background:#fff;color:var(--ink);max-width:230px}
form.filters select{max-width:180px}
form.filters input[type=search]{width:190px}
form.filters button{font:inherit;font-size:13px;padding:5px 16px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
form.filters .go{display:flex;gap:12px;align-items:center}
form.filters .clear{font-size:13px}
table.episodes{width:100%;margin-top:4px}
table.episodes td{vertical-align:top}
table.episodes td.goal{white-space:normal;min-width:280px;text-align:left}
table.episodes td.goal a{color:var(--ink);text-decoration:none}
table.episodes td.goal a:hover,table.episodes td a:hover{text-decoration:underline}
table.episodes td a{text-decoration:none}
table.episodes td.why{text-align:left;color:var(--muted)}
table.episodes .badge{margin-left:0}
.pager{display:flex;gap:16px;align-items:center;margin:8px 0}
.crumbs{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13px;margin:2px 0 6px}
.facts{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;margin:4px 0 10px}
.view .steps{grid-template-columns:minmax(0,1fr)}
.view h2{margin:26px 0 8px;padding-top:10px}
.view .step{display:grid;grid-template-columns:minmax(0,7fr) minmax(0,5fr)}
.view .step>.txt{padding:8px 12px}
.view .step img{border-bottom:0;border-right:1px solid var(--line)}
.view .step:has(>.shot){grid-template-columns:minmax(0,max-content) minmax(0,1fr)}
.view .step>.shot{width:fit-content;max-width:100%}
.view .step>.shot img{width:auto;max-width:min(100%,900px)}
.view .step>.noshot{border-bottom:0;border-right:1px solid var(--line)}
pre.tree{position:relative;tab-size:2;margin:0;border:0;border-right:1px solid var(--line);border-radius:0;max-height:300px;font-size:11px;line-height:1.35;white-space:pre}
pre.tree mark{background:#ffe58a;border-radius:2px}
.view .sidebyside .step{display:block}
.view .sidebyside pre.tree{border-right:0;border-bottom:1px solid var(--line);max-height:200px}
.view .sidebyside .step img{border-right:0;border-bottom:1px solid var(--line)}
.exchange{margin:6px 0 2px;border-color:#d8d0ee}
.exchange>summary{font-size:12.5px;padding:4px 10px;color:#4b3d8a}
.exchange .body{padding:6px 10px}
.exchange .head{margin:10px 0 2px;font-size:13px}
.exchange .head:first-child{margin-top:2px}
.view .step:has(>.txt>.exchange[open]){grid-template-columns:minmax(0,4fr) minmax(0,8fr)}
.msg{margin:6px 0;border-left:3px solid #c9d3e0;padding-left:8px}
.msg .role{font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.msg pre{margin:2px 0;max-height:260px;white-space:pre-wrap;word-break:break-word;tab-size:2;font-size:12px}
.msg.assistant{border-left-color:#8e7cc3}
.msg.assistant pre{background:#f7f5fc}
.msg figure{margin:4px 0}
.msg figure img{display:block;max-width:100%;border:1px solid var(--line);border-radius:4px}
.msg figcaption{font-size:12px;color:var(--muted)}
.reask{border-left-color:#E69F00}
.reask-why{margin:4px 0 0;font-size:13px;color:#8a5a00}
.system{margin:0 0 8px}
.system pre{white-space:pre-wrap;word-break:break-word;max-height:200px;font-size:12px}
.kv2 td{white-space:normal;text-align:left;vertical-align:top}
.kv2 td code{white-space:pre-wrap;word-break:break-word}
.empty{padding:24px;text-align:center;color:var(--muted);background:var(--soft);border-radius:8px}
"""

CSS = REPORT_CSS + VIEW_CSS
