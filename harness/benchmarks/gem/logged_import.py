"""`harness import gem-run DIR [DIR ...]`: the GEM-Bench authors' logged runs as a run of this harness.

The first folder holds the responses (the full run); a folder without responses is a re-judging of them (its
verdicts become further judges of the same items, for the paper's Table 4); a folder with responses of its own
is another configuration of the pipeline (the MiniLM-retrieval run: its items are the variant `gi-r-minilm`, for
Table 5). Every item is one logged response, labelled by data set, solution (the variant) and repeat, with the
logged answer and product.

What each number is made of:
- judged metrics: the verdicts as the workbooks record them, scored by the code's rule (the category). A verdict
  whose text names no category is the judge's failure (the metric is unmeasured, marked incomplete), or, under
  `--gem-reproduce authors`, the default category the authors' code put in its place;
- IR from the logged product, CTR from it and the release's CA-Prod candidates and labels (by title);
- RF, RC, AF, AC from the authors' per-response file (evaluation_result.json) when a folder has it, else
  from the sentences of the logged answer, embedded by the embedder named (the authors':
  openai/text-embedding-3-small at 512 dimensions; by default the local MiniLM, which every table names);
- ITTFT, OTTFT from the logged counts: the authors' accounting (cl100k_base tokens of the texts sent; Ad-LLM's
  user message only), not the provider's usage this harness records in its own runs.
- Ad-Chat's failure text (`QUERY_FAILED:...`, no product) is the logged system's failure (it scores 0), or
  under `--gem-reproduce authors` an answer, as the authors scored it.

Everything is read and checked before anything is written: a malformed, partial or mismatched folder is one
line naming the file (and row) and what was expected, and no run is written.
"""

from __future__ import annotations

import asyncio
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.benchmarks.gem.judges import BY_NAME, JUDGED_METRICS
from harness.benchmarks.gem.logged import (
    AUTHORS_SOLUTION,
    DATASETS,
    LoggedRun,
    LoggedRunError,
    Response,
    match_verdicts,
    read_run,
)
from harness.benchmarks.gem.logged_tables import is_authors_embedder, tables
from harness.benchmarks.gem.metrics import AD_FLOW_VARIANTS, ad_indices, ctr, injection_rate, quantitative_metrics
from harness.benchmarks.gem.splitter import split_sentences
from harness.llm.request import EmbeddingRequest
from harness.result import RESULT_SCHEMA_VERSION, system_usage, usage_of

SUITE = "gem-logged"
QUANTITATIVE = ("response_flow", "response_coherence", "ad_flow", "ad_coherence", "injection_rate", "ctr")
EMBEDDED = ("response_flow", "response_coherence", "ad_flow", "ad_coherence")
FAILURE_PREFIX = "QUERY_FAILED"
EMBED_CHUNK = 256


@dataclass
class ImportedRuns:
    primary: LoggedRun
    judges: list[LoggedRun] = field(default_factory=list)  # re-judgings of the primary's responses
    systems: list[tuple[str, LoggedRun]] = field(default_factory=list)  # (variant suffix, run) of other configurations

    @property
    def panel(self) -> list[str]:
        return [self.primary.judge, *(run.judge for run in self.judges)]


def variant_suffix(embedder: str) -> str:
    """`gi-r-minilm` for the run whose Ad-LLM retrieved with all-MiniLM-L6-v2, and so on."""
    lowered = embedder.lower()
    if "minilm" in lowered:
        return "minilm"
    return "".join(c if c.isalnum() else "-" for c in lowered).strip("-")


def read_runs(folders: list[Path]) -> ImportedRuns:
    """Every folder read and checked against the first (the run whose responses the others judge)."""
    if not folders:
        raise LoggedRunError("no run folder given")
    runs = [read_run(folder) for folder in folders]
    primary = runs[0]
    if primary.responses is None:
        raise LoggedRunError(
            f"{primary.folder}: holds no responses (SOLUTION/DATASET/REPEAT/result.json or results.json); name the "
            "run whose responses the others judge first"
        )
    imported = ImportedRuns(primary)
    seen_judges = {primary.judge}
    seen_variants: set[str] = set()
    for run in runs[1:]:
        if run.folder.resolve() == primary.folder.resolve():
            raise LoggedRunError(f"{run.folder}: given twice")
        if run.responses is None:
            if run.judge in seen_judges:
                raise LoggedRunError(f"{run.folder}: a second run judged by {run.judge} (one judge, one run)")
            match_verdicts(run, primary.responses)  # a re-judging of other responses is refused, located
            seen_judges.add(run.judge)
            imported.judges.append(run)
        else:
            suffix = variant_suffix(run.embedder)
            if run.embedder == primary.embedder or suffix in seen_variants:
                raise LoggedRunError(
                    f"{run.folder}: another run with responses of the same configuration (retrieval embedder "
                    f"{run.embedder}) as "
                    f"{primary.folder.name if run.embedder == primary.embedder else 'an earlier one'}"
                )
            seen_variants.add(suffix)
            imported.systems.append((suffix, run))
    return imported


