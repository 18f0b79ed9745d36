"""The whole pool: every creator of the group files rendered to its page, every rule checked, written or compared.

build() never writes; write() and differences() compare the pages with a folder on disk, so the CLI, the tests
and a writer's preview all go through the same steps.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from scripts.creator_pool import claims, numbers, render
from scripts.creator_pool.schema import Creator, GroupFile

POOL = render.ROOT / "fixtures" / "worlds" / "creator-pool"


@dataclass
class Pool:
    pages: dict[str, str] = field(default_factory=dict)  # path under the pool folder -> file text
    platforms: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)  # any of these, and nothing may be written
    warnings: list[str] = field(default_factory=list)  # worth a look, never blocking
    skipped: list[GroupFile] = field(default_factory=list)  # with only_valid: files left out, with their problems


def cadence_warning(creator: Creator, posts_per_month: int) -> str | None:
    """A cadence the text states ("two uploads a month") that posts_per_month contradicts."""
    for phrase, low, high in numbers.stated_cadences(creator):
        if not low - 1 <= posts_per_month <= high + 1:
            return f"the text says {phrase!r}, the page {posts_per_month} posts a month (performance.posts_per_month)"
    return None


def creator_page(creator: Creator, rules: dict) -> tuple[str, list[str], str | None]:
    """The page, the rules it breaks, and a warning (or None)."""
    data = numbers.derive(creator, rules)
    text = render.page(creator, data)
    problems = numbers.check({key: data[key] for key in numbers.DATA_KEYS}, rules)
    body = text.split("\n---\n", 1)[1]
    missing = [piece for piece in render.own_text(creator) if piece not in body]
    if missing:
        problems.append(f"the page lacks the creator's own text (a layout bug): {missing[0][:60]!r}")
    for piece in (creator.bio, creator.content, creator.notes, *(deal.outcome for deal in creator.brand_history)):
        stated = claims.contradictions(piece, data["audience"], data["region"])
        problems += [f"the prose {claim} (write the audience: in the YAML)" for claim in stated]
    return text, problems, cadence_warning(creator, data["posts_per_month"])


def build(files: list[GroupFile], rules: dict, only_valid: bool = False) -> Pool:
    """Every creator's page. Strict by default: any problem of any file is reported and makes the pool unusable.
    With only_valid, a file with a problem is left out whole (and listed in `skipped`)."""
    pool = Pool()
    for loaded in files:
        rendered, problems, warnings = {}, list(loaded.problems), []
        for creator in loaded.group.creators if loaded.group else ():
            text, broken, warning = creator_page(creator, rules)
            who = f"{loaded.shown}: {creator.platform} @{creator.handle}"
            problems += [f"{who}: {problem}" for problem in broken]
            warnings += [f"{who}: {warning}"] if warning else []
            rendered[render.page_path(creator)] = (creator.platform, text)
        if only_valid and problems:
            loaded.problems = problems
            pool.skipped.append(loaded)
            continue
        pool.problems += problems
        pool.warnings += warnings
        for path, (platform, text) in rendered.items():
            pool.pages[path] = text
            pool.platforms[platform] += 1
    return pool


def on_disk(folder: Path) -> dict[str, str]:
    """The pages a pool folder holds now (README.md is documentation, not a page)."""
    return {
        str(path.relative_to(folder)): path.read_text(encoding="utf-8")
        for sub in render.FOLDERS.values()
        for path in sorted((folder / sub).glob("*.md"))
    }


def differences(pool: Pool, folder: Path) -> list[str]:
    """How the folder differs from the pool: pages missing, changed, or stale (no creator of that name)."""
    present = on_disk(folder)
    lines = [f"missing: {path}" for path in sorted(pool.pages) if path not in present]
    lines += [f"changed: {path}" for path, text in sorted(pool.pages.items()) if present.get(path, text) != text]
    return lines + [f"stale: {path}" for path in sorted(present) if path not in pool.pages]


def write(pool: Pool, folder: Path) -> tuple[int, int]:
    """Write the pages that changed and remove stale ones; returns (written, removed). Unchanged files are not
    touched, so a world index keyed on file times is rebuilt only when something changed."""
    present = on_disk(folder)
    written = removed = 0
    for path, text in pool.pages.items():
        if present.get(path) != text:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8", newline="\n")
            written += 1
    for path in present:
        if path not in pool.pages:
            (folder / path).unlink()
            removed += 1
    return written, removed
