"""An item's name: what pytest shows after the task file's path, and what an agent is told its item is.

One rule for both, so that a name read in the terminal is the name in the agent's task document, its
working folder and the gateway's session: `id`, `id[variant]`, `id[r1]` or `id[variant/r1]`. The repeat
is named only when the run makes several (`--repeats`), 0-based; `-k variant` selects by variant.
"""

from __future__ import annotations


def item_name(task_id: str, variant: str | None, repeat: int, repeats: int) -> str:
    """`id`, `id[variant]`, `id[r1]` or `id[variant/r1]`: `-k variant` selects by variant, repeats 0-based."""
    parts = [p for p in (variant, f"r{repeat}" if repeats > 1 else None) if p]
    return f"{task_id}[{'/'.join(parts)}]" if parts else task_id


def parse_item_name(name: str) -> tuple[str, str | None, int]:
    """(task id, variant, repeat) from an item name made by `item_name`."""
    task_id, _, rest = name.partition("[")
    variant, repeat = None, 0
    for part in rest.rstrip("]").split("/") if rest else []:
        if part[:1] == "r" and part[1:].isdigit():
            repeat = int(part[1:])
        elif part:
            variant = part
    return task_id, variant, repeat
