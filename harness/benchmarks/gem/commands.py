"""GEM-Bench's commands, registered into `harness` the way the analyses register theirs
(harness.analysis.commands): `harness import gem-bench`, `harness import gem-run`, `harness gem score` and
`harness gem paper`. The commands over the authors' logged runs live in logged_cli.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.benchmarks.gem.logged_cli import gem_paper, import_gem_run
from harness.cache import CacheMode
from harness.errors import ConfigError
from harness.settings import LOCAL_EMBEDDING_MODEL
from harness.terminal_fit import print_table

AddCommon = Callable[..., None]  # harness.cli._add_common: --report-dir, and --json where a table is printed


def cmd_import_gem(args: argparse.Namespace) -> int:
    from harness.benchmarks.gem.importer import ImportError_, describe, import_gem_bench

    try:
        result = import_gem_bench(
            Path(args.directory),
            Path(args.out),
            suite=args.suite,
            expect=args.expect,
            link_ads=args.link_ads,
            allow_modified=args.allow_modified,
        )
    except ImportError_ as exc:
        print(f"harness import gem-bench: {exc}", file=sys.stderr)
        return 2
    layout = "the authors' layout" if result.layout == "authors" else "this project's layout"
    print(f"read {args.directory} ({layout}):")
    for name, count in result.counts.items():
        print(f"  {name:<18} {count:>6,}")
    print(f"data: {describe(result.data)} (sha256 {result.data['sha256']})")
    for path in result.files:
        print(f"wrote {path}")
    print(f"run it: pytest {args.out} --solution all")
    return 0


def cmd_gem_score(args: argparse.Namespace) -> int:
    import asyncio

    from harness.benchmarks.gem.score import read_lines, score_lines, summary, write_report
    from harness.services import build_services
    from harness.settings import check_paths, settings_for_command

    source = Path(args.file)
    if not source.is_file():
        print(f"harness gem score: {source}: no such file", file=sys.stderr)
        return 2
    try:
        settings = settings_for_command(
            Path.cwd(),
            judge_model=args.judge_model,
            judge_api_base=args.judge_api_base,
            judge_api_key_env=args.judge_api_key_env,
            embedding_model=args.embedding_model,
            embedding_api_base=args.embedding_api_base,
            embedding_api_key_env=args.embedding_api_key_env,
            embedding_dimensions=args.embedding_dimensions,
            cache_dir=args.cache_dir,
            cache_mode=args.cache_mode,
            report_dir=args.report_dir,
            concurrency=args.concurrency,
        )
        check_paths(settings)
    except ConfigError as exc:
        print(f"harness gem score: {exc}", file=sys.stderr)
        return 2
    rules = {"judge_rule": args.judge_rule, "ad_flow": args.ad_flow}
    settings.benchmark_options = {"gem_judge_rule": args.judge_rule, "gem_ad_flow": args.ad_flow}
    try:
        lines, problems = read_lines(source)
    except OSError as exc:
        print(f"harness gem score: {source}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem, file=sys.stderr)
    rows = asyncio.run(score_lines(build_services(settings, "gem-score"), lines, args.judge))
    report = write_report(settings.report_dir, source, rows, problems, rules)
    for row in rows:
        if row.get("error"):
            print(f"{source}: {row['id']}: [{row['error']['kind']}] {row['error']['message']}", file=sys.stderr)
        for metric, failure in (row.get("judge_failures") or {}).items():
            reason = f"[{failure['kind']}] {failure['message']}"
            print(f"{source}: {row['id']}: {metric} incomplete: {reason}", file=sys.stderr)
    if args.json:
        keys = ("id", "sentences", "metrics", "incomplete", "error")
        print(json.dumps([{k: r.get(k) for k in keys} for r in rows], ensure_ascii=False))
    else:
        means = summary(rows)
        print_table([[name, "-" if v is None else f"{v:.2f}"] for name, v in means.items()], ["metric", "mean"])
        print(f"{len(rows)} responses scored, {len(problems)} lines refused; details in {report}")
    return 1 if problems or any(r.get("error") or r.get("incomplete") for r in rows) else 0


def add_import_commands(import_sub: Any, add_common: AddCommon) -> None:
    """`harness import gem-bench` and `harness import gem-run`, under `harness import`."""
    gem = import_sub.add_parser("gem-bench", help="the GEM-Bench release (or a data set in its schemas)")
    gem.add_argument(
        "directory",
        help="the release's data folder: mt_human/, lm_market/, adchat_products/, ca_prod/, or the authors' "
        "GemBench/benchmarking/dataset/ (MT_Human/, LM_Market/, product/, CA_Prod/), or their repository's root",
    )
    gem.add_argument("--out", default="evals/gem/imported", help="where to write the task files (git-ignored)")
    gem.add_argument("--suite", default="gem", help="the suite name of the task files")
    gem.add_argument(
        "--expect",
        choices=("official", "any"),
        default="official",
        help="official: refuse counts other than the release's; any: your own data in the same schemas",
    )
    gem.add_argument(
        "--link-ads", action="store_true", help="point at the ad database where it is instead of copying it"
    )
    gem.add_argument(
        "--allow-modified",
        action="store_true",
        help="import a copy of the release whose files differ from the official ones (by SHA-256); every run on "
        "it is marked modified",
    )
    gem.set_defaults(func=cmd_import_gem)
    gem_run = import_sub.add_parser(
        "gem-run", help="the GEM-Bench authors' logged runs (their output folders) as a run of this harness"
    )
    gem_run.add_argument(
        "folders",
        nargs="+",
        metavar="DIR",
        help="the run folder with the responses first; then folders that re-judged them (further judges) or "
        "another configuration's run (its items get a variant suffix, e.g. gi-r-minilm)",
    )
    gem_run.add_argument(
        "--release",
        default=None,
        help="the GEM-Bench release's data folder (CTR needs CA-Prod's candidates and labels); default: the "
        "GEM_BENCH_RELEASE environment variable",
    )
    gem_run.add_argument(
        "--embedding-model",
        default=LOCAL_EMBEDDING_MODEL,
        help="the embedder of RF, RC, AF, AC (default the local MiniLM; the authors': openai/text-embedding-3-small "
        "with --embedding-dimensions 512; none: leave the four unmeasured)",
    )
    gem_run.add_argument("--embedding-dimensions", type=int, default=None)
    gem_run.add_argument("--embedding-api-base", default=None)
    gem_run.add_argument("--embedding-api-key-env", default=None)
    gem_run.add_argument(
        "--gem-reproduce",
        choices=("fixed", "authors"),
        default="fixed",
        help="fixed (default): a verdict with no readable category is a judge failure, Ad-Chat's failure text "
        "the system's failure; authors: the default category the authors recorded, the failure text an answer",
    )
    gem_run.add_argument("--gem-ad-flow", choices=("exp", "min"), default="exp")
    gem_run.add_argument(
        "--aggregation",
        choices=("item", "authors", "authors-with-product"),
        default="item",
        help="item (default): the mean over items; authors: per (category, query) over repeats, then over groups, "
        "as the paper; authors-with-product: the same without the queries where Ad-Chat found no topic",
    )
    gem_run.add_argument("--cache-dir", default=".harness-cache")
    gem_run.add_argument("--cache-mode", default="use", choices=[m.value for m in CacheMode])
    gem_run.add_argument("--no-html", action="store_true", help="do not write report.html")
    add_common(gem_run, table=False)
    gem_run.set_defaults(func=import_gem_run)


def add_commands(sub: Any, add_common: AddCommon) -> None:
    """`harness gem score` and `harness gem paper`."""
    gem_cmd = sub.add_parser("gem", help="GEM-Bench tools")
    gem_sub = gem_cmd.add_subparsers(dest="gem_command", required=True)
    score = gem_sub.add_parser("score", help="GEM-Bench's metrics for responses you already have (JSONL)")
    score.add_argument(
        "file",
        help="JSONL: id, scenario (chatbot|search), query, response, product {name,url,desc} or null; search "
        "lines also candidates [{name, desc, url, category, label}]",
    )
    score.add_argument("--judge", action="store_true", help="add the six judged metrics")
    score.add_argument(
        "--judge-rule",
        choices=("code", "paper"),
        default="code",
        help="judged metrics from the judge's category (code, default) or the paper's rule on its two ratings",
    )
    score.add_argument(
        "--ad-flow", choices=("exp", "min"), default="exp", help="ad flow: exp(-|prev - next|) (default) or min"
    )
    score.add_argument("--judge-model", default=None)
    score.add_argument("--judge-api-base", default=None)
    score.add_argument("--judge-api-key-env", default=None)
    score.add_argument("--embedding-model", default=None)
    score.add_argument("--embedding-api-base", default=None)
    score.add_argument("--embedding-api-key-env", default=None)
    score.add_argument("--embedding-dimensions", type=int, default=None)
    score.add_argument("--cache-dir", default=".harness-cache")
    score.add_argument("--cache-mode", default="use", choices=[m.value for m in CacheMode])
    score.add_argument("--concurrency", type=int, default=16)
    add_common(score)
    score.set_defaults(func=cmd_gem_score)
    paper = gem_sub.add_parser(
        "paper", help="an imported logged run's cells beside the authors' aggregates and the paper's tables"
    )
    paper.add_argument("run", nargs="?", default=None, help="run id, folder or results.json (default: the latest)")
    paper.add_argument(
        "--aggregation",
        choices=("item", "authors", "authors-with-product"),
        default="authors",
        help="how our cells are aggregated (default authors: the paper's)",
    )
    add_common(paper)
    paper.set_defaults(func=gem_paper)
