"""xbench Marketing: profile links read as people read them, agent replies read leniently but never
guessed, slots that cannot be judged counted as misses, the rubric paid once per brief and judge, and the
briefs checked against the paper's mix and the pool. The pool itself (its sources, generator, consistency
rules and each brief's creators) is tested in test_creator_pool.py."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, Project, marketing_briefs, stub_args

from harness.benchmarks.marketing.links import CreatorIndex, ProfileKey, profile_key
from harness.benchmarks.marketing.recommendations import Recommendation, ReplyError, fill_slots, read_reply
from harness.testing import StubProcess
from harness.world import load_world, read_pages

POOL = REPO / "fixtures" / "worlds" / "creator-pool"
PENNY_PILOT = "mk-app-pennypilot-us-launch"  # the brief the end-to-end tests run (in money.yaml)
MAYA = "https://www.youtube.com/@moneywithmaya"
DEVON = "https://www.youtube.com/@budgetbydevon"
POPPY = "https://www.youtube.com/@poundwisepoppy"  # a near miss of the Penny Pilot brief (UK audience)


@pytest.fixture(scope="module")
def index() -> CreatorIndex:
    return CreatorIndex(load_world(POOL))


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("https://www.youtube.com/@moneywithmaya", MAYA),
        ("http://YouTube.com/@MoneyWithMaya/", MAYA),  # scheme, www, case, trailing slash
        ("youtube.com/@moneywithmaya/videos?si=Xy12&utm_source=share#about", MAYA),  # sub-page, tracking, fragment
        ("https://m.youtube.com/c/moneywithmaya", MAYA),  # mobile host, legacy custom URL
        ("https://www.youtube.com/moneywithmaya", MAYA),  # no @
        ("[Maya Okafor](https://youtube.com/@moneywithmaya)", MAYA),  # a Markdown link
        ("<https://youtube.com/@moneywithmaya>", MAYA),
        ("@moneywithmaya", MAYA),  # a bare handle, unique among the allowed platforms
        ("https://www.instagram.com/@thebudgetnest", "https://www.instagram.com/thebudgetnest/"),
        ("instagram.com/thebudgetnest?igshid=abc123", "https://www.instagram.com/thebudgetnest/"),
        ("https://www.tiktok.com/@centsiblesam/video/7301", "https://www.tiktok.com/@centsiblesam"),
        ("https://www.youtube.com/@nobody-here", None),  # well formed, not in the pool
        ("https://www.instagram.com/p/Cx81abc/", None),  # a post, not a profile
        ("https://youtu.be/dQw4w9WgXcQ", None),  # a video
        ("https://www.youtube.com/channel/UC1234", None),  # a channel id the pool does not use
        ("https://example.com/@moneywithmaya", None),  # another site
        ("", None),
    ],
)
def test_profile_links_are_normalised_before_lookup(index: CreatorIndex, link: str, expected: str | None) -> None:
    page, how = index.resolve(link, ("YouTube", "TikTok", "Instagram"))
    assert (page.url if page else None) == expected, how
    if expected is None:
        assert how  # every miss says why


def test_the_same_handle_on_two_platforms_needs_the_site(tmp_path: Path) -> None:
    assert profile_key("tiktok.com/@a.b_c") == ProfileKey("TikTok", "a.b_c")
    for url in ("https://www.tiktok.com/@sameface", "https://www.instagram.com/sameface/"):
        site = url.split(".")[1]
        (tmp_path / f"{site}.md").write_text(f"---\nurl: {url}\ntitle: Same Face on {site}\nkind: creator\n---\nHi.\n")
    index = CreatorIndex(load_world(tmp_path))
    page, why = index.resolve("@sameface")
    assert page is None and "several platforms" in why
    page, _ = index.resolve("@sameface", ("Instagram",))  # only one of them is allowed by the brief
    assert page is not None and page.url == "https://www.instagram.com/sameface/"


LIST = json.dumps([{"name": "Maya", "link": MAYA}, {"name": "Devon", "link": DEVON}])


@pytest.mark.parametrize(
    "reply",
    [
        LIST,
        f"Here is my shortlist.\n```json\n{LIST}\n```\nLet me know if you need more.",  # fenced, prose around
        f"I found [2] strong fits: {LIST} Both are US-based.",  # a bracket in the prose is not the list
        LIST.replace("}]", "},]").replace('"}, {', '",}, {'),  # trailing commas
        LIST.replace('"', "'"),  # Python quoting
        json.dumps([{"Blogger Name": "Maya", "Blogger Link": MAYA}, {"Blogger Link": DEVON, "Blogger Name": "Devon"}]),
        json.dumps({"influencers": [{"creator": "Maya", "url": MAYA}, {"creator": "Devon", "url": DEVON}]}),
    ],
)
def test_agent_replies_are_read_leniently(reply: str) -> None:
    assert [r.link for r in read_reply(reply)] == [MAYA, DEVON]
    assert [r.name for r in read_reply(reply)] == ["Maya", "Devon"]


def test_a_list_of_plain_links_is_a_list_of_recommendations() -> None:
    assert read_reply(json.dumps([MAYA, DEVON])) == [Recommendation("", MAYA), Recommendation("", DEVON)]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("I recommend Maya Okafor and Devon first, then Poppy.", "no JSON list"),
        ('[{"name": "Maya", "link": "https://www.youtube.com/@moneywithmaya"}, {"name": "Dev', "could not be read"),
        ("```json\n[{name: Maya, link: youtube.com/@moneywithmaya}]\n```", "could not be read"),
    ],
)
def test_a_reply_without_a_readable_list_is_the_agents_failure(reply: str, reason: str) -> None:
    with pytest.raises(ReplyError, match=reason):
        read_reply(reply)


def test_slots_count_missing_duplicate_and_unknown_links_as_misses(index: CreatorIndex) -> None:
    recommendations = [
        Recommendation("Maya", MAYA),
        Recommendation("Maya again", "youtube.com/@MoneyWithMaya/"),
        Recommendation("Ghost", "https://www.tiktok.com/@no-such-creator"),
        Recommendation("Nameless", ""),
        Recommendation("Devon", DEVON),
        Recommendation("Sixth", POPPY),
        Recommendation("Seventh", "https://www.tiktok.com/@centsiblesam"),
    ]
    slots, beyond = fill_slots(recommendations, 8, index, ("YouTube", "TikTok"))
    assert [s.status for s in slots] == [
        "candidate",
        "duplicate",
        "not_in_pool",
        "no_link",
        "candidate",
        "candidate",
        "candidate",
        "empty",
    ]
    assert slots[1].reason == "the same creator as #1" and slots[7].reason == "the reply recommended 7 of 8"
    short, beyond = fill_slots(recommendations, 2, index, ("YouTube", "TikTok"))
    assert len(short) == 2 and [r.name for r in beyond] == ["Ghost", "Nameless", "Devon", "Sixth", "Seventh"]


# -- end to end on the stub ------------------------------------------------------------------------------


def marketing_project(project: Project) -> None:
    shutil.copytree(REPO / "evals" / "marketing", project.root / "evals" / "marketing")
    shutil.copytree(POOL, project.root / "fixtures" / "worlds" / "creator-pool")


def reply(*links: str) -> str:
    return "My picks, best first:\n```json\n" + json.dumps([{"name": f"c{i}", "link": u} for i, u in enumerate(links)])


@pytest.fixture
def mstub(fresh_stub: StubProcess) -> StubProcess:
    # The judge says Yes to Maya and No to anyone else (its rule looks inside the profile's data section).
    fresh_stub.control(
        judge_rules=[["@moneywithmaya", {"selected": "Yes", "overall": 5}]],
        judge_default={"selected": "No", "overall": 2},
    )
    return fresh_stub


def only_result(out: Any) -> dict[str, Any]:
    (result,) = out.results.values()
    return result


def brief(task_id: str) -> Any:
    (task,) = [task for task in briefs() if task.id == task_id]
    return task


def rubric_calls(task_id: str) -> int:
    """A summary per client pick and per near miss (the creators passed over), the persona and the conditions."""
    truth = brief(task_id).ground_truth
    return len(truth.selected) + len(truth.near_misses) + 2


def test_the_reselection_rate_counts_every_slot(project: Project, mstub: StubProcess) -> None:
    marketing_project(project)
    mstub.control(default_answer=reply(MAYA, "youtube.com/@MoneyWithMaya/videos", "tiktok.com/@ghost-creator", POPPY))
    out = project.pytest("evals/marketing", *stub_args(mstub), "-k", "pennypilot")
    result = only_result(out)
    task = brief(PENNY_PILOT)
    k, picks = task.inputs.k, len(task.ground_truth.selected)
    assert k == 6 and MAYA in task.ground_truth.selected and POPPY in [m.url for m in task.ground_truth.near_misses]
    # k = 6: Maya selected; her repeat, an unknown link, Poppy (judged No) and two empty slots are not
    assert result["score"] == pytest.approx(100 / k, abs=1e-3) and result["outcome"] == "failed"
    rows = result["details"]["recommendations"]
    assert [r["status"] for r in rows] == ["candidate", "duplicate", "not_in_pool", "candidate", "empty", "empty"]
    assert rows[0]["verdicts"]["openai/stub-judge"]["selected"] == "Yes" and rows[0]["client_pick"] is True
    assert rows[3]["verdicts"]["openai/stub-judge"]["selected"] == "No" and rows[3]["client_pick"] is False
    metrics = result["metrics"]
    # one of the client's eight picks, in six slots: recall at k counts it out of the six a list could hold
    assert picks == 8 and metrics["recall"] == pytest.approx(100 / k)
    assert metrics["overall"] == pytest.approx((100 + 25) / 2)  # levels 5 and 2 -> 100 and 25
    assert metrics["judged"] == 2.0
    assert result["judge_levels"] == {
        "selected": {"openai/stub-judge": ["Yes", "No"]},
        "overall": {"openai/stub-judge": [5, 2]},
    }
    stages = Counter((c["namespace"], c["stage"]) for c in result["calls"])
    assert stages == {
        ("sut", "sut"): 1,
        ("judge", "rubric"): rubric_calls(PENNY_PILOT),
        ("judge", "judge"): 2,
    }
    summary = (out.report_dir / out.run["run"]["run_id"] / "summary.md").read_text()
    (line,) = [line for line in summary.splitlines() if "pennypilot" in line and "k=6" in line]
    assert "YouTube @moneywithmaya: selected" in line and "not in pool" in line and "duplicate" in line
    (table,) = [t for t in out.run["tables"] if t["name"] == "xbench_marketing"]
    assert table["rows"][0]["cells"]["reselection_app"]["mean"] == pytest.approx(100 / k, abs=1e-3)
    assert table["rows"][0]["cells"]["reselection_game"]["mean"] is None


def test_the_persona_is_drawn_from_the_near_misses_as_well_as_the_picks(
    project: Project, fresh_stub: StubProcess
) -> None:
    """What the judge writes about a creator the client passed over reaches the persona prompt, and the persona
    reaches every verdict: the stub judge's summary of Poppy (a near miss) carries a mark, the persona is
    written only when that mark is in front of it, and a verdict says Yes only when that persona is."""
    marketing_project(project)
    fresh_stub.control(
        default_answer=reply(MAYA),
        judge_rules=[
            ["@poundwisepoppy", {"summary": "Poppy speaks to a UK audience (mark PASSED-OVER-POPPY)."}],
            ["PASSED-OVER-POPPY", {"persona": "A US money creator; not UK-facing like the one passed over (SAW-IT)."}],
            ["SAW-IT", {"selected": "Yes", "overall": 5}],
        ],
        judge_default={"selected": "No", "overall": 1},
    )
    result = only_result(project.pytest("evals/marketing", *stub_args(fresh_stub), "-k", "pennypilot"))
    made = {j["template"]: j["value"] for j in result["judges"] if j["ok"]}
    assert "PASSED-OVER-POPPY" in made[f"rubric summary {POPPY}"]["summary"]
    assert "SAW-IT" in made["rubric persona"]["persona"]
    assert result["judge_levels"]["selected"] == {"openai/stub-judge": ["Yes"]}
    assert result["score"] == pytest.approx(100 / 6, abs=1e-3)


def test_the_rubric_is_paid_once_per_brief_and_judge(project: Project, mstub: StubProcess) -> None:
    """A second system evaluated on the same brief makes no rubric call, and no verdict call for a creator
    already judged: only its own answer is new."""
    marketing_project(project)
    mstub.control(default_answer=reply(MAYA, DEVON))
    first = only_result(project.pytest("evals/marketing", *stub_args(mstub), "-k", "pennypilot"))
    assert sum(c["stage"] == "rubric" and not c["cache_hit"] for c in first["calls"]) == rubric_calls(PENNY_PILOT)
    mstub.control(reset_stats=True, default_answer=reply(DEVON, MAYA, POPPY))
    out = project.pytest("evals/marketing", *stub_args(mstub, "--model", "openai/another-agent"), "-k", "pennypilot")
    second = only_result(out)
    assert out.run["run"]["options"]["model"] == "openai/another-agent"
    rubric = [c for c in second["calls"] if c["stage"] == "rubric"]
    assert len(rubric) == rubric_calls(PENNY_PILOT) and all(c["cache_hit"] for c in rubric)
    verdicts = {c["cache_hit"] for c in second["calls"] if c["stage"] == "judge"}
    assert verdicts == {True, False}  # Maya and Devon were judged before; Poppy is new
    assert mstub.stats()["requests"] == 2  # the new agent's answer and Poppy's verdict
    assert second["score"] == pytest.approx(100 / 6, abs=1e-3)


def test_an_unreadable_reply_scores_zero_with_its_reason(project: Project, mstub: StubProcess) -> None:
    marketing_project(project)
    mstub.control(default_answer="I would go with Maya Okafor and Devon Pruitt; both fit the brief well.")
    result = only_result(project.pytest("evals/marketing", *stub_args(mstub), "-k", "pennypilot"))
    # the system's failure, as every benchmark scores it: 0, and the reason kept (with the answer)
    assert result["outcome"] == "failed" and result["score"] == 0.0 and result["error"]["fault"] == "system"
    assert "no JSON list" in result["error"]["message"] and "Maya Okafor" in result["answer"]
    assert [c["namespace"] for c in result["calls"]] == ["sut"]  # nothing to judge, no rubric paid for


def test_a_search_cut_by_its_cap_keeps_the_cap_and_the_effort(project: Project, mstub: StubProcess) -> None:
    """An agent that searches until its cap and then gives no list scores 0, and its result still says a cap
    stopped it and what it did: its turns and tool calls. (An empty answer at the cap: test_outcomes.py.)"""
    marketing_project(project)
    money = project.root / "evals" / "marketing" / "money.yaml"
    text = money.read_text()
    assert "      k: 6\n" in text
    money.write_text(text.replace("      k: 6\n", "      k: 6\n      limits: {max_steps: 3}\n", 1))
    endless = [{"name": "search", "arguments": {"query": "budgeting app creators US"}}] * 20
    mstub.control(tool_calls={"Penny Pilot": endless}, default_answer="I do not know.")
    result = only_result(project.pytest("evals/marketing", *stub_args(mstub), "-k", "pennypilot"))
    reason = "no list of creators could be read from the answer (after reaching its step limit, 4 turns)"
    assert result["score"] == 0.0 and result["error"]["fault"] == "system" and reason in result["error"]["message"]
    assert result["answer"] == "I do not know."
    assert result["details"]["stopped"] == "step_limit" and len(result["details"]["trajectory"]) == 3
    assert result["metrics"]["tool_calls"] == 3.0 and result["metrics"]["steps"] == 4.0
    assert [c["namespace"] for c in result["calls"]] == ["sut"] * 4  # no rubric, no verdict


def test_a_judge_reply_that_cannot_be_validated_is_a_judge_error(project: Project, mstub: StubProcess) -> None:
    marketing_project(project)
    mstub.control(default_answer=reply(MAYA), broken_json=True)
    result = only_result(project.pytest("evals/marketing", *stub_args(mstub), "-k", "pennypilot"))
    assert result["outcome"] == "error" and result["score"] is None
    assert result["error"]["kind"] == "judge" and "not a valid" in result["error"]["message"]


def test_a_panel_decides_per_judge_and_reports_agreement(project: Project, mstub: StubProcess) -> None:
    marketing_project(project)
    mstub.control(default_answer=reply(MAYA, POPPY))
    panel = ["--judge-model", "openai/stub-judge,openai/stub-judge-b"]
    out = project.pytest("evals/marketing", *stub_args(mstub, *panel), "-k", "pennypilot")
    result = only_result(out)
    assert result["judge_levels"]["selected"] == {
        "openai/stub-judge": ["Yes", "No"],
        "openai/stub-judge-b": ["Yes", "No"],
    }
    assert result["score"] == pytest.approx(100 / 6, abs=1e-3)  # the judges' mean
    rubric_models = Counter(c["model"] for c in result["calls"] if c["stage"] == "rubric")
    per_judge = rubric_calls(PENNY_PILOT)
    assert rubric_models == {"openai/stub-judge": per_judge, "openai/stub-judge-b": per_judge}  # a rubric per judge
    (agreement,) = [a for a in out.run["judge_agreement"] if a["dimension"] == "selected"]
    assert agreement["items"] == 2 and agreement["exact_agreement"] == 1.0


def test_a_brief_whose_pick_is_not_in_the_pool_is_refused_before_any_call(project: Project, mstub: StubProcess) -> None:
    marketing_project(project)
    money = project.root / "evals" / "marketing" / "money.yaml"  # the Penny Pilot brief's file
    assert DEVON in brief(PENNY_PILOT).ground_truth.selected and DEVON in money.read_text()
    money.write_text(money.read_text().replace(DEVON, "https://www.youtube.com/@devon-typo", 1))
    out = project.pytest("evals/marketing", *stub_args(mstub), "-k", "pennypilot or ponte")
    results = out.results
    bad = next(r for r in results.values() if "pennypilot" in r["nodeid"])
    index = brief(PENNY_PILOT).ground_truth.selected.index(DEVON)
    assert bad["outcome"] == "error" and f"ground_truth.selected.{index}" in bad["error"]["message"]
    assert "devon-typo is not a page of creator-pool" in bad["error"]["message"] and bad["calls"] == []
    assert next(r for r in results.values() if "ponte" in r["nodeid"])["outcome"] != "error"  # the others run


# -- the briefs ------------------------------------------------------------------------------------------


def briefs() -> list[Any]:
    return marketing_briefs()


@pytest.fixture(scope="module")
def creators() -> list[Any]:
    return read_pages(POOL)


def test_the_briefs_follow_the_papers_mix() -> None:
    tasks = briefs()
    industries = Counter(t.inputs.industry for t in tasks)
    assert len(tasks) == 50  # the paper's set
    for industry, share in {"App": 0.68, "Game": 0.16, "E-commerce": 0.16}.items():
        assert abs(industries[industry] - share * len(tasks)) <= 1.5, industries
    minutes = [t.metadata.expert_minutes for t in tasks]
    buckets = Counter("0-30" if m <= 30 else "30-60" if m <= 60 else "60-120" if m <= 120 else "120+" for m in minutes)
    for bucket, share in {"0-30": 0.36, "30-60": 0.20, "60-120": 0.22, "120+": 0.22}.items():
        assert abs(buckets[bucket] - share * len(tasks)) <= 1.5, buckets


def test_the_clients_picks_fit_their_briefs_and_the_near_misses_exist(creators: list[Any]) -> None:
    by_url = {profile_key(p.url): p for p in creators}
    problems = []
    for task in briefs():
        inputs, truth = task.inputs, task.ground_truth
        picks = [by_url.get(profile_key(link)) for link in truth.selected]
        misses = [by_url.get(profile_key(m.url)) for m in truth.near_misses]
        absent = [link for link, p in zip(truth.selected, picks, strict=True) if p is None]
        absent += [m.url for m, p in zip(truth.near_misses, misses, strict=True) if p is None]
        if absent:
            problems.append(f"{task.id}: not in the pool: {absent}")
            continue
        if not 2 <= len(picks) <= 30 or inputs.k > len(picks):
            problems.append(f"{task.id}: {len(picks)} picks for k = {inputs.k}")
        if not {p.data["platform"] for p in picks} <= set(inputs.platforms):
            problems.append(f"{task.id}: a pick on a platform the brief does not allow")
        regions = set(truth.checks.regions or []) if truth.checks else set()
        if not regions:
            problems.append(f"{task.id}: ground_truth.checks.regions names no market")
        for pick in picks:  # the client's audience is where the campaign runs, in every brief
            countries = set(pick.data["audience"]["top_countries"])
            if not countries & regions:
                problems.append(f"{task.id}: {pick.url} has no audience in {sorted(regions)} (its {sorted(countries)})")
        if not misses or {m.url for m in misses} & {p.url for p in picks}:
            problems.append(f"{task.id}: no near misses, or a near miss that is also a pick")
        # near misses are close: each shares the niche of a pick, or a pick's audience region
        for miss in misses:
            if miss.data["niche"] not in {p.data["niche"] for p in picks} and miss.data["region"] not in {
                p.data["region"] for p in picks
            }:
                problems.append(f"{task.id}: near miss {miss.url} shares neither niche nor region with a pick")
    assert not problems, "\n".join(problems)
