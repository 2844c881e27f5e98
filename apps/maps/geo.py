"""Web-Mercator view arithmetic, search folding and small geographic helpers for the maps app.

The map uses the Web-Mercator projection of tiled web maps: at zoom ``z`` the whole world is a
square of ``256 * 2**z`` pixels; ``x`` grows east from longitude -180 and ``y`` grows south
from latitude +85.05. A :class:`View` is a window of ``width`` x ``height`` pixels centred on
``(lat, lon)``; it converts between geographic and window coordinates in both directions, so a
click at pixel ``(x, y)`` on the map becomes a latitude and longitude on the server.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

MAX_LAT = 85.05112878
MIN_ZOOM = 2
MAX_ZOOM = 16


def wrap_lon(lon: float) -> float:
    """Longitude brought into [-180, 180)."""
    return ((float(lon) + 180.0) % 360.0) - 180.0


def clamp(value: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, value))


def _merc_y(lat: float) -> float:
    """Mercator y of a latitude on the unit square (0 at the top, 1 at the bottom)."""
    phi = math.radians(clamp(lat, -MAX_LAT, MAX_LAT))
    return (1.0 - math.log(math.tan(math.pi / 4 + phi / 2)) / math.pi) / 2.0


def _merc_lat(y: float) -> float:
    return math.degrees(math.atan(math.sinh(math.pi * (1.0 - 2.0 * y))))


def unit_xy(lat: float, lon: float, unit: float = 1.0) -> tuple[float, float]:
    """Position on the world square of side ``unit`` (x east from -180, y south from the top)."""
    return (lon + 180.0) / 360.0 * unit, _merc_y(lat) * unit


@dataclass(frozen=True)
class View:
    lat: float
    lon: float
    zoom: int
    width: int
    height: int

    @classmethod
    def make(cls, lat: float, lon: float, zoom: int, width: int, height: int) -> View:
        """A view with the zoom in range, the longitude wrapped and the world filling the height."""
        zoom = int(clamp(zoom, MIN_ZOOM, MAX_ZOOM))
        size = 256 * 2**zoom
        y = _merc_y(lat) * size
        half = height / 2
        y = size / 2 if size <= height else clamp(y, half, size - half)
        return cls(_merc_lat(y / size), wrap_lon(lon), zoom, int(width), int(height))

    @property
    def size(self) -> float:
        """Width (and height) of the whole world in pixels at this zoom."""
        return 256.0 * 2**self.zoom

    def project(self, lat: float, lon: float) -> tuple[float, float]:
        """Window pixel of a point; the longitude is taken in the copy of the world nearest the centre."""
        dlon = wrap_lon(lon - self.lon)
        x = self.width / 2 + dlon / 360.0 * self.size
        y = self.height / 2 + (_merc_y(lat) - _merc_y(self.lat)) * self.size
        return x, y

    def project_raw(self, lat: float, lon: float) -> tuple[float, float]:
        """Like :meth:`project` without wrapping (for outlines drawn in several world copies)."""
        x = self.width / 2 + (lon - self.lon) / 360.0 * self.size
        y = self.height / 2 + (_merc_y(lat) - _merc_y(self.lat)) * self.size
        return x, y

    def origin(self) -> tuple[float, float]:
        """Window pixel of the world square's top-left corner (longitude -180, latitude 85.05)."""
        return (
            self.width / 2 - (self.lon + 180.0) / 360.0 * self.size,
            self.height / 2 - _merc_y(self.lat) * self.size,
        )

    def unproject(self, x: float, y: float) -> tuple[float, float]:
        """Latitude and longitude of a window pixel."""
        lon = self.lon + (x - self.width / 2) / self.size * 360.0
        my = _merc_y(self.lat) + (y - self.height / 2) / self.size
        return _merc_lat(clamp(my, 0.0, 1.0)), wrap_lon(lon)

    def contains(self, lat: float, lon: float, margin: float = 0.0) -> bool:
        x, y = self.project(lat, lon)
        return -margin <= x <= self.width + margin and -margin <= y <= self.height + margin

    def moved(self, dx: float, dy: float) -> View:
        """The view shifted by ``dx``, ``dy`` pixels (east and south positive)."""
        lat, lon = self.unproject(self.width / 2 + dx, self.height / 2 + dy)
        return View.make(lat, lon, self.zoom, self.width, self.height)

    def zoomed(self, dz: int) -> View:
        return View.make(self.lat, self.lon, self.zoom + dz, self.width, self.height)

    def km_per_px(self) -> float:
        return 40075.016686 * math.cos(math.radians(self.lat)) / self.size


