"""Judges held to labels: a labelled set read strictly, agreement with labels (exact, kappa, quadratic kappa,
confusion, bias, bootstrap intervals) against hand-computed values, `harness judges calibrate` on a set
with a known kappa (a stub judge on 127.0.0.1 that levels answers by a mark in them), a free re-calibration
from the cache, and `--min-judge-agreement` refusing a run before any call. The shipped sets are checked
against the project's own tasks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import REPO, stub_args

from harness.calibration.labels import read_set
from harness.calibration.measure import label_agreement
from harness.calibration.records import calibrate, gate_problem
from harness.errors import ConfigError

SET = """
set: tiny-recruitment
suites: [recruitment-easy]
tasks: [evals/recruitment-easy/world_tasks.yaml]
labelled_by: the test
method: levels chosen so that the stub's levels give a known kappa
measure: level
items:
  - {id: a1, task: p2i-mei-lin-chen, answer: "MARK-HIGH a full answer", level: 5, reason: complete}
  - {id: a2, task: p2i-mei-lin-chen, answer: "MARK-LOW a thin answer", level: 2, reason: thin}
  - {id: b1, task: p2i-anna-lindquist, answer: "MARK-HIGH most of it", level: 4, reason: one fact missing}
  - {id: b2, task: p2i-anna-lindquist, answer: "MARK-LOW little of it", level: 2, reason: thin}
