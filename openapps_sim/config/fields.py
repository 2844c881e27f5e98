"""The fields of the schema language (:mod:`openapps_sim.config.schema`): the base
:class:`Field` and the scalar values (text, numbers, choices, colours, language tags, dates,
times). Each checks one value and names the file, the key path and what is allowed when it
is wrong; a scalar given by a pack replaces the base value whole.
"""

from __future__ import annotations

import copy
import math
import re
from typing import Any

from openapps_sim.config.textformats import is_css_color, is_language_tag
from openapps_sim.errors import ConfigError, unknown_name

MISSING = object()


class Field:
    """One configuration value. ``doc`` appears in generated documentation.

    ``vary`` marks a structural knob that generated packs (``random-<seed>``) draw: the values
    to draw from, or ``True`` for every choice of an :class:`Enum` or :class:`Bool`.
    """

    type_name = "value"

    def __init__(self, default: Any = MISSING, doc: str = "", vary: tuple | bool = ()):
        self.default = default
        self.doc = doc
        self.vary = vary

    def vary_values(self) -> tuple:
        """The values a generated pack may draw for this field (empty: not a knob)."""
        return tuple(self.vary) if isinstance(self.vary, (tuple, list)) else ()

    @property
    def required(self) -> bool:
        return self.default is MISSING

    def check(self, value: Any, source: str, path: str) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        return self.type_name

    def fail(self, value: Any, source: str, path: str, problem: str | None = None) -> ConfigError:
        got = repr(value)
        if len(got) > 60:
            got = got[:57] + "..."
        return ConfigError(source, path, problem or f"expected {self.describe()}, got {got}")

    def merge(self, base: Any, override: Any, source: str, path: str) -> Any:
        return self.check(override, source, path)

    def expect(self, value: Any, kind: type, noun: str, source: str, path: str) -> None:
        """Nothing when ``value`` is a ``kind``; else the error "expected <noun>, got <its type>"."""
        if not isinstance(value, kind):
            raise self.fail(value, source, path, f"expected {noun}, got {type(value).__name__}")


class Str(Field):
    type_name = "a string"

    def __init__(self, default: Any = MISSING, doc: str = "", max_len: int = 20000):
        super().__init__(default, doc)
        self.max_len = max_len

    def check(self, value, source, path):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(value, source, path)
        text = str(value)
        if len(text) > self.max_len:
            raise self.fail(value, source, path, f"text longer than {self.max_len} characters")
        return text


class Number(Field):
    """A finite number, kept as given (an int stays an int), optionally bounded (``lo``, ``hi``,
    both included); :class:`Int` and :class:`Float` say which kind. ``allowed``: what an error
    says is allowed (examples), when the problem alone does not say it."""

    noun = "a number"
    kinds: tuple[type, ...] = (int, float)

    def __init__(
        self,
        default: Any = MISSING,
        doc: str = "",
        lo: float | None = None,
        hi: float | None = None,
        vary: tuple = (),
        allowed: str | None = None,
    ):
        super().__init__(default, doc, vary)
        self.lo, self.hi, self.allowed = lo, hi, allowed

    @staticmethod
    def cast(value):
        return value

    def fail(self, value: Any, source: str, path: str, problem: str | None = None) -> ConfigError:
        error = super().fail(value, source, path, problem)
        return ConfigError(source, path, error.problem, self.allowed) if self.allowed else error

    def describe(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"{self.noun} from {self.lo} to {self.hi}"
        if self.lo is not None:
            return f"{self.noun} >= {self.lo}"
        return self.noun

    def check(self, value, source, path):
        if (
            isinstance(value, bool)
            or not isinstance(value, self.kinds)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise self.fail(value, source, path)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise self.fail(value, source, path)
        return self.cast(value)


class Int(Number):
    noun = "an integer"
    kinds = (int,)
    cast = staticmethod(int)


class Float(Number):
    """A number (an integer in the file is read as a float)."""

    cast = staticmethod(float)


class Bool(Field):
    type_name = "true or false"

    def vary_values(self) -> tuple:
        return (False, True) if self.vary is True else super().vary_values()

    def check(self, value, source, path):
        if not isinstance(value, bool):
            raise ConfigError(source, path, self.fail(value, source, path).problem, "true, false")
        return value


class Enum(Field):
    """One of ``choices``; any other value is an "unknown ``what``" (a value, a backend, a style...)
    with the closest choices and the list of them."""

    def __init__(self, choices, default: Any = MISSING, doc: str = "", vary: tuple | bool = (), what: str = "value"):
        super().__init__(default, doc, vary)
        self.choices = list(choices)
        self.what = what

    def vary_values(self) -> tuple:
        return tuple(self.choices) if self.vary is True else super().vary_values()

    def describe(self) -> str:
        return "one of " + ", ".join(map(str, self.choices))

    def check(self, value, source, path):
        if value not in self.choices:
            raise unknown_name(source, path, value, self.choices, what=self.what, keep_order=True)
        return value


class Color(Field):
    type_name = "a CSS colour such as '#1a2b3c', 'rgb(10, 20, 30)', 'hsl(200, 50%, 40%)' or 'white'"

    def check(self, value, source, path):
        if not isinstance(value, str) or not is_css_color(value):
            raise self.fail(value, source, path)
        return value.strip()


class LanguageTag(Field):
    type_name = "a BCP 47 language tag such as 'en', 'de', 'pt-BR', 'zh-Hans' or 'ar'"

    def check(self, value, source, path):
        if value == "" and self.default == "":
            return ""  # an optional tag left unset
        if not isinstance(value, str) or not is_language_tag(value):
            raise self.fail(value, source, path)
        return value.strip()


class Date(Field):
    type_name = "a date written YYYY-MM-DD"
    _re = re.compile(r"^\d{4}-\d{2}-\d{2}$")

    def check(self, value, source, path):
        text = value.isoformat() if hasattr(value, "isoformat") else value
        if not isinstance(text, str) or not self._re.match(text):
            raise self.fail(value, source, path)
        return text


class Time(Field):
    type_name = "a time written HH:MM"
    _re = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

    def check(self, value, source, path):
        if isinstance(value, int) and not isinstance(value, bool):
            # YAML 1.1 reads 10:30 as the sexagesimal number 630.
            value = f"{value // 60:02d}:{value % 60:02d}"
        if not isinstance(value, str) or not self._re.match(value):
            raise self.fail(value, source, path)
        return value


class Nullable(Field):
    """A value of ``field``, or null (``None``); its default and doc are the field's."""

    def __init__(self, field: Field):
        super().__init__(field.default, field.doc, field.vary)
        self.field = field

    def describe(self) -> str:
        return f"{self.field.describe()} or null"

    def check(self, value, source, path):
        return None if value is None else self.field.check(value, source, path)


class Any_(Field):
    type_name = "any value"

    def check(self, value, source, path):
        return value


def join_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def copy_default(value: Any) -> Any:
    return copy.deepcopy(value)