def fit_zoom(points: list[tuple[float, float]], width: int, height: int, max_zoom: int) -> tuple[float, float, int]:
    """Centre and the largest zoom (up to ``max_zoom``) showing every point with a margin."""
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    lat0 = _merc_lat((_merc_y(max(lats)) + _merc_y(min(lats))) / 2)
    lon0 = (max(lons) + min(lons)) / 2
    for zoom in range(max_zoom, MIN_ZOOM - 1, -1):
        size = 256.0 * 2**zoom
        w = (max(lons) - min(lons)) / 360.0 * size
        h = (_merc_y(min(lats)) - _merc_y(max(lats))) * size
        if w <= width * 0.8 and h <= height * 0.75:
            return lat0, lon0, zoom
    return lat0, lon0, MIN_ZOOM


GRID_STEPS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45)


def grid_step(view: View, min_px: float = 90.0) -> float:
    """The graticule spacing in degrees: the finest step at least ``min_px`` pixels apart."""
    per_degree = view.size / 360.0
    for step in GRID_STEPS:
        if step * per_degree >= min_px:
            return step
    return GRID_STEPS[-1]


def nice_distance(max_km: float) -> float:
    """The longest of 1, 2, 5 x 10^k kilometres not above ``max_km``."""
    if max_km <= 0:
        return 0.0
    exp = math.floor(math.log10(max_km))
    best = 10.0**exp
    for m in (1, 2, 5):
        if m * 10.0**exp <= max_km:
            best = m * 10.0**exp
    return best


def format_km(km: float) -> str:
    if km < 1:
        return f"{round(km * 1000):g} m"
    if km < 10:
        return f"{km:.1f} km".replace(".0 km", " km")
    return f"{round(km):,} km".replace(",", " ")


def format_coord(value: float, positive: str, negative: str, digits: int = 4) -> str:
    text = f"{abs(value):.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}° {positive if value >= 0 else negative}"


_APOSTROPHES = re.compile(r"['’ʼ`´]")
_NON_WORD = re.compile(r"[\W_]+")


def fold(text: object) -> str:
    """Search folding: accents removed, case folded, punctuation turned into spaces.

    ``"Kraków"`` and ``"krakow"``, ``"St. Peter's"`` and ``"st peters"`` fold alike; Chinese
    and other scripts without case pass through unchanged.
    """
    value = unicodedata.normalize("NFKD", str(text))
    value = "".join(c for c in value if not unicodedata.combining(c))
    value = _APOSTROPHES.sub("", value.casefold())
    value = value.replace("ø", "o").replace("æ", "ae").replace("œ", "oe").replace("ł", "l").replace("đ", "d")
    return " ".join(_NON_WORD.sub(" ", value).split())


def match_score(query: str, name: str, extra: str, description: str) -> int | None:
    """How well a folded query matches a place (lower is better; None: no match)."""
    if not query:
        return None
    tokens = query.split()
    fname = fold(name)
    if fname == query:
        return 0
    if fname.startswith(query):
        return 1
    if all(t in fname for t in tokens):
        return 2
    if all(t in f"{fname} {fold(extra)}" for t in tokens):
        return 3
    if all(t in f"{fname} {fold(extra)} {fold(description)}" for t in tokens):
        return 4
    return None
