"""The commands over the authors' logged runs: `harness import gem-run` and `harness gem paper`."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def import_gem_run(args: Any) -> int:
    """Read and check every folder, embed the answers' sentences (unless --embedding-model none), then write
    the run like any run. Any problem before the write is one line and exit 2, and nothing is written."""
    from harness.benchmarks.gem.logged_import import (
        LoggedRunError,
        build_items,
        ca_prod_candidates,
        check_candidates,
        embed_texts,
        embedder_label,
        folder_summary,
        read_runs,
        run_document,
        run_embedder,
    )
    from harness.errors import ConfigError
    from harness.report.tables import terminal_table
    from harness.report.writer import save_run
    from harness.secrets import redact
    from harness.settings import check_paths, settings_for_command

    started = time.time()
    release = args.release or os.environ.get("GEM_BENCH_RELEASE")
    embedder = None if str(args.embedding_model).lower() == "none" else str(args.embedding_model)
    try:
        if not release:
            raise LoggedRunError(
                "CTR needs the release's CA-Prod candidates and labels: pass --release DIR (the workspace's copy is "
                "../shared/data/gem-bench) or set GEM_BENCH_RELEASE"
            )
        settings = settings_for_command(
            Path.cwd(),
            embedding_model=embedder or "local/all-minilm-l6-v2",
            embedding_api_base=args.embedding_api_base,
            embedding_api_key_env=args.embedding_api_key_env,
            embedding_dimensions=args.embedding_dimensions,
            cache_dir=args.cache_dir,
            cache_mode=args.cache_mode,
            report_dir=args.report_dir,
            no_html=args.no_html,
        )
        check_paths(settings)
        imported = read_runs([Path(f) for f in args.folders])
        candidates = ca_prod_candidates(Path(release))
        check_candidates(imported, candidates)
    except (LoggedRunError, ConfigError) as exc:
        print(f"harness import gem-run: {exc}", file=sys.stderr)
        return 2
    for line in folder_summary(imported):
        print(line)
    vectors = None
    texts = embed_texts(imported, args.gem_reproduce)
    if embedder is not None and texts:
        label = settings.embedding_model + (
            f" at {settings.embedding_dimensions} dimensions" if settings.embedding_dimensions else ""
        )
        print(f"embedding {len(set(texts)):,} distinct sentences with {label} (through the call cache) ...")
        try:
            vectors = run_embedder(settings, texts)
        except Exception as exc:  # a provider or key problem: nothing has been written
            print(f"harness import gem-run: embedding failed, nothing written: {type(exc).__name__}: {exc}",
                  file=sys.stderr)  # fmt: skip
            return 2
        embedder = label
    embedder = embedder_label(imported, embedder)
    results = build_items(imported, candidates, vectors, reproduce=args.gem_reproduce, ad_flow=args.gem_ad_flow)
    run = run_document(
        imported, results, settings, ["harness", "import", "gem-run", *args.folders],
        reproduce=args.gem_reproduce, ad_flow=args.gem_ad_flow, aggregation=args.aggregation, embedder=embedder,
        started=started, finished=time.time(),
    )  # fmt: skip
    run = redact(run)
    directory, html = save_run(run, settings)
    from harness.benchmarks.gem.paper import comparison, render

    (directory / "paper.md").write_text(
        "\n".join(render(comparison(run, "authors"), "authors")) + "\n", encoding="utf-8"
    )
    for table in run["tables"]:
        print()
        for line in terminal_table(table):
            print(line)
    print(f"\nharness import gem-run: {len(results):,} items -> {html or directory / 'summary.md'} "
          f"(data: {directory / 'results.json'}); `harness gem paper {run['run']['run_id']}` compares with the "
          "paper")  # fmt: skip
    return 0


def gem_paper(args: Any) -> int:
    """Our cells, the authors' aggregates and the paper's numbers side by side, each difference with its cause."""
    import json

    from harness.benchmarks.gem.paper import PaperError, comparison, render
    from harness.run_files import load_run

    run = load_run(Path(args.report_dir), args.run)
    try:
        rows = comparison(run, args.aggregation)
    except PaperError as exc:
        print(f"harness gem paper: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        print("\n".join(render(rows, args.aggregation)))
    return 0
