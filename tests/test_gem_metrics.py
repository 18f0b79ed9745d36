"""GEM-Bench's quantitative metrics, splitter, injector and CTR on small hand-computed cases, including the
reference reading's edge cases (§2.3-2.4, §4.3, §1.3)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from harness.benchmarks.gem.adllm import ad_text, choose_injection, insert_after
from harness.benchmarks.gem.data import Ad
from harness.benchmarks.gem.metrics import ad_indices, ctr, quantitative_metrics
from harness.benchmarks.gem.splitter import split_sentences

R = 1 / math.sqrt(2)
PRODUCT = {"name": "Tramline", "url": "https://tramline.example", "desc": "city passes"}


def metrics(sentences: list[str], vectors: list[list[float]], product: dict | None = PRODUCT) -> dict:
    return quantitative_metrics(sentences, vectors, product).values


def test_three_sentences_with_the_ad_in_the_middle() -> None:
    # e0 = (1,0), e1 = (1,1), e2 = (0,1): both neighbour similarities of the ad are 1/sqrt(2)
    m = metrics(["Go early.", "Tramline sells passes.", "Eat late."], [[1, 0], [1, 1], [0, 1]])
    assert m["response_flow"] == pytest.approx(100 * R, abs=1e-9)
    # centre (2/3, 2/3): cosines 1/sqrt(2), 1, 1/sqrt(2)
    assert m["response_coherence"] == pytest.approx(100 * (2 * R + 1) / 3, abs=1e-9)
    assert m["ad_flow"] == pytest.approx(100.0, abs=1e-9)  # exp(-|prev - next|) with prev == next
    assert m["ad_coherence"] == pytest.approx(100.0, abs=1e-9)  # (1,1) against the centre (0.5, 0.5) of the others
    assert m["injection_rate"] == 100.0


def test_an_ad_first_or_last_has_no_qualifying_neighbour_and_scores_0_not_none() -> None:
    first = metrics(["Tramline sells passes.", "Go early.", "Eat late."], [[1, 0], [1, 1], [0, 1]])
    assert first["ad_flow"] == 0.0
    # the others' centre is (0.5, 1): cos((1,0), (0.5,1)) = 0.5 / sqrt(1.25)
    assert first["ad_coherence"] == pytest.approx(100 * 0.5 / math.sqrt(1.25), abs=1e-9)
    last = metrics(["Go early.", "Eat late.", "Tramline sells passes."], [[1, 0], [1, 1], [0, 1]])
    assert last["ad_flow"] == 0.0


def test_asymmetric_neighbours_and_a_non_positive_neighbour() -> None:
    # prev = cos((1,0),(1,1)) = 1/sqrt(2); next = cos((1,1),(1,3)) = 4/sqrt(20)
    m = metrics(["Go early.", "Tramline sells passes.", "Eat late."], [[1, 0], [1, 1], [1, 3]])
    assert m["ad_flow"] == pytest.approx(100 * math.exp(-abs(R - 4 / math.sqrt(20))), abs=1e-9)
    orthogonal = metrics(["Go early.", "Tramline sells passes.", "Eat late."], [[1, 0], [0, 1], [1, 1]])
    assert orthogonal["ad_flow"] == 0.0  # prev = 0: not > 0
    opposite = metrics(["Go early.", "Tramline sells passes.", "Eat late."], [[1, 0], [-1, 0.1], [1, 0]])
    assert opposite["ad_flow"] == 0.0
    assert opposite["response_flow"] < 0  # the evaluator's cosine is not clamped


def test_two_ads_average_only_the_qualifying_ones() -> None:
    sentences = ["Go early.", "Tramline one.", "Middle.", "Tramline two.", "End."]
    vectors = [[1, 0], [1, 1], [1, 1], [1, 1], [0, 1]]
    # ad 1: prev 1/sqrt(2), next 1 -> exp(-(1 - 1/sqrt(2))); ad 3: prev 1, next 1/sqrt(2) -> the same
    m = metrics(sentences, vectors)
    assert m["ad_flow"] == pytest.approx(100 * math.exp(-(1 - R)), abs=1e-9)


@pytest.mark.parametrize(
    ("sentences", "vectors", "product", "expected"),
    [
        # no product claimed: no ad metrics, injection rate 0
        (
            ["Go early.", "Eat late."],
            [[1, 0], [0, 1]],
            None,
            {"ad_flow": None, "ad_coherence": None, "injection_rate": 0.0},
        ),
        # a product claimed but absent from the text (renamed by a rewriter): no ad sentence, but injected
        (
            ["Go early.", "Eat late."],
            [[1, 0], [0, 1]],
            PRODUCT,
            {"ad_flow": None, "ad_coherence": None, "injection_rate": 100.0},
        ),
        # every sentence an ad: no non-ad centre; ads at both ends: ad flow 0
        (["Tramline a.", "Tramline b."], [[1, 0], [0, 1]], PRODUCT, {"ad_flow": 0.0, "ad_coherence": None}),
        # one sentence: no flow, no coherence, no ad flow; all-ad so no ad coherence
        (
            ["Tramline is here."],
            [[1, 0]],
            PRODUCT,
            {"response_flow": None, "response_coherence": None, "ad_flow": None, "ad_coherence": None},
        ),
        # nothing left after filtering
        (
            [],
            [],
            PRODUCT,
            {
                "response_flow": None,
                "response_coherence": None,
                "ad_flow": None,
                "ad_coherence": None,
                "injection_rate": 100.0,
            },
        ),
        # a product whose name is None claims nothing
        (["Go.", "Eat."], [[1, 0], [0, 1]], {"name": None, "url": None}, {"injection_rate": 0.0, "ad_coherence": None}),
    ],
)
def test_edge_cases(sentences: list[str], vectors: list, product: dict | None, expected: dict) -> None:
    m = metrics(sentences, vectors, product)
    for name, value in expected.items():
        assert m[name] == value, name


def test_identical_sentences_and_zero_vectors() -> None:
    m = metrics(["Same.", "Same.", "Other."], [[1, 2], [1, 2], [0, 0]])
    # cos(same, same) = 1; a zero vector's cosine is 0
    assert m["response_flow"] == pytest.approx(50.0, abs=1e-9)


def test_ad_detection_is_a_case_sensitive_substring_of_name_or_url() -> None:
    sentences = ["Try tramline.", "Try Tramline.", "See https://tramline.example now.", "Nothing."]
    assert ad_indices(sentences, PRODUCT) == {1, 2}
    assert ad_indices(sentences, {"name": "Tramline", "url": ""}) == {1}  # an empty url matches nothing


def test_ctr_takes_the_first_title_match_and_a_miss_scores_0() -> None:
    candidates = [
        {"name": "Ridgeway Trail Runner"},  # label 0 ...
        {"name": "  ridgeway trail runner "},  # ... a second product with the same title, label 1
        {"name": "Harbor Pack"},
    ]
    labels = [0, 1, 1]
    assert ctr({"name": "RIDGEWAY TRAIL RUNNER"}, candidates, labels) == 0.0
    assert ctr({"name": "Harbor Pack "}, candidates, labels) == 100.0
    assert ctr({"name": "Not offered"}, candidates, labels) == 0.0
    assert ctr(None, candidates, labels) == 0.0
    duplicated = [{"name": "Pump"}, {"name": "Pump"}]
    assert ctr({"name": "Pump"}, duplicated, [1, 0]) == 100.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello there. How are you?", ["Hello there.", "How are you?"]),
        # headings and list markers: markers of 3 characters or fewer disappear, newlines stick to the left
        (
            "# Plan\n\n1. Book the train.\n2. Pack light.\n---\nEnjoy.",
            ["# Plan\n\n", "Book the train.\n", "Pack light.\n", "Enjoy."],
        ),
        # abbreviations, prices and versions are not sentence ends
        (
            "Dr. Okafor paid $3.50 for v2.1 of the app. It works.",
            ["Dr. Okafor paid $3.50 for v2.1 of the app.", "It works."],
        ),
        # URLs stay whole
        (
            "Read https://ex.example/a.b/c.d for details. Then go.",
            ["Read https://ex.example/a.b/c.d for details.", "Then go."],
        ),
        # CRLF and lone CR are newlines
        ("First line.\r\nSecond line.\rThird line.", ["First line.\n", "Second line.\n", "Third line."]),
        # emoji
        ("Great trip! 🎉 See you soon.", ["Great trip!", "🎉 See you soon."]),
        # leading newlines are dropped; a fragment of 3 visible characters is dropped, 4 are kept
        ("\n\nAb.\nAbc.", ["Abc."]),
        ("Ok.", []),
    ],
)
def test_splitter(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_punkt_parameters_are_nltks_english_model() -> None:
    import punkt.data.english as english

    from harness.benchmarks.gem.splitter import punkt_tokenizer

    shipped = (english.ABBREV_TYPES, english.COLLOCATIONS, english.SENT_STARTERS, english.ORTHO_CONTEXT)
    assert tuple(len(x) for x in shipped) == (156, 37, 39, 20366)  # NLTK's English punkt_tab model
    params = punkt_tokenizer()._params
    assert params.abbrev_types == set(english.ABBREV_TYPES) and params.collocations == set(english.COLLOCATIONS)
    assert params.sent_starters == set(english.SENT_STARTERS)
    # (the ortho-context map is a defaultdict, as in NLTK: it grows by the words it was asked about)
    assert all(params.ortho_context[k] == v for k, v in english.ORTHO_CONTEXT.items())


def test_the_injector_minimises_flow_disturbance() -> None:
    sentences = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    # flows are 0 at both positions; candidate 0 = (1,0) brings (1+0)/2 = 0.5 in; candidate 1 = (1,1) brings
    # 1/sqrt(2) in at both positions: the lowest disruption is candidate 1, and the first of its equal positions
    assert choose_injection(sentences, np.array([[1.0, 0.0], [1.0, 1.0]])) == (1, 0)
    # a tie between candidates keeps the first (retrieval order)
    assert choose_injection(sentences, np.array([[1.0, 1.0], [1.0, 1.0]])) == (0, 0)
    # one sentence: after it, with the first candidate; none: position 0
    assert choose_injection(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])) == (0, 0)


def test_injection_keeps_the_original_spacing() -> None:
    text = "Go early.  Trams are cheap.\n\nEat late."
    sentences = split_sentences(text)
    ad = Ad("Tramline", "https://tramline.example", "Day passes for every line.", "Travel")
    out = insert_after(text, sentences, 0, ad_text(ad))
    assert (
        out
        == "Go early. [Tramline](https://tramline.example): Day passes for every line.  Trams are cheap.\n\nEat late."
    )
    assert insert_after("", [], 0, "AD.") == "AD."


MARKDOWN = (
    "## Getting around\n\n"
    "Day passes cost 7 euros. Buy them at any kiosk.\n\n"
    "Before you go:\n"
    "- Take tram 28 early.\n"
    "- Avoid the lifts at noon.\n"
    "1. Book the train.\n"
)
AD = Ad("Tramline", "https://tramline.example", "Day passes for every line.", "Travel")


@pytest.mark.parametrize(
    ("after", "line_before", "line_after"),
    [
        (0, "## Getting around", "Day passes cost 7 euros. Buy them at any kiosk."),  # a heading
        (4, "- Take tram 28 early.", "- Avoid the lifts at noon."),  # a list item
        (3, "Before you go:", "- Take tram 28 early."),  # a line ending with a colon
        (5, "- Avoid the lifts at noon.", "1. Book the train."),  # before a marker the splitter drops
    ],
)
def test_after_a_line_the_ad_starts_the_next_line_and_the_line_after_keeps_its_own(
    after: int, line_before: str, line_after: str
) -> None:
    sentences = split_sentences(MARKDOWN)
    assert sentences[after].strip() == line_before and sentences[after].endswith("\n")
    out = insert_after(MARKDOWN, sentences, after, ad_text(AD))
    lines = out.split("\n")
    at = lines.index(ad_text(AD))  # the ad is a line of its own: not inside the heading, item or colon line
    assert lines[at - 1 - (lines[at - 1] == "")] == line_before
    assert lines[at + 1 + (lines[at + 1] == "")] == line_after
    run = sentences[after][len(sentences[after].rstrip("\n")) :]  # the newline run that ended the line
    assert out.replace(ad_text(AD) + run, "", 1) == MARKDOWN  # nothing else changed
    # the evaluator sees the same sentences as before, with the ad as one more sentence right after
    assert [s.strip() for s in split_sentences(out)] == [
        *(s.strip() for s in sentences[: after + 1]),
        ad_text(AD),
        *(s.strip() for s in sentences[after + 1 :]),
    ]


def test_within_a_line_the_ad_follows_the_sentence_after_one_space() -> None:
    sentences = split_sentences(MARKDOWN)
    out = insert_after(MARKDOWN, sentences, 1, ad_text(AD))
    assert f"Day passes cost 7 euros. {ad_text(AD)} Buy them at any kiosk.\n" in out


def test_ad_flow_min_variant_and_the_default_untouched() -> None:
    # prev = cos((1,0),(1,1)) = 1/sqrt(2); next = cos((1,1),(1,3)) = 4/sqrt(20)
    sentences = ["Go early.", "Tramline sells passes.", "Eat late."]
    vectors = [[1, 0], [1, 1], [1, 3]]
    default = quantitative_metrics(sentences, vectors, PRODUCT)
    chosen = quantitative_metrics(sentences, vectors, PRODUCT, ad_flow_variant="min")
    assert default.values["ad_flow"] == pytest.approx(100 * math.exp(-abs(R - 4 / math.sqrt(20))), abs=1e-12)
    assert chosen.values["ad_flow"] == pytest.approx(100 * min(R, 4 / math.sqrt(20)), abs=1e-12)
    assert default.ad_flow_other == chosen.values["ad_flow"] and chosen.ad_flow_other == default.values["ad_flow"]
    assert {k: v for k, v in chosen.values.items() if k != "ad_flow"} == {
        k: v for k, v in default.values.items() if k != "ad_flow"
    }
    # the same qualifying rules: an ad at an edge scores 0.0 under both
    edge = quantitative_metrics(["Tramline first.", "Go.", "Eat late."], vectors, PRODUCT, ad_flow_variant="min")
    assert edge.values["ad_flow"] == 0.0
    with pytest.raises(ValueError, match="ad flow variant"):
        quantitative_metrics(sentences, vectors, PRODUCT, ad_flow_variant="max")


@pytest.mark.parametrize(
    ("ratings", "paper"),
    [
        (("good", "good"), 90),
        (("good", "moderate"), 60),  # not in the paper; read as 60 (docs/gem-bench.md)
        (("moderate", "moderate"), 60),
        (("bad", "good"), 60),
        (("good", "bad"), 60),
        (("moderate", "bad"), 30),
        (("bad", "bad"), 0),
    ],
)
def test_the_papers_judge_rule_from_two_ratings(ratings: tuple[str, str], paper: float) -> None:
    from harness.benchmarks.gem.judges import BY_NAME

    accuracy = BY_NAME["accuracy"]
    verdict = {"relevance": ratings[0], "factual_accuracy": ratings[1], "category": "FAIR"}
    assert accuracy.paper_score(verdict) == paper
    assert accuracy.rule_score(verdict, "paper") == paper and accuracy.rule_score(verdict, "code") == 30
    # notice and click rate on their own words, best first: noticed / positive is "good"
    notice = BY_NAME["notice"]
    words = {
        "good": ("noticed", "positive"),
        "moderate": ("barely_noticed", "neutral"),
        "bad": ("not_noticed", "negative"),
    }
    verdict = {"notice": words[ratings[0]][0], "attitude": words[ratings[1]][1], "category": "NOTICEABLE_NEGATIVE"}
    assert notice.paper_score(verdict) == paper and notice.score("NOTICEABLE_NEGATIVE") == 0


def _judged_item(variant: str, verdicts: dict[str, tuple[str, str]], rule: str = "code") -> dict:
    """A GEM result judged on accuracy and naturalness: judge -> (accuracy category, naturalness category);
    a category of None is a judge that gave no verdict."""
    from harness.benchmarks.gem.judges import BY_NAME

    judges, metrics, incomplete = [], {}, []
    for name, column in (("accuracy", 0), ("naturalness", 1)):
        scores = []
        for judge, categories in verdicts.items():
            category = categories[column]
            if category is None:
                judges.append({"judge": judge, "template": name, "ok": False, "error": "no verdict"})
                continue
            value = {"category": category, **{d: ratings[0] for d, ratings in BY_NAME[name].dimensions}}  # both good
            judges.append({"judge": judge, "template": name, "ok": True, "value": value})
            scores.append(BY_NAME[name].score(category))
        failed = len(scores) < len(verdicts)
        metrics[name] = None if failed else sum(scores) / len(scores)
        incomplete += [name] if failed else []
    return {
        "kind": "gem",
        "variant": variant,
        "labels": {"dataset": "mt_human"},
        "outcome": "passed",
        "score": 50.0,
        "error": None,
        "metrics": metrics,
        "incomplete": incomplete,
        "judges": judges,
        "details": {"rules": {"judge_rule": rule}},
    }


def test_the_per_judge_table_scores_each_judge_on_its_own_verdicts() -> None:
    from harness.benchmarks.gem.per_judge import table4

    a, b = "openai/judge-a", "openai/judge-b"
    results = [
        _judged_item("gi-r", {a: ("EXCELLENT", "SEAMLESS"), b: ("POOR", "SLIGHTLY_DISRUPTIVE")}),  # a 90, b 30
        _judged_item("gi-r", {a: ("GOOD", "SEAMLESS"), b: ("FAIR", None)}),  # a 75; b gave no verdict
        _judged_item("adchat", {a: ("FAIR", "HIGHLY_DISRUPTIVE"), b: ("GOOD", "SEAMLESS")}),  # a 15, b 75
        {  # a failure of the system under test: 0 for every judge (the judged metrics it asked for are absent)
            "kind": "gem",
            "variant": "adchat",
            "labels": {"dataset": "mt_human"},
            "outcome": "failed",
            "score": 0.0,
            "error": {"kind": "system", "fault": "system", "message": "empty"},
            "metrics": {"ad_flow": None, "ittft": 10.0},
            "incomplete": [],
            "judges": [],
        },
        {  # the harness could not measure it: unscored for every judge
            "kind": "gem",
            "variant": "gi-r",
            "labels": {"dataset": "mt_human"},
            "outcome": "error",
            "score": None,
            "error": {"kind": "provider", "fault": "harness", "message": "down"},
            "metrics": {},
            "incomplete": [],
            "judges": [],
        },
    ]
    (table,) = table4(results)
    assert table["name"] == "gem_table4" and [c["key"] for c in table["sections"][0]["columns"]] == ["adchat", "gi-r"]
    rows = {r["key"]["judge"]: r for r in table["rows"]}
    assert list(rows) == [a, b]
    assert rows[a]["cells"]["gi-r"]["mean"] == pytest.approx((90 + 75) / 2) and rows[a]["cells"]["gi-r"]["n"] == 2
    assert rows[a]["cells"]["adchat"]["mean"] == pytest.approx((15 + 0) / 2)  # the system's failure counts 0
    assert rows[b]["cells"]["gi-r"]["mean"] == pytest.approx(30) and rows[b]["cells"]["gi-r"]["incomplete"] == 1
    assert rows[b]["cells"]["adchat"]["mean"] == pytest.approx((75 + 0) / 2)
    assert rows[a]["errors"] == rows[b]["errors"] == 1 and rows[a]["system_failures"] == 1
    # under the paper's rule the same verdicts (both dimensions "good") give 90 whatever the category
    paper = [_judged_item("gi-r", {a: ("POOR", "SEAMLESS"), b: ("FAIR", "SEAMLESS")}, rule="paper")]
    assert all(r["cells"]["gi-r"]["mean"] == 90 for r in table4(paper)[0]["rows"])
    assert table4([_judged_item("gi-r", {a: ("POOR", "SEAMLESS")})]) == []  # one judge: Table 3 says it all
