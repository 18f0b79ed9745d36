"""Tools a task can offer to the system under test, with the OpenAI function schema for each.

Benchmarks with offline worlds (search, open page) add their own tools; the sample suite uses the
calculator so the tool loop is exercised end to end. A tool call is bounded (harness.solvers.run_tool): its
arguments and output in size, its run in time; built-in tools also bound their own work, because a thread
that holds the GIL in C code (a 90-million-digit power) cannot be stopped from outside.
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    function: Callable[..., str | Awaitable[str]]
    timeout_s: float = 30.0  # a call that takes longer is a tool error the model reads, never a hang

    def spec(self) -> dict[str, Any]:
        """The OpenAI `tools=` entry for this tool."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


MAX_EXPRESSION = 1000  # characters
MAX_NESTING = 100
MAX_DIGITS = 1000  # an integer result longer than this is refused, not computed
_TOKEN = re.compile(r"\s*(?:(?P<number>\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(?P<op>\*\*|//|[-+*/%()]))")


class CalculatorError(ValueError):
    """An expression the calculator refuses: malformed, too deep, or with a result too large to compute."""


def _tokens(expression: str) -> list[str]:
    if len(expression) > MAX_EXPRESSION:
        raise CalculatorError(f"the expression is longer than {MAX_EXPRESSION} characters")
    tokens, position = [], 0
    stripped = expression.rstrip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if match is None or match.end() == position:
            raise CalculatorError(f"only numbers and + - * / // % ** ( ) are allowed (at {stripped[position:][:12]!r})")
        tokens.append(match.group("number") or match.group("op"))
        position = match.end()
    return tokens


def _digits(value: int) -> int:
    return max(1, math.ceil(abs(value).bit_length() * 0.30103))


def _checked(value: float | int) -> float | int:
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError("the result is not a finite number")
    if isinstance(value, int) and _digits(value) > MAX_DIGITS:
        raise CalculatorError(f"the result has more than {MAX_DIGITS} digits")
    return value


def _apply(op: str, left: float | int, right: float | int) -> float | int:
    """One operation, refused before it is computed when its result would be too large."""
    try:
        if op == "**":
            if isinstance(left, int) and isinstance(right, int) and right >= 0 and abs(left) > 1:
                if right * math.log10(abs(left)) > MAX_DIGITS:
                    raise CalculatorError(f"the result has more than {MAX_DIGITS} digits")
            elif abs(right) > 10_000 and abs(left) != 1:
                raise CalculatorError("the exponent is too large")
            result = left**right
            if isinstance(result, complex):
                raise CalculatorError("the result is not a real number")
            return _checked(result)
        if op == "*":
            if isinstance(left, int) and isinstance(right, int) and _digits(left) + _digits(right) > MAX_DIGITS + 1:
                raise CalculatorError(f"the result has more than {MAX_DIGITS} digits")
            return _checked(left * right)
        operation = {"+": operator.add, "-": operator.sub, "/": operator.truediv,
                     "//": operator.floordiv, "%": operator.mod}[op]  # fmt: skip
        return _checked(operation(left, right))
    except ZeroDivisionError as exc:
        raise CalculatorError("division by zero") from exc
    except OverflowError as exc:
        raise CalculatorError("the result is too large") from exc


class _Parser:
    """expr := term (+|- term)*; term := unary (*|/|//|% unary)*; unary := (+|-) unary | power;
    power := atom (** unary)?; atom := number | ( expr ). Python's precedence, without Python's parser."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.position, self.depth = tokens, 0, 0

    def _peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise CalculatorError("the expression ends too early")
        self.position += 1
        return token

    def parse(self) -> float | int:
        value = self._expr()
        if self._peek() is not None:
            raise CalculatorError(f"unexpected {self._peek()!r}")
        return value

    def _expr(self) -> float | int:
        value = self._term()
        while self._peek() in ("+", "-"):
            value = _apply(self._take(), value, self._term())
        return value

    def _term(self) -> float | int:
        value = self._unary()
        while self._peek() in ("*", "/", "//", "%"):
            value = _apply(self._take(), value, self._unary())
        return value

    def _unary(self) -> float | int:
        if self._peek() in ("+", "-"):
            sign = self._take()
            self._enter()
            value = self._unary()
            self.depth -= 1
            return -value if sign == "-" else value
        return self._power()

    def _power(self) -> float | int:
        base = self._atom()
        if self._peek() == "**":
            self._take()
            self._enter()
            exponent = self._unary()
            self.depth -= 1
            return _apply("**", base, exponent)
        return base

    def _atom(self) -> float | int:
        token = self._take()
        if token == "(":
            self._enter()
            value = self._expr()
            self.depth -= 1
            if self._take() != ")":
                raise CalculatorError("a parenthesis is not closed")
            return value
        if token[0].isdigit() or token[0] == ".":
            if any(c in token for c in ".eE"):
                return _checked(float(token))
            if len(token) > MAX_DIGITS:
                raise CalculatorError(f"a number has more than {MAX_DIGITS} digits")
            return int(token)
        raise CalculatorError(f"unexpected {token!r}")

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise CalculatorError(f"the expression nests deeper than {MAX_NESTING} levels")


def evaluate(expression: str) -> float | int:
    """The value of an arithmetic expression, or CalculatorError. Every step is bounded: no result longer
    than MAX_DIGITS digits is ever computed, so a hostile expression costs microseconds, not minutes."""
    return _Parser(_tokens(expression)).parse()


def calculator(expression: str) -> str:
    """Arithmetic without eval() or Python's parser; too-large results are refused before they are computed."""
    try:
        value = evaluate(str(expression))
    except CalculatorError as exc:
        return json.dumps({"error": str(exc)})
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        value = int(value)
    return json.dumps({"result": value if not isinstance(value, int) or _digits(value) <= 4000 else str(value)})


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
