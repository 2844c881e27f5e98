"""Finding and launching Chromium on an offline machine.

Order of preference: ``OPENAPPS_CHROMIUM`` (a path); for headless runs a headless shell
(Playwright's ``chromium_headless_shell``, Debian's ``chromium-headless-shell``), which uses
about a third less CPU per step than full Chromium in headless mode; Playwright's own Chromium
when it is installed; then a system Chromium (Debian's real binary
``/usr/lib/chromium/chromium``, then ``chromium``, ``chromium-browser``, ``google-chrome`` on
the PATH). A headed run (``--headed``) skips the headless shells.

BrowserGym launches a second browser for its chat window without passing our options, so
instead of passing ``executable_path`` per launch we wrap the ``launch`` method of the shared
Playwright ``chromium`` object once (see ``shared/browsergym-notes.md``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache

from openapps_sim.envs.pwspeed import speed_up_playwright
from openapps_sim.errors import BrowserNotFound

FIX = (
    "no Chromium was found: install one with `apt-get install -y chromium` (Debian/Ubuntu) "
    "or `playwright install chromium`, or set OPENAPPS_CHROMIUM to the path of a Chromium binary"
)

# Flags for a headless browser run as root on a machine with no network but loopback.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # the software compositor as a thread of the browser process, not a process of its own: about
    # a tenth less CPU per episode (bench: an oracle episode 1.51 -> 1.36 CPU-s), same pixels
    "--in-process-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-quic",
    "--metrics-recording-only",
    "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication,CertificateTransparencyComponentUpdater",
]

SYSTEM_CANDIDATES = [
    "/usr/lib/chromium/chromium",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
]


HEADLESS_SHELL_CANDIDATES = [
    "/usr/lib/chromium/chromium-headless-shell",
    "chromium-headless-shell",
]


def _executable(candidate: str | None) -> str | None:
    path = candidate if candidate is None or os.path.isabs(candidate) else shutil.which(candidate)
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def _first_executable(candidates: Iterable[str]) -> str | None:
    """The first of ``candidates`` that is an executable file (a bare name: looked up on PATH)."""
    return next((path for path in map(_executable, candidates) if path), None)


def _playwright_own(shell: bool = False) -> str | None:
    """Path of Playwright's bundled Chromium (or its headless shell) if installed."""
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or os.path.expanduser("~/.cache/ms-playwright")
    if not os.path.isdir(root):
        return None
    prefix, names = ("chromium_headless_shell-", ("headless_shell",)) if shell else ("chromium-", ("chrome",))
    for entry in sorted(os.listdir(root), reverse=True):
        if entry.startswith(prefix):
            folders = ("chrome-linux", "chrome-linux64", "chrome-headless-shell-linux64")
            path = _first_executable(os.path.join(root, entry, f, n) for f in folders for n in names)
            if path:
                return path
    return None


def find_headless_shell() -> str | None:
    """A headless-only Chromium build if one is installed (Playwright's, then Debian's)."""
    return _playwright_own(shell=True) or _first_executable(HEADLESS_SHELL_CANDIDATES)


@lru_cache(maxsize=2)
def find_chromium(headless: bool = True) -> str:
    """The Chromium binary to use, or :class:`BrowserNotFound` with the fix in one sentence."""
    explicit = os.environ.get("OPENAPPS_CHROMIUM")
    if explicit:
        if _executable(explicit):
            return explicit
        raise BrowserNotFound(f"OPENAPPS_CHROMIUM={explicit!r} is not an executable file; {FIX}")
    if headless:
        shell = find_headless_shell()
        if shell:
            return shell
    found = _playwright_own() or _first_executable(SYSTEM_CANDIDATES)
    if found:
        return found
    raise BrowserNotFound(FIX[0].upper() + FIX[1:] + ".")


def chromium_version(path: str | None = None) -> str:
    try:
        out = subprocess.run([path or find_chromium(), "--version"], capture_output=True, text=True, timeout=20)
        return out.stdout.strip() or out.stderr.strip()
    except (OSError, subprocess.SubprocessError, BrowserNotFound) as e:
        return f"unknown ({e})"


def patch_playwright() -> None:
    """Make every Chromium launch through BrowserGym's shared Playwright use our binary and flags."""
    from browsergym.core import _get_global_playwright

    chromium = _get_global_playwright().chromium
    if getattr(chromium.launch, "_openapps_patched", False):
        return
    find_chromium()  # fail early, with the fix, when there is no browser at all
    original = chromium.launch

    def launch(*args, **kwargs):
        kwargs.setdefault("executable_path", find_chromium(headless=kwargs.get("headless", True) is not False))
        kwargs["args"] = list(kwargs.get("args") or []) + [
            a for a in LAUNCH_ARGS if a not in (kwargs.get("args") or [])
        ]
        return original(*args, **kwargs)

    launch._openapps_patched = True
    chromium.launch = launch


