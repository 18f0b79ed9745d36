"""A control group per agent process tree: a cap on processes and memory, and a way to kill every process
the tree started, double forks and `setsid` included.

Why: process groups and sessions are the agent's to leave (one `setsid` and its children outlive the item);
a cgroup is not. Linux only, and only where this process may write to the cgroup file system (root, or a
delegated subtree); elsewhere `ItemGroup.create` returns None and the caller says that limits are not
enforced. Both layouts are handled: cgroup v2 (one unified tree) and v1 (a `pids` and a `memory` tree).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
_counter = itertools.count()


@dataclass(frozen=True)
class Layout:
    """Where this machine's pids and memory controllers live, and which interface they speak."""

    version: int
    pids: Path | None
    memory: Path | None


def layout(root: Path = ROOT) -> Layout | None:
    """The writable cgroup layout, or None when there is none this process can use."""
    if (root / "cgroup.controllers").is_file():  # v2 mounted at the root
        # New groups go beside our own (a group with processes in it cannot hand controllers down).
        own = _own_v2_group(root)
        base = own.parent if own is not None and own != root else root
        try:
            delegated = (base / "cgroup.subtree_control").read_text().split()
        except OSError:
            return None
        if "pids" in delegated and os.access(base, os.W_OK):
            return Layout(2, base, base if "memory" in delegated else None)
        return None
    pids, memory = root / "pids", root / "memory"
    usable = [p if p.is_dir() and os.access(p, os.W_OK) else None for p in (pids, memory)]
    if usable[0] is None:
        return None
    return Layout(1, usable[0], usable[1])


def _own_v2_group(root: Path) -> Path | None:
    try:
        line = next(x for x in Path("/proc/self/cgroup").read_text().splitlines() if x.startswith("0::"))
    except (OSError, StopIteration):
        return None
    return root / line.split("::", 1)[1].lstrip("/")


class ItemGroup:
    """One item's cgroup(s): processes are added with `procs_files()` before the agent starts."""

    def __init__(self, folders: list[Path], version: int) -> None:
        self.folders = folders
        self.version = version

    @classmethod
    def create(cls, found: Layout | None, name: str, max_processes: int, max_memory_mb: int) -> ItemGroup | None:
        if found is None:
            return None
        unique = f"harness-{os.getpid()}-{next(_counter)}-{name}"[:80]
        folders: list[Path] = []
        try:
            if found.version == 2:
                assert found.pids is not None
                folder = found.pids / unique
                folder.mkdir()
                folders.append(folder)
                (folder / "pids.max").write_text(str(max_processes))
                if found.memory is not None:
                    (folder / "memory.max").write_text(str(max_memory_mb * 2**20))
            else:
                assert found.pids is not None
                pids = found.pids / unique
                pids.mkdir()
                folders.append(pids)
                (pids / "pids.max").write_text(str(max_processes))
                if found.memory is not None:
                    memory = found.memory / unique
                    memory.mkdir()
                    folders.append(memory)
                    (memory / "memory.limit_in_bytes").write_text(str(max_memory_mb * 2**20))
        except OSError:
            for folder in folders:
                with contextlib.suppress(OSError):
                    folder.rmdir()
            return None
        return cls(folders, found.version)

    def procs_files(self) -> list[Path]:
        return [folder / "cgroup.procs" for folder in self.folders]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for path in self.procs_files():
            with contextlib.suppress(OSError, ValueError):
                found.update(int(line) for line in path.read_text().split())
        return found

    def kill_all(self, timeout_s: float = 5.0) -> None:
        """Kill every process in the group, then remove the group (it must be empty to go)."""
        deadline = time.monotonic() + timeout_s
        while True:
            if self.version == 2:
                with contextlib.suppress(OSError):
                    (self.folders[0] / "cgroup.kill").write_text("1")
            for pid in self.pids():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if not self.pids() or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        for folder in self.folders:
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except OSError:
                    time.sleep(0.02)
