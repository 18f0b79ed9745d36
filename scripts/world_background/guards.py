"""What background pages must never say, so that they never become a second answer or contradict a key.

Three sources, all read fresh on every run (so rerunning the generator after new tasks land is one command):
- the Recruitment tasks over the world (evals/recruitment*/*.yaml): every person a key names (targets, near
  misses, namesakes, the person a people-to-info task asks about) and the proper names in the tasks' questions,
  job descriptions and roles (conferences, awards, labs, teams, organisations), except the shared employers,
  schools and places that background people are meant to share;
- the world's hand-written person pages: background people never take a name of theirs (no new namesakes),
  and no background page holds all the words of one of those names, or a name in its native script;
- guard files, fixtures/world-sources/<world>/guards/*.yaml: `terms` never used, `combinations` never all on
  one page (e.g. [CFO, Singapore]).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from scripts.world_background.sources import BACKGROUND, ROOT, SourceError, Sources, fold

_WORD = re.compile(r"\w+")
_CAPITALISED = re.compile(
    r"(?:[A-Z][\w'’-]*|\d{4})(?:\s+(?:(?:of|and|&|for|the|de|del|do|da|in)\s+)?(?:[A-Z][\w'’-]*|\d{4}))+"
)
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{2,}\b")
_NATIVE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0600-\u06ff]{2,}")
_SUFFIX = re.compile(r"-(?=[0-9a-f]*\d)[0-9a-f]{4}$")
# Capitalised words that name nothing in particular: a phrase made only of these (and shared names) is free.
_GENERIC_TEXT = (
    "a an the find we client role required background traits scope region phase candidates may be who "
    "which what where when how our their his her its this that these those is are it in at on by for from "
    "with and or of to as ceo cto coo cfo cpo vp svp evp head director lead senior principal staff chief "
    "officer manager engineer engineers engineering product phd msc mba bsc beng meng ms ma ba dr prof "
    "university institute school college company companies series seed a b d e f g also both each every "
    "all any none two three four five six seven eight nine ten first second new north south east west "
    "central asia asia-pacific apac europe european americas america latin gulf middle global "
    "international english spanish portuguese german japanese chinese korean swedish indonesian malay "
    "hindi arabic pages page january february march april may june july august september october november "
    "december today current currently former ai ml it hr uk us usa eu emea api saas b2b pc mobile cloud "
    "data team teams office offices hq people person based eur usd sgd inr aud gbp sek rmb jpy krw idr "
    "myr nzd million billion "
)
GENERIC = frozenset(fold(w) for w in _GENERIC_TEXT.split())


@dataclass
class Guard:
    names: list[tuple[frozenset[str], str]] = field(default_factory=list)  # (folded words, the name as written)
    native: list[str] = field(default_factory=list)  # names in native script, never a substring
    terms: list[tuple[re.Pattern[str], str, str]] = field(default_factory=list)  # (pattern, term, why)
    combinations: list[tuple[tuple[re.Pattern[str], ...], str]] = field(default_factory=list)
    person_slugs: set[str] = field(default_factory=set)  # hand-written people's slugs without their suffix
    exempt: list[str] = field(default_factory=list)  # folded names a term may sit inside ("Lumen Logistics")
    task_terms: dict[str, set[str]] = field(default_factory=dict)  # task id -> the terms its own text names
    task_combinations: dict[str, set[str]] = field(default_factory=dict)  # task id -> its guard file's combinations

    def without(self, terms: set[str], combinations: frozenset[str] = frozenset()) -> Guard:
        """This guard less some terms and combinations (a crowd may use its own task's words); names stay."""
        dropped = {fold(t) for t in terms}
        kept = [t for t in self.terms if fold(t[1]) not in dropped]
        return Guard(
            list(self.names),
            list(self.native),
            kept,
            [c for c in self.combinations if c[1] not in combinations],
            set(self.person_slugs),
            list(self.exempt),
            self.task_terms,
            self.task_combinations,
        )

    def name_taken(self, name: str) -> str | None:
        """The guarded name that `name` would copy (all its words are in `name`), or None."""
        words = set(_WORD.findall(fold(name)))
        for needed, shown in self.names:
            if needed <= words:
                return shown
        return None

    def compile(self) -> None:
        """One pattern for all names (either word order, as written) and one for all terms: pages are many."""
        names = []
        for _, shown in self.names:
            gap = r"[\s'’-]+"
            parts = [gap.join(map(re.escape, _WORD.findall(part))) for part in fold(shown).split()]
            parts = [
                p
                for p, raw in zip(parts, fold(shown).split(), strict=True)
                if p and raw not in {"dr", "dr.", "prof", "prof."}
            ]
            names += [gap.join(parts), gap.join(reversed(parts))]
        self._names = re.compile(r"(?<!\w)(?:" + "|".join(names) + r")(?!\w)") if names else None
        self._terms = re.compile("|".join(f"(?:{p.pattern})" for p, _, _ in self.terms)) if self.terms else None

    def problems(self, text: str) -> list[str]:
        """Why this page text may not be background, or [] (names, native names, terms, combinations)."""
        if not hasattr(self, "_names"):
            self.compile()
        folded = fold(text)
        found = []
        if self._names is not None and (hit := self._names.search(folded)):
            found.append(f"names {hit.group(0)!r}")
        found += [f"names {native!r}" for native in self.native if native in text]
        for name in self.exempt:
            folded = folded.replace(name, " ")
        if self._terms is not None and self._terms.search(folded):
            found += [f"uses {term!r} ({why})" for pattern, term, why in self.terms if pattern.search(folded)]
        for patterns, why in self.combinations:
            if all(p.search(folded) for p in patterns):
                found.append(f"combines {why}")
        return found


def _pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(fold(term)).replace(r"\ ", r"\s+") + r"(?!\w)")