def launch_browser(headless: bool = True, slow_mo: float = 0):
    """A Playwright browser on BrowserGym's shared Playwright instance."""
    from browsergym.core import _get_global_playwright

    speed_up_playwright()
    patch_playwright()
    return _get_global_playwright().chromium.launch(
        headless=headless,
        slow_mo=slow_mo,
        args=["--disable-features=OverlayScrollbars,ExtendedOverlayScrollbars"],
        ignore_default_args=["--hide-scrollbars"],
    )


_SHARED: dict[tuple, list] = {}  # (binary, headless, slow_mo) -> [browser, users]
_KEEP_OPEN = [0]  # depth of browsers_kept_open() blocks


@contextmanager
def browsers_kept_open() -> Iterator[None]:
    """Within this block a browser whose last env closes stays open, and the next env of this
    process takes it instead of launching another (a loop that makes and closes envs one after
    another: ``openapps parity``, a test session). Leaving the block closes the idle ones."""
    _KEEP_OPEN[0] += 1
    try:
        yield
    finally:
        _KEEP_OPEN[0] -= 1
        if not _KEEP_OPEN[0]:
            close_idle_browsers()


def close_idle_browsers() -> int:
    """Close the browsers no env uses (kept open by :func:`browsers_kept_open`); how many."""
    idle = [key for key, entry in _SHARED.items() if entry[1] <= 0]
    for key in idle:
        _close(_SHARED.pop(key)[0])
    return len(idle)


def acquire_browser(headless: bool = True, slow_mo: float = 0):
    """The process's browser for these options, launched on first use (and again after a
    crash). Envs of one process share it; each episode still gets its own browser context,
    so they share no cookies, storage or pages. Pair with :func:`release_browser`."""
    key = (find_chromium(headless=bool(headless)), bool(headless), float(slow_mo or 0))
    entry = _SHARED.get(key)
    if entry is None or not entry[0].is_connected():
        entry = _SHARED[key] = [launch_browser(headless=headless, slow_mo=slow_mo), 0]
    entry[1] += 1
    return entry[0]


def release_browser(browser) -> None:
    """One user fewer; the last one closes the browser (unless :func:`browsers_kept_open`)."""
    for key, entry in list(_SHARED.items()):
        if entry[0] is browser:
            entry[1] -= 1
            if entry[1] > 0 or (_KEEP_OPEN[0] and browser.is_connected()):
                return
            del _SHARED[key]
            break
    _close(browser)


def _close(browser) -> None:
    try:
        browser.close()
    except Exception:  # already gone with a crashed or closed Playwright
        pass


def ensure_browser(install: bool = True) -> str:
    """Find Chromium; if there is none and we may (root, apt-get present), install Debian's.

    When apt-get is usable it also adds, quietly and optionally, what makes runs faster or
    screenshots complete: Debian's headless shell and a CJK font for the Mandarin pack.
    """
    import sys

    find_chromium.cache_clear()
    try:
        find_chromium()
        extras = []
        if install and _can_apt():
            if not _has_cjk_font():
                extras.append("fonts-wqy-zenhei")
            if not find_headless_shell() and not os.environ.get("OPENAPPS_CHROMIUM"):
                extras.append("chromium-headless-shell")
        if extras:
            _apt_install(extras, quiet=True)
            find_chromium.cache_clear()
        return find_chromium()
    except BrowserNotFound:
        if not install or not _can_apt():
            raise
    print("openapps: no Chromium found; installing Debian's chromium with apt-get ...", file=sys.stderr)
    _apt_install(["chromium", "fonts-wqy-zenhei"])
    _apt_install(["chromium-headless-shell"], quiet=True)  # optional: faster headless runs
    find_chromium.cache_clear()
    return find_chromium()


def _can_apt() -> bool:
    return os.name == "posix" and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") is not None


def _has_cjk_font() -> bool:
    return any(os.path.exists(p) for p in ("/usr/share/fonts/truetype/wqy", "/usr/share/fonts/opentype/noto"))


def _apt_install(packages: list[str], quiet: bool = False) -> None:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    out = subprocess.DEVNULL if quiet else None
    try:
        subprocess.run(["apt-get", "update", "-qq"], env=env, stdout=out, stderr=out, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], env=env, stdout=out, stderr=out, timeout=1200)
    except (OSError, subprocess.SubprocessError):
        pass


def main() -> int:
    import sys

    try:
        path = ensure_browser(install="--no-install" not in sys.argv)
    except BrowserNotFound as e:
        print(f"openapps: {e}", file=sys.stderr)
        return 1
    print(f"chromium: {path} ({chromium_version(path)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
