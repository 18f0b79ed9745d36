"""Tools a task can offer to the system under test, with the OpenAI function schema for each.

Benchmarks with offline worlds (search, open page) add their own tools; the sample suite uses the
calculator so the tool loop is exercised end to end.
"""

from __future__ import annotations

import ast
import json
import operator
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    function: Callable[..., str | Awaitable[str]]

    def spec(self) -> dict[str, Any]:
        """The OpenAI `tools=` entry for this tool."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


_OPERATORS: dict[type, Callable[..., Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.Mod: operator.mod,
    ast.FloorDiv: operator.floordiv,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        right = _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 100:
            raise ValueError("exponent too large")
        return _OPERATORS[type(node.op)](_evaluate(node.left), right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.operand))
    raise ValueError("only numbers and + - * / // % ** are allowed")


def calculator(expression: str) -> str:
    """Arithmetic without eval(): parse, then walk a whitelist of node types."""
    try:
        value = _evaluate(ast.parse(expression, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, TypeError) as exc:
        return json.dumps({"error": str(exc)})
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps({"result": value})


BUILTIN_TOOLS: dict[str, Tool] = {
    "calculator": Tool(
        name="calculator",
        description="Evaluate an arithmetic expression with + - * / // % ** and parentheses.",
        parameters={
            "type": "object",
            "properties": {"expression": {"type": "string", "description": "for example (12 + 30) / 7"}},
            "required": ["expression"],
        },
        function=calculator,
    )
}


def resolve_tools(names: list[str] | tuple[str, ...]) -> list[Tool]:
    """Tools by name; an unknown name is a task error that lists what exists."""
    unknown = [n for n in names if n not in BUILTIN_TOOLS]
    if unknown:
        raise ValueError(f"unknown tool(s) {unknown}; available: {sorted(BUILTIN_TOOLS)}")
    return [BUILTIN_TOOLS[n] for n in names]
