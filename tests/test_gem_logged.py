"""`harness import gem-run` and `harness gem paper` on the GEM-Bench authors' logged runs (read from ../shared,
never copied into the project; broken copies are made in a temporary folder), and the imported cells against
the authors' own aggregate workbooks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import GEM_RELEASE, GEM_RELEASE_MISSING, REPO

RUNS = Path(os.environ.get("GEM_BENCH_RUNS") or REPO.parent / "shared" / "data" / "gem-bench-runs")
RUNS_MISSING = f"the GEM-Bench authors' logged runs are not at {RUNS} (set GEM_BENCH_RUNS to their folder)"
FULL = "20250921_222616_ALL-text-embedding-3-small-Linear_weight-gpt-4.1-mini-repeat-3"
REJUDGED = (
    "20250922_003507_ALL-text-embedding-3-small-Linear_weight-qwen-max-repeat-3",
    "20250922_003547_ALL-text-embedding-3-small-Linear_weight-kimi-k2-repeat-3",
    "20250922_003559_ALL-text-embedding-3-small-Linear_weight-claude-3-5-haiku-20241022-repeat-3",
)
MINILM = "20250922_180546_ALL-Sentence-Transformers-all-MiniLM-L6-v2-Linear_weight-gpt-4.1-mini-repeat-3"


def _need_data() -> None:
    if not (RUNS / FULL).is_dir():
        pytest.skip(RUNS_MISSING)
    if not GEM_RELEASE.is_dir():
        pytest.skip(GEM_RELEASE_MISSING)


@pytest.fixture(scope="module")
def imported() -> Any:
    from harness.benchmarks.gem.logged_import import read_runs

    _need_data()
    return read_runs([RUNS / FULL, *(RUNS / r for r in REJUDGED), RUNS / MINILM])


@pytest.fixture(scope="module")
def candidates() -> Any:
    from harness.benchmarks.gem.logged_import import ca_prod_candidates

    _need_data()
    return ca_prod_candidates(GEM_RELEASE)


def _run(imported: Any, results: list[dict[str, Any]], reproduce: str) -> dict[str, Any]:
    """The run document as results.json holds it (only what `harness gem paper` reads)."""
    from harness.benchmarks.gem.logged_import import run_record

    record = run_record(imported, results, reproduce=reproduce, ad_flow="exp", aggregation="item", embedder=None)
    return {"run": {"run_id": "test", "benchmarks": {"gem": record}}, "results": results}


def test_the_verdicts_are_read_row_by_row_against_the_responses_they_judge(imported: Any) -> None:
    primary = imported.primary
    assert len(primary.responses) == 2760 and primary.judge == "gpt-4.1-mini"
    assert [r.judge for r in imported.judges] == ["qwen-max", "kimi-k2", "claude-3-5-haiku-20241022"]
    assert [(s, len(r.responses)) for s, r in imported.systems] == [("minilm", 690)]
    # the verdicts whose text names no category (the authors' code recorded a default for them)
    unreadable = [
        sum(not v.readable for vs in run.verdicts.values() for v in vs) for run in (primary, *imported.judges)
    ]
    assert unreadable == [6, 0, 41, 0]
    assert sum(len(vs) for vs in primary.verdicts.values()) == 16560


@pytest.mark.parametrize("aggregation", ["item", "authors", "authors-with-product"])
def test_the_imported_cells_equal_the_authors_own_aggregates(imported: Any, candidates: Any, aggregation: str) -> None:
    """With the authors' behaviour for unreadable verdicts, every cell whose inputs the logs hold (IR, CTR, the
    judged metrics and their Overall, each judge's Overall, GI-R by retrieval embedder, the tokens) equals the
    authors' workbook for the same aggregation, to the 4 decimals results.json keeps."""
    from harness.benchmarks.gem.logged_import import build_items
    from harness.benchmarks.gem.paper import EMBEDDED, comparison

    results = build_items(imported, candidates, None, reproduce="authors", ad_flow="exp")
    rows = comparison(_run(imported, results, "authors"), aggregation)
    held = [r for r in rows if r["column"] not in (*EMBEDDED, "quantitative_overall")]
    assert {r["table"] for r in held} == {"3", "4", "5", "6"}
    assert len(held) == 100 + 48 + 42 + 36
    for row in held:
        assert row["ours"] is not None and row["authors"] is not None, row
        assert abs(row["ours"] - row["authors"]) < 1e-4, row
        assert row["cause_vs_authors"] == ""
    # the paper's published numbers are another run's: they differ, and each difference has a cause
    assert any(abs(r["ours_minus_paper"]) > 1 for r in held)
    assert all(r["cause_vs_paper"] for r in held if abs(r["ours_minus_paper"]) > 0.005)


