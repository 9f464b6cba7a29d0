"""YAML loading that remembers where every value came from, so that errors name file and line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml


class InputError(Exception):
    """A user error in an input file or message: the message names the place and what was expected."""

    def __init__(self, where: str, message: str) -> None:
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


def load_yaml_text(text: str, path: str) -> Located:
    try:
        loader = _LOADER(text)
        try:
            node = loader.get_single_node()  # parsed once: the data is built from the node tree
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"{path}:{line}", f"invalid YAML: {problem}") from None
    return Located(path, data, node)


def load_yaml(path: Path, display: str | None = None) -> Located:
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(name, f"cannot read file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(name, "file is not UTF-8 text") from None
    return load_yaml_text(text, name)