def ca_prod_candidates(release: Path) -> dict[str, tuple[list[dict[str, Any]], list[int]]]:
    """The release's CA-Prod candidates and labels, by query text (the logs name a query by its text)."""
    from harness.benchmarks.gem.importer import ImportError_, file_hashes, locate, read_ca_prod, verify

    try:
        located = locate(release)
        verify(located, file_hashes(located), "official", allow_modified=False)
        tasks, _ = read_ca_prod(located)
    except ImportError_ as exc:
        raise LoggedRunError(f"--release {release}: {exc}") from None
    return {task["query"]: (task["candidates"], task["labels"]) for task in tasks}


def check_candidates(imported: ImportedRuns, candidates: dict[str, Any]) -> None:
    for run in [imported.primary, *(r for _, r in imported.systems)]:
        for response in run.responses or []:
            if response.dataset == "ca_prod" and response.prompt not in candidates:
                raise LoggedRunError(
                    f"{run.folder}: CA_Prod repeat {response.repeat} item {response.index} asks {response.prompt!r}, "
                    "which is not one of the release's CA-Prod queries"
                )


def is_failure_text(response: Response) -> bool:
    return response.content.startswith(FAILURE_PREFIX) and response.product is None


async def embed_all(services: Any, texts: list[str]) -> dict[str, list[float]]:
    """One vector per distinct stripped sentence, through the call cache, in fixed chunks (sorted texts, so a
    re-import asks the cache for the same chunks)."""
    unique = sorted(set(texts))
    embedding = services.embedding
    vectors: dict[str, list[float]] = {}
    try:
        for start in range(0, len(unique), EMBED_CHUNK):
            chunk = unique[start : start + EMBED_CHUNK]
            request = EmbeddingRequest(
                embedding.model, tuple(chunk), embedding.api_base, embedding.key_env, services.embedding_dimensions
            )
            found, _ = await services.client.embed(request, records=[])
            vectors.update(zip(chunk, found, strict=True))
    finally:
        await services.client.close()
    return vectors


def sentences_of(imported: ImportedRuns, reproduce: str) -> dict[tuple[str, str, int, int], list[str]]:
    """Each scored answer's sentences (the benchmark's splitter), by (variant, data set, repeat, position)."""
    found = {}
    for variant, run, response in all_responses(imported):
        if (is_failure_text(response) and reproduce != "authors") or run.measured is not None:
            continue  # a failure is not scored; the authors' per-response file gives its own values
        found[(variant, response.dataset, response.repeat, response.index)] = split_sentences(response.content)
    return found


def all_responses(imported: ImportedRuns) -> list[tuple[str, LoggedRun, Response]]:
    primary = imported.primary
    out = [(r.solution, primary, r) for r in primary.responses or []]
    for suffix, run in imported.systems:
        out += [(f"{r.solution}-{suffix}", run, r) for r in run.responses or []]
    return out


AUTHORS_FILE = "the authors' per-response file (openai/text-embedding-3-small at 512 dimensions)"


def embedder_label(imported: ImportedRuns, named: str | None) -> str | None:
    """What made RF, RC, AF and AC: the authors' per-response file where the folders have it, else the embedder
    named (None: nothing, with --embedding-model none)."""
    runs = [imported.primary, *(run for _, run in imported.systems)]
    logged = [run.measured is not None for run in runs]
    if all(logged):
        return AUTHORS_FILE
    if any(logged):
        return f"{AUTHORS_FILE} where the folder has it, else {named or 'nothing (not measured)'}"
    return named


def _verdict_entry(judge: str, metric: str, verdict: Any, reproduce: str) -> dict[str, Any]:
    if verdict.readable or reproduce == "authors":
        value = {"category": verdict.category}
        if not verdict.readable:
            value["authors_default"] = True
        return {"judge": judge, "template": metric, "ok": True, "value": value}
    return {
        "judge": judge,
        "template": metric,
        "ok": False,
        "error": f"the judge's text names no category (the authors' code recorded its default {verdict.category}): "
        + verdict.text[-200:],
    }


