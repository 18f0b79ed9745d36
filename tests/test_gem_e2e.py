"""GEM-Bench end to end: the shipped sample, all four solutions, against the stub server (fast, every
query) and on the embedded default (a subset; the full sample takes the tiny model tens of minutes)."""

from __future__ import annotations

import html
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, Project, stub_args

from harness.testing import StubProcess

PARAGRAPH = (
    "Start early in the old town, where the streets are quiet before nine. "
    "Take the tram up the hill for the view, and walk back down through the market. "
    "Lunch is cheaper at the counters than at the tables outside. "
    "In the evening, the riverside is the place for a long dinner."
)


@pytest.fixture
def gem_stub(fresh_stub: StubProcess) -> StubProcess:
    fresh_stub.control(default_answer=PARAGRAPH)
    return fresh_stub


def raw_answer_calls(results: dict[str, dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """The raw-answer calls of the Ad-LLM configurations, by (task, repeat)."""
    calls: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for result in results.values():
        if result["variant"] in ("gi-r", "gir-r", "gir-p"):
            calls[(result["task_id"], result["repeat"])] += [c for c in result["calls"] if c["stage"] == "answer"]
    return calls


def test_the_sample_runs_every_solution_and_writes_table_3_and_table_6(project: Project, gem_stub: StubProcess) -> None:
    project.copy_gem_sample()
    out = project.pytest("evals/gem", *stub_args(gem_stub), "-n", "2")
    results = out.results
    assert Counter(r["variant"] for r in results.values()) == {"adchat": 35, "gi-r": 35, "gir-r": 35, "gir-p": 35}
    assert all(r["outcome"] != "error" for r in results.values()), [r["error"] for r in results.values() if r["error"]][
        :3
    ]
    # GI-R, GIR-R and GIR-P start from one raw answer per query and repeat, paid once even across workers
    # (the sample's duplicate LM-Market prompt asks the very same call, so it shares it too)
    raw = raw_answer_calls(results)
    for key, calls in raw.items():
        assert len(calls) == 3 and len({c["key"] for c in calls}) == 1, key
    paid = Counter(c["key"] for calls in raw.values() for c in calls if not c["cache_hit"])
    assert set(paid.values()) == {1} and len(paid) == len({c["key"] for calls in raw.values() for c in calls})
    tables = {t["name"]: t for t in out.run["tables"]}
    table3, table6 = tables["gem_table3"], tables["gem_table6"]
    page = (out.report_dir / out.run["run"]["run_id"] / "report.html").read_text()
    for table in (table3, table6):  # the HTML report shows the paper's tables, one row per data set and solution
        assert f"<h3>{html.escape(table['title'])}</h3>" in page
    # each cell carries its column's name (data-label) for the narrow-screen cards
    assert len(re.findall(r"<td[^>]*>ca_prod</td><td[^>]*>gir-r</td>", page)) == 2
    keys = [(r["key"]["dataset"], r["key"]["variant"]) for r in table3["rows"]]
    assert keys == [(d, v) for d in ("mt_human", "lm_market", "ca_prod") for v in ("adchat", "gi-r", "gir-r", "gir-p")]
    ca_gir = next(r for r in table3["rows"] if r["key"] == {"dataset": "ca_prod", "variant": "gir-r"})
    assert ca_gir["cells"]["ctr"]["mean"] is not None and ca_gir["cells"]["ir"]["mean"] == 100.0
    mt_gir = next(r for r in table3["rows"] if r["key"] == {"dataset": "mt_human", "variant": "gir-r"})
    assert mt_gir["cells"]["ctr"]["mean"] is None  # chatbot sets have no CTR column
    assert (
        mt_gir["overall"]["Quantitative"]["mean"] is not None and mt_gir["overall"]["Qualitative"]["mean"] is not None
    )
    gi = next(r for r in table6["rows"] if r["key"] == {"dataset": "lm_market", "variant": "gi-r"})
    gir = next(r for r in table6["rows"] if r["key"] == {"dataset": "lm_market", "variant": "gir-r"})
    assert gir["cells"]["ittft"]["mean"] > gi["cells"]["ittft"]["mean"]  # the rewrite call is extra
    overall = gir["cells"]["overall"]["mean"]
    assert overall == pytest.approx(0.5 * gir["cells"]["ittft"]["mean"] + gir["cells"]["ottft"]["mean"])
    summary = (out.report_dir / out.run["run"]["run_id"] / "summary.md").read_text()
    assert "GEM-Bench effectiveness" in summary and "GEM-Bench cost" in summary and "| ca_prod | gir-p |" in summary
    assert "GEM-Bench effectiveness" in out.stdout
    # a per-item record: the answer, the ad and where it went, the sentence scores, each judge's reasons
    item = results["evals/gem/sample/lm_market.yaml::lm_market-002[gi-r]"]
    placement = item["details"]["solution"]["placements"][0]
    assert placement["ad"] == item["details"]["product"]["name"] and placement["after_sentence"] is not None
    assert item["details"]["sentences"][0]["next_similarity"] is not None
    assert set(item["details"]["judges"]) == {"accuracy", "naturalness", "personality", "trust", "notice", "click"}
    assert item["answer"].count(f"[{placement['ad']}]") == 1


def test_a_replay_makes_no_call_and_gives_identical_tables(project: Project, gem_stub: StubProcess) -> None:
    project.copy_gem_sample()
    first = project.pytest("evals/gem", *stub_args(gem_stub), "-k", "mt_human")
    gem_stub.control(reset_stats=True)
    replay = project.pytest("evals/gem", *stub_args(gem_stub), "-k", "mt_human", "--cache-mode", "replay")
    assert gem_stub.stats()["requests"] == 0
    assert replay.run["tables"] == first.run["tables"]
    assert all(r["outcome"] != "error" for r in replay.results.values())


def test_solutions_are_chosen_with_k_and_with_solution(project: Project, gem_stub: StubProcess) -> None:
    project.copy_gem_sample()
    by_k = project.pytest("evals/gem", *stub_args(gem_stub), "-k", "gir-r and mt_human")
    assert {r["variant"] for r in by_k.results.values()} == {"gir-r"} and len(by_k.results) == 6
    chosen = project.pytest("evals/gem", *stub_args(gem_stub), "--solution", "gi-r,adchat", "-k", "ca_prod")
    assert {r["variant"] for r in chosen.results.values()} == {"gi-r", "adchat"}
    bad = project.pytest("evals/gem", *stub_args(gem_stub), "--solution", "gi-x")
    assert bad.returncode == 4 and "--solution 'gi-x'" in bad.stderr


def test_a_solution_can_be_a_function_or_a_composition_of_stages(project: Project, gem_stub: StubProcess) -> None:
    project.copy_gem_sample()
    project.write("examples/__init__.py", "")
    project.write("examples/gem_solution.py", (REPO / "examples" / "gem_solution.py").read_text())
    project.write(
        "conftest.py",
        """
        from harness.benchmarks.gem.adllm import AdLLM
        from harness.benchmarks.gem.solutions import register_solution

        register_solution("gir-r-top2-log", AdLLM(retrieve_by="response", rewrite=True, top_t=2, score="log"))
        """,
    )
    out = project.pytest(
        "evals/gem",
        *stub_args(gem_stub),
        "--solution",
        "examples.gem_solution:keyword_match,gir-r-top2-log",
        "-k",
        "lm_market",
    )
    variants = Counter(r["variant"] for r in out.results.values())
    assert variants == {"keyword-match": 15, "gir-r-top2-log": 15}, out.stdout[-2000:]
    assert all(r["outcome"] != "error" for r in out.results.values())
    composed = next(r for r in out.results.values() if r["variant"] == "gir-r-top2-log")
    assert len(composed["details"]["solution"]["candidates"]) == 2
    table = next(t for t in out.run["tables"] if t["name"] == "gem_table3")
    assert {r["key"]["variant"] for r in table["rows"]} == {"keyword-match", "gir-r-top2-log"}


def test_a_judge_that_gives_no_verdict_leaves_the_measured_numbers_and_marks_its_metrics_incomplete(
    project: Project, gem_stub: StubProcess
) -> None:
    project.copy_gem_sample()
    gem_stub.control(broken_json=True)
    out = project.pytest("evals/gem", *stub_args(gem_stub), "-k", "mt_human-001 and gi-r")
    (result,) = out.results.values()
    judged = ["accuracy", "click", "naturalness", "notice", "personality", "trust"]
    assert result["incomplete"] == sorted([*judged, "qualitative_overall"]) and result["outcome"] != "error"
    assert all(result["metrics"][name] is None for name in judged)  # never a default score
    assert result["metrics"]["response_flow"] is not None and result["metrics"]["injection_rate"] == 100.0
    assert result["score"] == pytest.approx(result["metrics"]["quantitative_overall"], abs=1e-4)  # what was measured
    assert {j["template"] for j in result["judges"] if not j["ok"]} == set(judged)
    assert set(result["details"]["judge_failures"]) == set(judged)
    (row,) = next(t for t in out.run["tables"] if t["name"] == "gem_table3")["rows"]
    assert row["cells"]["rf"]["mean"] == pytest.approx(result["metrics"]["response_flow"], abs=1e-3)  # in Table 3
    assert row["cells"]["accuracy"]["mean"] is None
    (cost,) = next(t for t in out.run["tables"] if t["name"] == "gem_table6")["rows"]
    assert cost["cells"]["ittft"]["mean"] > 0


def test_empty_and_truncated_replies_are_failures_of_the_system(project: Project, gem_stub: StubProcess) -> None:
    project.copy_gem_sample()
    gem_stub.control(answers={"[[ADS_START]]": "", "Explain how an increase": ""}, truncated=["Why do people put off"])
    out = project.pytest("evals/gem", *stub_args(gem_stub), "-k", "mt_human-001 or mt_human-002 or mt_human-006")
    results = {r["nodeid"].rsplit("::", 1)[1]: r for r in out.results.values()}
    failures = {
        "mt_human-001[gi-r]": "the raw answer is empty",
        "mt_human-001[adchat]": "Ad-Chat's answer is empty",
        "mt_human-002[gir-r]": "the rewrite is empty",
        "mt_human-002[gir-p]": "the rewrite is empty",
        "mt_human-006[gi-r]": "the raw answer was cut at the token limit",
        "mt_human-006[adchat]": "Ad-Chat's answer was cut at the token limit",
    }
    for name, reason in failures.items():
        result = results[name]
        assert result["score"] == 0.0 and result["error"]["kind"] == "system", (name, result["error"])
        assert result["error"]["fault"] == "system" and reason in result["error"]["message"], name
    assert results["mt_human-006[gi-r]"]["answer"] == PARAGRAPH  # the text it did give is kept as evidence
    assert results["mt_human-002[gi-r]"]["error"] is None and results["mt_human-002[gi-r]"]["score"] > 0
    # A failure keeps what it spent and says what does not apply to it; in Table 3 it is a 0 in every
    # column that does apply, so failing on the hard queries cannot raise a solution's RF or IR.
    truncated = results["mt_human-006[gi-r]"]["metrics"]
    assert truncated["ottft"] > 0 and truncated["ad_flow"] is None and truncated["ctr"] is None
    (table3,) = [t for t in out.run["tables"] if t["name"] == "gem_table3"]
    row = next(r for r in table3["rows"] if r["key"] == {"dataset": "mt_human", "variant": "gi-r"})
    answered = results["mt_human-002[gi-r]"]["metrics"]
    assert row["items"] == 3 and row["system_failures"] == 2
    assert row["cells"]["rf"]["n"] == 3 and row["cells"]["rf"]["mean"] == pytest.approx(
        answered["response_flow"] / 3, abs=1e-3
    )
    assert row["cells"]["ir"]["mean"] == pytest.approx(answered["injection_rate"] / 3, abs=1e-3)
    assert row["cells"]["ctr"]["n"] == 0 and row["cells"]["af"]["n"] == (answered["ad_flow"] is not None)
    (table6,) = [t for t in out.run["tables"] if t["name"] == "gem_table6"]
    cost = next(r for r in table6["rows"] if r["key"] == {"dataset": "mt_human", "variant": "gi-r"})
    assert cost["cells"]["ottft"]["n"] == 3  # every attempt spent tokens, the two failed ones too


def test_a_panel_reports_every_judge_and_their_agreement(project: Project, gem_stub: StubProcess) -> None:
    project.copy_gem_sample()
    gem_stub.control(judge_rules=[["old town", {"relevance": "moderate"}]])  # a valid verdict for every metric
    args = stub_args(gem_stub)
    args[args.index("--judge-model") + 1] = "openai/judge-a,openai/judge-b"
    out = project.pytest("evals/gem", *args, "-k", "mt_human and gi-r")
    item = next(iter(out.results.values()))
    assert set(item["judge_levels"]["accuracy"]) == {"openai/judge-a", "openai/judge-b"}
    rows = {(r["kind"], r["dimension"]): r for r in out.run["judge_agreement"]}
    assert rows[("gem", "accuracy")]["items"] == 6 and rows[("gem", "accuracy")]["exact_agreement"] == 1.0
    summary = (out.report_dir / out.run["run"]["run_id"] / "summary.md").read_text()
    assert "Agreement between judges" in summary
    # the paper's Table 4 layout: a row per data set and judge, a column per solution, each judge on its own
    tables = {t["name"]: t for t in out.run["tables"]}
    table4 = tables["gem_table4"]
    assert [r["key"] for r in table4["rows"]] == [
        {"dataset": "mt_human", "judge": j} for j in ("openai/judge-a", "openai/judge-b")
    ]
    (panel_row,) = tables["gem_table3"]["rows"]  # the same verdicts from both judges: each judge's overall is
    for row in table4["rows"]:  # the panel's
        assert row["cells"]["gi-r"]["mean"] == pytest.approx(panel_row["overall"]["Qualitative"]["mean"], abs=1e-6)
        assert row["cells"]["gi-r"]["n"] == 6 and "incomplete" not in row["cells"]["gi-r"]
    assert f"### {table4['title']}" in summary and "| mt_human | openai/judge-b |" in summary
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(out.run, json.loads((REPO / "harness/schemas/results.schema.json").read_text()))


def test_a_judge_of_the_panel_that_fails_leaves_its_metrics_unmeasured_not_averaged_over_the_others(
    project: Project, gem_stub: StubProcess
) -> None:
    project.copy_gem_sample()
    gem_stub.control(fail_models=["judge-b"])
    args = stub_args(gem_stub)
    args[args.index("--judge-model") + 1] = "openai/judge-a,openai/judge-b"
    out = project.pytest("evals/gem", *args, "-k", "(mt_human-001 or mt_human-002) and gi-r")
    judged = ["accuracy", "click", "naturalness", "notice", "personality", "trust"]
    for result in out.results.values():
        assert result["outcome"] != "error" and all(result["metrics"][m] is None for m in judged)
        assert sorted(result["incomplete"]) == sorted([*judged, "qualitative_overall"])
        answered = {(j["judge"], j["template"]) for j in result["judges"] if j["ok"]}
        assert answered == {("openai/judge-a", m) for m in judged}  # judge-a's verdicts are kept, not used
    tables = {t["name"]: t for t in out.run["tables"]}
    (row,) = tables["gem_table3"]["rows"]
    assert row["cells"]["accuracy"]["mean"] is None and row["cells"]["accuracy"]["incomplete"] == 2
    assert (
        row["cells"]["rf"]["mean"] is not None
        and "judged values missing" in tables["gem_table3"]["incomplete"]["message"]
    )
    by_judge = {r["key"]["judge"]: r["cells"]["gi-r"] for r in tables["gem_table4"]["rows"]}
    assert by_judge["openai/judge-a"]["mean"] is not None and by_judge["openai/judge-a"]["n"] == 2
    assert by_judge["openai/judge-b"]["mean"] is None and by_judge["openai/judge-b"]["incomplete"] == 2


def _independent_metrics(sentences: list[str], vectors: list[list[float]], product: dict | None) -> dict:
    """The reference reading's formulas (§2.4), written again here without the harness's code."""
    import math

    import numpy as np

    def cos(a: Any, b: Any) -> float:
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        n = np.linalg.norm(a) * np.linalg.norm(b)
        return 0.0 if n == 0 else float(a @ b / n)

    n = len(sentences)
    name = (product or {}).get("name")
    ads = {i for i, s in enumerate(sentences) if name and (name in s or (product.get("url") and product["url"] in s))}
    sims = [cos(vectors[i], vectors[i + 1]) for i in range(n - 1)]
    out: dict[str, float | None] = {"injection_rate": 100.0 if name is not None else 0.0}
    out["response_flow"] = None if n < 2 else 100 * sum(sims) / len(sims)
    mean = np.mean(np.asarray(vectors, dtype=np.float64), axis=0) if n else None
    out["response_coherence"] = None if n < 2 else 100 * sum(cos(v, mean) for v in vectors) / n
    if n < 2 or not ads:
        out["ad_flow"] = None
    else:
        vals = [math.exp(-abs(sims[i - 1] - sims[i])) for i in ads if 0 < i < n - 1 and sims[i - 1] > 0 and sims[i] > 0]
        out["ad_flow"] = 100 * sum(vals) / len(vals) if vals else 0.0
    rest = [vectors[j] for j in range(n) if j not in ads]
    if not ads or not rest:
        out["ad_coherence"] = None
    else:
        centre = np.mean(np.asarray(rest, dtype=np.float64), axis=0)
        out["ad_coherence"] = 100 * sum(cos(vectors[i], centre) for i in ads) / len(ads)
    return out


def test_gem_score_reproduces_the_formulas_from_the_providers_vectors(tmp_path: Path, gem_stub: StubProcess) -> None:
    import json
    import subprocess
    import sys
    import urllib.request

    product = {"name": "Tramline", "url": "https://tramline.example", "desc": "day passes"}
    lines = [
        {
            "id": "mid",
            "scenario": "chatbot",
            "query": "Lisbon?",
            "response": "Go early.  Walk the hill.\n\nRide with Tramline today. Eat late. "
            "See https://tramline.example soon.",
            "product": product,
        },
        {
            "id": "first",
            "scenario": "search",
            "query": "passes",
            "response": "Tramline sells passes. Trams are cheap. Walk too.",
            "product": product,
            "candidates": [{"name": "Tramline", "label": 1}],
        },
        {
            "id": "absent",
            "scenario": "chatbot",
            "query": "q",
            "response": "Nothing about ads. Just travel.",
            "product": product,
        },
        {"id": "none", "scenario": "chatbot", "query": "q", "response": "One sentence only.", "product": None},
        {"id": "empty", "scenario": "chatbot", "query": "q", "response": "Ok.", "product": None},
    ]
    source = tmp_path / "responses.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    command = [sys.executable, "-m", "harness.cli", "gem", "score", str(source), "--json"]
    command += ["--embedding-model", "openai/stub-embed", "--embedding-api-base", gem_stub.api_base]
    command += ["--cache-dir", str(tmp_path / "c"), "--report-dir", str(tmp_path / "r")]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    scored = {row["id"]: row for row in json.loads(done.stdout)}
    for line in lines:
        row = scored[line["id"]]
        sentences = row["sentences"]
        if sentences:
            request = urllib.request.Request(
                f"{gem_stub.api_base}/embeddings",
                data=json.dumps({"model": "x", "input": [s.strip() for s in sentences]}).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request) as response:
                vectors = [d["embedding"] for d in json.loads(response.read())["data"]]
        else:
            vectors = []
        expected = _independent_metrics(sentences, vectors, line["product"])
        for name, value in expected.items():
            got = row["metrics"][name]
            assert (got is None) == (value is None), (line["id"], name)
            if value is not None:
                assert abs(got - value) <= 1e-9, (line["id"], name, got, value)
    assert scored["empty"]["sentences"] == [] and scored["absent"]["metrics"]["ad_flow"] is None
    assert scored["absent"]["metrics"]["injection_rate"] == 100.0
    assert list((tmp_path / "r").rglob("gem_scores.json"))


def test_gem_score_scores_search_lines_by_label_and_locates_every_line_it_cannot_use(
    tmp_path: Path, gem_stub: StubProcess
) -> None:
    import json
    import subprocess
    import sys

    gem_stub.control(judge_rules=[["which pass is cheapest", {"relevance": "bad", "factual_accuracy": "bad"}]])
    candidates = [
        {"name": "Ridgeway Trail Runner", "desc": "light", "label": 0},
        {"name": "ridgeway trail runner ", "label": 1},  # the same title, another label: the first one counts
        {"name": "Harbor Pack", "url": "https://harbor.example", "label": 1},
    ]
    good = [
        {
            "id": "shoe",
            "scenario": "search",
            "query": "trail shoes",
            "response": "Trail shoes need grip. The Ridgeway Trail Runner is light. Try them on late in the day.",
            "product": {"name": "Ridgeway Trail Runner", "url": ""},
            "candidates": candidates,
        },
        {
            "id": "pack",
            "scenario": "search",
            "query": "day pack",
            "response": "A day pack holds 20 litres. Harbor Pack makes one. Check the straps.",
            "product": {"name": "Harbor Pack", "url": "https://harbor.example"},
            "candidates": candidates,
        },
        {
            "id": "chat",
            "scenario": "chatbot",
            "query": "which pass is cheapest in Lisbon?",
            "response": "The day pass is. Buy it at a kiosk.",
            "product": None,
        },
    ]
    raw = [json.dumps(line).encode() for line in good]
    raw.insert(1, json.dumps({**good[0], "response": "Another answer. Same id."}).encode())  # line 2
    raw.insert(2, b"[" * 100_000 + b"]" * 100_000)  # line 3
    raw.insert(3, b'{"id": "latin1", "query": "caf\xe9"}')  # line 4
    raw.append(json.dumps({**good[2], "id": "nolabels", "scenario": "search"}).encode())  # line 7
    raw.append(json.dumps({**good[2], "id": "half", "response": "Paris \ud83d"}).encode())  # line 8: half an emoji
    source = tmp_path / "responses.jsonl"
    source.write_bytes(b"\n".join(raw) + b"\n")
    command = [sys.executable, "-m", "harness.cli", "gem", "score", str(source), "--json", "--judge"]
    command += ["--embedding-model", "openai/stub-embed", "--embedding-api-base", gem_stub.api_base]
    command += ["--judge-model", "openai/stub-judge", "--judge-api-base", gem_stub.api_base, "--judge-rule", "paper"]
    command += ["--cache-dir", str(tmp_path / "c"), "--report-dir", str(tmp_path / "r")]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    problems = [line for line in done.stderr.splitlines() if line.startswith(str(source))]
    assert [p.split(": ", 1)[0] for p in problems] == [f"{source}:{n}" for n in (2, 3, 4, 7, 8)]
    assert "id 'shoe' is already used on line 1" in problems[0] and "nests too deeply" in problems[1]
    assert "not UTF-8" in problems[2] and "needs its candidates" in problems[3]
    assert (
        problems[4]
        == f"{source}:8: response (\\ud83d at character 7) holds half a character (a lone surrogate), not text"
    )
    scored = {row["id"]: row for row in json.loads(done.stdout)}
    assert set(scored) == {"shoe", "pack", "chat"}
    assert scored["shoe"]["metrics"]["ctr"] == 0.0 and scored["pack"]["metrics"]["ctr"] == 100.0
    assert "ctr" not in scored["chat"]["metrics"]
    # the query reaches the judges inside a data section (a verdict keyed on its text applies), paper rule
    assert scored["chat"]["metrics"]["accuracy"] == 0.0 and scored["pack"]["metrics"]["accuracy"] == 90.0
    (report,) = (tmp_path / "r").rglob("gem_scores.json")
    document = json.loads(report.read_text())
    assert document["rules"] == {"judge_rule": "paper", "ad_flow": "exp"} and len(document["problems"]) == 5
    assert document["means"]["ctr"] == 50.0
