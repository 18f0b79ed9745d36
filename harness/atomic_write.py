"""Files a reader may open at any moment (a run's reports, the history, `LATEST`, a baseline): whole or not
at all. Each is written to a temporary file beside it, flushed to the disk, then renamed over the old one,
so a full disk, a crash or SIGKILL halfway leaves the previous version (or none), never a file cut short.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class WriteFailed(OSError):
    """A file that could not be written; its message is one line naming the path and the cause."""

    def __str__(self) -> str:
        return str(self.strerror)


def write_atomic(path: Path, data: str | bytes, *, encoding: str = "utf-8") -> Path:
    """Write `data` to `path` whole or not at all (see the module). A failure (ENOSPC, EACCES, ...) leaves
    no temporary file behind and raises WriteFailed naming `path`."""
    path = Path(path)
    raw = data.encode(encoding) if isinstance(data, str) else data
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise WriteFailed(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None
    return path