"""


def test_agreement_with_labels_by_hand() -> None:
    # labels 5,2,4,2; judge 5,2,5,2 (levels 1..5): exact 3/4, bias +1/4;
    # kappa: p_o 0.75, p_e (2*2 + 1*0 + 1*2)/16 = 0.375, (0.75 - 0.375)/0.625 = 0.6;
    # quadratic: disagreement (1/16)/4; chance (2*2*9/16 + 1*2*4/16 + 1*2*1/16 + 1*2*9/16)/16 = 0.25;
    # 1 - 0.0625 = 0.9375
    stats = label_agreement([5, 2, 4, 2], [5, 2, 5, 2], [1, 2, 3, 4, 5], ordinal=True, resamples=300)
    assert stats["exact"]["value"] == 0.75 and stats["mean_bias"]["value"] == 0.25
    assert stats["kappa"]["value"] == pytest.approx(0.6) and stats["kappa_quadratic"]["value"] == pytest.approx(0.9375)
    assert stats["confusion"][3] == [0, 0, 0, 0, 1]  # labelled 4, judged 5
    assert stats["exact"]["low"] <= 0.75 <= stats["exact"]["high"] and stats["exact"]["low"] < stats["exact"]["high"]
    yes_no = label_agreement([True, True, False, False], [True, False, False, False], [False, True], ordinal=False)
    assert yes_no["mean_bias"]["value"] == -0.25 and "kappa_quadratic" not in yes_no  # a strict judge


def test_a_bad_set_is_one_line_naming_the_item_and_field(tmp_path: Path) -> None:
    path = tmp_path / "set.yaml"
    path.write_text(SET.replace("level: 4", "level: 7"))
    with pytest.raises(ConfigError, match=r"item b1: level must be a whole number from 1 to 5, got 7"):
        read_set(path)
    path.write_text(SET.replace("reason: thin}", "reason: ''}", 1))
    with pytest.raises(ConfigError, match="item a2: reason must be non-empty text"):
        read_set(path)


def test_calibrate_pairs_labels_with_the_judges_levels() -> None:
    labelled = _set_from_text(SET)
    results = [
        {"suite": "recruitment-easy", "task_id": "p2i-mei-lin-chen", "repeat": 0, "score": 100.0,
         "judge_levels": {"level": {"j": 5, "k": 4}}},
        {"suite": "recruitment-easy", "task_id": "p2i-mei-lin-chen", "repeat": 1, "score": None,
         "judge_levels": {}},  # the judge gave no verdict: not a pair
        {"suite": "recruitment-easy", "task_id": "p2i-anna-lindquist", "repeat": 0, "score": 75.0,
         "judge_levels": {"level": {"j": 4, "k": 4}}},
    ]  # fmt: skip
    record = calibrate(labelled, {"run": {"run_id": "r", "options": {"judge_models": ["j", "k"]}}, "results": results})
    assert record["unjudged"] == 1 and record["per_judge"]["j"]["level"]["exact"]["value"] == 1.0
    assert record["per_judge"]["k"]["level"]["mean_bias"]["value"] == -0.5


def _set_from_text(text: str, tmp: Path | None = None) -> Any:
    import tempfile

    folder = Path(tmp or tempfile.mkdtemp())
    path = folder / "set.yaml"
    path.write_text(text)
    return read_set(path)


def test_calibrate_a_judge_then_gate_a_run_on_it(tmp_path: Path, fresh_stub: Any) -> None:
    """The checked-by case: a set with a known quadratic kappa (0.9375) through the real command and a
    stub judge, a second calibration read from the cache, and the gate on both sides of the value."""
    sets = tmp_path / "sets"
    sets.mkdir()
    (sets / "tiny.yaml").write_text(SET)
    fresh_stub.control(judge_rules=[["MARK-HIGH", {"score": 5}], ["MARK-LOW", {"score": 2}]])
    reports, cache = tmp_path / "reports", tmp_path / "cache"

    def calibrate_cli() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "harness.cli", "judges", "calibrate", "--report-dir", str(reports),
             str(sets / "tiny.yaml"), *stub_args(fresh_stub), "--cache-dir", str(cache)],
            cwd=REPO, capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    first = calibrate_cli()
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    (stored,) = (reports / "calibrations").glob("tiny-recruitment--*.json")
    record = json.loads(stored.read_text())
    level = record["per_judge"]["openai/stub-judge"]["level"]
    assert level["n"] == 4 and level["kappa_quadratic"]["value"] == 0.9375 and level["kappa"]["value"] == 0.6
    assert "| openai/stub-judge | level | 4 | 0.75" in first.stdout
    paid = fresh_stub.stats()["requests"]
    again = calibrate_cli()
    assert again.returncode == 0 and fresh_stub.stats()["requests"] == paid  # the same judge: free

    def run(minimum: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "evals/recruitment-easy/world_tasks.yaml",
             "-k", "p2i-mei-lin-chen", *stub_args(fresh_stub), "--report-dir", str(reports), "--cache-dir",
             str(cache), "--labelled-sets", str(sets), "--min-judge-agreement", minimum, "--no-html"],
            cwd=REPO, capture_output=True, text=True, timeout=600,
        )  # fmt: skip

    refused = run("0.95")
    assert refused.returncode == 4 and "level kappa_quadratic is below it" in refused.stderr, refused.stderr[-2000:]
    assert fresh_stub.stats()["requests"] == paid  # refused before any call
    allowed = run("0.9")
    assert allowed.returncode in (0, 1), allowed.stderr[-2000:]
    latest = (reports / "LATEST").read_text().strip()
    (entry,) = json.loads((reports / latest / "results.json").read_text())["run"]["calibration"]
    assert entry["found"] and entry["current"] and entry["values"] == {"openai/stub-judge": 0.9375}
    other_judge = [*stub_args(fresh_stub)]
    other_judge[other_judge.index("openai/stub-judge")] = "openai/stub-judge-2"
    never = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "evals/recruitment-easy/world_tasks.yaml", "-k",
         "p2i-mei-lin-chen", *other_judge, "--report-dir", str(reports), "--labelled-sets", str(sets),
         "--min-judge-agreement", "0.5"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert never.returncode == 4 and "no calibration on the tiny-recruitment labelled set" in never.stderr


def test_the_gate_refuses_labels_changed_since_the_calibration() -> None:
    entry = {"set": "s", "suites": ["x"], "judges": ["j"], "found": True, "current": False, "file": "f",
             "statistic": "level kappa_quadratic", "values": {"j": 0.9}}  # fmt: skip
    assert "labels changed" in (gate_problem([entry], 0.5) or "")
    assert gate_problem([{**entry, "current": True}], 0.5) is None


SHIPPED = {
    "recruitment": REPO / "calibration" / "recruitment.yaml",
    "marketing": REPO / "calibration" / "marketing.yaml",
}


def _tasks(paths: list[str]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for name in paths:
        for path in sorted((REPO / name).glob("*.yaml")) if (REPO / name).is_dir() else [REPO / name]:
            for task in yaml.safe_load(path.read_text())["tasks"]:
                found[task["id"]] = task
    return found


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_sets_answer_the_projects_own_tasks(name: str) -> None:
    if not SHIPPED[name].is_file():
        pytest.skip(f"{SHIPPED[name]} is not written yet")
    labelled = read_set(SHIPPED[name])
    tasks = _tasks(labelled.tasks)
    assert {i.task for i in labelled.items} <= set(tasks), "every label answers one of the project's tasks"
    reasons = [i.reason for i in labelled.items if i.reason] + [c.reason for i in labelled.items for c in i.creators]
    assert len(set(reasons)) == len(reasons), "every label has its own reason"
    if labelled.measure == "level":
        assert len(labelled.items) >= 60
        assert {tasks[i.task]["kind"] for i in labelled.items} == {
            "company_mapping",
            "people_to_info",
            "info_to_people",
        }
        assert {i.level for i in labelled.items} == {1, 2, 3, 4, 5}
        assert len({i.answer for i in labelled.items}) == len(labelled.items)
    else:
        assert labelled.units() >= 60
        assert {c.selected for i in labelled.items for c in i.creators} == {True, False}
        for item in labelled.items:
            inputs = tasks[item.task]["inputs"]
            assert len(item.creators) <= inputs["k"], item.id
            for creator in item.creators:  # a page of the offline pool, as the judges will read it
                platform, handle = re.search(r"(youtube|tiktok|instagram)\.com/@?([^/]+)/?$", creator.link).groups()
                assert (REPO / "fixtures/worlds" / inputs["environment"] / platform / f"{handle}.md").is_file(), creator


def test_creator_verdicts_pair_by_link_whatever_the_slot() -> None:
    text = """