def test_the_two_aggregations_differ_where_the_groups_do(imported: Any, candidates: Any) -> None:
    """LM-Market's duplicated prompts merge and CA-Prod queries split by cluster under the authors' grouping:
    the per-item mean and the authors' mean are both exact, and not the same numbers."""
    from harness.benchmarks.gem.logged_import import build_items
    from harness.benchmarks.gem.logged_tables import tables

    results = build_items(imported, candidates, None, reproduce="authors", ad_flow="exp")
    by = {}
    for aggregation in ("item", "authors"):
        (table3,) = [
            t for t in tables(results, aggregation=aggregation, embedder=None, judge="j") if t["name"] == "gem_table3"
        ]
        by[aggregation] = {tuple(r["key"].values()): r for r in table3["rows"]}
    assert by["item"][("lm_market", "gi-r")]["items"] == 300 and by["authors"][("lm_market", "gi-r")]["items"] == 93
    # a CA-Prod query whose chosen product's cluster changes between repeats is two groups
    assert by["authors"][("ca_prod", "gi-r")]["items"] > 120
    gaps = [
        abs(by["item"][k]["cells"][c]["mean"] - by["authors"][k]["cells"][c]["mean"])
        for k in by["item"]
        for c in ("accuracy", "trust", "ctr")
        if by["item"][k]["cells"][c]["mean"] is not None
    ]
    assert max(gaps) > 0.3


def test_unreadable_verdicts_are_judge_failures_unless_the_authors_behaviour_is_asked(
    imported: Any, candidates: Any
) -> None:
    from harness.benchmarks.gem.logged_import import build_items

    fixed = build_items(imported, candidates, None, reproduce="fixed", ad_flow="exp")
    authors = build_items(imported, candidates, None, reproduce="authors", ad_flow="exp")
    main = [r for r in fixed if not r["variant"].endswith("-minilm")]
    unmeasured = [(r["nodeid"], m) for r in main for m in r["incomplete"] if m != "qualitative_overall"]
    assert len(unmeasured) == 6
    nodeid, metric = unmeasured[0]
    item = next(r for r in main if r["nodeid"] == nodeid)
    assert item["metrics"][metric] is None and item["score"] is not None  # the rest of the item stands
    failed = [e for r in main for e in r["judges"] if not e["ok"]]
    assert {e["judge"] for e in failed} == {"gpt-4.1-mini", "kimi-k2"} and len(failed) == 47
    assert not any(r["incomplete"] for r in authors)
    # the tables say what is missing and what would fill it (running again would not: the logs are final)
    from harness.benchmarks.gem.logged_tables import tables

    (table3,) = [t for t in tables(fixed, aggregation="item", embedder=None, judge="j") if t["name"] == "gem_table3"]
    assert table3["incomplete"]["unmeasured_cells"] == 7  # 6 of the full run's and 1 of the MiniLM run's
    assert "logged verdicts whose text names no category" in table3["incomplete"]["message"]
    assert "rerun" not in table3["incomplete"]["message"]
    same = next(r for r in authors if r["nodeid"] == nodeid)
    assert same["metrics"][metric] is not None
    assert any(e.get("value", {}).get("authors_default") for e in same["judges"])
    # Ad-Chat's failure text: the system's failure (0) by default, an answer under the authors' behaviour
    failures = [r for r in fixed if (r["error"] or {}).get("fault") == "system"]
    assert failures and all(r["score"] == 0.0 and r["answer"].startswith("QUERY_FAILED") for r in failures)
    assert all(r["error"] is None for r in authors)


