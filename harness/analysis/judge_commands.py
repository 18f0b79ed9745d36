"""`harness judges agreement` and `harness judges calibrate`: thin commands over the judge analyses."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

# The GEM-Bench authors' logged runs (third-party data, never committed): beside the repository, or where
# GEM_BENCH_RUNS points.
GEM_RUNS_ENV = "GEM_BENCH_RUNS"


def default_gem_runs() -> Path:
    given = os.environ.get(GEM_RUNS_ENV)
    if given:
        return Path(given)
    return Path.cwd().parent / "shared" / "data" / "gem-bench-runs"


def cmd_agreement(args: argparse.Namespace) -> int:
    from harness.analysis.gem_judges import GemRunsError, agreement_tables, markdown_tables

    root = Path(args.runs) if args.runs else default_gem_runs()
    try:
        doc = agreement_tables(root)
    except GemRunsError as exc:
        print(f"harness judges agreement: {exc} (name the folder, or set {GEM_RUNS_ENV})", file=sys.stderr)
        return 4
    print(json.dumps(doc, indent=1) if args.json else "\n".join(markdown_tables(doc)))
    return 0


def add_commands(sub: Any, add_common: Any) -> None:
    judges = sub.add_parser("judges", help="judges held to each other and to labels")
    judges_sub = judges.add_subparsers(dest="judges_command", required=True)
    agree = judges_sub.add_parser(
        "agreement",
        help="the GEM-Bench authors' four judges on the same responses: Table 4's layout with agreement beside "
        "it, and per-metric exact agreement, Krippendorff's alpha (nominal, ordinal) and pairwise Cohen's kappa",
    )
    agree.add_argument(
        "runs",
        nargs="?",
        default=None,
        help=f"the folder of the authors' runs (default: ${GEM_RUNS_ENV}, else ../shared/data/gem-bench-runs)",
    )
    add_common(agree)
    agree.set_defaults(func=cmd_agreement)
