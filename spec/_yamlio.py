"""YAML loading that remembers where every value came from, so that errors name file and line."""

from __future__ import annotations

import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml

from gostop_conformance.spec._words import counted

#: characters of an error message kept (a value quoted from a 50 MB line must not become the message)
MESSAGE_LIMIT: Final = 2000


def _bounded(text: str) -> str:
    if len(text) <= MESSAGE_LIMIT:
        return text
    return (
        text[: MESSAGE_LIMIT // 2] + f" [... {counted(len(text) - MESSAGE_LIMIT, 'character')} left out ...] " + text[-MESSAGE_LIMIT // 2 :]
    )


class InputError(Exception):
    """A user error in an input file or message: the message names the place and what was expected."""

    def __init__(self, where: str, message: str) -> None:
        where, message = _bounded(where), _bounded(message)
        super().__init__(f"{where}: {message}")
        self.where = where
        self.detail = message


@dataclass(frozen=True, slots=True)
class Located:
    """A parsed YAML document plus its node tree, for mapping JSON paths back to lines."""

    path: str
    data: Any
    node: yaml.Node | None

    def line_of(self, json_path: Sequence[str | int]) -> int:
        """1-based line of the deepest node along `json_path` that exists."""
        node = self.node
        if node is None:
            return 1
        line = node.start_mark.line + 1
        for key in json_path:
            child: yaml.Node | None = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == str(key):
                        child = v
                        line = k.start_mark.line + 1
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                child = node.value[key]
                line = child.start_mark.line + 1
            if child is None:
                break
            node = child
        return line

    def where(self, json_path: Sequence[str | int] = ()) -> str:
        """`file:line` plus the dotted path, as every error message starts."""
        dotted = format_path(json_path)
        suffix = f" at {dotted}" if dotted else ""
        return f"{self.path}:{self.line_of(json_path)}{suffix}"


def format_path(json_path: Sequence[str | int]) -> str:
    out = ""
    for key in json_path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


#: libyaml when PyYAML was built with it (its wheels are): every process parses the whole spec
#: at start, and the C parser does it several times faster
_LOADER: Final[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: values a document may expand to, aliases followed: far above any spec or scenario file (the
#: largest has about 40,000), far below what a "billion laughs" alias bomb asks for
EXPANSION_LIMIT: Final = 2_000_000
#: bytes of one YAML file
SIZE_LIMIT: Final = 20 << 20
#: digits of an integer: a count, a seed or an option value never needs more (Python would spend
#: seconds parsing a 5,000-digit one, and JSON engines cannot read it)
INT_DIGITS: Final = 30
#: the tags a value may resolve to: what JSON can say (and YAML's merge key)
_JSON_TAGS: Final = frozenset(f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map", "merge"))
_SCALAR_NAMES: Final = {"tag:yaml.org,2002:int": "an integer", "tag:yaml.org,2002:bool": "true or false", "tag:yaml.org,2002:null": "null"}


def load_yaml_text(text: str, path: str) -> Located:
    if len(text) > SIZE_LIMIT:
        raise InputError(path, f"the file holds {len(text)} characters; more than {SIZE_LIMIT} is refused")
    try:
        loader = _LOADER(text)
        try:
            node = loader.get_single_node()  # parsed once: the data is built from the node tree
            if node is not None:
                _check_tree(node, path)  # before anything is built: duplicate keys, alias bombs
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"{path}:{line}", f"invalid YAML: {problem}") from None
    return Located(path, data, node)


def _check_tree(root: yaml.Node, path: str) -> None:
    """Refuse, before anything is built: a mapping that repeats a key (YAML would keep the last
    one silently), a key that is not a string, a value JSON cannot hold (`!!binary`, `!!set`,
    `!!timestamp`, any other tag), an integer of more than INT_DIGITS digits, an alias that refers
    to a node containing it (a cycle, which would loop), and a document whose aliases expand beyond
    EXPANSION_LIMIT values. Nothing is expanded: each node's expanded size is computed once
    (aliases share their node)."""
    size: dict[int, int] = {}
    open_: set[int] = set()  # the nodes whose children are being sized: meeting one again is a cycle
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in size:
            continue
        if not children_done and id(node) in open_:
            raise InputError(f"{path}:{node.start_mark.line + 1}", "an alias refers to a node that contains it (a cycle)")
        kids: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            kids = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            kids = list(node.value)
        if not children_done:
            _check_value(node, path)
            open_.add(id(node))
            if isinstance(node, yaml.MappingNode):
                for key, _ in node.value:
                    if isinstance(key, yaml.ScalarNode) and key.tag in _SCALAR_NAMES:
                        raise InputError(
                            f"{path}:{key.start_mark.line + 1}",
                            f"key {key.value!r} is {_SCALAR_NAMES[key.tag]}: keys are strings (quote it)",
                        )
                    if not isinstance(key, yaml.ScalarNode):
                        raise InputError(f"{path}:{key.start_mark.line + 1}", "a key is a list or a mapping: keys are strings")
                seen: dict[str, int] = {}
                for key, _ in node.value:
                    if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                        if key.value in seen:
                            raise InputError(
                                f"{path}:{key.start_mark.line + 1}",
                                f"duplicate key {key.value!r} (first at line {seen[key.value]}); YAML would keep only the last",
                            )
                        seen[key.value] = key.start_mark.line + 1
            stack.append((node, True))
            stack.extend((kid, False) for kid in kids if id(kid) not in size)
            continue
        open_.discard(id(node))
        total = 1 + sum(size[id(kid)] for kid in kids)
        if total > EXPANSION_LIMIT:
            raise InputError(
                f"{path}:{node.start_mark.line + 1}", f"the document expands to more than {EXPANSION_LIMIT} values through its aliases"
            )
        size[id(node)] = total


def _check_value(node: yaml.Node, path: str) -> None:
    if node.tag not in _JSON_TAGS:
        shown = node.tag.removeprefix("tag:yaml.org,2002:")
        raise InputError(f"{path}:{node.start_mark.line + 1}", f"a {shown} value (tag {node.tag}): expected what JSON can say (quote it)")
    if node.tag == "tag:yaml.org,2002:int" and isinstance(node.value, str):
        digits = sum(c.isdigit() for c in node.value)
        if digits > INT_DIGITS:
            raise InputError(f"{path}:{node.start_mark.line + 1}", f"an integer of {digits} digits: at most {INT_DIGITS} are read")


def load_yaml(path: Path, display: str | None = None) -> Located:
    """A YAML file read whole, if it is a regular file of at most SIZE_LIMIT bytes: a FIFO would
    hang the read, a device (a link to /dev/zero) never end."""
    name = display or str(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise InputError(name, "not a regular file (a directory, FIFO or device): expected a YAML file")
        if info.st_size > SIZE_LIMIT:
            raise InputError(name, f"the file holds {info.st_size} bytes; more than {SIZE_LIMIT} is refused")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(name, f"cannot read file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(name, "file is not UTF-8 text") from None
    return load_yaml_text(text, name)