def test_items_are_labelled_by_data_set_solution_and_repeat(imported: Any, candidates: Any) -> None:
    from harness.benchmarks.gem.logged_import import build_items

    results = build_items(imported, candidates, None, reproduce="fixed", ad_flow="exp")
    assert len(results) == 3450 and len({r["nodeid"] for r in results}) == 3450
    item = next(r for r in results if r["nodeid"] == "gem-logged/ca_prod.yaml::ca_prod-007[gir-p-2]")
    response = next(
        r
        for r in imported.primary.responses
        if (r.dataset, r.solution, r.repeat, r.index) == ("ca_prod", "gir-p", 2, 7)
    )
    assert (item["variant"], item["repeat"], item["labels"]["dataset"]) == ("gir-p", 2, "ca_prod")
    assert item["answer"] == response.content and item["details"]["product"] == response.product
    assert item["prompt"] == response.prompt
    assert item["metrics"]["ittft"] == response.in_token
    assert set(item["judge_levels"]["accuracy"]) == {"gpt-4.1-mini", "qwen-max", "kimi-k2", "claude-3-5-haiku-20241022"}
    assert {r["variant"] for r in results} == {"adchat", "gi-r", "gir-r", "gir-p", "gi-r-minilm"}


# --- the command, on copies of the small MiniLM-retrieval run (690 responses), whole or broken -----------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "harness.cli", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )


