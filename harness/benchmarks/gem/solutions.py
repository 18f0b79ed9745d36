"""The GEM-Bench solutions an item can run: Ad-Chat, the Ad-LLM configurations, and your own.

`--solution adchat,gi-r` picks built-in or registered solutions (default: all four, since comparing them
is the point); `--solution my_package.ads:solve` plugs in a whole solution as a Python callable. A new
Ad-LLM variant is registered from a conftest.py by composing stages, without copying code:

    from harness.benchmarks.gem.solutions import register_solution
    from harness.benchmarks.gem.adllm import AdLLM
    register_solution("gir-r-log", AdLLM(retrieve_by="response", rewrite=True, score="log"))

A callable solution receives one keyword argument per field of `SolutionRequest` that it names and returns
{"answer": str, "product": {"name", "url", "desc"} or None}; see examples/gem_solution.py.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import re
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from harness.benchmarks.gem.adchat import adchat
from harness.benchmarks.gem.adllm import CONFIGURATIONS, SolutionOutput, ad_database, raise_system_failure
from harness.benchmarks.gem.data import candidates_as_products
from harness.errors import AgentError, ConfigError

Solution = Callable[[Any], Awaitable[SolutionOutput]]
BUILTIN_ORDER = ("adchat", "gi-r", "gir-r", "gir-p")
_SOLUTIONS: dict[str, Solution] = {"adchat": adchat, **CONFIGURATIONS}
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def register_solution(name: str, solution: Solution) -> None:
    """Make `name` selectable with --solution (a conftest.py is a good place to call this)."""
    if not NAME.match(name):
        raise ValueError(f"a solution name is lower-case letters, digits, '-' and '_', got {name!r}")
    _SOLUTIONS[name] = solution


def solution_names() -> list[str]:
    return [*BUILTIN_ORDER, *sorted(n for n in _SOLUTIONS if n not in BUILTIN_ORDER)]


@dataclass(frozen=True)
class SolutionRequest:
    """What a callable solution may ask for (by naming the parameter)."""

    query: str
    scenario: str
    dataset: str
    category: str | None
    ads: list[dict[str, str]]  # the whole ad database (chatbot) or the query's candidates (search)
    topics: dict[str, list[str]]  # the topic tree (chatbot; empty for search)
    model: Any  # harness.model_handle.ModelHandle on --model


class CallableSolution:
    """A whole solution written as a function, sync or async."""

    def __init__(self, target: str, root: Path) -> None:
        from harness.solvers import load_callable

        self.target = target
        self.function = load_callable(target, root)
        try:
            self.parameters = set(inspect.signature(self.function).parameters)
        except (TypeError, ValueError):
            self.parameters = set()

    async def __call__(self, ctx: Any) -> SolutionOutput:
        inputs = ctx.task.inputs
        if inputs.scenario == "search":
            ads = [
                {"name": a.name, "url": a.url, "desc": a.desc, "category": a.topic}
                for a in candidates_as_products(inputs.candidates)
            ]
            topics: dict[str, list[str]] = {}
        else:
            database = await ad_database(ctx)
            ads = [ad.as_product() for ad in database.all_ads]
            topics = {k: list(v) for k, v in database.topics.items()}
        request = SolutionRequest(inputs.query, inputs.scenario, inputs.dataset, inputs.category, ads, topics, None)
        offered = {**asdict(request), "model": ctx.model_handle()}
        kwargs = {k: v for k, v in offered.items() if k in self.parameters} if self.parameters else offered
        with ctx.stage("answer"):
            try:
                if inspect.iscoroutinefunction(self.function):
                    result = await self.function(**kwargs)
                else:
                    result = await asyncio.to_thread(functools.partial(self.function, **kwargs))
            except Exception as exc:
                raise AgentError(f"the solution {self.target} raised {type(exc).__name__}: {exc}") from exc
        return _read_output(self.target, result)


def _read_output(target: str, result: Any) -> SolutionOutput:
    if not isinstance(result, dict) or not isinstance(result.get("answer"), str):
        raise AgentError(
            f"the solution {target} must return a dict with a string 'answer', got {type(result).__name__}"
        )
    if not result["answer"].strip():
        raise_system_failure(f"the solution {target} returned an empty answer")
    product = result.get("product")
    if product is not None and not (isinstance(product, dict) and isinstance(product.get("name"), str)):
        raise AgentError(f"the solution {target} returned a product without a string 'name': {product!r}"[:300])
    return SolutionOutput(answer=result["answer"], product=product, details={"solution": target})


def parse_solution_option(value: str | None, root: Path) -> list[str]:
    """The variant names --solution asks for, registering callables; a bad value is a usage error."""
    chosen: list[str] = []
    for part in [p.strip() for p in (value or "all").split(",") if p.strip()] or ["all"]:
        if part == "all":
            chosen += [n for n in solution_names() if n not in chosen]
        elif ":" in part:
            name = part.rsplit(":", 1)[1].split(".")[-1].lower().replace("_", "-")
            if not NAME.match(name):
                raise ConfigError(f"--solution {part}: the callable's name {name!r} cannot name a variant")
            _SOLUTIONS[name] = CallableSolution(part, root)
            chosen.append(name)
        elif part in _SOLUTIONS:
            chosen.append(part)
        else:
            raise ConfigError(
                f"--solution {part!r}: expected all, one of {solution_names()} (comma-separated), or module:callable"
            )
    return list(dict.fromkeys(chosen))


def get_solution(name: str) -> Solution:
    return _SOLUTIONS[name]
