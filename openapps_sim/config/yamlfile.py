"""The one reader of every YAML a user can write: sweep specs, agent configs, variation packs,
app content, phrasings and ``--set`` values.

A document is bounded before it becomes Python values: the file is at most
:data:`MAX_BYTES`, UTF-8 text, nested at most :data:`MAX_DEPTH` levels, and its aliases
(``*name``) repeat at most :data:`MAX_ALIAS_NODES` nodes in all and never contain themselves.
An alias is shared, not copied, when PyYAML builds the values, so an "alias bomb" (nine
levels of nine aliases each: a billion nodes from a few hundred bytes) costs nothing to load
and then exhausts memory wherever it is walked (a spec's hash, a pack's merge, a ``<<:`` merge
key); it is refused here instead. Every problem is one :class:`ConfigError` naming the file.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from openapps_sim.config import parsecache
from openapps_sim.errors import ConfigError

MAX_BYTES = 16 * 2**20  # the largest shipped file is 270 KB
MAX_DEPTH = 64  # levels of nesting (the deepest shipped file has 8)
MAX_ALIAS_NODES = 10_000  # nodes that aliases may repeat, over the whole document

_RULES = f"{MAX_BYTES}/{MAX_DEPTH}/{MAX_ALIAS_NODES}".encode()  # the cache's salt

# libyaml's parser when PyYAML was built with it (the PyPI wheels are): the same documents
# (every YAML file of the tree parses equal), about 7x faster to read, which is most of the
# cost of composing a pack
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _TooBig(Exception):
    """The document's node graph breaks a bound (the message says which)."""


class _BoundedLoader(_BASE):  # type: ignore[misc, valid-type]
    """The safe loader, checking the composed node graph before building any value."""

    def get_single_data(self):
        node = self.get_single_node()
        if node is None:
            return None
        check_nodes(node)
        return self.construct_document(node)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def check_nodes(root: yaml.Node) -> None:
    """Raise :class:`_TooBig` when the graph under ``root`` is nested too deeply, holds an alias
    inside its own anchor, or would exceed :data:`MAX_ALIAS_NODES` repeated nodes if its aliases
    were written out. Linear in the distinct nodes: a shared node's size is computed once."""
    size: dict[int, int] = {}  # a collection node's size written out
    scalars: set[int] = set()
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, closing = stack.pop()
        key = id(node)
        if closing:
            open_nodes.discard(key)
            size[key] = 1 + sum(size.get(id(c), 1) for c in _children(node))  # a scalar is 1
            continue
        if key in open_nodes:
            raise _TooBig(f"an alias inside its own anchor at {_where(node)}")
        if key in size:
            continue
        if depth > MAX_DEPTH:
            raise _TooBig(f"nested deeper than {MAX_DEPTH} levels at {_where(node)}")
        open_nodes.add(key)
        stack.append((node, depth, True))
        for child in _children(node):
            if isinstance(child, yaml.ScalarNode):
                scalars.add(id(child))
            else:
                stack.append((child, depth + 1, False))
    repeated = size.get(id(root), 1) - len(size) - len(scalars)
    if repeated > MAX_ALIAS_NODES:
        raise _TooBig(f"its aliases repeat {repeated} nodes")


def _where(node: yaml.Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"


ALLOWED = (
    f"UTF-8 YAML of at most {MAX_BYTES // 2**20} MB, nested at most {MAX_DEPTH} levels, "
    f"whose aliases repeat at most {MAX_ALIAS_NODES} nodes in all"
)


def display_path(path: Path) -> str:
    """A short, recognisable name for a file in messages."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        pass
    parts = path.parts
    if "variations" in parts:
        return "/".join(parts[len(parts) - parts[::-1].index("variations") - 1 :])
    return str(path)


def read_yaml(path: Path, source: str | None = None) -> object:
    """The document of the YAML file ``path`` (``source``: its name in messages), bounded."""
    source = source or display_path(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise ConfigError(source, "", f"cannot be read ({e.strerror or e})") from None
    if len(data) > MAX_BYTES:
        raise ConfigError(source, "", f"is larger than {MAX_BYTES // 2**20} MB", ALLOWED)
    found, document, where = parsecache.lookup(data, _RULES)
    if found:  # these bytes passed every check below before
        return document
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(
            source, "", f"is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})", ALLOWED
        ) from None
    document = load_yaml(text, source)
    parsecache.store(where, document)
    return document


def load_yaml(text: str, source: str) -> object:
    """The document of the YAML ``text`` (read from ``source``), bounded as :func:`read_yaml`'s."""
    if len(text) > MAX_BYTES:
        raise ConfigError(source, "", f"is larger than {MAX_BYTES // 2**20} MB", ALLOWED)
    try:
        return yaml.load(text, Loader=_BoundedLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(source, "", f"malformed YAML at {where}: {problem}") from None
    except _TooBig as e:
        raise ConfigError(source, "", f"refused: {e}", ALLOWED) from None
    except (ValueError, TypeError, OverflowError) as e:  # a tagged or dated scalar PyYAML cannot build
        raise ConfigError(source, "", f"malformed YAML value: {e}") from None
    except RecursionError:
        raise ConfigError(source, "", f"refused: nested deeper than {MAX_DEPTH} levels", ALLOWED) from None
