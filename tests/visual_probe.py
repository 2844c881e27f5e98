"""Measuring what a reader sees in a real browser, beyond overflow (tests/layout_probe.py):
placeholders cut off, button labels broken into lines, items pushed onto a line of their own,
a map or its scale bar wider than the screen, map labels on top of each other, glyphs in the
wrong order, chevrons pointing the wrong way, text on the accent colour too faint."""

from __future__ import annotations

import io

# Search boxes and text fields whose placeholder is wider than the box (drawn cut off).
CLIPPED_PLACEHOLDERS_JS = r"""
() => {
  const out = [];
  const ctx = document.createElement('canvas').getContext('2d');
  for (const el of document.querySelectorAll('input[placeholder]:not([type=hidden]),textarea[placeholder]')) {
    if (el.value || !el.offsetParent) continue;
    const cs = getComputedStyle(el);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const need = ctx.measureText(el.placeholder).width;
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (el.tagName === 'INPUT' && need > room + 1) out.push(`${el.dataset.testid || el.name}: '${el.placeholder}' needs ${Math.ceil(need)} px, has ${Math.floor(room)}`);
  }
  return out;
}
"""

# Buttons whose short label is drawn on more than one line ("検/索").
WRAPPED_BUTTONS_JS = r"""
() => {
  const out = [];
  const range = document.createRange();
  for (const el of document.querySelectorAll('button,.button')) {
    if (!el.offsetParent) continue;
    const text = el.innerText.trim();
    if (!text || text.length > 12) continue;
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0.5).map(r => Math.round(r.top)));
    if (tops.size > 1) out.push(`${el.dataset.testid || text}: '${text}' on ${tops.size} lines`);
  }
  return out;
}
"""

# Each todo item's delete button beside its edit button, and (for an open item, which has no
# "done" badge) on the line of its title rather than pushed under it.
TODO_ROWS_JS = r"""
() => [...document.querySelectorAll('li[data-testid^=todo-item-]')].flatMap(li => {
  const title = li.querySelector('[data-testid^=todo-title-]');
  const edit = li.querySelector('[data-testid^=todo-edit-]');
  const del = li.querySelector('[data-testid^=todo-delete-]');
  if (!title || !del || !edit) return [];
  const t = title.getBoundingClientRect(), e = edit.getBoundingClientRect(), d = del.getBoundingClientRect();
  const out = [];
  if (Math.abs(d.top - e.top) > 2) out.push(`${li.dataset.testid}: delete on a line of its own`);
  if (!li.querySelector('.badge') && d.top >= t.bottom - 1) out.push(`${li.dataset.testid}: delete under the title`);
  return out;
})
"""

# The map and its scale bar inside the screen, and no two place labels overlapping.
MAP_JS = r"""
() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const frame = document.querySelector('[data-testid=maps-map]');
  const f = frame.getBoundingClientRect();
  if (f.right > vw + 0.5 || f.left < -0.5) out.push(`map frame ${Math.round(f.left)}..${Math.round(f.right)} outside 0..${vw}`);
  const svg = document.querySelector('[data-testid=maps-svg]').getBoundingClientRect();
  if (svg.width > f.width + 0.5) out.push(`map ${Math.round(svg.width)} px wide in a ${Math.round(f.width)} px frame`);
  const scale = document.querySelector('[data-testid=maps-scale] text');
  if (scale) {
    const s = scale.getBoundingClientRect();
    if (s.left < f.left || s.right > f.right || s.right > vw) out.push(`scale label '${scale.textContent}' cut off at ${Math.round(s.left)}..${Math.round(s.right)} (frame ${Math.round(f.left)}..${Math.round(f.right)})`);
  }
  const labels = [...document.querySelectorAll('[data-testid=maps-svg] text.label')].map(t => [t.textContent, t.getBoundingClientRect()]);
  for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
    const [a, ra] = labels[i], [b, rb] = labels[j];
    // on one line, two labels closer than 2 px read as one ("هلسنكيسانت بطرسبرغ")
    if (ra.left < rb.right + 2 && rb.left < ra.right + 2 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1) out.push(`labels overlap or touch: '${a}' and '${b}'`);
  }
  return out;
}
"""

# In "48.86° N" the degree sign is drawn right after its number: on the number's right.
DEGREE_ORDER_JS = r"""
(testid) => {
  const el = document.querySelector(`[data-testid=${testid}]`);
  const out = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node;
  while ((node = walker.nextNode())) {
    for (let i = node.data.indexOf('°'); i > 0; i = node.data.indexOf('°', i + 1)) {
      range.setStart(node, i - 1); range.setEnd(node, i);
      const digit = range.getBoundingClientRect();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const deg = range.getBoundingClientRect();
      if (deg.left < digit.left) out.push(`'°' drawn left of its number in '${el.innerText}'`);
    }
  }
  return out;
}
"""

# Header cells whose text is cut off.
CLIPPED_CELLS_JS = r"""
(selector) => [...document.querySelectorAll(selector)].filter(el => el.scrollWidth > el.clientWidth + 1)
  .map(el => `'${el.innerText}' cut off: needs ${el.scrollWidth} px, has ${el.clientWidth}`)
"""


def chevron_points(png: bytes) -> str:
    """Which way a chevron button's glyph points, from a screenshot of the button: the apex of
    '‹' is its leftmost column, which is short, while its open side (rightmost) is tall."""
    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("L")
    w, h = im.size
    px = im.load()
    ink = [
        (x, y) for x in range(int(w * 0.25), int(w * 0.75)) for y in range(int(h * 0.2), int(h * 0.8)) if px[x, y] < 200
    ]
    if not ink:
        return "none"
    xs = [x for x, _ in ink]

    def extent(col: int) -> int:
        ys = [y for x, y in ink if abs(x - col) <= 1]
        return max(ys) - min(ys)

    return "left" if extent(min(xs)) < extent(max(xs)) else "right"


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two computed CSS colours (``rgb(...)``)."""

    def lum(css: str) -> float:
        r, g, b = (int(float(v)) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)