def task_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for folder in sorted((root / "evals").glob("recruitment*")) for p in folder.glob("*.yaml"))


def _tasks_of(path: Path, world: str) -> list[dict[str, Any]]:
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise SourceError(f"{path.relative_to(ROOT)}: cannot read the task file ({exc})") from exc
    tasks = loaded.get("tasks") or [] if isinstance(loaded, dict) else []
    return [t for t in tasks if isinstance(t, dict) and (t.get("inputs") or {}).get("environment") == world]


def _people_named(task: dict[str, Any]) -> list[str]:
    truth, inputs = task.get("ground_truth") or {}, task.get("inputs") or {}
    names = [inputs["person"]] if isinstance(inputs.get("person"), str) else []
    for key in ("people", "near_misses", "namesakes"):
        names += [p["name"] for p in truth.get(key) or [] if isinstance(p, dict) and isinstance(p.get("name"), str)]
    return names


def _organisations_named(task: dict[str, Any]) -> list[str]:
    truth = task.get("ground_truth") or {}
    names = [a["name"] for a in truth.get("adjacent") or [] if isinstance(a, dict) and isinstance(a.get("name"), str)]
    expected = truth.get("expected") or {}
    if isinstance(expected, dict):
        names += [n for values in expected.values() if isinstance(values, list) for n in values if isinstance(n, str)]
    return names


def _phrases(text: str) -> list[str]:
    return [*(m.group(0) for m in _CAPITALISED.finditer(text)), *_ACRONYM.findall(text)]


def exempt_names(sources: Sources) -> list[str]:
    """Names background pages may use whatever words they hold: employers, schools and their degrees."""
    names = [e["name"] for e in sources.world["shared_employers"]] + [c["name"] for c in sources.companies]
    return (
        names
        + [s["name"] for s in sources.world["schools"]]
        + [d for s in sources.world["schools"] for d in s["degrees"]]
    )


