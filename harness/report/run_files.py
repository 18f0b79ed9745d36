"""Finding and reading a finished run's results.json, however the user names the run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def run_path(report_dir: Path, ref: str | None) -> Path:
    """results.json of a run named by id ("latest" or None: reports/LATEST), by its folder, or by the
    file itself. Exits with one line when there is no such run."""
    if ref not in (None, "latest"):
        given = Path(str(ref))
        if given.is_file():
            return given
        if (given / "results.json").is_file():
            return given / "results.json"
    else:
        latest = report_dir / "LATEST"
        if not latest.exists():
            raise SystemExit(f"harness: no runs in {report_dir} (run pytest first, or pass --report-dir)")
        ref = latest.read_text(encoding="utf-8").strip()
    path = report_dir / str(ref) / "results.json"
    if not path.is_file():
        raise SystemExit(
            f"harness: {ref} is not a results.json, a run folder, or a run id in {report_dir} ({path} does not exist)"
        )
    return path


def load_run(report_dir: Path, ref: str | None) -> dict[str, Any]:
    """The run document, checked to be one."""
    path = run_path(report_dir, ref)
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"harness: {path} is not a readable results.json ({exc})") from None
    if not isinstance(run, dict) or not isinstance(run.get("results"), list) or "run" not in run:
        raise SystemExit(f"harness: {path} is not a run's results.json (expected the keys run and results)")
    return run
