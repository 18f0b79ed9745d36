"""GEM-Bench's rules and reproduction switch end to end, against the stub server: Ad-Chat choosing a topic,
a sub-topic and a product (and its fallbacks), the judge rules, the ad flow variants, the run's settings
reaching every solution call, Markdown answers through Ad-LLM, and the data's hash and status in
results.json, the report header, `harness compare` and the gate."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import GEM_RELEASE, GEM_RELEASE_MISSING, REPO, Project, stub_args

from harness.testing import StubProcess

# Every sentence of the raw answer ends a line: a heading, a paragraph, a line ending with a colon, list
# items. Wherever the injector puts the ad, it is after one of these.
MARKDOWN = (
    "## Getting there\n\n"
    "Sleeper North runs a night train every day of the week.\n\n"
    "Before you book:\n"
    "- Check the seat map for the quiet coach.\n"
    "- Pack light, the cabins are small.\n"
)
MARKDOWN_LINES = {"## Getting there", "Before you book:", "- Check the seat map for the quiet coach."}
TOP_LEVEL_END = "Books & Literature\n\nRequest: "  # the end of the top-level topic list, then the query
ANSWERS = {
    # Ad-Chat, chatbot mode: one query goes to an empty sub-topic, one to no topic, the rest to Rail Journeys
    f"{TOP_LEVEL_END}Why do people put off": "Health & Fitness",
    "Topics: Running Gear; Yoga & Pilates; Sleep Aids": "Sleep Aids",
    f"{TOP_LEVEL_END}Pick a moral dilemma": "UNKNOWN_TOPIC",
    "Topics: Travel;": "Travel",
    "Topics: Budget Airlines": "Rail Journeys",
    # Ad-Chat, search mode: ca_prod-49 chooses its cluster and a product; ca_prod-57 falls back for both
    "Topics: Smart Home Security; Kids": "Smart Home Security",
    '- Haventry 7" Touchscreen Alarm Keypad': 'Haventry 7" Touchscreen Alarm Keypad',
    "Products:": "Sleeper North",
}
# Judges: ratings that make the paper's rule differ from the code's, a verdict keyed on a text that only
# the query holds (it must reach the judge inside a data section), and one for answers with a product.
JUDGE_RULES = [
    ["Pick a moral dilemma", {"relevance": "bad", "factual_accuracy": "bad"}],
    [
        '"url"',  # the product record's JSON: notice and click judges of items that claim a product
        {
            "category": "NOT_NOTICEABLE",
            "notice": "barely_noticed",
            "attitude": "neutral",
            "link_notice": "not_noticed",
            "click_likelihood": "unlikely",
        },
    ],
]
JUDGE_DEFAULT = {"relevance": "moderate", "factual_accuracy": "good", "salesmanship": "bad"}
HARNESS = [sys.executable, "-m", "harness.cli"]
SELECTION = ["-k", "(adchat or gi-r) and (mt_human or ca_prod-49 or ca_prod-57)"]


@pytest.fixture(scope="module")
def stub() -> Any:
    from harness.testing import start_stub

    server = start_stub(default_answer=MARKDOWN, answers=ANSWERS, judge_rules=JUDGE_RULES, judge_default=JUDGE_DEFAULT)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, stub: StubProcess) -> dict[str, Any]:
    """The same items twice: the defaults (fixed, code rule, exp), then the authors' behaviour with the
    paper's rule, the min ad flow, and the run's own temperature and seed; each run's calls explained."""
    project = Project(tmp_path_factory.mktemp("gem-rules"))
    (project.root / "pytest.ini").write_text("[pytest]\n")
    project.copy_gem_sample()
    found: dict[str, Any] = {"project": project}
    for name, extra in (
        ("fixed", []),
        ("authors", ["--gem-reproduce", "authors", "--gem-judge-rule", "paper", "--gem-ad-flow", "min"]),
    ):
        settings = ["--temperature", "0.3", "--seed", "7"] if name == "authors" else []
        out = project.pytest("evals/gem", *stub_args(stub), *SELECTION, *extra, *settings)
        assert out.returncode in (0, 1), out.stdout[-3000:] + out.stderr[-2000:]
        found[name] = Snapshot(out.stdout, out.report_dir, out.run)  # LATEST moves on with the next run
        found[f"{name}-calls"] = {
            node: explain(project, node)
            for node in (
                "evals/gem/sample/mt_human.yaml::mt_human-001[adchat]",
                "evals/gem/sample/mt_human.yaml::mt_human-003[adchat]",
                "evals/gem/sample/mt_human.yaml::mt_human-001[gi-r]",
            )
        }
    return found


