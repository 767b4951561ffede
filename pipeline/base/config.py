"""One configuration language for every stage: dataclasses, loaded from YAML, overridden with `key.sub=value`.

A stage declares a (possibly nested) dataclass. Users write YAML with the same shape and override any field on the
command line, e.g. `bsl augment corpus.txt --out ds -o corpus.min_words=3 -o method_params.synonyms.fraction=0.2`.
Values given on the command line are parsed as YAML scalars/lists and then checked against the field's type.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import yaml

from bsl_pipeline.pipeline.base.errors import BSLError

T = TypeVar("T")


class ConfigError(BSLError):
    pass


@dataclasses.dataclass(frozen=True)
class Range:
    """The values a numeric setting accepts; declared in its field's metadata as `"range": Range(...)` and checked
    by `from_dict` (so by `load_config`). `not_above` names a sibling field this one may not exceed."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    not_above: str | None = None

    def contains(self, value: float) -> bool:
        # Infinities and NaN are outside every range: an unbounded side means "any finite number".
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if self.low is not None and not (value > self.low if self.low_open else value >= self.low):
            return False
        if self.high is not None and not (value < self.high if self.high_open else value <= self.high):
            return False
        return self.low is not None or self.high is not None or value == value

    def __str__(self) -> str:
        low, high = _number(self.low), _number(self.high)
        if self.low is not None and self.high is not None:
            return f"{'(' if self.low_open else '['}{low}, {high}{')' if self.high_open else ']'}"
        if self.low is not None:
            return f"{'>' if self.low_open else '>='} {low}"
        if self.high is not None:
            return f"{'<' if self.high_open else '<='} {high}"
        return "any number"


# The seeds every consumer takes: the dataset's int64 `seed` column, torch.manual_seed, Python's random.
SEED_RANGE = Range(0, 2**63 - 1)

# Upper bounds of the settings whose memory grows with their value (without one, `-o train.batch_size=100000000000`
# would be accepted and grow without end). Generous next to any real run on one machine; a run that needs more raises
# the bound here, in one place.
MAX_BATCH = 65_536                 # sentences or pairs per batch / per augmenter call
MAX_SEQUENCE_TOKENS = 32_768       # tokens per sentence (max_length)
MAX_BATCH_TOKENS = 16_777_216      # padded tokens per batch (max_tokens)
MAX_BUFFERED_ITEMS = 100_000_000   # rows held at once (shuffle buffers, chunks, read batches, caches)
MAX_WORKERS = 256                  # worker processes
MAX_PREFETCH = 1_024               # batches prepared ahead per worker
#: The longest view (characters) a published pair may hold: `bsl verify --max-view-chars` defaults to it, training
#: verifies with it, `corpus.max_chars` may not exceed it, and a task rejects a longer view (`view_too_long`).
MAX_VIEW_CHARS = 20_000


def setting(text: str, allowed: Range | None = None, check=None, in_run_key: bool = True, **kwargs):
    """A field with its help, its `Range` and its `check` (value -> None or what is wrong): the one rule of a setting,
    applied by `check_config` when loading and by `config_errors` for configs built in code. `in_run_key=False`
    marks a setting that says where or how a run is carried out, not what it learns: it is left out of the
    fingerprint (`fingerprint_dict`, e.g. the run key of train -> evaluate), so runs that differ only in it are one."""
    metadata = {"help": text, **({"range": allowed} if allowed else {}), **({"check": check} if check else {}),
                **({} if in_run_key else {"fingerprint": False})}
    return dataclasses.field(metadata=metadata, **kwargs)


def _number(value: float | None) -> str:
    # Integer bounds are shown exactly (a seed's 9223372036854775807, not 9.22337e+18).
    return str(value) if isinstance(value, int) or value is None else f"{value:g}"


