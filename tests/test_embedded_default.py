"""The README's main command in small: every benchmark on the embedded default (SmolLM2 through llama.cpp,
MiniLM embeddings), with two workers sharing one model process, then a replay.

One run for the three benchmarks, not one per benchmark: the model is slow on a 2-core machine, and what is
checked here is the pipeline on the real default (the model process, its workers, the judges it plays, the
tables, the cache), not what the tiny model can do. Scores are never asserted: the model's text is not ours
to predict.
"""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from helpers import REPO, Project

from harness.benchmarks.recruitment import level_to_score

# One GEM-Bench query through Ad-LLM (GI-R: the raw answer, the ad chosen by embeddings, six judges), an
# open-web company mapping (the list reader and the judge) and one campaign brief. Every reply of the
# system under test is capped (--max-tokens): the tiny model often loops to its cap, and on 2 cores each
# token counts; a capped reply is a system failure, one more path the run must take well.
SELECTION = "(ca_prod-95 and gi-r) or cm-ev-battery or kondate"
OPTIONS = ("-n", "2", "--max-tokens", "200")
SUITES = ("evals/gem/sample", "evals/recruitment-easy", "evals/marketing")


def readme_project(project: Project) -> None:
    for folder in (*SUITES, "fixtures/gem/sample", "fixtures/worlds/talent-atlas", "fixtures/worlds/creator-pool"):
        shutil.copytree(REPO / folder, project.root / folder)


@pytest.mark.slow
def test_every_benchmark_on_the_embedded_default_and_its_replay(project: Project) -> None:
    pytest.importorskip("llama_cpp")
    readme_project(project)
    first = project.pytest(*SUITES, "-k", SELECTION, *OPTIONS, timeout=1500)
    assert first.returncode in (0, 1), first.stdout[-3000:]
    results = first.results
    assert "crashed" not in first.stdout and "INTERNALERROR" not in first.stdout
    assert Counter(r["suite"] for r in results.values()) == {"gem-sample": 1, "recruitment-easy": 1, "marketing": 1}
    for result in results.values():
        # a verdict the tiny judge could not give is an error with no score, never a made-up score; a
        # failure of the tiny system is a 0 with its reason kept
        assert (result["outcome"] == "error") == (result["score"] is None), result
        if result["outcome"] == "failed" and result.get("error"):
            assert result["score"] == 0 and result["error"]["fault"] == "system" and result["error"]["message"]
        levels = (result.get("judge_levels") or {}).get("level")
        if result["suite"] == "recruitment-easy" and result["score"] is not None and levels:
            (level,) = levels.values()
            assert result["score"] == level_to_score(level)
    names = {t["name"] for t in first.run["tables"]}
    assert {"gem_table3", "gem_table6", "xbench_recruitment", "xbench_marketing"} <= names
    assert first.run["run"]["notice"]  # the tiny model's scores say so

    replay = project.pytest(*SUITES, "-k", SELECTION, "--max-tokens", "200", "--cache-mode", "replay", timeout=600)
    assert replay.run["tables"] == first.run["tables"]
    assert {k: (r["outcome"], r["score"]) for k, r in replay.results.items()} == {
        k: (r["outcome"], r["score"]) for k, r in results.items()
    }
    assert replay.run["totals"]["cache_hits"] == replay.run["totals"]["calls"] > 0
    assert replay.run["totals"]["cost_usd"] == 0
