"""Fonts, served from this machine only.

Web fonts come from the npm registry's ``@fontsource`` packages at install time
(``openapps fonts fetch``, run by ``make``), land in a cache folder and are served under
``/_static/fonts/``. When a font file is missing the page falls back to a generic family of the
same kind, and ``openapps doctor`` says so; nothing is ever loaded from another host.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from openapps_sim.config.appearance import FONT_CHOICES, GENERIC_FONTS, WEB_FONTS  # noqa: F401

WEIGHTS = (400, 700)


def font_dir() -> Path:
    """Where fetched font files live (``OPENAPPS_FONT_DIR`` or the user cache)."""
    env = os.environ.get("OPENAPPS_FONT_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "openapps-sim" / "fonts"


def font_file(name: str, weight: int) -> str:
    return f"{name}-latin-{weight}.woff2"


def available(name: str) -> bool:
    return all((font_dir() / font_file(name, w)).is_file() for w in WEIGHTS if w == 400)


def font_stack(name: str) -> str:
    if name in GENERIC_FONTS:
        return GENERIC_FONTS[name]
    _, family, generic = WEB_FONTS[name]
    return f"'{family}', {GENERIC_FONTS['system'] if generic == 'sans-serif' else generic}"


def font_face_css(name: str) -> str:
    if name not in WEB_FONTS:
        return ""
    _, family, _ = WEB_FONTS[name]
    out = []
    for weight in WEIGHTS:
        if (font_dir() / font_file(name, weight)).is_file():
            out.append(
                f"@font-face{{font-family:'{family}';font-weight:{weight};font-style:normal;"
                f"font-display:block;src:url(/_static/fonts/{font_file(name, weight)}) format('woff2')}}"
            )
    return "".join(out)


def fetch(names: list[str] | None = None, quiet: bool = False) -> list[str]:
    """Download the web fonts with ``npm pack`` into :func:`font_dir`. Returns what is missing."""
    target = font_dir()
    target.mkdir(parents=True, exist_ok=True)
    missing = []
    npm = shutil.which("npm")
    for name in names or list(WEB_FONTS):
        if all((target / font_file(name, w)).is_file() for w in WEIGHTS):
            continue
        package = WEB_FONTS[name][0]
        if not npm:
            missing.append(name)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run(
                [npm, "pack", package, "--silent"], cwd=tmp, capture_output=True, text=True, timeout=120
            )
            tarballs = list(Path(tmp).glob("*.tgz"))
            if proc.returncode != 0 or not tarballs:
                missing.append(name)
                continue
            with tarfile.open(tarballs[0]) as tar:
                for weight in WEIGHTS:
                    member = f"package/files/{package.split('/')[1]}-latin-{weight}-normal.woff2"
                    try:
                        data = tar.extractfile(member)
                    except KeyError:
                        data = None
                    if data is None:
                        missing.append(f"{name}:{weight}")
                        continue
                    (target / font_file(name, weight)).write_bytes(io.BytesIO(data.read()).getvalue())
        if not quiet:
            print(f"font {name}: ok")
    return missing
