"""Messenger's CSS."""

from __future__ import annotations

CSS = """
.msgr{display:grid;grid-template-columns:minmax(230px,320px) minmax(0,1fr);gap:var(--pad);align-items:start}
.layout-mobile .msgr{grid-template-columns:minmax(0,1fr)}
.layout-mobile .msgr.open .msgr-side{display:none}
.msgr .back{display:none}
.layout-mobile .msgr .back{display:inline-block}
.msgr-side h2,.msgr-chat h2{font-size:1.1em;margin:0}
.msgr-search{display:flex;gap:var(--gap);margin-bottom:var(--gap)}
.msgr-search input{flex:1 1 auto;min-width:0}
.side-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:var(--gap);margin:var(--gap) 0}
.side-head .button{white-space:nowrap;flex:none}
.side-head h2{min-width:0;overflow-wrap:break-word}
.conv-list li{border-bottom:var(--bw) solid var(--border)}
.conv-list li:last-child{border-bottom:0}
.conv-list a{display:flex;gap:var(--gap);align-items:center;padding:var(--gap);text-decoration:none;color:var(--text);
 border-radius:var(--radius)}
.conv-list a:hover{background:var(--background)}
.conv-list a.active{background:var(--background);box-shadow:inset 3px 0 0 var(--primary)}
[dir=rtl] .conv-list a.active{box-shadow:inset -3px 0 0 var(--primary)}
.conv-list .meta{flex:1 1 auto;min-width:0}
.conv-list .top{display:flex;justify-content:space-between;gap:var(--gap);align-items:baseline}
.conv-list .name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.conv-list .time{flex:none;color:var(--muted);font-size:.8em}
.conv-list .preview,.conv-list .about{display:block;color:var(--muted);font-size:.9em;white-space:nowrap;overflow:hidden;
 text-overflow:ellipsis}
.avatar{flex:none;width:40px;height:40px;border-radius:50%;display:inline-flex;align-items:center;justify-content:center;
 font-weight:700;font-size:.85em;letter-spacing:0;line-height:1}
.avatar.big{width:48px;height:48px;font-size:1em}
.av0{background:var(--primary);color:var(--on-primary)}
.av1{background:var(--success);color:#fff}
.av2{background:var(--accent);color:var(--on-accent)}
.av3{background:var(--danger);color:#fff}
.av4{background:var(--muted);color:var(--surface)}
.chat-head{display:flex;gap:var(--gap);align-items:center;border-bottom:var(--bw) solid var(--border);
 padding-bottom:var(--gap);margin-bottom:var(--pad)}
.msgs{display:flex;flex-direction:column;gap:var(--gap);margin-bottom:var(--pad)}
.day{align-self:center;font-size:.8em;color:var(--muted);border:var(--bw) solid var(--border);border-radius:999px;
 padding:0 var(--gap)}
.msg{max-width:78%;align-self:flex-start;padding:var(--gap) var(--pad);border-radius:var(--radius);
 border:var(--bw) solid var(--border);background:var(--background);color:var(--text)}
.msg.mine{align-self:flex-end;background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.msg .sender{display:block;font-weight:700;font-size:.8em}
.msg .fwd{display:block;font-size:.8em;font-style:italic;opacity:.85}
.msg .text{white-space:pre-wrap;overflow-wrap:break-word}
.msg .foot{display:flex;gap:var(--pad);justify-content:flex-end;align-items:center;font-size:.78em;opacity:.85;margin-top:4px}
.msg .foot a{color:inherit}
.compose{display:flex;gap:var(--gap);align-items:flex-end}
.compose textarea{flex:1 1 auto;resize:vertical;min-height:2.6em}
.fwd-quote{border-inline-start:4px solid var(--primary);padding-inline-start:var(--pad);unicode-bidi:plaintext;white-space:pre-wrap;overflow-wrap:break-word}
.fwd-list li{display:flex;gap:var(--gap);align-items:center;padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.fwd-list li:last-child{border-bottom:0}
.fwd-list .meta{flex:1 1 auto;min-width:0}
.fwd-list .name{display:block;font-weight:600}
.fwd-list .about{display:block;color:var(--muted);font-size:.9em}
.layout-mobile .compose,.layout-mobile .msgr-search{flex-direction:row}
"""