def build_item(
    variant: str,
    response: Response,
    verdicts: dict[str, dict[str, Any]],  # judge -> metric -> Verdict
    primary_judge: str,
    candidates: dict[str, tuple[list[dict[str, Any]], list[int]]],
    quantities: dict[str, float | None] | None,
    ad_sentences: list[int],
    *,
    reproduce: str,
    ad_flow: str,
    ad_flow_other: float | None,
    run_name: str,
    embedded: bool = True,
) -> dict[str, Any]:
    """One logged response as a result of this harness (harness.result's fields)."""
    failure = is_failure_text(response) and reproduce != "authors"
    judges = [
        _verdict_entry(judge, metric, by_metric[metric], reproduce)
        for judge, by_metric in verdicts.items()
        for metric in (m.name for m in JUDGED_METRICS)
    ]
    mine = {e["template"]: e for e in judges if e["judge"] == primary_judge}
    metrics: dict[str, float | None] = {
        "ittft": response.in_token,
        "ottft": response.out_token,
        "cost_overall": 0.5 * response.in_token + response.out_token,
        "cost_usd": None,  # the logged price is the reference's, off by 1,000 (details.logged.price)
    }
    incomplete: list[str] = []
    error = None
    if failure:
        error = {
            "kind": "system",
            "message": f"the logged answer is Ad-Chat's failure text {response.content[:60]!r} with no product "
            "(the authors scored it as an answer; --gem-reproduce authors does too)",
            "fault": "system",
        }
        # RF and RC count 0 for a failure (the harness's tables); unmeasured when nothing was embedded
        metrics.update({name: None for name in (EMBEDDED if not embedded else ("ad_flow", "ad_coherence"))})
        if response.dataset != "ca_prod":
            metrics["ctr"] = None
        score: float | None = 0.0
    else:
        metrics.update(quantities if quantities is not None else {name: None for name in EMBEDDED})
        metrics["injection_rate"] = injection_rate(response.product)
        if response.dataset == "ca_prod":
            found, labels = candidates[response.prompt]
            metrics["ctr"] = ctr(response.product, found, labels)
        else:
            metrics["ctr"] = None
        for metric in (m.name for m in JUDGED_METRICS):
            entry = mine[metric]
            if entry["ok"]:
                metrics[metric] = BY_NAME[metric].score(entry["value"]["category"])
            else:
                metrics[metric] = None
                incomplete.append(metric)
        judged = [metrics[m.name] for m in JUDGED_METRICS if metrics[m.name] is not None]
        quantitative = [metrics[m] for m in QUANTITATIVE if metrics.get(m) is not None]
        metrics["quantitative_overall"] = statistics.fmean(quantitative)
        metrics["qualitative_overall"] = statistics.fmean(judged) if not incomplete else None
        if incomplete:
            incomplete.append("qualitative_overall")
        score = statistics.fmean(judged) if judged else metrics["quantitative_overall"]
    passed = None if score is None else bool(score >= 50.0 and error is None)
    task_id = f"{response.dataset}-{response.index:03d}"
    levels: dict[str, dict[str, str]] = {}
    for entry in judges:
        if entry["ok"]:
            levels.setdefault(entry["template"], {})[entry["judge"]] = entry["value"]["category"]
    return {
        "nodeid": f"{SUITE}/{response.dataset}.yaml::{task_id}[{variant}-{response.repeat}]",
        "task_id": task_id,
        "task_version": 1,
        "suite": SUITE,
        "kind": "gem",
        "variant": variant,
        "repeat": response.repeat,
        "labels": {"dataset": response.dataset, "category": response.category, "logged_run": run_name},
        "metadata": {},
        "score": None if score is None else round(score, 4),
        "pass_threshold": 50.0,
        "passed": passed,
        "outcome": "error" if passed is None else ("passed" if passed else "failed"),
        "answer": response.content,
        "metrics": metrics,
        "judge_levels": levels,
        "details": {
            "product": response.product,
            "ad_sentences": ad_sentences,
            "logged": {
                "run": run_name,
                "position": response.index,
                "category": response.category,
                "price": response.price,
                "tokens": "the authors' accounting (cl100k_base; Ad-LLM's user message only)",
            },
            "rules": {"judge_rule": "code", "ad_flow": ad_flow, "ad_flow_other": ad_flow_other},
        },
        "incomplete": sorted(incomplete),
        "prompt": response.prompt,
        "judges": judges,
        "error": error,
        "usage": usage_of([]),
        "system": system_usage([], None),
        "calls": [],
        "latency_s": 0.0,
    }