def _is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _coerce(value: Any, tp: Any, where: str) -> Any:
    """Check/convert a YAML value against a type annotation; raise ConfigError naming the key."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        return _coerce_union(value, tp, where)
    if origin is typing.Literal:
        if value not in args:
            raise ConfigError(f"{where}: {_shown(value)} is not one of {list(args)}")
        return value
    if _is_dataclass_type(tp):
        if isinstance(value, tp):
            return value
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a mapping for {tp.__name__}, got {_shown(value)}")
        return from_dict(tp, value, prefix=where)
    if origin in (list, tuple):
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: expected a list, got {_shown(value)}")
        item_tp = args[0] if args else Any
        items = [_coerce(v, item_tp, f"{where}[{i}]") for i, v in enumerate(value)]
        return items if origin is list else tuple(items)
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a mapping, got {_shown(value)}")
        val_tp = args[1] if len(args) == 2 else Any
        return {k: _coerce(v, val_tp, f"{where}.{k}") for k, v in value.items()}
    scalar = _SCALARS.get(tp)
    return scalar(value, where) if scalar is not None else value


def _coerce_union(value: Any, tp: Any, where: str) -> Any:
    """The first member of `X | Y | None` that accepts the value."""
    args = typing.get_args(tp)
    if value is None and type(None) in args:
        return None
    for arg in args:
        if arg is type(None):
            continue
        try:
            return _coerce(value, arg, where)
        except ConfigError:
            continue
    raise ConfigError(f"{where}: {_shown(value)} does not match {tp}")


def _to_bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "y", "n", "1", "0", "on", "off"):
        return value.lower() in ("true", "yes", "y", "1", "on")
    raise ConfigError(f"{where}: expected true/false, got {_shown(value)}")


def _to_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConfigError(f"{where}: expected an integer, got {_shown(value)}")
    try:
        number = int(value) if isinstance(value, int) or len(value) <= 64 else None
    except ValueError:
        number = None
    if number is None:
        raise ConfigError(f"{where}: expected an integer, got {_shown(value)}")
    if abs(number) > INT64_MAX:
        raise ConfigError(f"{where}: {_shown(value)} does not fit in 64 bits (no setting takes one beyond "
                          f"{INT64_MAX})")
    return number


def _to_float(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise ConfigError(f"{where}: expected a number, got {_shown(value)}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: expected a number, got {_shown(value)}") from None


def _to_str(value: Any, where: str) -> str:
    if isinstance(value, (dict, list)):
        raise ConfigError(f"{where}: expected a string, got {_shown(value)}")
    return str(value)


# Scalar annotations and how a YAML value (or an -o string) becomes one; other annotations pass values through.
_SCALARS = {bool: _to_bool, int: _to_int, float: _to_float, str: _to_str, Path: lambda value, _where: Path(value)}


def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.init}


def from_dict(cls: type[T], data: dict[str, Any], prefix: str = "") -> T:
    """Build dataclass `cls` from a mapping; unknown keys are an error (typos must not pass silently). Every rule
    declared on its fields is checked (`check_config`), and errors name the dotted key under `prefix`."""
    types_ = _field_types(cls)
    unknown = sorted(set(data) - set(types_))
    if unknown:
        where = f"{prefix}." if prefix else ""
        raise ConfigError(
            f"unknown config key(s) {', '.join(where + k for k in unknown)}; "
            f"valid keys for {cls.__name__}: {', '.join(sorted(types_))}"
        )
    rules = {f.name: f.metadata for f in dataclasses.fields(cls)}
    defaults = {f.name: f for f in dataclasses.fields(cls)}
    kwargs = {}
    for name, value in data.items():
        key = _key(prefix, name)
        if isinstance(value, dict) and _is_dataclass_type(types_[name]):
            # keys given for a nested section go onto the field's own default (a default_factory such as the
            # demo's recipe), not onto the section class's defaults
            default = field_default(defaults[name])
            if dataclasses.is_dataclass(default) and not isinstance(default, type):
                value = merge_dicts(to_dict(default), value)
        kwargs[name] = _coerce(value, types_[name], key)  # a nested dataclass is checked by its own from_dict
        _check_value(kwargs[name], rules[name], key)
    obj = cls(**kwargs)
    _check_object(obj, prefix)
    return obj


def check_config(obj: Any, prefix: str = "") -> None:
    """The one validator of a config object, also for one built in code rather than by `from_dict`: each field's
    `Range` and `check`, nested configs, then the object's cross-field rules (`not_above` pairs and its
    `config_problems()`). Raises ConfigError naming the dotted key under `prefix`."""
    problems = config_errors(obj, prefix)
    if problems:
        raise ConfigError(problems[0])


def config_errors(obj: Any, prefix: str = "") -> list[str]:
    """Every problem `check_config` finds (it raises the first), each naming its dotted key: for reporting all bad
    keys of a config built in code at once."""
    problems: list[str] = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        key = _key(prefix, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            problems += config_errors(value, key)
            continue
        try:
            _check_value(value, f.metadata, key)
        except ConfigError as exc:
            problems.append(str(exc))
    try:
        _check_object(obj, prefix)
    except ConfigError as exc:
        problems.append(str(exc))
    return problems


def _key(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _check_value(value: Any, rules: Any, key: str) -> None:
    """A field's own rules: `"range": Range(...)` for numbers, `"check": f` (f(value) -> None or what is wrong)."""
    _check_range(value, rules.get("range"), key)
    check = rules.get("check")
    problem = check(value) if check is not None else None
    if problem:
        raise ConfigError(f"{key}: {problem}")


