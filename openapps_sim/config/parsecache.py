"""Parsed YAML kept on disk between processes, keyed by the file's bytes.

Building Python values from YAML is most of what a process does when it starts: the 58 described
apps, the phrasings and the packs are about 65 files, read again by every test worker, sweep
worker and CLI call. A file's document is stored here, pickled, under a hash of its bytes (and
of this format's version), so a file read before is rebuilt by ``pickle`` instead of PyYAML.
Nothing can be stale: changed bytes are another key. Only documents that passed every bound of
:mod:`openapps_sim.config.yamlfile` are stored, so a stored one needs no check again.

The folder is ``OPENAPPS_CACHE_DIR`` or ``openapps-sim/yaml`` in the user cache; a folder that
cannot be written only costs the time saved (nothing is reported), and ``OPENAPPS_CACHE_DIR=off``
turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

FORMAT = b"openapps-yaml-1"  # changes when the stored form or the loader's bounds change
MIN_BYTES = 2048  # smaller files parse faster than a cache file is found and read


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off."""
    env = os.environ.get("OPENAPPS_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env) / "yaml"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "openapps-sim" / "yaml"


def key_of(data: bytes, salt: bytes = b"") -> str:
    digest = hashlib.blake2b(FORMAT + salt, digest_size=20)
    digest.update(data)
    return digest.hexdigest()


def lookup(data: bytes, salt: bytes = b"") -> tuple[bool, object, Path | None]:
    """``(found, document, where to store it)`` for a file's bytes; ``salt`` names the rules
    the document was read under (another salt, another key)."""
    folder = cache_dir() if len(data) >= MIN_BYTES else None
    if folder is None:
        return False, None, None
    path = folder / f"{key_of(data, salt)}.pickle"
    try:
        with open(path, "rb") as f:
            return True, pickle.load(f), path  # noqa: S301 - written by store() below only
    except Exception:  # noqa: BLE001 - a damaged file is parsed again and overwritten
        return False, None, path


def store(path: Path | None, document: object) -> None:
    """Keep ``document`` at ``path`` (from :func:`lookup`), written whole or not at all."""
    if path is None:
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump(document, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, RecursionError):
        try:
            tmp.unlink()
        except OSError:
            pass
