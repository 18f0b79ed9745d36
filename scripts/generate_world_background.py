#!/usr/bin/env python3
"""Generate the background pages of the recruitment worlds from their hand-written source data.

Reads fixtures/world-sources/<world>/ (names, companies, schools, cities, outlets, guards) and the shared
sentence material in fixtures/world-sources/common/, draws a seeded model of background people, companies,
teams, news and alumni lists, and writes one page each to fixtures/worlds/<world>/background/. Deterministic
(no network, no clock): two runs write byte-identical pages. Every page is held against the guards first
(the people and distinguishing facts the Recruitment tasks use); a page that breaks one stops the run.

    python scripts/generate_world_background.py                      # every world with source data
    python scripts/generate_world_background.py --world talent-atlas
    python scripts/generate_world_background.py --check              # compare with the committed pages
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.world_background.generate import build, differences, write  # noqa: E402
from scripts.world_background.sources import SOURCES, SourceError  # noqa: E402


def worlds() -> list[str]:
    return sorted(p.name for p in SOURCES.iterdir() if p.is_dir() and (p / "world.yaml").is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--world", action="append", choices=worlds(), help="only this world (repeatable)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page differs")
    args = parser.parse_args(argv)
    status = 0
    for world in args.world or worlds():
        try:
            background = build(world)
        except SourceError as exc:
            print(f"{world}: {exc}", file=sys.stderr)
            return 1
        counts = ", ".join(f"{folder} {n}" for folder, n in sorted(background.counts.items()))
        total = sum(background.counts.values())
        if args.check:
            found = differences(background)
            for line in found[:20]:
                print(f"{world}: {line}")
            print(f"{world}: {total} pages ({counts}); {len(found) or 'no'} pages differ from the committed ones")
            status |= 1 if found else 0
        else:
            written, removed = write(background)
            print(f"{world}: {total} pages ({counts}); wrote {written}, removed {removed} stale")
    return status


if __name__ == "__main__":
    sys.exit(main())