set: tiny-marketing
suites: [marketing]
tasks: [evals/marketing]
labelled_by: the test
method: two creators, judged in the other order
measure: creators
items:
  - id: m1
    task: brief
    creators:
      - {link: "https://www.tiktok.com/@a", selected: true, overall: 5, reason: a pick}
      - {link: "https://www.tiktok.com/@b", selected: false, overall: 2, reason: under-age audience}
      - {link: "https://www.tiktok.com/@c", selected: false, overall: 1, reason: never judged}
"""
    labelled = _set_from_text(text)
    rows = [  # the run's slots, in the judge's order, with links as the pool spells them
        {"url": "https://tiktok.com/@b/", "verdicts": {"j": {"selected": "Yes", "overall": 4}}},
        {"url": "https://www.tiktok.com/@a", "verdicts": {"j": {"selected": "Yes", "overall": 5}}},
        {"url": None, "link": "https://www.tiktok.com/@c", "status": "not in the pool"},
    ]
    result = {
        "suite": "marketing",
        "task_id": "brief",
        "repeat": 0,
        "score": 50.0,
        "details": {"recommendations": rows},
    }
    record = calibrate(labelled, {"run": {"options": {"judge_models": ["j"]}}, "results": [result]}, resamples=200)
    selected, overall = record["per_judge"]["j"]["selected"], record["per_judge"]["j"]["overall"]
    # a: Yes/Yes, b: No labelled, Yes judged: exact 1/2, bias +1/2; overall 5/5 and 2/4: bias +1
    assert record["unjudged"] == 1 and selected["n"] == 2 and selected["exact"]["value"] == 0.5
    assert selected["mean_bias"]["value"] == 0.5 and overall["mean_bias"]["value"] == 1.0
    assert selected["confusion"] == [[0, 1], [0, 1]]
