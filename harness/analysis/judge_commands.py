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
    from harness.benchmarks.gem.logged_agreement import GemRunsError, agreement_tables, markdown_tables

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
    calib = judges_sub.add_parser(
        "calibrate",
        help="run a benchmark's judges on a labelled set (calibration/*.yaml) and measure them against the "
        "labels: exact agreement, kappa, quadratic kappa, confusion matrix, mean bias, bootstrap intervals",
    )
    add_common(calib)
    calib.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples (default 2000)")
    calib.add_argument("--verbose", action="store_true", help="show the calibration run's pytest output")
    calib.add_argument("set", help="the labelled set (a YAML file under calibration/)")
    calib.add_argument(
        "pytest_args",
        nargs=argparse.REMAINDER,
        help="everything after SET goes to the calibration run: the judges (--judge-model, --judge-api-base, "
        "...), --cache-dir, -n",
    )
    calib.set_defaults(func=cmd_calibrate)


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Run the benchmark's judges on a labelled set's answers (a pytest run whose system under test answers
    with the labelled answers), then measure the judges against the labels and store the calibration."""
    import subprocess

    from harness.calibration.agent import SET_ENV
    from harness.calibration.labels import read_set
    from harness.calibration.records import calibrate, calibration_path
    from harness.run_files import load_run

    labelled = read_set(Path(args.set))
    report_dir = Path(args.report_dir)
    latest = report_dir / "LATEST"
    before = latest.read_text(encoding="utf-8").strip() if latest.is_file() else None
    by_task = labelled.by_task()
    command = [
        sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *labelled.tasks,
        "--agent", "harness.calibration.agent:labelled", "--repeats", str(max(len(v) for v in by_task.values())),
        "-k", " or ".join(sorted(by_task)), "--report-dir", str(report_dir), "--no-html", *args.pytest_args,
    ]  # fmt: skip
    print(f"harness judges calibrate: {labelled.units()} labelled units of {labelled.name}: {' '.join(command[3:])}")
    env = {**os.environ, SET_ENV: str(Path(args.set).resolve())}
    done = subprocess.run(command, env=env, stdout=None if args.verbose else subprocess.DEVNULL, check=False)
    after = latest.read_text(encoding="utf-8").strip() if latest.is_file() else None
    if after is None or after == before:
        print(
            f"harness judges calibrate: the calibration run wrote no run (pytest exit {done.returncode})",
            file=sys.stderr,
        )
        return 4
    record = calibrate(labelled, load_run(report_dir, after), resamples=args.resamples)
    path = calibration_path(report_dir, labelled.name, record["judges"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record, indent=1) if args.json else "\n".join(calibration_lines(record)))
    print(f"harness judges calibrate: stored {path} (run {after})")
    return 0


def _cell(stat: dict[str, Any] | None, digits: int = 2) -> str:
    if not stat or stat.get("value") is None:
        return "-"
    interval = "" if stat.get("low") is None else f" [{stat['low']:.{digits}f}, {stat['high']:.{digits}f}]"
    return f"{stat['value']:.{digits}f}{interval}"


def calibration_lines(record: dict[str, Any]) -> list[str]:
    """The calibration as Markdown: per judge and dimension, the statistics with their intervals, then the
    confusion matrices."""
    lines = [
        f"Judges against the {record['set']} labels ({record['units']} labelled units, {record['unjudged']} not "
        f"judged; labelled by {record['labelled_by'].split(';')[0].split(',')[0]})",
        "",
        "| judge | dimension | n | exact | kappa | kappa (quadratic) | mean bias (judge - label) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for judge, dimensions in record["per_judge"].items():
        for dimension, stats in dimensions.items():
            lines.append(
                f"| {judge} | {dimension} | {stats['n']} | {_cell(stats.get('exact'))} | {_cell(stats.get('kappa'))} "
                f"| {_cell(stats.get('kappa_quadratic'))} | {_cell(stats.get('mean_bias'))} |"
            )
    for judge, dimensions in record["per_judge"].items():
        for dimension, stats in dimensions.items():
            levels = [str(level) for level in stats["levels"]]
            lines += ["", f"{judge}, {dimension}: rows the label, columns the judge", ""]
            lines += ["| label \\ judge | " + " | ".join(levels) + " |", "|---|" + "---:|" * len(levels)]
            lines += [
                f"| {level} | " + " | ".join(map(str, row)) + " |"
                for level, row in zip(levels, stats["confusion"], strict=True)
            ]
    primary = record["primary"]
    lines += ["", f"The gate's statistic (--min-judge-agreement): {primary['dimension']} {primary['statistic']}."]
    return lines
