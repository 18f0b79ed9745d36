"""GEM-Bench: ad-injected responses (chatbot and search scenarios), scored by quantitative, judged and cost
metrics, reported in the layout of the paper's Table 3 and Table 6. See docs/gem-bench.md.

One item per (query, solution, repeat): `evals/gem/sample/mt_human.yaml::mt_human-003[gir-r]`, so
`-k gir-r` and `-k mt_human` select what they say. The item's score is its qualitative overall (the mean of
its judged metrics), or its quantitative overall when judges are switched off for the task.

Three switches say which rules produce a number, and the run records them (results.json
`run.benchmarks.gem`, the report header): `--gem-reproduce fixed|authors`, `--gem-judge-rule code|paper`,
`--gem-ad-flow exp|min`. Task files written by `harness import gem-bench` carry the data's hash and status.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field

from harness.benchmarks import (
    Benchmark,
    CollectionChecks,
    Column,
    Option,
    Section,
    Table,
    register_benchmark,
)
from harness.benchmarks.gem.data import (
    AdDatabaseError,
    GemData,
    GemInputs,
    GemScoring,
    GemTruth,
    load_ad_database,
)
from harness.benchmarks.gem.evaluate import evaluate_output, failure_metrics
from harness.benchmarks.gem.judges import BY_NAME, JUDGE_RULES, JUDGED_METRICS
from harness.benchmarks.gem.metrics import AD_FLOW_VARIANTS
from harness.benchmarks.gem.per_judge import table4
from harness.benchmarks.gem.provenance import verify_task
from harness.benchmarks.gem.record import run_record
from harness.benchmarks.gem.solutions import BUILTIN_ORDER, get_solution, parse_solution_option
from harness.errors import SystemFailure
from harness.scores import Scores

REPRODUCE_MODES = ("fixed", "authors")
QUANTITATIVE = (
    Column("rf", "RF", "response_flow"),
    Column("rc", "RC", "response_coherence"),
    Column("af", "AF", "ad_flow"),
    Column("ac", "AC", "ad_coherence"),
    Column("ir", "IR", "injection_rate"),
    Column("ctr", "CTR", "ctr"),
)
QUALITATIVE = tuple(Column(m.name, m.label, m.name) for m in JUDGED_METRICS)
TABLES = (
    Table(
        name="gem_table3",
        title="GEM-Bench effectiveness (the layout of the paper's Table 3)",
        kinds=("gem",),
        rows=("dataset", "variant"),
        order=(("variant", BUILTIN_ORDER), ("dataset", ("mt_human", "lm_market", "ca_prod"))),
        sections=(Section("Quantitative", QUANTITATIVE), Section("Qualitative", QUALITATIVE)),
        note="RF response flow, RC response coherence, AF ad flow, AC ad coherence, IR injection rate, CTR "
        "click-through rate (search only): each column labelled by what it holds. The paper's Table 3 heads its first "
        "four columns RF, RC, AF, AC, but its numbers under them are ad flow, ad coherence, response flow and response "
        "coherence, in that order: compare AF here with the paper's 'RF', AC with its 'RC', RF with its 'AF', RC with "
        "its 'AC' (docs/gem-bench.md). RF, RC, AF and AC depend on the embedder: the paper's need "
        "openai/text-embedding-3-small at 512 dimensions (the local MiniLM gives values 2 to 9 points away). "
        "Each Overall is the unweighted mean of the columns available in its "
        "row; judged cells average every judge of the panel, and a judged metric that any judge of the panel could "
        "not give is unmeasured on that item (*), never averaged over the judges that answered (with two judges or "
        "more, the per-judge table shows each judge alone).",
    ),
    Table(
        name="gem_table6",
        title="GEM-Bench cost (the layout of the paper's Table 6)",
        kinds=("gem",),
        rows=("dataset", "variant"),
        order=(("variant", BUILTIN_ORDER), ("dataset", ("mt_human", "lm_market", "ca_prod"))),
        sections=(
            Section(
                "Cost",
                (
                    Column("ittft", "ITTFT", "ittft", scale="tokens"),
                    Column("ottft", "OTTFT", "ottft", scale="tokens"),
                    Column("overall", "Overall", "cost_overall", scale="tokens"),
                    Column("usd", "USD/item", "cost_usd", scale="USD"),
                ),
                overall=None,
            ),
        ),
        note="ITTFT and OTTFT: input and output tokens (as the provider reports them) of every base-model call "
        "a solution makes before its final answer, the final answer's own call included: Ad-Chat topic, product "
        "and answer; GI-R answer; GIR-R and GIR-P answer and rewrite. Embeddings and judges are not counted. "
        "Overall = 0.5 x ITTFT + OTTFT. USD/item: those calls at list price (a cache hit costs the same here).",
    ),
)


@lru_cache(maxsize=16)
def _chosen(value: str | None, root: str) -> tuple[str, ...]:
    return tuple(parse_solution_option(value, Path(root)))


def variants(task: Any, settings: Any) -> list[str]:
    return list(_chosen(settings.option("solution"), str(settings.rootdir)))


def check_solution_option(value: str | None, root: Path) -> None:
    _chosen(value, str(root))


def labels(task: Any) -> dict[str, str]:
    """The data set, and (for task files the importer wrote) the data's hash and status, checked against
    the task's content (provenance.verify_task: an edited task is modified), which the run's record in
    results.json gathers."""
    return {"dataset": task.inputs.dataset, **verify_task(task)}


@lru_cache(maxsize=32)
def _ad_database_state(folder: str, stamp: float) -> tuple[str | None, str | None]:
    """(problem, digest) of the ad database in `folder` (cached by its modification time)."""
    try:
        database = load_ad_database(Path(folder))
    except AdDatabaseError as exc:
        return str(exc), None
    return None, database.digest


def check(task: Any, task_path: Path, checks: CollectionChecks) -> list[str]:
    """Before anything is paid for: the judge templates exist and the ad database loads."""
    problems = []
    for name in task.scoring.judges:
        if name not in BY_NAME:
            problems.append(
                f"field 'scoring.judges': unknown judged metric {name!r}; expected some of {sorted(BY_NAME)}"
            )
        elif (problem := checks.template_problem(BY_NAME[name].template)) is not None:
            problems.append(problem)
    inputs = task.inputs
    if inputs.scenario == "search" and len(task.ground_truth.labels) != len(inputs.candidates):
        problems.append(
            f"field 'ground_truth.labels': {len(task.ground_truth.labels)} labels for {len(inputs.candidates)} "
            "candidates; expected one per candidate"
        )
    if inputs.ad_database:
        folder = (task_path.parent / inputs.ad_database).resolve()
        stamp = (folder / "products.json").stat().st_mtime if (folder / "products.json").exists() else 0.0
        problem, digest = _ad_database_state(str(folder), stamp)
        if problem:
            problems.append(f"field 'inputs.ad_database': {problem}")
        recorded = getattr(getattr(task, "data", None), "ad_database_digest", None)
        if digest is not None and recorded is not None and digest != recorded:
            problems.append(
                f"field 'inputs.ad_database': {folder} changed since `harness import gem-bench` verified it "
                f"(digest {digest}, imported {recorded}); import the data again"
            )
    return problems


async def run_gem(task: Any, ctx: Any) -> Scores:
    try:
        output = await get_solution(ctx.variant)(ctx)
    except SystemFailure as failure:
        failure.metrics = {**failure_metrics(ctx), **failure.metrics}
        raise
    return await evaluate_output(ctx, output)


def estimate(task: Any, settings: Any) -> dict[str, Any]:
    """Per item (one solution): the answer and the solution's own calls (an ad choice or a rewrite), then
    the judged metrics (six per judge) and the sentence embeddings."""
    from harness.estimate import Need, tokens

    query = tokens(task.inputs.model_dump_json()) + 200
    judged = len(task.scoring.judges) * len(settings.judge_models)
    return {
        "sut": Need(2, 2 * query + 600, 700),
        "judge": Need(judged, judged * (query + 900), judged * 150),
        "embed": Need(1, 450, 0),
    }


register_benchmark(
    Benchmark(
        kind="gem",
        description="GEM-Bench: answer a chat or keyword query with an ad injected; quantitative, judged and "
        "cost metrics.",
        inputs=GemInputs,
        ground_truth=GemTruth,
        scoring=GemScoring,
        run=run_gem,
        default_pass_threshold=50.0,
        variants=variants,
        labels=labels,
        check=check,
        tables=TABLES,
        estimate=estimate,
        run_record=run_record,
        derived_tables=table4,
        level_orders={m.name: tuple(code for code, _ in reversed(m.categories)) for m in JUDGED_METRICS},
        extra_fields={
            "data": (
                GemData | None,
                Field(default=None, description="The data's hash and status, as `harness import gem-bench` checked."),
            )
        },
        options=(
            Option(
                "--solution",
                "solution",
                "GEM-Bench solutions to run: all (default), or any of adchat, gi-r, gir-r, gir-p and solutions "
                "registered with register_solution, comma-separated; module:callable plugs in your own.",
                default="all",
                check=check_solution_option,
            ),
            Option(
                "--gem-judge-rule",
                "gem_judge_rule",
                "GEM-Bench judged metrics: code (default: the category the judge picks, 90/60/30/0, as the "
                "authors' code scores, which made the paper's tables) or paper (the paper's rule from the two "
                "dimension ratings).",
                default="code",
                choices=JUDGE_RULES,
            ),
            Option(
                "--gem-ad-flow",
                "gem_ad_flow",
                "GEM-Bench ad flow: exp (default: exp(-|prev - next|), the authors' code and the paper's formula) "
                "or min (min(prev, next), the authors' docstring).",
                default="exp",
                choices=AD_FLOW_VARIANTS,
            ),
            Option(
                "--gem-reproduce",
                "gem_reproduce",
                "GEM-Bench: fixed (default: this project's fixes of the authors' code) or authors (the authors' "
                "behaviour wherever a fix changes a number; see docs/gem-bench.md).",
                default="fixed",
                choices=REPRODUCE_MODES,
            ),
        ),
    )
)
