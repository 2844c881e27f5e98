"""The report's stylesheet (inline in the HTML)."""

from __future__ import annotations

CSS = """
:root{--ink:#1d2430;--muted:#5b6472;--line:#d9dee5;--soft:#f4f6f9;--accent:#0072B2;--bad:#b3261e;--ok:#1b7a3d}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#fff}
main{max-width:1180px;margin:0 auto;padding:28px 32px 64px}
h1{font-size:26px;margin:0 0 6px}
h2{font-size:19px;margin:40px 0 8px;padding-top:12px;border-top:1px solid var(--line)}
h3{font-size:15px;margin:22px 0 6px}
p{margin:6px 0 10px}
.sub{color:var(--muted);margin:0 0 18px}
nav.toc{display:flex;flex-wrap:wrap;gap:6px 14px;margin:12px 0 20px;font-size:13px}
nav.toc a{color:var(--accent);text-decoration:none}
nav.toc a:hover{text-decoration:underline}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:14px 0}
.card{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:22px;font-weight:600}
.note{background:#fff8e6;border:1px solid #f0d9a0;border-radius:8px;padding:10px 14px;margin:12px 0}
.howto{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:4px 16px;margin:12px 0}
.howto li{margin:5px 0}
figure{margin:14px 0 22px}
figcaption{color:var(--muted);font-size:13px;margin-top:4px;max-width:900px}
.chart{display:block;font-family:inherit}
.chart .grid{stroke:#e6e9ee;stroke-width:1}
.chart .base{stroke:#5b6472;stroke-width:1}
.chart .tick{font-size:11px;fill:#5b6472}
.chart .cat{font-size:12px;fill:#1d2430}
.chart .axis{font-size:12px;fill:#1d2430;font-weight:600}
.chart .legend{font-size:12px;fill:#1d2430}
.chart .value{font-size:10.5px;fill:#1d2430}
.chart .na{font-size:12px;fill:#8a93a0}
.chart .whisker{stroke:#1d2430;stroke-width:1.3}
.chart .key{stroke:#1d2430;stroke-width:2}
.charts2{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:8px 24px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:8px 0 18px;font-size:13px;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--line);padding:5px 9px;text-align:right;white-space:nowrap}
th{background:var(--soft);font-weight:600;white-space:normal;vertical-align:bottom;min-width:54px}
td.l.wrap{white-space:normal;min-width:180px}
td .ci{color:var(--muted);font-size:11.5px}
table.headline th,table.headline td{padding:5px 6px}
p.muted{color:var(--muted);font-size:13px;margin-top:-8px}
th:first-child,td:first-child,td.l,th.l{text-align:left}
tbody tr:hover td{background:#f9fafc}
td.heat{text-align:center;min-width:64px}
th.c,td.c{text-align:center}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:-1px}
.kv td{white-space:normal;text-align:left;vertical-align:top}
.kv td:first-child{color:var(--muted);width:160px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:10px;overflow:auto;font-size:12px;max-height:420px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
details{border:1px solid var(--line);border-radius:8px;margin:8px 0;background:#fff}
details>summary{cursor:pointer;padding:8px 12px;list-style-position:inside}
details[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details .body{padding:10px 14px}
.badge{display:inline-block;font-size:11px;font-weight:600;border-radius:10px;padding:1px 8px;margin-left:6px;vertical-align:1px}
.b-ok{background:#e3f4e8;color:var(--ok)}
.b-bad{background:#fbe4e2;color:var(--bad)}
.b-warn{background:#fff1d6;color:#8a5a00}
.b-info{background:#e4eef8;color:#1f4f7a}
.meta{color:var(--muted);font-size:13px}
.steps{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px;margin-top:10px}
.step{border:1px solid var(--line);border-radius:8px;overflow:hidden;background:#fff}
.step.invalid{border-color:#e8b4ae}
.step.loop{box-shadow:inset 4px 0 0 #E69F00}
.step img{display:block;width:100%;height:auto;border-bottom:1px solid var(--line);background:var(--soft)}
.zoom{display:block;cursor:zoom-in}
.zoom input{position:absolute;opacity:0;pointer-events:none}
.zoom input:checked+img{position:fixed;z-index:20;top:50%;left:50%;transform:translate(-50%,-50%);width:auto;height:auto;max-width:96vw;max-height:94vh;border:0;box-shadow:0 0 0 100vmax rgba(20,24,32,.72);cursor:zoom-out}
.step .txt{padding:7px 10px;font-size:12.5px}
.step .err{color:var(--bad);white-space:pre-wrap;word-break:break-word}
.step .url{color:var(--muted);word-break:break-all}
.shot{position:relative}
.shot .marker{position:absolute;width:16px;height:16px;margin:-8px 0 0 -8px;border-radius:50%;border:3px solid #e4002b;box-shadow:0 0 0 2px #fff;pointer-events:none}
.step .target{color:#1f4f7a;word-break:break-word}
.step .thought{color:var(--ink);background:#f6f3ff;border-left:3px solid #8e7cc3;padding:3px 7px;margin:4px 0;white-space:pre-wrap;word-break:break-word;font-style:italic}
.step .events{color:var(--ok);word-break:break-word}
.explain pre{max-height:220px;margin:4px 0 10px}
.sidebyside{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:14px;padding:10px}
.side{min-width:0}
.sidebyside .steps{grid-template-columns:repeat(auto-fill,minmax(220px,1fr))}
.charts1{display:block}
.noshot{padding:18px 10px;color:var(--muted);font-size:12px;text-align:center;background:var(--soft);border-bottom:1px solid var(--line)}
@media print{h2{break-before:auto}details{break-inside:avoid}nav.toc{display:none}}
"""
