"""The CSS of every described app, written with the theme's variables only (so theme packs
restyle it); the app's accent colour reaches it as ``--app-accent`` on its header band."""

CSS = """
.dapp-hero{background:var(--app-accent,var(--primary));color:#fff;border-radius:var(--radius);padding:var(--pad);margin-bottom:var(--pad)}
.dapp-hero h1{margin:0;color:#fff;display:flex;align-items:center;gap:var(--gap)}
.dapp-hero .icon{width:1.4em;height:1.4em}
.dapp-nav{display:flex;flex-wrap:wrap;gap:calc(var(--gap)/2);margin-top:var(--gap)}
.dapp-nav a{color:#fff;text-decoration:none;padding:calc(var(--gap)/2) var(--gap);border-radius:999px;border:var(--bw) solid transparent}
.dapp-nav a.active{background:var(--surface);color:var(--text);font-weight:700}
.dapp-tools{display:flex;flex-wrap:wrap;gap:var(--gap);align-items:center;justify-content:space-between}
.dapp-links{display:flex;flex-wrap:wrap;gap:calc(var(--gap)/2);align-items:center}
.dapp-links a{padding:2px var(--gap);border-radius:999px;border:var(--bw) solid var(--border);text-decoration:none}
.dapp-links a.active{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.dapp-tabs{display:flex;flex-wrap:wrap;gap:0;border-bottom:2px solid var(--border);margin-bottom:var(--gap)}
.dapp-tabs a{padding:var(--gap) var(--pad);text-decoration:none;color:var(--muted);margin-bottom:-2px;border-bottom:2px solid transparent}
.dapp-tabs a.active{color:var(--primary);border-bottom-color:var(--primary);font-weight:700}
.dapp-list li{display:flex;align-items:center;gap:var(--gap);padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.dapp-list li:last-child{border-bottom:0}
.dapp-list .main{flex:1 1 8em;min-width:0}
.dapp-list .main a{font-weight:600;text-decoration:none;color:var(--text)}
.dapp-sub{display:block;font-size:.85em;color:var(--muted)}
.dapp-price{font-weight:700;white-space:nowrap;font-variant-numeric:tabular-nums}
.dapp-price.neg{color:var(--danger)}
.dapp-img{display:inline-flex;align-items:center;justify-content:center;flex:none;width:2.4em;height:2.4em;border-radius:50%;
 color:#fff;font-weight:700;font-size:.9em;letter-spacing:.02em}
.dapp-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(13em,1fr));gap:var(--gap)}
.dapp-cards .card{margin:0;display:flex;flex-direction:column;gap:calc(var(--gap)/2)}
.dapp-cards .dapp-img{width:3em;height:3em;border-radius:var(--radius);font-size:1em}
.dapp-detail h2{display:flex;align-items:center;gap:var(--gap)}
.dapp-line{display:flex;align-items:center;justify-content:space-between;gap:var(--gap)}
.dapp-cards a.title{font-weight:700;text-decoration:none;color:var(--text)}
.dapp-table{overflow-x:auto}
.dapp-table a{font-weight:600}
.dapp-star{background:transparent;border:0;color:var(--accent);font-size:1.2em;padding:0 4px}
.dapp-detail dl{display:grid;grid-template-columns:minmax(7em,auto) 1fr;gap:calc(var(--gap)/2) var(--pad);margin:0}
.dapp-detail dt{color:var(--muted)}
.dapp-detail dd{margin:0}
.dapp-actions{display:flex;flex-wrap:wrap;gap:var(--gap);align-items:center}
.dapp-actions form{margin:0}
.dapp-status button.active{background:var(--primary);color:var(--on-primary)}
.dapp-form .fields{display:grid;gap:var(--gap)}
.dapp-form input[type=text],.dapp-form input[type=number],.dapp-form select,.dapp-form textarea{width:100%}
.dapp-form .check{display:flex;align-items:center;gap:var(--gap)}
.dapp-form .check label{margin:0}
.dapp-review dl{display:grid;grid-template-columns:minmax(7em,auto) 1fr;gap:calc(var(--gap)/2) var(--pad)}
.dapp-review dd{margin:0;font-weight:600}
.layout-mobile .dapp-detail dl,.layout-mobile .dapp-review dl{grid-template-columns:1fr}
.layout-mobile .dapp-cards{grid-template-columns:1fr}
.layout-mobile .dapp-hero{border-radius:0;margin-inline:calc(var(--pad)*-.75);margin-top:calc(var(--pad)*-.75)}
.layout-mobile .dapp-list li{flex-wrap:wrap}
"""
