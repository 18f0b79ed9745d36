"""What a run read, as digests: the items it ran, the task files, the fixtures and the prompt templates.

Why: the shards of one run must have run the same tasks on the same data with the same judges' templates,
or their merge is not one run. results.json records these digests (`run.inputs`) and `harness merge`
refuses shards whose digests differ. They are cheap: the task files are read once more, the fixtures and
prompts hashed by content up to a cap (beyond it by name and size, and the record says so).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.project import builtin_prompts_dir, prompts_dir

if TYPE_CHECKING:
    from harness.settings import Settings

CONTENT_CAP_BYTES = 64 * 2**20  # past this much data, files are hashed by name and size only


def digest(lines: Iterable[str]) -> str:
    """sha256 over the lines, sorted and de-duplicated: the same set gives the same digest in any order."""
    hasher = hashlib.sha256()
    for line in sorted(set(lines)):
        hasher.update(line.encode("utf-8", "surrogatepass"))
        hasher.update(b"\n")
    return hasher.hexdigest()


def item_line(suite: str, task_id: str, version: Any, variant: str | None, repeat: int) -> str:
    return f"{suite}\0{task_id}\0{version}\0{variant or ''}\0{repeat}"


def task_line(suite: str, task_id: str) -> str:
    return f"{suite}\0{task_id}"


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        pass
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name  # outside the project: its name (absolute paths differ between machines)


def files_digest(paths: Iterable[Path], root: Path, cap: int = CONTENT_CAP_BYTES) -> dict[str, Any]:
    """{digest, files, bytes, by}: the files' contents (by "content"), or past `cap` bytes their names and
    sizes (by "size"), named relative to `root` so that every checkout of the project agrees."""
    named = sorted({_relative(p, root): p for p in paths}.items())
    sizes = [path.stat().st_size for _, path in named]
    by = "content" if sum(sizes) <= cap else "size"
    lines = []
    for (name, path), size in zip(named, sizes, strict=True):
        if by == "content":
            lines.append(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}")
        else:
            lines.append(f"{name}\0{size}")
    return {"digest": digest(lines), "files": len(named), "bytes": sum(sizes), "by": by}


def folder_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    import os

    found = []
    for parent, folders, names in os.walk(folder):
        folders[:] = [f for f in folders if f != "__pycache__"]
        found += [Path(parent, name) for name in names]
    return found


def inputs_record(
    items: list[tuple[str, str, Any, str | None, int]], task_files: list[Path], settings: Settings
) -> dict[str, Any]:
    """`run.inputs`: the items selected (before --shard: (suite, task id, version, variant, repeat)), and
    digests of the task files, the fixtures and the prompt templates (the project's and the harness's own)."""
    builtin = builtin_prompts_dir()
    project_prompts = prompts_dir(settings.rootdir)
    return {
        "tasks": len({(suite, task_id) for suite, task_id, *_ in items}),
        "items": len(items),
        "task_set": digest(item_line(*item) for item in items),
        "task_files": files_digest(task_files, settings.rootdir)["digest"],
        "fixtures": files_digest(folder_files(settings.fixtures_dir), settings.fixtures_dir),
        "prompts": {
            "project": files_digest(folder_files(project_prompts), project_prompts)["digest"],
            "builtin": files_digest(folder_files(builtin), builtin)["digest"],
        },
    }