def _check_object(obj: Any, prefix: str) -> None:
    ranges = {f.name: f.metadata["range"] for f in dataclasses.fields(obj) if "range" in f.metadata}
    _check_order(obj, ranges, prefix)
    problems = getattr(obj, "config_problems", None)
    for name, problem in (problems() if problems is not None else []):
        raise ConfigError(f"{_key(prefix, name)}: {problem}")


def _check_range(value: Any, allowed: Range | None, key: str) -> None:
    """A number within `allowed`; any float setting, ranged or not, must be finite (an `.inf` learning rate or
    epoch count trains a NaN model; no setting means "unbounded" by infinity)."""
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        if isinstance(v, float) and not math.isfinite(v):
            raise ConfigError(f"{key}: {v!r} is not a finite number" + (f" (range {allowed})" if allowed else ""))
        if allowed is not None and isinstance(v, (int, float)) and not allowed.contains(v):
            raise ConfigError(f"{key}: {v!r} is out of range ({allowed})")


def _check_order(obj: Any, ranges: dict[str, Range], prefix: str) -> None:
    """Pairs such as min_words/max_words: the lower bound may not exceed the upper one."""
    where = f"{prefix}." if prefix else ""
    for name, allowed in ranges.items():
        if allowed.not_above is None:
            continue
        low, high = getattr(obj, name), getattr(obj, allowed.not_above)
        if low is not None and high is not None and low > high:
            raise ConfigError(f"{where}{name} ({low!r}) must be <= {where}{allowed.not_above} ({high!r})")