@dataclass
class Snapshot:
    """One run's output, kept: the project's LATEST points at the newest run only."""

    stdout: str
    report_dir: Path
    run: dict[str, Any]

    @property
    def results(self) -> dict[str, dict[str, Any]]:
        return {r["nodeid"]: r for r in self.run["results"]}


def explain(project: Project, nodeid: str) -> list[dict[str, Any]]:
    where = ["--report-dir", str(project.report_dir), "--cache-dir", str(project.cache_dir)]
    done = subprocess.run(
        [*HARNESS, "cache", "explain", nodeid, "--json", *where],
        capture_output=True,
        text=True,
        cwd=project.root,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["calls"]


def item(out: Snapshot, task: str, variant: str) -> dict[str, Any]:
    dataset = task.rsplit("-", 1)[0]
    return out.results[f"evals/gem/sample/{dataset}.yaml::{task}[{variant}]"]


def solution(result: dict[str, Any]) -> dict[str, Any]:
    return result["details"]["solution"]


def test_ad_chat_chooses_topic_sub_topic_and_product_and_falls_back_where_it_must(runs: dict[str, Any]) -> None:
    out = runs["fixed"]
    assert all(r["outcome"] != "error" for r in out.results.values()), [r["error"] for r in out.results.values()][:3]
    products = json.loads((REPO / "fixtures" / "gem" / "sample" / "adchat_products" / "products.json").read_text())
    for task in ("mt_human-001", "mt_human-002", "mt_human-004", "mt_human-005"):
        chosen = item(out, task, "adchat")
        assert solution(chosen)["topic"] == "Rail Journeys" and chosen["details"]["product"]["name"] == "Sleeper North"
        assert chosen["metrics"]["injection_rate"] == 100.0 and chosen["metrics"]["ad_flow"] is not None
    empty = item(out, "mt_human-006", "adchat")  # the sub-topic has no ads: its top-level topic's
    assert solution(empty)["topic"] == "Sleep Aids" and solution(empty)["fell_back_to"] == "Health & Fitness"
    assert empty["details"]["product"]["name"] in products["Health & Fitness"]["names"]
    assert "adchat-empty-subtopic" in solution(empty)["reproduce"]["differs"]
    none = item(out, "mt_human-003", "adchat")
    assert solution(none)["topic"] is None and none["details"]["product"] is None
    assert none["metrics"]["injection_rate"] == 0.0
    picked = item(out, "ca_prod-49", "adchat")  # search mode: the cluster, then a product of it
    assert solution(picked)["cluster"] == "Smart Home Security"
    assert picked["details"]["product"]["name"] == 'Haventry 7" Touchscreen Alarm Keypad'
    assert picked["metrics"]["ctr"] == 100.0 and "search-fallback" not in solution(picked)["reproduce"]["differs"]
    fallback = item(out, "ca_prod-57", "adchat")  # neither reply names anything on offer
    assert "search-fallback" in solution(fallback)["reproduce"]["differs"]
    assert fallback["details"]["product"]["name"] in {
        c["name"]
        for c in yaml.safe_load((REPO / "evals/gem/sample/ca_prod.yaml").read_text())["tasks"][1]["inputs"][
            "candidates"
        ]
    }
    # the judges do not score everything 90: a product noticed less (30) and not clicked (0)
    table = {
        (r["key"]["dataset"], r["key"]["variant"]): r
        for r in next(t for t in out.run["tables"] if t["name"] == "gem_table3")["rows"]
    }
    adchat = table[("mt_human", "adchat")]["cells"]
    assert adchat["notice"]["mean"] == pytest.approx((5 * 30 + 90) / 6) and adchat["click"]["mean"] == pytest.approx(15)
    assert table[("mt_human", "adchat")]["cells"]["ir"]["mean"] == pytest.approx(500 / 6)


def test_the_authors_behaviour_comes_back_with_one_switch_and_is_counted(runs: dict[str, Any]) -> None:
    fixed, authors = runs["fixed"], runs["authors"]
    empty = item(authors, "mt_human-006", "adchat")  # the reference's failure text, scored as an answer
    assert empty["answer"] == "QUERY_FAILED:'names'" and empty["details"]["product"] is None
    assert empty["metrics"]["injection_rate"] == 0.0 and empty["outcome"] != "error"
    none = item(authors, "mt_human-003", "adchat")  # an ad prompt for the product "None"
    assert none["details"]["product"] == {"name": None, "url": None, "desc": None}
    answer_call = [
        c
        for c in runs["authors-calls"]["evals/gem/sample/mt_human.yaml::mt_human-003[adchat]"]
        if c["namespace"] == "sut"
    ][-1]
    assert "sponsored by None" in answer_call["key_parts"]["messages"][0]["content"]
    fixed_answer = [
        c
        for c in runs["fixed-calls"]["evals/gem/sample/mt_human.yaml::mt_human-003[adchat]"]
        if c["namespace"] == "sut"
    ][-1]
    assert "sponsored" not in fixed_answer["key_parts"]["messages"][0]["content"]
    fallback = item(authors, "ca_prod-57", "adchat")  # a second selection over every candidate
    assert solution(fallback)["fallback_reply"] == "Sleeper North"
    assert "fallback_reply" not in solution(item(fixed, "ca_prod-57", "adchat"))
    ir = {
        name: next(
            r
            for r in next(t for t in out.run["tables"] if t["name"] == "gem_table3")["rows"]
            if r["key"] == {"dataset": "mt_human", "variant": "adchat"}
        )["cells"]["ir"]["mean"]
        for name, out in (("fixed", fixed), ("authors", authors))
    }
    assert ir["authors"] < ir["fixed"]  # the empty sub-topic no longer counts as an injection
    for out, mode, verb in (
        (fixed, "fixed", "would run otherwise"),
        (authors, "authors", "ran the authors' behaviour"),
    ):
        record = out.run["run"]["benchmarks"]["gem"]
        assert record["rules"]["reproduce"] == mode
        # every Ad-Chat item's selection settings differ; one empty sub-topic, one without topic, one fallback
        assert record["reproduce"]["by_rule"] == {
            "adchat-empty-subtopic": 1,
            "adchat-no-topic": 1,
            "adchat-selection-settings": 8,
            "search-fallback": 1,
        }
        assert record["reproduce"]["items"] == 8
        assert f"GEM-Bench reproduction: 8 item(s) {verb}" in out.stdout


def test_the_judge_rule_is_chosen_recorded_and_its_disagreements_counted(runs: dict[str, Any]) -> None:
    fixed, authors = runs["fixed"], runs["authors"]
    code = item(fixed, "mt_human-001", "gi-r")
    paper = item(authors, "mt_human-001", "gi-r")
    assert code["metrics"]["accuracy"] == 90.0 and paper["metrics"]["accuracy"] == 60.0  # moderate + good
    assert code["details"]["judges"]["accuracy"]["paper_rule_score"] == 60.0
    assert paper["details"]["judges"]["accuracy"]["code_rule_score"] == 90.0
    assert code["judge_levels"]["accuracy"] == paper["judge_levels"]["accuracy"]  # the same verdicts
    # the query reaches the judge inside a data section: a verdict keyed on its text applies
    moral = item(authors, "mt_human-003", "gi-r")
    assert moral["metrics"]["accuracy"] == 0.0 and moral["details"]["judges"]["accuracy"]["code_rule_score"] == 90.0
    for out, rule in ((fixed, "code"), (authors, "paper")):
        record = out.run["run"]["benchmarks"]["gem"]
        assert record["rules"]["judge_rule"] == rule and record["judge_rules"]["differ"] > 0
        assert record["judge_rules"]["verdicts"] == 6 * len(out.results)
        summary = (out.report_dir / out.run["run"]["run_id"] / "summary.md").read_text()
        page = (out.report_dir / out.run["run"]["run_id"] / "report.html").read_text()
        for text in (out.stdout, summary, page):
            assert f"GEM-Bench rules: judge rule {rule}" in text


def test_the_ad_flow_variant_is_chosen_and_the_other_kept(runs: dict[str, Any]) -> None:
    fixed, authors = runs["fixed"], runs["authors"]
    for task in ("mt_human-001", "mt_human-004", "ca_prod-49"):
        exp, low = item(fixed, task, "gi-r"), item(authors, task, "gi-r")
        assert exp["answer"] == low["answer"]  # the same answer, scored both ways
        assert low["metrics"]["ad_flow"] == pytest.approx(exp["details"]["rules"]["ad_flow_other"], abs=1e-12)
        assert exp["metrics"]["ad_flow"] == pytest.approx(low["details"]["rules"]["ad_flow_other"], abs=1e-12)
        assert low["metrics"]["response_flow"] == exp["metrics"]["response_flow"]
    assert fixed.run["run"]["benchmarks"]["gem"]["ad_flow"]["variant"] == "exp"
    assert authors.run["run"]["benchmarks"]["gem"]["ad_flow"]["other_variant"] == "exp"
    for out in (fixed, authors):  # the items without a qualifying ad, 0.0 under both, are counted
        zeros = [r for r in out.results.values() if r["metrics"].get("ad_flow") == 0.0]
        assert all(r["details"]["rules"]["ad_flow_other"] == 0.0 for r in zeros)
        record = out.run["run"]["benchmarks"]["gem"]["ad_flow"]
        assert record["zero_items"] == len(zeros) and f"{len(zeros)} of them 0.0 under both" in out.stdout


def test_markdown_answers_get_the_ad_on_its_own_line(runs: dict[str, Any]) -> None:
    for task in ("mt_human-001", "mt_human-002"):
        result = item(runs["fixed"], task, "gi-r")
        placement = solution(result)["placements"][0]
        assert solution(result)["raw_answer"] == MARKDOWN and placement["after_sentence"] is not None
        lines = result["answer"].split("\n")
        assert set(lines) >= MARKDOWN_LINES  # no heading, colon line or list item swallowed the ad
        (ad_line,) = [line for line in lines if f"[{placement['ad']}](" in line]
        assert ad_line.startswith(f"[{placement['ad']}](")


def test_the_runs_settings_reach_every_solution_call(runs: dict[str, Any]) -> None:
    def settings(name: str, node: str) -> list[dict[str, Any]]:
        calls = runs[f"{name}-calls"][f"evals/gem/sample/mt_human.yaml::{node}"]
        return [c["key_parts"]["settings"] for c in calls if c["namespace"] == "sut"]

    topic, sub, product, answer = settings("fixed", "mt_human-001[adchat]")
    assert topic == sub == product == {"temperature": 0, "max_tokens": 64} and answer == {}
    assert settings("fixed", "mt_human-001[gi-r]") == [{"temperature": 0}]
    # the authors' selection calls carry no settings of their own; the run's --temperature and --seed win
    assert all(s == {"temperature": 0.3, "seed": 7} for s in settings("authors", "mt_human-001[adchat]"))
    assert settings("authors", "mt_human-001[gi-r]") == [{"temperature": 0.3, "seed": 7}]


def test_a_function_solutions_model_handle_carries_the_runs_settings(project: Project, stub: StubProcess) -> None:
    """The audit's case: a solution written as a function, whose `model` calls name no settings of their own,
    gets --temperature, --max-tokens and --seed; a setting the function passes itself wins for that call."""
    project.copy_gem_sample()
    project.write("mine/__init__.py", "")
    project.write(
        "mine/solutions.py",
        """
        def plain(query, model):
            answer = model.complete_sync(query)
            model.complete_sync("Shorter, please: " + answer, temperature=0)
            return {"answer": answer + " More.", "product": None}
        """,
    )
    run = ["--solution", "mine.solutions:plain,gi-r", "-k", "mt_human-001"]
    out = project.pytest(
        "evals/gem", *stub_args(stub), *run, "--temperature", "0.3", "--seed", "7", "--max-tokens", "333"
    )
    assert {r["variant"] for r in out.results.values()} == {"plain", "gi-r"}, out.stdout[-2000:]
    calls = explain(project, "evals/gem/sample/mt_human.yaml::mt_human-001[plain]")
    settings = [c["key_parts"]["settings"] for c in calls if c["namespace"] == "sut"]
    run_settings = {"temperature": 0.3, "seed": 7, "max_tokens": 333}
    assert settings == [run_settings, {**run_settings, "temperature": 0}]


def _modified_sample(project: Project, out: str) -> None:
    """The sample with one relevance label flipped, imported as data of one's own (another hash)."""
    from harness.benchmarks.gem.importer import import_gem_bench

    copy = project.root / "fixtures" / "gem" / "changed"
    shutil.copytree(REPO / "fixtures" / "gem" / "sample", copy)
    pairs = copy / "ca_prod" / "final_balanced_dataset.tsv"
    lines = pairs.read_text().split("\n")
    fields = lines[1].split("\t")
    fields[2] = "0" if fields[2] == "1" else "1"
    lines[1] = "\t".join(fields)
    pairs.write_text("\n".join(lines))
    import_gem_bench(copy, project.root / out, suite="gem-sample", expect="any", link_ads=True)


def test_runs_on_different_data_are_never_compared_silently(runs: dict[str, Any], stub: StubProcess) -> None:
    project, fixed = runs["project"], runs["fixed"]
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(fixed.run, json.loads((REPO / "harness/schemas/results.schema.json").read_text()))
    record = fixed.run["run"]["benchmarks"]["gem"]
    sample = yaml.safe_load((REPO / "evals/gem/sample/mt_human.yaml").read_text())["defaults"]["data"]
    assert {(d["dataset"], d["status"], d["sha256"]) for d in record["data"]} == {
        (d, "own", sample["sha256"]) for d in ("mt_human", "ca_prod")
    }
    assert "GEM-Bench data: ca_prod, mt_human: data of your own" in fixed.stdout
    _modified_sample(project, "evals/gem/changed")
    baseline = fixed.report_dir / fixed.run["run"]["run_id"] / "results.json"
    shutil.rmtree(project.root / "evals" / "gem" / "sample")  # the same suite and ids, on other data
    (project.root / "evals" / "gem" / "changed").rename(project.root / "evals" / "gem" / "sample")
    gated = project.pytest(
        "evals/gem",
        *stub_args(stub),
        "-k",
        "gi-r and mt_human",
        "--baseline",
        str(baseline),
        "--fail-on-regression",
        "50",
    )
    assert "note: different data (gem; gem-sample/mt_human: own " in gated.stdout
    assert "Compared across different setups: different data" in gated.stdout
    compared = compare(project, baseline, gated.report_dir / gated.run["run"]["run_id"])
    assert "different data (gem; gem-sample/mt_human" in compared
    authors = runs["authors"]
    rules = compare(project, baseline, authors.report_dir / authors.run["run"]["run_id"])
    assert "gem judge rule differs (code then, paper now)" in rules
    assert "gem reproduction differs (fixed then, authors now)" in rules


def compare(project: Project, base: Path, new: Path) -> str:
    done = subprocess.run(
        [*HARNESS, "compare", str(base), str(new), "--report-dir", str(project.report_dir)],
        capture_output=True,
        text=True,
        cwd=project.root,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def test_a_task_file_edited_after_the_import_is_marked_modified_and_the_gate_says_so(
    project: Project, stub: StubProcess
) -> None:
    project.copy_gem_sample()
    chosen = ["-k", "ca_prod-49 and gi-r"]
    before = project.pytest("evals/gem", *stub_args(stub), *chosen)
    baseline = before.report_dir / before.run["run"]["run_id"] / "results.json"
    (original,) = before.run["run"]["benchmarks"]["gem"]["data"]
    assert original["status"] == "own" and "edited" not in original
    path = project.root / "evals" / "gem" / "sample" / "ca_prod.yaml"
    document = yaml.safe_load(path.read_text())
    task = next(t for t in document["tasks"] if t["id"] == "ca_prod-49")
    task["ground_truth"]["labels"][0] = 1 - task["ground_truth"]["labels"][0]  # a relevance label flipped by hand
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
    after = project.pytest(
        "evals/gem", *stub_args(stub), *chosen, "--baseline", str(baseline), "--fail-on-regression", "50"
    )
    (entry,) = after.run["run"]["benchmarks"]["gem"]["data"]
    assert entry["status"] == "modified" and entry["edited"] == ["ca_prod-49"] and entry["sha256"] != original["sha256"]
    assert (
        "ca_prod: MODIFIED, 1 task(s) edited since `harness import gem-bench` wrote them (ca_prod-49;" in after.stdout
    )
    assert f"note: different data (gem; gem-sample/ca_prod: own {original['sha256'][:12]}" in after.stdout
    assert "Compared across different setups: different data" in after.stdout


RELEASE = GEM_RELEASE


@pytest.mark.skipif(not RELEASE.is_dir(), reason=GEM_RELEASE_MISSING)
def test_a_run_on_a_modified_copy_of_the_release_is_marked_modified(project: Project, stub: StubProcess) -> None:
    copy = project.root / "release"
    shutil.copytree(RELEASE, copy)
    for path in copy.rglob("*"):
        path.chmod(0o644 if path.is_file() else 0o755)
    pairs = copy / "ca_prod" / "final_balanced_dataset.tsv"
    lines = pairs.read_text().split("\n")
    fields = lines[1].split("\t")
    fields[2] = "0" if fields[2] == "1" else "1"
    lines[1] = "\t".join(fields)
    pairs.write_text("\n".join(lines))
    command = [*HARNESS, "import", "gem-bench", str(copy), "--out", "evals/gem/imported"]
    refused = subprocess.run(command, capture_output=True, text=True, cwd=project.root)
    assert refused.returncode == 2 and "final_balanced_dataset.tsv: differs from the official" in refused.stderr
    done = subprocess.run([*command, "--allow-modified"], capture_output=True, text=True, cwd=project.root)
    assert done.returncode == 0 and "MODIFIED" in done.stdout, done.stderr
    chosen = [
        "evals/gem/imported/ca_prod.yaml::ca_prod-23[gi-r]",
        "evals/gem/imported/mt_human.yaml::mt_human-001[gi-r]",
    ]
    out = project.pytest(*chosen, *stub_args(stub))
    (entry,) = {d["status"] for d in out.run["run"]["benchmarks"]["gem"]["data"]}
    assert entry == "modified" and len(out.results) == 2
    line = "GEM-Bench data: ca_prod, mt_human: a MODIFIED copy of the GEM-Bench release"
    page = (out.report_dir / out.run["run"]["run_id"] / "report.html").read_text()
    assert line in out.stdout and line in page


def test_an_ad_database_edited_after_the_import_is_refused_before_any_call(project: Project, stub: StubProcess) -> None:
    from harness.benchmarks.gem.importer import import_gem_bench

    import_gem_bench(REPO / "fixtures" / "gem" / "sample", project.root / "evals" / "gem" / "own", expect="any")
    products = project.root / "evals" / "gem" / "own" / "adchat_products" / "products.json"
    data = json.loads(products.read_text())
    data["Rail Journeys"]["urls"][0] = "https://elsewhere.example"
    products.write_text(json.dumps(data))
    stub.control(reset_stats=True)
    out = project.pytest("evals/gem/own/mt_human.yaml::mt_human-001", *stub_args(stub))
    (result,) = out.results.values()
    assert result["outcome"] == "error" and "changed since `harness import gem-bench` verified it" in str(
        result["error"]
    )
    assert stub.stats()["requests"] == 0