def shared_words(sources: Sources) -> set[str]:
    """Folded words of everything background people are meant to share: employers, schools, places."""
    names = [e["name"] for e in sources.world["shared_employers"]] + [c["name"] for c in sources.companies]
    names += [s["name"] for s in sources.world["schools"]] + list(sources.world["cities"])
    names += [c["country"] for c in sources.world["cities"].values()] + [
        c["region"] for c in sources.world["cities"].values()
    ]
    names += [alias for c in sources.world["cities"].values() for alias in c.get("also", [])]
    return {w for name in names for w in _WORD.findall(fold(name))} | set(GENERIC)


def _hand_written_people(folder: Path) -> list[tuple[str, str]]:
    """(slug, title) of every hand-written person page of the world."""
    people = []
    for path in sorted(folder.rglob("*.md")):
        if BACKGROUND in path.relative_to(folder).parts or path.name.lower() == "readme.md":
            continue
        head = path.read_text(encoding="utf-8").split("\n---", 1)[0]
        url = re.search(r"^url:\s*(\S+)", head, re.M)
        title = re.search(r"^title:\s*(.+)$", head, re.M)
        if url and "/in/" in url.group(1):
            people.append((url.group(1).rstrip("/").rsplit("/", 1)[-1], title.group(1) if title else ""))
    return people


def build(sources: Sources, root: Path = ROOT) -> Guard:
    guard = Guard()
    seen: set[frozenset[str]] = set()

    def add_name(name: str) -> None:
        words = frozenset(w for w in _WORD.findall(fold(name)) if len(w) > 1 and w not in {"dr", "prof"})
        if len(words) >= 2 and words not in seen:
            seen.add(words)
            guard.names.append((words, name))

    for slug_, title in _hand_written_people(sources.folder):
        bare = _SUFFIX.sub("", slug_)
        guard.person_slugs.add(bare)
        add_name(bare.replace("-", " "))
        guard.native += [n for n in _NATIVE.findall(title) if n not in guard.native]
    shared = shared_words(sources)
    guard.exempt = sorted({fold(n) for n in exempt_names(sources)}, key=len, reverse=True)
    terms: dict[str, str] = {}
    for path in task_files(root):
        for task in _tasks_of(path, sources.name):
            for name in _people_named(task):
                add_name(name)
            inputs = task.get("inputs") or {}
            text = " ".join(
                " ".join(str(inputs.get(k) or "").split()) for k in ("question", "job_description", "background")
            )
            for phrase in [*_phrases(text), *_organisations_named(task)]:
                words = [w for w in _WORD.findall(fold(phrase)) if len(w) > 1]
                if any(w not in shared for w in words):
                    terms.setdefault(phrase.strip(), f"named by task {task.get('id')}")
                    guard.task_terms.setdefault(str(task.get("id")), set()).add(phrase.strip())
    for path in sources.guard_files:
        shown = path.relative_to(root)
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(loaded, dict):
            raise SourceError(f"{shown}: expected a mapping with terms and/or combinations")
        why = f"{shown.name}" + (f", task {loaded['task']}" if loaded.get("task") else "")
        owner = str(loaded["task"]) if loaded.get("task") else None
        for term in loaded.get("terms") or []:
            if not isinstance(term, str) or not term.strip():
                raise SourceError(f"{shown}: every entry of terms must be a non-empty string")
            terms.setdefault(term.strip(), why)
            if owner:  # a task's own guard file: its crowd may use these words
                guard.task_terms.setdefault(owner, set()).add(term.strip())
        for index, combination in enumerate(loaded.get("combinations") or []):
            if not isinstance(combination, list) or len(combination) < 2:
                raise SourceError(f"{shown}: combinations[{index}] must list two or more terms")
            guard.combinations.append((tuple(_pattern(t) for t in combination), f"{' + '.join(combination)} ({why})"))
            if owner:
                guard.task_combinations.setdefault(owner, set()).add(guard.combinations[-1][1])
        for name in loaded.get("people") or []:
            add_name(str(name))
    guard.terms = [(_pattern(term), term, why) for term, why in sorted(terms.items())]
    return guard
