"""Company mapping's answer, read as the paper's judge reads it: the names recommended for each kind asked
for, whatever the answer's layout, then each list cut to the quantity asked before the judge scores it.

People write these answers as comma lists, bullets, numbered lists, Markdown tables, sub-headings per kind,
"A / B" and "A and B", names with remarks ("LG Energy Solution (Ochang, Korea)"), with or without the
"Search Results" section the prompt asks for. So reading is a judged step, as in the paper: the panel's first
judge lists the names per kind (prompts/recruitment/extract_company_mapping.j2, validated JSON, stage
`extract`); the reference judge reads them with a parser instead (harness.benchmarks.recruitment.reading).
Code then splits every entry into single names (so "A/B/C" cannot pass as one), keeps only names the answer
itself contains (a reader cannot credit the agent with a name it did not write), drops repeats, and cuts
each kind to its quantity in the answer's order, whatever order the reader listed them in: the agent is told
that surplus names are cut, so over-delivery displaces its own later names and is never judged whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, create_model

from harness.benchmarks.recruitment.reading import kind_label, normalized, read_lists, split_entry

NAME_CHARS = 120
Name = Annotated[
    str,
    BeforeValidator(lambda v: v[:NAME_CHARS] if isinstance(v, str) else v),
    StringConstraints(max_length=NAME_CHARS),
]
MAX_NAMES = 300
EXTRACT_SETTINGS = {"temperature": 0, "max_tokens": 1500}
EXTRACT_TEMPLATE = "recruitment/extract_company_mapping.j2"


def listed(quantity: int) -> int:
    """How many names per kind a reading lists: the quantity, room for names the answer does not contain
    (dropped before the cut) and enough surplus to show what the cut removed. Bounded so that a grammar-
    constrained reply always closes, and an over-long one is truncated rather than refused."""
    return min(MAX_NAMES, 2 * quantity + 3)


def _first(limit: int) -> Any:
    return BeforeValidator(lambda v: v[:limit] if isinstance(v, list) else v)


def extraction_model(quantities: dict[str, int]) -> type[BaseModel]:
    """The validated shape of an extraction: one list of names per kind asked for (nothing else), each at
    most `listed(quantity)` long (its schema says so; longer lists are cut to it, in order)."""
    fields: dict[str, Any] = {}
    for kind, quantity in quantities.items():
        attribute = re.sub(r"\W+", "_", kind.strip().lower()).strip("_") or "kind"
        bound = listed(quantity)
        fields[attribute] = (
            Annotated[list[Name], _first(bound)],
            Field(default_factory=list, alias=kind, max_length=bound),
        )
    return create_model(  # type: ignore[call-overload, no-any-return]
        "MappingLists", __config__=ConfigDict(extra="forbid", populate_by_name=True), **fields
    )


@dataclass
class Reading:
    """The answer's lists as judged: kept (cut to the quantities), cut (beyond them), and the extractor's
    names the answer does not contain (dropped, never credited)."""

    kept: dict[str, list[str]]
    cut: dict[str, list[str]] = field(default_factory=dict)
    dropped: dict[str, list[str]] = field(default_factory=dict)
    by: str = ""

    def lines(self, quantities: dict[str, int]) -> str:
        return "\n".join(
            f"{kind} (asked for {quantities[kind]}): {', '.join(names) or '(none)'}"
            for kind, names in self.kept.items()
        )

    def details(self, quantities: dict[str, int]) -> dict[str, Any]:
        out: dict[str, Any] = {"read_by": self.by, "judged_lists": self.kept, "cut": self.cut, "dropped": self.dropped}
        notes = []
        if self.cut:
            notes.append("cut before judging: " + "; ".join(
                f"{kind} beyond {quantities[kind]}: {', '.join(names)}" for kind, names in self.cut.items()
            ))  # fmt: skip
        if self.dropped:
            notes.append("not in the answer, not credited: " + "; ".join(
                f"{kind}: {', '.join(names)}" for kind, names in self.dropped.items()
            ))  # fmt: skip
        if notes:
            out["note"] = " | ".join(notes)
        return out


def _position(text: str, key: str, starts: tuple[int, ...]) -> int | None:
    """Where `key` first appears as whole words in `text` (a line break counts as a space), searched from
    each of `starts` in turn (the kind's own label, the results section, the whole answer); a later start
    places it after all that an earlier one holds. None if the answer never has it."""
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(word) for word in key.split()) + r"(?!\w)")
    for number, start in enumerate(starts):
        if found := pattern.search(text, start):
            return number * len(text) + found.start()
    return None


def _label_of(kind: str, text: str, start: int) -> int | None:
    """Where the answer files names under `kind`, after `start`: a line that opens with the kind's name as a
    label or a heading ("Companies:", "### Target teams", "Labs (2)"), or prose that turns to it ("for the
    labs"); never the kind's word inside a name ("... Perception Team")."""
    name = kind_label(kind).pattern.removeprefix("(?<!\\w)")
    label = re.compile(
        rf"^[^\w\n]*(?:(?:target|top|key|recommended|suggested)\s+)?{name}[^\w\n]*(?:\(\d+\)\s*)?(?::|$)"
        rf"|\b(?:for|among|as for)\s+(?:the\s+)?{name}",
        re.MULTILINE,
    )
    found = label.search(text, start)
    return found.start() if found else None


def settle(
    answer: str,
    lists: dict[str, list[str]],
    quantities: dict[str, int],
    by: str,
    known: Mapping[str, Sequence[str]] | None = None,
) -> Reading:
    """From a reader's per-kind lists to what the judge sees. Each entry is split into single names
    (reading.split_entry: "A/B/C" is three, an expert's name stays whole); a name the answer does not
    contain is dropped, never credited; repeats go; the names are put in the order the answer gives them
    (their first place after the kind's own label, else in the results section, else in the whole answer;
    so a name listed under two kinds is placed in each kind's own list), whatever order the reader listed
    them in; each kind is cut to its quantity. Pure."""
    text = "\n".join(normalized(line) for line in answer.splitlines())
    start = max(text.rfind("search results"), 0)
    flat = tuple(name for names in (known or {}).values() for name in names)
    reading = Reading(kept={}, by=by)
    for kind, quantity in quantities.items():
        label = _label_of(kind, text, start)
        starts = (label, start, 0) if label is not None else (start, 0)
        seen: set[str] = set()
        placed: list[tuple[int, str]] = []
        for raw in lists.get(kind, []):
            for name in split_entry(raw, flat):
                key = normalized(name)
                if not key or key in seen:
                    continue
                seen.add(key)
                where = _position(text, key, starts)
                if where is None:
                    reading.dropped.setdefault(kind, []).append(name)
                    continue
                placed.append((where, name))
        ordered = [name for _, name in sorted(placed, key=lambda pair: pair[0])]
        reading.kept[kind] = ordered[:quantity]
        if len(ordered) > quantity:
            reading.cut[kind] = ordered[quantity:]
    return reading


async def read_answer(ctx: Any, task: Any, answer: str, reference: bool) -> Reading:
    """The answer's lists, read by the panel's first judge (or the reference parser), then settled."""
    quantities = {o.kind: o.quantity for o in task.inputs.objects}
    kinds = list(quantities)
    known = {kind: list(names) for kind, names in task.ground_truth.expected.items()}
    if reference:
        return settle(answer, read_lists(answer, kinds, known), quantities, by="reference parser", known=known)
    from harness.judge import Untrusted

    model = extraction_model(quantities)
    with ctx.stage("extract"):
        verdict = await ctx.judge_first(
            EXTRACT_TEMPLATE,
            {"task": task.inputs, "answer": Untrusted(answer), "listed": {k: listed(q) for k, q in quantities.items()}},
            model,
            settings=EXTRACT_SETTINGS,
            name="extract lists",
        )
    parsed = model.model_validate(verdict.value)
    lists = {kind: list(getattr(parsed, name)) for kind, name in zip(kinds, model.model_fields, strict=True)}
    return settle(answer, lists, quantities, by=verdict.model, known=known)