def _import(folder: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return _cli(
        "import", "gem-run", str(folder), "--release", str(GEM_RELEASE), "--report-dir", str(tmp_path / "reports"),
        "--cache-dir", str(tmp_path / "cache"), *extra, cwd=tmp_path,
    )  # fmt: skip


@pytest.fixture
def minilm_copy(tmp_path: Path) -> Path:
    _need_data()
    target = tmp_path / "runs" / MINILM
    shutil.copytree(RUNS / MINILM, target)
    return target


def _only_mt_human(folder: Path) -> None:
    """Cut a copy of the MiniLM run down to MT-Human (the workbooks' first 30 rows: data set comes first)."""
    import openpyxl

    for name in ("LM-Market", "CA_Prod"):
        shutil.rmtree(folder / "GI-R" / name)
    (folder / "results.json").unlink()
    for path in folder.glob("*_evaluation.xlsx"):
        book = openpyxl.load_workbook(path)
        sheet = book.worksheets[0]
        sheet.delete_rows(32, sheet.max_row)
        book.save(path)


def test_the_command_writes_a_run_with_the_tables_and_embeds_with_the_local_model(
    minilm_copy: Path, tmp_path: Path
) -> None:
    import numpy as np

    from harness.benchmarks.gem.splitter import split_sentences
    from harness.local.embeddings import embed_local

    _only_mt_human(minilm_copy)
    done = _import(minilm_copy, tmp_path)
    assert done.returncode == 0, done.stderr
    reports = tmp_path / "reports"
    run_id = (reports / "LATEST").read_text().strip()
    folder = reports / run_id
    for name in ("results.json", "summary.md", "report.html", "paper.md"):
        assert (folder / name).is_file(), name
    assert (reports / "history" / f"{run_id}.csv").is_file()
    run = json.loads((folder / "results.json").read_text())
    assert len(run["results"]) == 30
    assert [t["name"] for t in run["tables"]] == ["gem_table3", "gem_table6"]
    table3 = run["tables"][0]
    assert "local/all-minilm-l6-v2" in table3["note"] and "'RF'" in table3["note"]
    summary = (folder / "summary.md").read_text()
    assert "heads its first four columns RF, RC, AF, AC" in summary
    assert "the authors' token accounting" in summary
    # response flow from the local model's vectors, computed here independently
    item = run["results"][0]
    sentences = [s.strip() for s in split_sentences(item["answer"])]
    vectors = np.asarray(embed_local("all-minilm-l6-v2", sentences)[0], dtype=np.float64)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    flow = 100 * float(np.mean(np.sum(unit[:-1] * unit[1:], axis=1)))
    assert abs(item["metrics"]["response_flow"] - flow) < 1e-6
    shown = _cli("gem", "paper", run_id, "--report-dir", str(reports), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "## Table 3" in shown.stdout and "| mt_human | gi-r | AF (ad flow) |" in shown.stdout
    assert "embedder (local/all-minilm-l6-v2 here" in shown.stdout
    # the same import again gives bit-identical numbers (deterministic embeddings, here from the cache)
    again = _import(minilm_copy, tmp_path)
    assert again.returncode == 0, again.stderr
    second = json.loads((reports / (reports / "LATEST").read_text().strip() / "results.json").read_text())
    assert [r["metrics"] for r in second["results"]] == [r["metrics"] for r in run["results"]]


def _edit_cell(path: Path, row: int, column: int, value: Any) -> None:
    import openpyxl

    book = openpyxl.load_workbook(path)
    book.worksheets[0].cell(row=row, column=column, value=value)
    book.save(path)


BROKEN = {
    "a missing repeat": (
        lambda f: shutil.rmtree(f / "GI-R" / "LM-Market" / "1"),
        "gi-r has no responses for lm_market repeat 1",
    ),
    "malformed JSON": (
        lambda f: (f / "GI-R" / "CA_Prod" / "2" / "result.json").write_text('{"GI-R|CA_Prod|2": [', encoding="utf-8"),
        "CA_Prod/2/result.json:1: not JSON",
    ),
    "a response edited after judging": (
        lambda f: _edit_cell(f / "trust_evaluation.xlsx", 45, 3, "An answer nobody judged."),
        "trust_evaluation.xlsx:45: the response does not match",
    ),
    "a workbook missing rows": (
        lambda f: _delete_rows(f / "click_products_evaluation.xlsx", 600, 20),
        "click_products_evaluation.xlsx: 670 verdict rows for 690 responses",
    ),
    "an unknown category": (
        lambda f: _edit_cell(f / "accuracy_evaluation.xlsx", 7, 5, "SPLENDID"),
        "accuracy_evaluation.xlsx:7: Category Code 'SPLENDID'",
    ),
    "a workbook that is not one": (
        lambda f: (f / "personality_evaluation.xlsx").write_bytes(b"Question,Method\n"),
        "personality_evaluation.xlsx: not a readable .xlsx workbook",
    ),
    "a missing workbook": (
        lambda f: (f / "naturalness_evaluation.xlsx").unlink(),
        "missing naturalness_evaluation.xlsx",
    ),
}


def _delete_rows(path: Path, first: int, count: int) -> None:
    import openpyxl

    book = openpyxl.load_workbook(path)
    book.worksheets[0].delete_rows(first, count)
    book.save(path)


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_malformed_partial_or_mismatched_folder_is_one_located_line_and_nothing_is_written(
    case: str, minilm_copy: Path, tmp_path: Path
) -> None:
    breaker, expected = BROKEN[case]
    (minilm_copy / "results.json").unlink()  # the per-block files are what is broken here
    breaker(minilm_copy)
    done = _import(minilm_copy, tmp_path, "--embedding-model", "none")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], done.stderr
    assert not list(tmp_path.rglob("results.json")) and not list(tmp_path.rglob("*.csv"))  # no run, no history


def test_a_rejudged_folder_must_follow_the_run_whose_responses_it_judges(tmp_path: Path) -> None:
    _need_data()
    done = _import(RUNS / REJUDGED[0], tmp_path, "--embedding-model", "none")
    assert done.returncode == 2 and "holds no responses" in done.stderr
    # a re-judging of other responses (the MiniLM run's) is refused, located
    done = _cli(
        "import", "gem-run", str(RUNS / MINILM), str(RUNS / REJUDGED[0]), "--release", str(GEM_RELEASE),
        "--embedding-model", "none", "--report-dir", str(tmp_path / "r"), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2 and "accuracy_evaluation.xlsx" in done.stderr
    assert not (tmp_path / "r").exists() or not list((tmp_path / "r").rglob("results.json"))


def test_a_gem_run_names_its_embedder_where_the_table_is_read() -> None:
    from harness.benchmarks.gem.record import run_record

    local = run_record([], {"embedding_model": "local/all-minilm-l6-v2"})["header"]
    assert any("embedded with local/all-minilm-l6-v2: the paper's need" in line for line in local)
    theirs = run_record([], {"embedding_model": "openai/text-embedding-3-small", "embedding_dimensions": 512})
    assert any("at 512 dimensions, as the paper's" in line for line in theirs["header"])


def test_the_named_embedder_is_asked_with_its_dimensions_and_makes_the_four_columns(
    minilm_copy: Path, tmp_path: Path, fresh_stub: Any
) -> None:
    """The authors' embedder by name (a stub in its place here): every sentence goes to it, the four columns are
    computed from its vectors, and no table calls them the local model's."""
    import urllib.request

    import numpy as np

    from harness.benchmarks.gem.splitter import split_sentences

    _only_mt_human(minilm_copy)
    done = _import(
        minilm_copy, tmp_path, "--embedding-model", "openai/text-embedding-3-small", "--embedding-dimensions", "512",
        "--embedding-api-base", fresh_stub.api_base,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert fresh_stub.stats()["requests"] >= 1
    reports = tmp_path / "reports"
    run = json.loads((reports / (reports / "LATEST").read_text().strip() / "results.json").read_text())
    note = run["tables"][0]["note"]
    assert "openai/text-embedding-3-small at 512 dimensions" in note and "2 to 9 points" not in note
    item = next(r for r in run["results"] if len(split_sentences(r["answer"])) > 2)
    sentences = [s.strip() for s in split_sentences(item["answer"])]
    request = urllib.request.Request(
        f"{fresh_stub.api_base}/embeddings",
        data=json.dumps({"model": "x", "input": sentences, "dimensions": 512}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        vectors = np.asarray([d["embedding"] for d in json.loads(response.read())["data"]], dtype=np.float64)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    centre = vectors.mean(axis=0)
    coherence = 100 * float(np.mean(unit @ (centre / np.linalg.norm(centre))))
    assert abs(item["metrics"]["response_coherence"] - coherence) < 1e-6


@pytest.mark.parametrize("workbook", ["evaluation_result.xlsx", "evaluation_result_with_product.xlsx"])
def test_each_repeat_equals_the_authors_per_repeat_workbook(imported: Any, candidates: Any, workbook: str) -> None:
    """The per-repeat rows (data set x solution x repeat) of the authors' own workbook, from the imported
    items: the mean over a repeat's items, after the with-product filter for the with-product workbook."""
    from harness.benchmarks import Section, Table
    from harness.benchmarks.gem.logged_import import build_items
    from harness.benchmarks.gem.logged_tables import COST, QUALITATIVE, QUANTITATIVE, _query_of, dropped_queries
    from harness.report.tables import compute_table

    results = build_items(imported, candidates, None, reproduce="authors", ad_flow="exp")
    results = [r for r in results if not r["variant"].endswith("-minilm")]
    if "with_product" in workbook:
        dropped = dropped_queries(results)
        assert dropped  # Ad-Chat found no topic for some queries
        results = [r for r in results if _query_of(r) not in dropped]
    columns = tuple(c for c in QUANTITATIVE + QUALITATIVE + COST if c.metric not in ("response_flow",
                    "response_coherence", "ad_flow", "ad_coherence", "cost_overall"))  # fmt: skip
    table = Table("repeats", "per repeat", ("gem",), ("dataset", "variant", "repeat"), (Section("all", columns),))
    ours = {tuple(map(str, r["key"].values())): r["cells"] for r in compute_table(table, results)["rows"]}
    theirs = imported.primary.aggregates[workbook]
    assert len(theirs) == len(ours) == 36
    for record in theirs:
        cells = ours[(record["dataset"], record["solution"], record["run"])]
        for column in columns:
            if column.metric in record:
                assert abs(cells[column.key]["mean"] - record[column.metric]) < 1e-4, (record, column.metric)


def _write_measured(folder: Path, shift: float = 0.0) -> None:
    """An evaluation_result.json in the authors' format for a cut-down copy: every response's RF, RC, AF and
    AC set to its repeat's mean in the authors' per-repeat workbook (so the file and the workbook agree)."""
    from harness.benchmarks.gem.logged import read_aggregates

    means = {r["run"]: r for r in read_aggregates(folder / "evaluation_result.xlsx") if r["dataset"] == "mt_human"}
    names = {"local_flow": "response_flow", "global_coherence": "response_coherence",
             "ad_transition_similarity": "ad_flow", "ad_content_alignment": "ad_coherence"}  # fmt: skip
    entries = []
    for repeat in ("0", "1", "2"):
        block = json.loads((folder / "GI-R" / "MT-Human" / repeat / "result.json").read_text())
        for response in next(iter(block.values())):
            for theirs, ours in names.items():
                key = ["GI-R", "MT-Human", repeat, theirs, response["category"], response["prompt"],
                       [response["content"], response["product"]]]  # fmt: skip
                entries.append([key, means[repeat][ours] + shift])
    entries[5][1] += shift  # with a shift, one value off: the file's mean no longer matches the workbook's
    (folder / "evaluation_result.json").write_text(json.dumps(entries), encoding="utf-8")


def test_the_authors_per_response_file_gives_the_four_columns_when_present(minilm_copy: Path, tmp_path: Path) -> None:
    _only_mt_human(minilm_copy)
    _write_measured(minilm_copy)
    done = _import(minilm_copy, tmp_path, "--embedding-model", "none")
    assert done.returncode == 0, done.stderr
    assert "from its evaluation_result.json" in done.stdout and "embedding" not in done.stdout
    reports = tmp_path / "reports"
    run = json.loads((reports / (reports / "LATEST").read_text().strip() / "results.json").read_text())
    note = run["tables"][0]["note"]
    assert "the authors' per-response file" in note and "2 to 9 points" not in note
    (row,) = run["tables"][0]["rows"]
    theirs = [r for r in _aggregates(minilm_copy) if r["dataset"] == "mt_human"]
    for column, metric in (("rf", "response_flow"), ("ac", "ad_coherence")):
        assert abs(row["cells"][column]["mean"] - sum(r[metric] for r in theirs) / 3) < 1e-4


def _aggregates(folder: Path) -> list[dict[str, Any]]:
    from harness.benchmarks.gem.logged import read_aggregates

    return read_aggregates(folder / "evaluation_result.xlsx")


def test_a_per_response_file_of_another_run_is_refused(minilm_copy: Path, tmp_path: Path) -> None:
    _only_mt_human(minilm_copy)
    _write_measured(minilm_copy, shift=0.5)
    done = _import(minilm_copy, tmp_path, "--embedding-model", "none")
    assert done.returncode == 2
    assert "evaluation_result.json: the mean response_flow of gi-r mt_human repeat 0" in done.stderr
    assert "(not one run)" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_imported_runs_report_opens_in_chromium_with_the_tables(minilm_copy: Path, tmp_path: Path) -> None:
    from helpers import CHROMIUM, CHROMIUM_FLAGS

    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    _only_mt_human(minilm_copy)
    done = _import(minilm_copy, tmp_path, "--embedding-model", "none")
    assert done.returncode == 0, done.stderr
    reports = tmp_path / "reports"
    url = (reports / (reports / "LATEST").read_text().strip() / "report.html").as_uri()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url, wait_until="load")
        text = page.inner_text("body")
        browser.close()
    assert problems == [] and requests == [url], (problems, requests)
    assert "GEM-Bench effectiveness from the authors' logged run" in text
    assert "heads its first four columns RF, RC, AF, AC" in text
    assert "GEM-Bench logged run imported" in text and "the authors' token accounting" in text