def to_dict(obj: Any) -> Any:
    """Dataclass -> plain YAML/JSON-serialisable data (Paths become strings)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_dict(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_dict(v) for k, v in obj.items()}
    if isinstance(obj, Path):
        return str(obj)
    return obj


def fingerprint_dict(obj: Any) -> Any:
    """`to_dict(obj)` less the fields marked `"fingerprint": False` in their metadata, at any depth: settings that
    do not change a result (where caches and models live, progress bars, batch sizes that only change speed), so
    that they do not change the identity that caches and manifests use. A field marked `"fingerprint": f` is
    there as `f(obj)` instead of its value (a file setting: the sha256 of the file's content, not its path), and
    left out when that is None (an unset optional file leaves the fingerprint as it was without the setting)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {}
        for f in dataclasses.fields(obj):
            mark = f.metadata.get("fingerprint", True)
            if callable(mark):
                value = mark(obj)
                if value is not None:
                    out[f.name] = value
            elif mark:
                out[f.name] = fingerprint_dict(getattr(obj, f.name))
        return out
    if isinstance(obj, (list, tuple)):
        return [fingerprint_dict(v) for v in obj]
    if isinstance(obj, dict):
        return {k: fingerprint_dict(v) for k, v in obj.items()}
    return to_dict(obj)


def parse_override(text: str) -> tuple[list[str], Any]:
    """`a.b.c=value` -> (["a","b","c"], yaml-parsed value)."""
    if "=" not in text:
        example = f" (e.g. {text.strip()}=VALUE)" if text.strip() else ""
        raise ConfigError(f"override {text!r} must look like key=value{example}")
    key, raw = text.split("=", 1)
    key = key.strip()
    if not key:
        raise ConfigError(f"override {text!r} has an empty key")
    try:
        value = parse_yaml(raw, f"-o {key}", with_lines=False) if raw.strip() else ""
    except _NotYAML:
        value = raw  # not YAML (e.g. `name=a: b`): the text itself, as a string
    return key.split("."), value


def merge_overrides(data: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    data = dict(data)
    for text in overrides:
        path, value = parse_override(text)
        node = data
        for part in path[:-1]:
            child = node.get(part)
            child = dict(child) if isinstance(child, dict) else {}
            node[part] = child
            node = child
        node[path[-1]] = value
    return data


# What a config file may hold. Plain YAML only: no tags (`!!binary`, `!!python/...`: a setting is a plain scalar, list
# or mapping), string keys given once, integers of at most 64 bits (what every consumer of a number stores), and at
# most MAX_CONFIG_NODES values after aliases are expanded (an "alias bomb" of a few lines expands to billions), nested
# at most MAX_CONFIG_DEPTH deep (YAML composes nesting recursively: thousands of `[` would exhaust Python's stack).
MAX_CONFIG_NODES = 100_000
MAX_CONFIG_DEPTH = 100
INT64_MAX = 2**63 - 1
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _NotYAML(ConfigError):
    """The text does not parse as YAML at all (an -o value then stays the literal string)."""


class _ConfigLoader(yaml.SafeLoader):
    """yaml.SafeLoader that refuses what a config never needs, while composing: explicit tags, non-string or
    duplicate keys, integers beyond 64 bits, nesting deeper than MAX_CONFIG_DEPTH, and documents that expand to more
    than MAX_CONFIG_NODES values."""

    def __init__(self, stream: str, source: str, with_lines: bool) -> None:
        super().__init__(stream)
        self.source = source
        self.with_lines = with_lines
        self.expanded_size: dict[int, int] = {}  # id(node) -> its number of values with aliases expanded
        self.depth = 0

    def refuse(self, mark: Any, problem: str) -> ConfigError:
        where = f"{self.source} line {mark.line + 1}" if mark is not None and self.with_lines else self.source
        return ConfigError(f"{where}: {problem}")

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        tag = getattr(event, "tag", None)
        if tag is not None:
            raise self.refuse(event.start_mark, f"YAML tag {_shown(tag)} is not allowed in a config "
                                                "(plain values only; quote the value if it is text)")
        if self.depth >= MAX_CONFIG_DEPTH:
            raise self.refuse(event.start_mark, f"values nested more than {MAX_CONFIG_DEPTH} deep (a config is a "
                                                "few levels deep)")
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        if isinstance(event, yaml.AliasEvent):  # the anchored node, checked and sized when it was composed
            size = self.expanded_size.get(id(node))
            if size is None:  # still being composed: the alias is inside its own anchor
                raise self.refuse(event.start_mark, "an alias inside the value it refers to (recursive alias)")
        else:
            if isinstance(node, yaml.MappingNode):
                self._check_keys(node)
            children = node.value if isinstance(node, yaml.SequenceNode) else (
                [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else [])
            size = 1 + sum(self.expanded_size[id(child)] for child in children)
            self.expanded_size[id(node)] = size
        if size > MAX_CONFIG_NODES:
            raise self.refuse(node.start_mark, f"more than {MAX_CONFIG_NODES:,} values once aliases are expanded "
                                               "(a config is a few hundred; refused as an alias bomb)")
        return node

    def _check_keys(self, node: Any) -> None:
        first_line: dict[str, int] = {}
        for key, _value in node.value:
            if key.tag == _MERGE_TAG:
                continue
            if not isinstance(key, yaml.ScalarNode) or key.tag != _STR_TAG:
                shown = _shown(key.value) if isinstance(key, yaml.ScalarNode) else "a list or mapping"
                raise self.refuse(key.start_mark, f"key {shown} is not a string (setting names are text; "
                                                  "quote it if it is meant as a name)")
            if key.value in first_line:
                raise self.refuse(key.start_mark, f"duplicate key {_shown(key.value)} "
                                                  f"(first given on line {first_line[key.value]})")
            first_line[key.value] = key.start_mark.line + 1

    def construct_yaml_int(self, node: Any) -> int:
        digits = node.value.replace("_", "").lstrip("+-")
        value = super().construct_yaml_int(node) if len(digits) <= 64 else None
        if value is None or abs(value) > INT64_MAX:
            raise self.refuse(node.start_mark, f"integer {_shown(node.value)} does not fit in 64 bits "
                                               f"(no setting takes one beyond {INT64_MAX})")
        return value


_ConfigLoader.add_constructor("tag:yaml.org,2002:int", _ConfigLoader.construct_yaml_int)
# Booleans as YAML 1.2 writes them (true/false) only: YAML 1.1 also reads yes/no/on/off/y/n as booleans, which turns
# a language code such as `no` (Norwegian) into False. Such a word stays the text written; a bool setting still takes
# it (`_to_bool`).
_BOOL_TAG = "tag:yaml.org,2002:bool"
_ConfigLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_ConfigLoader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def parse_yaml(text: str, source: str, with_lines: bool = True) -> Any:
    """Parse one YAML document of a config (a file's text or an -o value) under the rules of `_ConfigLoader`.
    Every problem is a ConfigError of one line naming `source` and, with `with_lines` where YAML gives it, the
    line."""
    loader = _ConfigLoader(text, source, with_lines)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(part for part in (exc.context, exc.problem) if part)
        raise _NotYAML(loader.refuse(mark, f"invalid YAML: {problem}").args[0]) from None
    except yaml.YAMLError as exc:
        raise _NotYAML(f"{source}: invalid YAML: {' '.join(str(exc).split())}") from None
    finally:
        loader.dispose()


def _shown(value: Any, limit: int = 60) -> str:
    """A value as an error message shows it: repr, cut to `limit` characters (messages stay one short line)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def load_yaml(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"config file {path} is a directory; give a YAML file")
    if not path.is_file():
        raise ConfigError(f"config file not found: {path}")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{path} line {line}: not UTF-8 (byte 0x{raw[exc.start]:02x}); "
                          "save the config as UTF-8") from None
    data = parse_yaml(text, str(path))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: top level must be a mapping, got {type(data).__name__}")
    return data


def load_config(cls: type[T], path: str | Path | None = None, overrides: list[str] | None = None,
                base: dict[str, Any] | None = None) -> T:
    """defaults <- `base` <- YAML file <- CLI overrides, then type-checked into `cls`."""
    data: dict[str, Any] = {}
    if base:
        data = merge_dicts(data, base)
    if path is not None:
        data = merge_dicts(data, load_yaml(path))
    data = merge_overrides(data, overrides or [])
    return from_dict(cls, data)


def merge_dicts(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge_dicts(out[k], v)
        else:
            out[k] = v
    return out


def field_default(f: dataclasses.Field) -> Any:
    """A dataclass field's default value (a new one from its default_factory), or dataclasses.MISSING."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return f.default_factory()  # type: ignore[misc]
    return dataclasses.MISSING


def describe(cls: type, prefix: str = "") -> list[tuple[str, str, str]]:
    """(key, type, default) for every leaf field, for `--help` listings."""
    rows = []
    for f in dataclasses.fields(cls):
        tp = typing.get_type_hints(cls)[f.name]
        key = f"{prefix}{f.name}"
        if _is_dataclass_type(tp):
            rows.extend(describe(tp, key + "."))
            continue
        default = field_default(f)
        default = "(required)" if default is dataclasses.MISSING else to_dict(default)
        doc = f.metadata.get("help", "")
        if "range" in f.metadata:
            doc = f"{doc} (allowed: {f.metadata['range']})".lstrip()
        rows.append((key, getattr(tp, "__name__", str(tp)).replace("typing.", ""), f"{default!r}  {doc}".rstrip()))
    return rows


def help_text(cls: type, prefix: str = "") -> str:
    rows = describe(cls, prefix)
    width = max((len(r[0]) for r in rows), default=0)
    return "\n".join(f"  {k:<{width}}  {d}" for k, _, d in rows)
