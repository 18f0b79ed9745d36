"""A YAML reader for files people write by hand: safe, strict, and every problem located.

PyYAML's safe loader still accepts duplicate mapping keys (the last one silently wins), infinite and
not-a-number floats (`1e400`, `.inf`), integers of any size, and raises bare `ValueError`s without a line
for things like `collected: 2026-13-45` or `version: !!int abc`. Task files, worlds and data sets all go
through this reader instead, so each of those is one located problem and never a crash.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import yaml

# Integers beyond this cannot be written to JSON readers that use doubles (JavaScript, jq) without loss.
MAX_SAFE_INTEGER = 2**53
# A file whose aliases expand to more nodes than this is refused (a "billion laughs" file would otherwise
# make validation walk an exponential tree).
MAX_EXPANDED_NODES = 1_000_000
MAX_FILE_BYTES = 32 * 2**20


@dataclass(frozen=True)
class YamlProblem(Exception):
    """A located problem: 1-based line, and a message that says what was expected."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_Base):  # type: ignore[misc,valid-type]
    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, OverflowError, KeyError) as exc:
            # Constructors of tagged scalars (!!int abc, an impossible date) raise without a location.
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {node.tag.rsplit(':', 1)[-1]} value {_short(node)}: {exc}", node.start_mark
            ) from exc

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value, not a list or mapping", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {_short_value(key)} (first at line {seen[key]})",
                    key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        value = super().construct_yaml_float(node)
        if not math.isfinite(value):
            raise yaml.constructor.ConstructorError(
                None, None, f"{_short(node)} is not a finite number", node.start_mark
            )
        return value  # type: ignore[no-any-return]

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        value = super().construct_yaml_int(node)
        if abs(value) > MAX_SAFE_INTEGER:
            raise yaml.constructor.ConstructorError(
                None, None, f"the integer {_short(node)} is out of range (at most 2**53 in size)", node.start_mark
            )
        return value  # type: ignore[no-any-return]


_StrictLoader.add_constructor("tag:yaml.org,2002:float", _StrictLoader.construct_yaml_float)
_StrictLoader.add_constructor("tag:yaml.org,2002:int", _StrictLoader.construct_yaml_int)


def _short(node: yaml.Node) -> str:
    value = getattr(node, "value", "")
    return _short_value(value) if isinstance(value, str) else f"<{type(value).__name__}>"


def _short_value(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _expanded_size(root: yaml.Node) -> int:
    """How many values the document has once every alias is expanded, computed without expanding it."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if not children_done and id(node) in open_nodes:
            raise YamlProblem(node.start_mark.line + 1, "YAML error: an alias refers to a value that contains it")
        if isinstance(node, yaml.ScalarNode):
            sizes[id(node)] = 1
            continue
        children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) else node.value
        if children_done:
            open_nodes.discard(id(node))
            sizes[id(node)] = min(MAX_EXPANDED_NODES + 1, 1 + sum(sizes.get(id(c), 0) for c in children))
        else:
            open_nodes.add(id(node))
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)]


def parse_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """Parse one document; returns (node tree for line lookups, data). Raises YamlProblem, never anything else."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise YamlProblem(1, f"the file is larger than {MAX_FILE_BYTES // 2**20} MB")
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None and _expanded_size(node) > MAX_EXPANDED_NODES:
            raise YamlProblem(
                1, f"YAML error: the document expands to more than {MAX_EXPANDED_NODES:,} values (aliases)"
            )
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        kind = "YAML error" if isinstance(exc, yaml.constructor.ConstructorError) else "YAML syntax error"
        raise YamlProblem(mark.line + 1 if mark else 1, f"{kind}: {problem}") from exc
    except yaml.YAMLError as exc:
        raise YamlProblem(1, f"YAML error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from exc
    except RecursionError as exc:
        raise YamlProblem(1, "YAML error: the document is nested too deeply") from exc
    finally:
        loader.dispose()
    return node, data


def load_yaml(text: str) -> Any:
    """Only the data (for files where lines are reported from YamlProblem alone)."""
    return parse_yaml(text)[1]
