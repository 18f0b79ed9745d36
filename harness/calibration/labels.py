"""A labelled set: answers to a benchmark's own tasks, each given a level or a verdict by a person, with
the reason for it. One YAML file under `calibration/`:

```yaml
set: recruitment                       # the set's name
suites: [recruitment, recruitment-easy]
tasks: [evals/recruitment, evals/recruitment-easy]   # where its tasks are, from the project's root
labelled_by: ...                       # who labelled, and how (shown in the record and the docs)
method: ...
measure: level                         # level (an answer, levels 1..5) or creators (creator verdicts)
items:
  - id: rec-001                        # level: an answer and its level
    task: p2i-...                      # a task id of one of the suites
    answer: |
      ...
    level: 4
    reason: ...
  - id: mkt-001                        # creators: the creators named, each with its verdict
    task: brief id
    creators:
      - {link: https://..., selected: true, overall: 4, reason: ...}
```
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.errors import ConfigError
from harness.strict_yaml import YamlProblem, load_yaml

MEASURES = ("level", "creators")


@dataclass(frozen=True)
class CreatorLabel:
    link: str
    selected: bool
    overall: int
    reason: str


@dataclass(frozen=True)
class LabelledItem:
    id: str
    task: str
    reason: str = ""
    answer: str | None = None  # measure "level"
    level: int | None = None
    creators: tuple[CreatorLabel, ...] = ()  # measure "creators"


@dataclass
class LabelledSet:
    name: str
    path: Path
    suites: list[str]
    tasks: list[str]
    labelled_by: str
    method: str
    measure: str
    items: list[LabelledItem] = field(default_factory=list)
    digest: str = ""

    def by_task(self) -> dict[str, list[LabelledItem]]:
        """Each task's labelled items, in file order: the r-th answers repeat r of the calibration run."""
        grouped: dict[str, list[LabelledItem]] = {}
        for item in self.items:
            grouped.setdefault(item.task, []).append(item)
        return grouped

    def units(self) -> int:
        return len(self.items) if self.measure == "level" else sum(len(i.creators) for i in self.items)


def _text(entry: dict[str, Any], name: str, where: str) -> str:
    value = entry.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {name} must be non-empty text, got {value!r:.60}")
    return value.strip()


def _level(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
        raise ConfigError(f"{where} must be a whole number from 1 to 5, got {value!r:.40}")
    return value


def read_set(path: Path) -> LabelledSet:
    """The set at `path`, every field checked; a ConfigError names the file, the item and the field."""
    try:
        raw = path.read_bytes()
        data = load_yaml(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from None
    except YamlProblem as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with set, suites, tasks, measure and items")
    where = str(path)
    known = {"set", "suites", "tasks", "labelled_by", "method", "measure", "items"}
    if unknown := sorted(set(data) - known):
        raise ConfigError(f"{where}: unknown field(s) {', '.join(unknown)}; expected {', '.join(sorted(known))}")
    measure = data.get("measure")
    if measure not in MEASURES:
        raise ConfigError(f"{where}: measure must be one of {', '.join(MEASURES)}, got {measure!r:.40}")
    for name in ("suites", "tasks"):
        if not isinstance(data.get(name), list) or not data[name] or not all(isinstance(s, str) for s in data[name]):
            raise ConfigError(f"{where}: {name} must be a non-empty list of names")
    items = data.get("items")
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{where}: items must be a non-empty list")
    labelled = LabelledSet(
        name=_text(data, "set", where),
        path=path,
        suites=list(data["suites"]),
        tasks=list(data["tasks"]),
        labelled_by=_text(data, "labelled_by", where),
        method=_text(data, "method", where),
        measure=str(measure),
        digest=hashlib.sha256(raw).hexdigest(),
    )
    seen: set[str] = set()
    for number, entry in enumerate(items, start=1):
        at = f"{where}: item {number}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{at}: expected a mapping")
        item_id = _text(entry, "id", at)
        at = f"{where}: item {item_id}"
        if item_id in seen:
            raise ConfigError(f"{at}: the id is used twice")
        seen.add(item_id)
        allowed = {"id", "task", "answer", "level", "reason"} if measure == "level" else {"id", "task", "creators"}
        if unknown := sorted(set(entry) - allowed):
            raise ConfigError(f"{at}: unknown field(s) {', '.join(unknown)} for measure {measure}")
        task = _text(entry, "task", at)
        if measure == "level":
            labelled.items.append(
                LabelledItem(
                    item_id,
                    task,
                    _text(entry, "reason", at),
                    _text(entry, "answer", at),
                    _level(entry.get("level"), f"{at}: level"),
                )
            )
            continue
        creators = entry.get("creators")
        if not isinstance(creators, list) or not creators:
            raise ConfigError(f"{at}: creators must be a non-empty list")
        labels = []
        for index, creator in enumerate(creators, start=1):
            c_at = f"{at}: creator {index}"
            if not isinstance(creator, dict) or set(creator) - {"link", "selected", "overall", "reason"}:
                raise ConfigError(f"{c_at}: expected link, selected, overall and reason")
            if not isinstance(creator.get("selected"), bool):
                raise ConfigError(f"{c_at}: selected must be true or false, got {creator.get('selected')!r:.40}")
            labels.append(
                CreatorLabel(
                    _text(creator, "link", c_at),
                    creator["selected"],
                    _level(creator.get("overall"), f"{c_at}: overall"),
                    _text(creator, "reason", c_at),
                )
            )
        if len({c.link for c in labels}) != len(labels):
            raise ConfigError(f"{at}: a creator is named twice")
        labelled.items.append(LabelledItem(item_id, task, creators=tuple(labels)))
    return labelled


def shipped_sets(folder: Path) -> list[Path]:
    """The labelled sets in `folder` (a project ships them in `calibration/` under its root)."""
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []
