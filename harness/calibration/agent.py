"""The system under test of a calibration run (`harness judges calibrate`): it answers each task with the
labelled set's answer for it, so the benchmark's own judges (templates, panels, cache) judge answers whose
level a person already gave. Repeat r of a task is its r-th labelled item; a repeat beyond a task's items
says so and is not judged. The set is named by HARNESS_CALIBRATION_SET."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from harness.calibration.labels import LabelledSet, read_set

SET_ENV = "HARNESS_CALIBRATION_SET"


@cache
def _set(path: str) -> LabelledSet:
    return read_set(Path(path))


def labelled(prompt: str, task: dict[str, Any]) -> str:
    """The labelled answer for this task and repeat: the answer text, or, for creator verdicts, the
    creators as the JSON list the benchmark reads."""
    path = os.environ.get(SET_ENV)
    if not path:
        raise RuntimeError(f"{SET_ENV} is not set: this agent answers only in a calibration run")
    items = _set(path).by_task().get(str(task["id"]), [])
    repeat = int(task.get("repeat") or 0)
    if repeat >= len(items):
        raise RuntimeError(f"the labelled set has {len(items)} answer(s) for {task['id']}: repeat {repeat} is not one")
    item = items[repeat]
    if item.answer is not None:
        return item.answer
    return json.dumps([{"name": c.link.rstrip("/").rsplit("/", 1)[-1], "link": c.link} for c in item.creators])
