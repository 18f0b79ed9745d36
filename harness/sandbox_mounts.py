"""What the sandbox shows of this machine, decided by what each folder holds, not by its name.

The sandbox shows the system (`/usr`, the libraries) and the harness's Python (its installation, the virtual
environment, the harness package) read-only. Any of those may hold what an agent must never read: the project
sits under `/usr` in Docker's `/usr/src/app` layout, a virtual environment may be the project folder itself,
or the home folder may lie below a mounted one. So a folder that is, or holds, a hidden path (the project,
its tasks, fixtures, prompts, reports, cache, repository, the home folder, the agents' working folders) is
never mounted whole: its entries are mounted one by one, the hidden ones left out and the folders on the way
to them opened the same way. A folder that is both the interpreter's and the project's (the project is its
virtual environment) shows only the interpreter's own entries (`PYTHON_ENTRIES`). A root that lies inside a
hidden path cannot be shown at all: the plan says so, and the run stops before any call.

Pure but for reading folders: `plan_mounts` returns the mounts in the order bubblewrap applies them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# A virtual environment's (or an installation's) own entries: what a Python needs of a folder that is also
# the project's.
PYTHON_ENTRIES = frozenset({"bin", "lib", "lib32", "lib64", "include", "pyvenv.cfg", "share", "Lib", "Scripts"})


@dataclass(frozen=True)
class Mount:
    """`--ro-bind path path`, or for a symbolic link `--symlink target path` (its own target, as on the
    host: a link is shown as a link, so nothing it points into is shown by it)."""

    path: Path
    link: str | None = None

    def args(self) -> list[str]:
        if self.link is not None:
            return ["--symlink", self.link, str(self.path)]
        return ["--ro-bind", str(self.path), str(self.path)]


@dataclass(frozen=True)
class MountPlan:
    mounts: list[Mount]
    problems: list[str]  # roots that cannot be shown without a hidden path: the run cannot use them

    def shows(self, path: Path) -> bool:
        """Whether `path` (resolved) is visible in the sandbox through a mount of this plan."""
        return any(m.link is None and (path == m.path or m.path in path.parents) for m in self.mounts)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def plan_mounts(roots: list[Path], hidden: list[Path], python_roots: list[Path], strict: list[Path]) -> MountPlan:
    """The read-only mounts that show `roots` (resolved folders) without any `hidden` path (resolved). A
    root in `python_roots` that is itself hidden (the project is the virtual environment) shows only its
    PYTHON_ENTRIES. A root may lie inside a hidden folder (a `.venv` in the project, pyenv's Python in the
    home folder), but not inside one of `strict` (the tasks, fixtures, prompts, reports, cache, repository):
    that is a problem of the plan."""
    mounts: list[Mount] = []
    problems: list[str] = []
    hidden_set = sorted(set(hidden) | set(strict))
    seen: set[Path] = set()
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        holder = next((h for h in strict if _inside(root, h)), None)
        if holder is not None:
            problems.append(f"{root} lies inside {holder}, which an agent may not see")
            continue
        if root in hidden_set:
            if root not in python_roots:
                continue
            for entry in _entries(root):
                if entry.name in PYTHON_ENTRIES:
                    _add(entry, hidden_set, mounts)
            continue
        _add(root, hidden_set, mounts)
    return MountPlan(mounts, problems)


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _add(path: Path, hidden: list[Path], mounts: list[Mount]) -> None:
    """Mount `path` whole when it holds no hidden path; otherwise its entries, one by one, recursively."""
    if path in hidden:
        return
    if path.is_symlink():
        mounts.append(Mount(path, os.readlink(path)))
        return
    if not any(h != path and path in h.parents for h in hidden):
        mounts.append(Mount(path))
        return
    for entry in _entries(path):
        _add(entry, hidden, mounts)