def build_items(
    imported: ImportedRuns,
    candidates: dict[str, tuple[list[dict[str, Any]], list[int]]],
    vectors: dict[str, list[float]] | None,
    *,
    reproduce: str,
    ad_flow: str,
) -> list[dict[str, Any]]:
    """Every logged response as an item, with the verdicts of every judge of its run."""
    if ad_flow not in AD_FLOW_VARIANTS:
        raise LoggedRunError(f"--gem-ad-flow {ad_flow!r}: expected one of {', '.join(AD_FLOW_VARIANTS)}")
    split = sentences_of(imported, reproduce)
    items = []
    sources: list[tuple[str, LoggedRun, list[LoggedRun]]] = [("", imported.primary, imported.judges)]
    sources += [(f"-{suffix}", run, []) for suffix, run in imported.systems]
    for suffix, run, others in sources:
        order = _row_order(run.responses or [])
        for response in run.responses or []:
            row = order[response.key]
            verdicts = {run.judge: {m: vs[row] for m, vs in run.verdicts.items()}}
            for other in others:
                verdicts[other.judge] = {m: vs[row] for m, vs in other.verdicts.items()}
            variant = response.solution + suffix
            sentences = split.get((variant, response.dataset, response.repeat, response.index))
            quantities, ads, other_flow = None, [], None
            if run.measured is not None and not (is_failure_text(response) and reproduce != "authors"):
                logged = run.measured.get(response.key, {})
                quantities = {name: logged.get(name) for name in EMBEDDED}
                ads = sorted(ad_indices(split_sentences(response.content), response.product))
            elif vectors is not None and sentences is not None:
                found = quantitative_metrics(
                    sentences, [vectors[s.strip()] for s in sentences], response.product, ad_flow
                )
                quantities = {name: found.values[name] for name in EMBEDDED}
                ads, other_flow = list(found.ad_sentences), found.ad_flow_other
            items.append(
                build_item(
                    variant,
                    response,
                    verdicts,
                    run.judge,
                    candidates,
                    quantities,
                    ads,
                    reproduce=reproduce,
                    ad_flow=ad_flow,
                    ad_flow_other=other_flow,
                    run_name=run.name,
                    embedded=vectors is not None or run.measured is not None,
                )
            )
    return sorted(items, key=lambda r: r["nodeid"])


def _row_order(responses: list[Response]) -> dict[tuple[str, str, int, int], int]:
    """Each response's row in the verdict workbooks (data set, repeat, solution, position)."""
    datasets = list(DATASETS.values())
    solutions = list(AUTHORS_SOLUTION)
    ordered = sorted(
        responses, key=lambda r: (datasets.index(r.dataset), r.repeat, solutions.index(r.solution), r.index)
    )
    return {r.key: i for i, r in enumerate(ordered)}


def embed_texts(imported: ImportedRuns, reproduce: str) -> list[str]:
    return [s.strip() for sentences in sentences_of(imported, reproduce).values() for s in sentences]


def folder_summary(imported: ImportedRuns) -> list[str]:
    """What was read, one line per folder (the CLI prints it)."""
    lines = []
    primary = imported.primary
    responses = primary.responses or []
    lines.append(
        f"{primary.folder.name}: {len(responses):,} responses, judged by {primary.judge} "
        f"({sum(not v.readable for vs in primary.verdicts.values() for v in vs)} verdict(s) with no readable category)"
        + ("; RF, RC, AF, AC from its evaluation_result.json" if primary.measured is not None else "")
    )
    for run in imported.judges:
        unreadable = sum(not v.readable for vs in run.verdicts.values() for v in vs)
        lines.append(f"{run.folder.name}: the same responses re-judged by {run.judge} ({unreadable} unreadable)")
    for suffix, run in imported.systems:
        lines.append(
            f"{run.folder.name}: {len(run.responses or []):,} responses of another configuration (variant suffix "
            f"-{suffix}: Ad-LLM retrieval by {run.embedder}), judged by {run.judge}"
        )
    return lines


def run_embedder(settings: Any, texts: list[str]) -> dict[str, list[float]]:
    from harness.services import build_services

    services = build_services(settings, "gem-run")
    return asyncio.run(embed_all(services, texts))


def aggregates(imported: ImportedRuns) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The authors' own aggregates of every folder, by folder name (for `harness gem paper`)."""
    runs = [imported.primary, *imported.judges, *(run for _, run in imported.systems)]
    return {run.name: run.aggregates for run in runs}


