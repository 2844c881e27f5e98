"""Maps' CSS."""

from __future__ import annotations

CSS = """
.maps-layout{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:var(--pad);align-items:start}
.maps-layout.stacked{grid-template-columns:minmax(0,1fr)}
.maps-layout.stacked .maps-map-col{order:-1}
.maps-side h2{margin-bottom:4px}
.maps-search input[type=search]{flex:1 1 auto;min-width:min(100%,10em)}
.maps-kinds{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin-top:var(--gap)}
.maps-kinds a{font-size:.85em;text-decoration:none;border:var(--bw) solid var(--border);border-radius:999px;padding:1px 8px}
.maps-kinds a.active{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.maps-list li{display:flex;flex-wrap:wrap;align-items:center;gap:var(--gap);padding:calc(var(--gap)*.6) 0;border-bottom:var(--bw) solid var(--border)}
.maps-list li:last-child{border-bottom:0}
.maps-list .grow a{font-weight:600;text-decoration:none;overflow-wrap:break-word;unicode-bidi:plaintext}
.maps-list .grow{flex-basis:10em}
.maps-list .sub{display:block;font-size:.82em;color:var(--muted);overflow-wrap:break-word}
.maps-list button{padding:2px 10px;font-size:.85em;white-space:nowrap}
.maps-panel form{margin:calc(var(--gap)*.75) 0}
.layout-mobile .maps-search input[type=search]{flex:0 0 auto}
.maps-dot{flex:none;width:10px;height:10px;border-radius:50%;background:var(--primary)}
.maps-dot.saved{background:var(--accent)}
.maps-panel p{margin:.4em 0;overflow-wrap:break-word}
.maps-panel .coords{font-variant-numeric:tabular-nums}
.maps-frame{position:relative;border:var(--bw) solid var(--border);border-radius:var(--radius);overflow:hidden;
 background:var(--surface);box-shadow:var(--shadow)}
.maps-frame form{margin:0;position:absolute;left:50%;top:0;margin-left:calc(var(--map-w) / -2)}
.maps-frame input.maps-canvas{display:block;padding:0;margin:0;border:0;border-radius:0;max-width:none;cursor:crosshair;
 background:transparent}
.maps-frame svg.maps-svg{position:absolute;left:50%;top:0;margin-left:calc(var(--map-w) / -2);pointer-events:none;display:block;max-width:none}
.layout-mobile .maps-layout{grid-template-columns:minmax(0,1fr)}
.layout-mobile .maps-layout .maps-map-col{order:-1}
.maps-svg a{pointer-events:auto;cursor:pointer}
.maps-svg .water{fill:color-mix(in srgb,var(--primary) 16%,var(--surface))}
.maps-svg .ground{fill:color-mix(in srgb,var(--success) 10%,var(--surface))}
.maps-svg .land{fill:color-mix(in srgb,var(--success) 14%,var(--surface));stroke:color-mix(in srgb,var(--success) 40%,var(--border));stroke-width:.8}
.maps-svg .lake{fill:color-mix(in srgb,var(--primary) 16%,var(--surface));stroke:color-mix(in srgb,var(--success) 40%,var(--border));stroke-width:.6}
.maps-svg .grid{stroke:var(--border);stroke-width:1;opacity:.8}
.maps-svg .grid-label{fill:var(--muted);font-size:10px}
.maps-svg .place circle{fill:var(--primary);stroke:var(--surface);stroke-width:1.5}
.maps-svg .place.minor circle{opacity:.7}
.maps-svg .place.saved circle,.maps-svg .saved-spot circle{fill:var(--accent)}
.maps-svg .place:hover circle,.maps-svg .saved-spot:hover circle{stroke:var(--text)}
.maps-svg .label{fill:var(--text);font-size:11px;paint-order:stroke;stroke:var(--surface);stroke-width:3px;stroke-linejoin:round}
.maps-svg .label.strong{font-weight:700;font-size:12px}
.maps-svg .selected path{fill:var(--primary);stroke:var(--surface);stroke-width:1.5}
.maps-svg .pin path{fill:var(--danger);stroke:var(--surface);stroke-width:1.5}
.maps-svg .selected circle.hole,.maps-svg .pin circle.hole{fill:var(--surface)}
.maps-frame svg.scale{position:absolute;left:8px;bottom:22px;pointer-events:none;z-index:1;overflow:visible}
.maps-frame .scale line{stroke:var(--text);stroke-width:2}
.maps-frame .scale text{fill:var(--text);font-size:10px;paint-order:stroke;stroke:var(--surface);stroke-width:3px}
.maps-controls{position:absolute;display:flex;flex-direction:column;gap:4px;z-index:2}
.maps-controls.zoom{right:8px;top:8px}
.maps-controls.pan{left:8px;top:8px;display:grid;grid-template-columns:repeat(3,28px);grid-template-rows:repeat(3,28px);gap:2px}
.maps-controls a{display:flex;align-items:center;justify-content:center;width:28px;height:28px;background:var(--surface);
 color:var(--text);border:var(--bw) solid var(--border);border-radius:calc(var(--radius)/2);text-decoration:none;
 font-weight:700;box-shadow:var(--shadow);line-height:1}
.maps-controls a:hover{color:var(--primary)}
.maps-controls.pan .n{grid-column:2;grid-row:1}.maps-controls.pan .w{grid-column:1;grid-row:2}
.maps-controls.pan .e{grid-column:3;grid-row:2}.maps-controls.pan .s{grid-column:2;grid-row:3}
.maps-layout:not(.stacked) .maps-map-col{position:sticky;top:var(--pad)}
.maps-caption{display:flex;justify-content:space-between;gap:var(--gap);flex-wrap:wrap;font-size:.85em;margin-top:4px}
.maps-note input{flex:1 1 8em;min-width:0}
"""
