"""Shop's CSS."""

from __future__ import annotations

CSS = """
.shop-top{padding:var(--gap) var(--pad)}
.shop-header{justify-content:space-between}
.shop-search{display:flex;gap:var(--gap);flex:1 1 260px}
.shop-search input{flex:1 1 auto;min-width:0}
.shop-links{display:flex;flex-wrap:wrap;gap:var(--gap) var(--pad);align-items:center}
.shop-links a{font-weight:600;text-decoration:none;display:inline-flex;gap:4px;align-items:center}
.shop-cats{display:flex;flex-wrap:wrap;gap:calc(var(--gap)*.5) var(--pad);margin-top:var(--gap);padding-top:var(--gap);
 border-top:var(--bw) solid var(--border)}
.shop-cats a{text-decoration:none;color:var(--muted);font-weight:600}
.shop-cats a.active{color:var(--primary);text-decoration:underline}
.shop-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:var(--pad)}
.layout-mobile .shop-grid{grid-template-columns:repeat(auto-fill,minmax(min(100%,11em),1fr))}
.shop-card{display:flex;flex-direction:column;gap:4px;text-decoration:none;color:var(--text);margin:0}
.shop-card:hover,.shop-card:focus{border-color:var(--primary)}
.shop-card .shop-img{width:100%;height:auto}
.shop-name{font-weight:600;overflow-wrap:break-word}
.shop-price{font-weight:700;color:var(--text)}
.shop-price.big{font-size:1.5em}
.stars{color:var(--accent);letter-spacing:1px}
.shop-cat-tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:var(--pad)}
.shop-cat-tile{display:flex;gap:var(--gap);align-items:center;text-decoration:none;color:var(--text);margin:0}
.shop-cat-tile p{margin:0;overflow-wrap:break-word}
.shop-cat-tile svg{flex:none}
.shop-hero{display:flex;gap:var(--pad);align-items:center;justify-content:space-between}
.shop-hero p{margin:0}
.shop-detail{display:grid;grid-template-columns:minmax(0,340px) minmax(0,1fr);gap:calc(var(--pad)*1.5);align-items:start}
.layout-mobile .shop-detail{grid-template-columns:1fr}
.shop-detail .shop-img{width:100%;height:auto}
.shop-detail p{overflow-wrap:break-word}
.shop-field{display:flex;flex-direction:column;gap:2px;max-width:320px}
.shop-field select,.shop-field input{width:100%}
.swatches{display:flex;gap:6px;margin-top:4px}
.swatch{width:1.1em;height:1.1em;border-radius:50%;border:var(--bw) solid var(--border);display:inline-block}
.crumbs{margin-bottom:var(--gap)}
.crumbs a{text-decoration:none}
.shop-toolbar{display:flex;flex-wrap:wrap;gap:var(--gap) var(--pad);align-items:center;justify-content:space-between;
 margin-bottom:var(--pad)}
.shop-sorts{display:flex;flex-wrap:wrap;gap:var(--gap);align-items:center}
.shop-sorts a{text-decoration:none}
.shop-sorts a.active{font-weight:700;text-decoration:underline}
.pager{display:flex;gap:var(--pad);align-items:center;justify-content:center;margin:var(--pad) 0}
.shop-cols{display:grid;grid-template-columns:1fr minmax(240px,320px);gap:var(--pad);align-items:start}
.layout-mobile .shop-cols{grid-template-columns:1fr}
.shop-line{display:grid;grid-template-columns:64px minmax(0,1fr) auto auto auto;gap:var(--pad);align-items:center;
 padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.shop-line form.row{flex-wrap:nowrap}
.layout-mobile .shop-line{display:flex;flex-wrap:wrap}
.layout-mobile .shop-line .info{flex:1 1 60%}
.layout-mobile .shop-line form.row,.layout-mobile .shop-search{flex-direction:row;flex:none}
.shop-line:last-child{border-bottom:0}
.shop-line .shop-img{flex:none}
.shop-line .info{min-width:0;overflow-wrap:break-word}
.shop-line input[type=number]{width:5em}
.shop-line .line-total{min-width:6em;text-align:end;font-weight:700}
.sum-row{display:flex;justify-content:space-between;gap:var(--gap)}
.sum-row.total{font-weight:700;font-size:1.15em;border-top:var(--bw) solid var(--border);padding-top:var(--gap)}
.shop-form{display:grid;grid-template-columns:1fr 1fr;gap:var(--gap) var(--pad)}
.shop-form .wide{grid-column:1 / -1}
.layout-mobile .shop-form{grid-template-columns:1fr}
.shop-form input{width:100%}
.order-lines li{display:flex;justify-content:space-between;gap:var(--gap);padding:2px 0}
"""

ICON = "M5 8h14l-1 12H6zM9 8V6a3 3 0 0 1 6 0v2"  # the launcher tile and the top bar's home link