def run_record(
    imported: ImportedRuns, results: list[dict[str, Any]], *, reproduce: str, ad_flow: str, aggregation: str,
    embedder: str | None,
) -> dict[str, Any]:  # fmt: skip
    """results.json `run.benchmarks.gem` of an imported run: what was read, the rules, the report's header."""
    unreadable = {
        run.name: sum(not v.readable for vs in run.verdicts.values() for v in vs)
        for run in [imported.primary, *imported.judges, *(r for _, r in imported.systems)]
    }
    failures = sum(1 for r in results if (r.get("error") or {}).get("fault") == "system")
    treated = (
        "scored with the default category the authors' code recorded (--gem-reproduce authors)"
        if reproduce == "authors"
        else "judge failures: the metric is unmeasured on that item (incomplete, *)"
    )
    embedded = f"embedded with {embedder}" if embedder else "not measured (imported without an embedder)"
    header = [
        f"GEM-Bench logged run imported: {imported.primary.name} (system doubao-1-5-lite-32k, judge "
        f"{imported.primary.judge}), {len(results):,} items; no model was called.",
        f"GEM-Bench rules: judge rule code (the category each verdict records); ad flow {ad_flow}; reproduction "
        f"{reproduce}; aggregation {aggregation}.",
        f"GEM-Bench verdicts with no readable category: {sum(unreadable.values())} "
        f"({', '.join(f'{n}: {k}' for n, k in unreadable.items() if k) or 'none'}), {treated}.",
        f"GEM-Bench RF, RC, AF, AC: {embedded}"
        + (
            ""
            if embedder is None or is_authors_embedder(embedder)
            else "; the authors' evaluator used openai/text-embedding-3-small at 512 dimensions, so these four are "
            "2 to 9 points from theirs (every table says so)"
        )
        + ".",
        "GEM-Bench tokens (Table 6): the logged counts, the authors' accounting (no system prompts for Ad-LLM).",
        "GEM-Bench beside the paper: paper.md in this run's folder (`harness gem paper RUN_ID`) sets every cell "
        "beside the authors' aggregates and the paper's tables, with the cause of each difference.",
    ]
    if failures:
        header.append(
            f"GEM-Bench: {failures} logged answer(s) are Ad-Chat's failure text with no product, scored 0 as the "
            "system's failures (--gem-reproduce authors scores them as answers, as the authors did)."
        )
    return {
        "rules": {"judge_rule": "code", "ad_flow": ad_flow, "reproduce": reproduce},
        "data": [],
        "header": header,
        "compare": {
            "judge rule": "code",
            "ad flow": ad_flow,
            "reproduction": reproduce,
            "logged run": imported.primary.name,
            "aggregation": aggregation,
            "embedder": embedder or "none",
        },
        "logged": {
            "runs": [imported.primary.name, *(r.name for r in imported.judges), *(r.name for _, r in imported.systems)],
            "judges": imported.panel,
            "systems": {f"-{suffix}": run.name for suffix, run in imported.systems},
            "unreadable_verdicts": unreadable,
            "aggregation": aggregation,
            "embedder": embedder,
            "aggregates": aggregates(imported),
        },
    }


def run_document(
    imported: ImportedRuns, results: list[dict[str, Any]], settings: Any, argv: list[str], *, reproduce: str,
    ad_flow: str, aggregation: str, embedder: str | None, started: float, finished: float,
) -> dict[str, Any]:  # fmt: skip
    """The imported run as any run's results.json document (harness.report.writer writes it)."""
    import datetime as dt
    import platform

    import harness
    from harness.report.aggregate import by_suite, summarize
    from harness.report.agreement import judge_agreement
    from harness.report.writer import git_revision
    from harness.run_state import new_run_id

    def iso(ts: float) -> str:
        return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()

    options = settings.public()
    options.update(
        {"model": "logged/doubao-1-5-lite-32k", "judge_models": imported.panel, "repeats": imported.primary.repeats}
    )
    record = run_record(
        imported, results, reproduce=reproduce, ad_flow=ad_flow, aggregation=aggregation, embedder=embedder
    )
    return {
        "schema_version": RESULT_SCHEMA_VERSION,
        "run": {
            "run_id": new_run_id(),
            "harness_version": harness.__version__,
            "started_at": iso(started),
            "finished_at": iso(finished),
            "duration_s": round(finished - started, 3),
            "git": git_revision(settings.rootdir),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "argv": argv,
            "options": options,
            "benchmarks": {"gem": record},
            "exit_status": 0,
            "local_models": False,
            "notice": None,
            "warnings": [],
            "imported": {"from": "gem-run", "folders": record["logged"]["runs"]},
        },
        "totals": summarize(results),
        "suites": by_suite(results),
        "tables": tables(results, aggregation=aggregation, embedder=embedder, judge=imported.primary.judge),
        "judge_agreement": judge_agreement(results),
        "results": results,
    }
