#!/usr/bin/env python3
"""Render the creator pool of xbench Marketing from the creators' own YAML.

Reads every group file of fixtures/creators/ (each creator as written: who they are, what they post, how their
brand deals went), derives their numbers from fixtures/creators/rules.yaml and writes one page per creator to
fixtures/worlds/creator-pool/<platform>/<handle>.md, in one of the layouts of fixtures/creators/layouts/.
Seeded per creator: two runs write byte-identical pages. Strict: if any file or creator is invalid or breaks a
consistency rule, it names them and writes nothing.

    python scripts/generate_creator_pool.py                 # validate, render, write; remove stale pages
    python scripts/generate_creator_pool.py --check         # validate and compare with the pages on disk
    python scripts/generate_creator_pool.py --only-valid    # a preview: render the files that validate, list the rest
    python scripts/generate_creator_pool.py --out /tmp/pool # write elsewhere
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.creator_pool import pool as creator_pool  # noqa: E402
from scripts.creator_pool.schema import CREATORS, RULES, load_files, rules  # noqa: E402


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=creator_pool.POOL, help="pool folder (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a rule breaks or a page differs")
    parser.add_argument(
        "--only-valid", action="store_true", help="render only the files that validate and list the others (preview)"
    )
    parser.add_argument(
        "--source", type=Path, default=CREATORS, help="folder of group files *.yaml (default: %(default)s)"
    )
    return parser.parse_args(argv)


def report_skipped(pool: creator_pool.Pool) -> None:
    for loaded in pool.skipped:
        print(f"skipped {loaded.shown}: {len(loaded.problems)} problems, first: {loaded.problems[0]}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    paths = sorted(p for p in args.source.glob("*.yaml") if p.name != RULES.name)
    if not paths:
        print(f"no group files (*.yaml) in {args.source}", file=sys.stderr)
        return 1
    built = creator_pool.build(load_files(paths), rules(), only_valid=args.only_valid)
    for warning in built.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    report_skipped(built)
    if built.problems:
        for problem in built.problems:
            print(problem, file=sys.stderr)
        print(
            f"{len(built.problems)} problems: nothing written (--only-valid renders the valid files)", file=sys.stderr
        )
        return 1
    counts = ", ".join(f"{platform} {n}" for platform, n in sorted(built.platforms.items()))
    summary = f"{len(built.pages)} creators ({counts or 'none'})"
    if built.skipped:
        summary += f"; {len(built.skipped)} files skipped"
    if args.check:
        differences = creator_pool.differences(built, args.out)
        for line in differences:
            print(line)
        print(f"{summary} pass the rules; {len(differences) or 'no'} pages differ from {args.out}")
        return 1 if differences else 0
    written, removed = creator_pool.write(built, args.out)
    print(f"{summary}: wrote {written} changed pages to {args.out}, removed {removed} stale ones")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
