"""Pure logic: judge helpers, aggregation, redaction, retry timing, prices, tools, option checks."""

from __future__ import annotations

import argparse
import email.utils
import json
import re
import time
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.judge import PromptLibrary, extract_json
from harness.llm.pricing import FREE, load_price_file, price_for
from harness.llm.retry import backoff_delay, parse_retry_after
from harness.report.aggregate import summarize
from harness.scores import Scores
from harness.secrets import redact
from harness.self_preference import model_family, self_preference_warnings
from harness.settings import add_options, settings_from_options
from harness.tools import calculator


def test_a_verdict_is_the_whole_reply_never_json_found_in_prose() -> None:
    assert extract_json('```json\n{"grade": "correct"}\n```') == {"grade": "correct"}
    # JSON inside prose may be the candidate's, quoted by the judge: it is never the verdict
    with pytest.raises(ValueError, match="not a JSON object"):
        extract_json('The answer says {"grade": "correct"} but it is wrong.')
    with pytest.raises(ValueError):
        extract_json("no json here")


@pytest.mark.parametrize(
    ("sut", "judge", "expected"),
    [
        ("openai/gpt-4.1", "openai/gpt-4.1", "is the system under test itself"),
        ("openai/gpt-4.1", "openai/gpt-4o-mini", "same family (gpt)"),
        ("anthropic/claude-sonnet-4-5", "bedrock/anthropic.claude-3-haiku", "same family (claude)"),
        ("openai/gpt-4.1", "anthropic/claude-sonnet-4-5", None),
    ],
)
def test_self_preference_warnings(sut: str, judge: str, expected: str | None) -> None:
    warnings = self_preference_warnings(sut, [judge])
    if expected is None:
        assert warnings == []
    else:
        assert len(warnings) == 1 and expected in warnings[0]


def test_model_family() -> None:
    assert model_family("local/smollm2") == "smollm"
    assert model_family("openrouter/meta-llama/llama-3.1-8b") == "llama"


def test_prompt_library_blocks_hash_and_strict_variables(tmp_path: Path) -> None:
    (tmp_path / "t.j2").write_text("{% block system %}Be fair.{% endblock %}{% block user %}Q: {{ q }}{% endblock %}")
    library = PromptLibrary([tmp_path])
    rendered = library.render("t.j2", {"q": "why?"})
    assert rendered.messages == ({"role": "system", "content": "Be fair."}, {"role": "user", "content": "Q: why?"})
    from harness.errors import JudgeError

    with pytest.raises(JudgeError, match="'q' is undefined"):
        library.render("t.j2", {})
    with pytest.raises(JudgeError, match="not found"):
        library.render("missing.j2", {})
    other = tmp_path / "other"
    other.mkdir()
    (other / "t.j2").write_text("{% block user %}Q2: {{ q }}{% endblock %}")
    assert PromptLibrary([other]).template_hash("t.j2") != rendered.template_hash


def result(outcome: str, score: float | None, cost: float | None = 0.01) -> dict[str, object]:
    return {
        "outcome": outcome,
        "score": score,
        "usage": {
            "calls": 2,
            "input_tokens": 10,
            "output_tokens": 5,
            "cost_usd": cost or 0.0,
            "cost_known": cost is not None,
            "cache_hits": 1,
        },
    }


def test_summarize_excludes_errors_from_scores_and_pass_rate() -> None:
    stats = summarize([result("passed", 80), result("failed", 20), result("error", None, None)])
    assert stats["mean_score"] == 50 and stats["pass_rate"] == 0.5
    assert (stats["passed"], stats["failed"], stats["errors"]) == (1, 1, 1)
    assert stats["calls"] == 6 and stats["cache_hits"] == 3 and stats["cost_known"] is False
    assert summarize([])["mean_score"] is None


def test_scores_outside_0_100_are_rejected() -> None:
    with pytest.raises(ValueError):
        Scores(score=101)
    with pytest.raises(ValueError):
        Scores(score=-1)
    with pytest.raises(ValueError):
        Scores(score=float("nan"))


def test_metrics_are_finite_numbers_or_none() -> None:
    import numpy as np

    scores = Scores(score=np.float32(50.0), metrics={"a": np.float64(0.25), "b": None, "c": np.int64(3), "d": 1})
    assert scores.metrics == {"a": 0.25, "b": None, "c": 3.0, "d": 1.0}
    assert all(type(v) is float for v in scores.metrics.values() if v is not None)
    assert type(scores.score) is float
    for bad in (float("nan"), float("inf"), np.float32("nan"), "0.5", True):
        with pytest.raises(ValueError, match="metric 'x'"):
            Scores(score=1, metrics={"x": bad})


def test_details_that_are_not_json_make_an_internal_error_not_a_crash() -> None:
    import numpy as np

    from harness.result import plain_json

    assert plain_json({"a": (np.int32(2), np.float64(0.5)), 3: [np.bool_(True)]}) == {"a": [2, 0.5], "3": [True]}
    with pytest.raises(ValueError, match=r"details.sentences\[1\]"):
        plain_json({"sentences": [1.0, float("nan")]}, "details")
    with pytest.raises(ValueError, match="object"):
        plain_json({"x": object()})


def test_redaction_of_environment_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-1234567890")
    doc = {"a": ["error: bad key tok-1234567890", {"b": "sk-abcdefghijklmnop"}], "n": 3}
    assert json.dumps(redact(doc)).count("[REDACTED]") == 2 and redact(doc)["n"] == 3


def test_retry_after_forms() -> None:
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after("garbage") is None
    soon = email.utils.formatdate(time.time() + 5, usegmt=True)
    assert 3 <= (parse_retry_after(soon) or 0) <= 6
    assert backoff_delay(3, 1.0, retry_after=0.25) == 0.25
    assert 2.0 <= backoff_delay(3, 1.0) <= 4.0
    assert backoff_delay(20, 1.0) <= 30.0


def test_prices(tmp_path: Path) -> None:
    assert price_for("local/smollm2") == FREE
    known = price_for("openai/gpt-4o")
    assert known is not None and known.input_per_token > 0
    assert price_for("openai/no-such-model-anywhere") is None
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"my/model": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}))
    price = price_for("my/model", load_price_file(path))
    assert price is not None and price.cost(1000, 1000) == pytest.approx(0.003)
    path.write_text(json.dumps({"my/model": {"input_cost_per_token": "cheap"}}))
    with pytest.raises(ValueError, match="my/model"):
        load_price_file(path)


@pytest.mark.parametrize(
    ("text", "field", "shown"),
    [
        ('{"m": {"input_cost_per_token": 1e308, "output_cost_per_token": 0}}', "input_cost_per_token", "1e+308"),
        ('{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 1e999}}', "output_cost_per_token", "inf"),
        ('{"m": {"input_cost_per_token": NaN, "output_cost_per_token": 0}}', "input_cost_per_token", "nan"),
        ('{"m": {"input_cost_per_token": Infinity, "output_cost_per_token": 0}}', "input_cost_per_token", "inf"),
        ('{"m": {"input_cost_per_token": -2e-6, "output_cost_per_token": 1e-6}}', "input_cost_per_token", "-2e-06"),
        ('{"m": {"input_cost_per_token": true, "output_cost_per_token": 0}}', "input_cost_per_token", "True"),
    ],
)
def test_a_price_must_be_finite_non_negative_and_bounded(tmp_path: Path, text: str, field: str, shown: str) -> None:
    path = tmp_path / "prices.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=rf"prices.json: model .m.: {field} must be .*, got {re.escape(shown)}$"):
        load_price_file(path)


def test_calculator_is_safe() -> None:
    assert json.loads(calculator("(365 * 24) - 760")) == {"result": 8000}
    assert "error" in json.loads(calculator("__import__('os').system('true')"))
    assert "error" in json.loads(calculator("2 ** 1000000"))
    assert "error" in json.loads(calculator("1 / 0"))


HUGE_EXPRESSIONS = [
    "(((9**99)**99)**99)**99",  # each step is computable; the fourth has about 19 million digits
    "9**9**9**9",
    "10**(10**10)",
    "99999999999**99999999999",
    "(10**999)*(10**999)*(10**999)*(10**999)*(10**999)",
    "((2**4000)**4000)**4000 % 7",
    "-(7**99)**(99**2)",
]


def test_calculator_refuses_what_it_cannot_compute_before_computing_it() -> None:
    """Refused up front, never computed and then refused: in a process of its own, so a calculator that
    starts computing any of these fails this test by its timeout instead of freezing the suite."""
    import subprocess
    import sys

    program = (
        "import json, sys\nfrom harness.tools import calculator\n"
        "print(json.dumps([json.loads(calculator(e)) for e in json.loads(sys.argv[1])]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, json.dumps(HUGE_EXPRESSIONS)], capture_output=True, text=True, timeout=20
    )
    assert done.returncode == 0, done.stderr
    assert all("error" in reply for reply in json.loads(done.stdout)), done.stdout


def test_a_tool_past_its_time_is_an_error_the_model_reads_and_holds_nothing_open() -> None:
    """A sync tool that never returns: a tool error after its time limit, and its thread is a daemon (a
    pool's thread would be joined at exit, and hold the run open)."""
    import asyncio
    import threading

    from harness.solvers import run_tool
    from harness.tools import Tool

    release = threading.Event()
    stuck = Tool("stuck", "never returns", {"type": "object", "properties": {}}, lambda: release.wait(60), 0.2)
    try:
        output = asyncio.run(run_tool(stuck, "{}"))
        assert json.loads(output) == {"error": "stuck did not finish within 0.2 s"}
        (thread,) = [t for t in threading.enumerate() if t.name == "harness-call" and t.is_alive()]
        assert thread.daemon
    finally:
        release.set()


def options(**overrides: object) -> argparse.Namespace:
    """The plugin's real options with their real defaults, as pytest would parse an empty command line."""
    parser = argparse.ArgumentParser()

    class Group:
        def addoption(self, *names: str, **kwargs: object) -> None:
            parser.add_argument(*names, **kwargs)  # type: ignore[arg-type]

    class Registrar:
        def getgroup(self, *args: object) -> Group:
            return Group()

    add_options(Registrar())
    return argparse.Namespace(**{**vars(parser.parse_args([])), **overrides})


def test_defaults_are_the_embedded_models(tmp_path: Path) -> None:
    settings = settings_from_options(options(), tmp_path)
    assert settings.model == "local/smollm2" and settings.judge_models == ["local/smollm2"]
    assert settings.embedding_model == "local/all-minilm-l6-v2" and settings.uses_local_models
    panel = settings_from_options(options(model="openai/x", judge_model="a/b, c/d"), tmp_path)
    assert panel.judge_models == ["a/b", "c/d"] and not panel.uses_local_models


def test_the_tiny_model_notice_is_for_runs_that_use_it(tmp_path: Path) -> None:
    """The notice ("scores from a tiny offline model") is for runs where SmolLM2 answers or judges: not for a
    command agent on a provider's model judged by a provider's model."""
    (tmp_path / "a.sh").write_text("echo hi\n")
    remote = {"model": "openai/x", "judge_model": "openai/j"}
    assert not settings_from_options(options(**remote, agent_cmd="sh a.sh"), tmp_path).uses_local_models
    assert not settings_from_options(options(**remote, agent="m:f"), tmp_path).uses_local_models
    assert settings_from_options(options(model="openai/x", agent_cmd="sh a.sh"), tmp_path).uses_local_models
    assert settings_from_options(options(agent_cmd="sh a.sh", judge_model="openai/j"), tmp_path).uses_local_models


@pytest.mark.parametrize(
    ("url", "refused"),
    [
        ("http://alice:pw@h/v1", True),
        ("http://h/v1?api-key=abc", True),
        ("http://h/v1?path=a/b&region=eu", False),  # a query with no credential in it is just a query
        ("http://h:8000/v1", False),
    ],
)
def test_a_key_variable_and_credentials_in_the_url_are_refused_together_only(
    tmp_path: Path, url: str, refused: bool
) -> None:
    chosen = options(model="openai/x", api_base=url, api_key_env="K")
    if refused:
        with pytest.raises(ConfigError, match="carries credentials"):
            settings_from_options(chosen, tmp_path)
    else:
        assert settings_from_options(chosen, tmp_path).api_base == url


def test_judges_and_embeddings_never_inherit_the_systems_endpoint(tmp_path: Path) -> None:
    settings = settings_from_options(
        options(model="openai/x", api_base="http://10.0.0.1:8000/v1", judge_model="openai/j"), tmp_path
    )
    assert settings.api_base == "http://10.0.0.1:8000/v1"
    assert settings.judge_api_base is None and settings.embedding_api_base is None


def test_credentials_in_urls_never_reach_the_report_options(tmp_path: Path) -> None:
    settings = settings_from_options(
        options(model="openai/x", api_base="https://bob:pa55word-xyz@llm.internal/v1?api-key=k3y-value&region=eu"),
        tmp_path,
    )
    public = json.dumps(settings.public())
    assert "pa55word-xyz" not in public and "k3y-value" not in public and "bob" not in public
    assert "llm.internal/v1" in public and "region=eu" in public


def test_a_key_goes_only_to_its_own_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.errors import ProviderError
    from harness.llm.transports import LiteLLMTransport, endpoint_key

    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-0123456789")
    monkeypatch.setenv("MY_GATEWAY_KEY", "gw-0123456789")
    # the provider's own endpoint gets the provider's own key
    assert endpoint_key(None, None, "OPENAI_API_KEY") == "sk-openai-0123456789"
    # a custom endpoint gets no key unless one is named for it
    assert endpoint_key("http://127.0.0.1:9/v1", None, "OPENAI_API_KEY") is None
    assert endpoint_key("http://127.0.0.1:9/v1", "MY_GATEWAY_KEY", "OPENAI_API_KEY") == "gw-0123456789"
    # litellm would fill in the provider's key itself: a custom base gets a placeholder instead
    assert LiteLLMTransport._key_for("http://127.0.0.1:9/v1", None) == "no-key"
    assert LiteLLMTransport._key_for(None, None) is None
    with pytest.raises(ProviderError, match="NOT_SET_ANYWHERE"):
        endpoint_key(None, "NOT_SET_ANYWHERE", None)


def test_the_cache_key_ignores_credentials_in_the_endpoint() -> None:
    from harness.cache import cache_key, key_parts

    def key(base: str) -> str:
        return cache_key(key_parts("sut", model="m", api_base=base, payload={"messages": []}))

    assert key("https://u:one@h.example/v1?api-key=1") == key("https://u:two@h.example/v1?api-key=2")
    assert key("https://h.example/v1") != key("https://other.example/v1")
    parts = key_parts("sut", model="m", api_base="https://u:secret-pw@h.example/v1?token=t0k", payload={})
    assert "secret-pw" not in json.dumps(parts) and "t0k" not in json.dumps(parts)


def test_item_names_round_trip() -> None:
    from harness.collect import short_name
    from harness.item_names import item_name, parse_item_name

    assert item_name("t", None, 0, 1) == "t"
    assert item_name("t", "gir-r", 0, 1) == "t[gir-r]"
    assert item_name("t", None, 2, 3) == "t[r2]"
    assert item_name("t", "gi-r", 1, 3) == "t[gi-r/r1]"
    assert parse_item_name("t") == ("t", None, 0)
    assert parse_item_name("t[gir-r]") == ("t", "gir-r", 0)
    assert parse_item_name("t[r2]") == ("t", None, 2)
    assert parse_item_name("t[gi-r/r1]") == ("t", "gi-r", 1)
    long = "x" * 5000
    assert len(short_name(long)) < 60 and short_name(long) != short_name("x" * 4999)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"repeats": 0}, "--repeats"),
        ({"concurrency": 0}, "--concurrency"),
        ({"pass_threshold": 120.0}, "--pass-threshold"),
        ({"max_cost": -1.0}, "--max-cost"),
        ({"model": ""}, "--model must name a model"),
        ({"model": " "}, "--model must name a model"),
        ({"judge_model": ","}, "--judge-model must name"),
        ({"judge_model": "a/b,a/b"}, "names a judge twice"),
        ({"embedding_model": ""}, "--embedding-model must name"),
        ({"api_base": "localhost:8000"}, "--api-base must be an http"),
        ({"judge_api_base": "ftp://x"}, "--judge-api-base must be an http"),
        ({"api_key_env": "MY KEY"}, "--api-key-env names an environment variable"),
        ({"min_judge_agreement": 1.5}, "--min-judge-agreement must be a kappa from -1 to 1"),
    ],
)
def test_bad_option_values_are_refused(tmp_path: Path, overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        settings_from_options(options(**overrides), tmp_path)


def test_missing_local_extra_is_detected(tmp_path: Path) -> None:
    from harness.settings import missing_local_models

    settings = settings_from_options(options(), tmp_path)
    assert missing_local_models(settings, find_spec=lambda name: None) == ["local/smollm2"]
    assert missing_local_models(settings, find_spec=lambda name: object()) == []
    remote = settings_from_options(options(model="openai/x", judge_model="openai/y"), tmp_path)
    assert missing_local_models(remote, find_spec=lambda name: None) == []


def test_every_harness_package_ships_in_the_wheel() -> None:
    """pyproject lists packages explicitly (prompts/ ships as harness_prompts); a new folder must be added."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(path.parent.relative_to(root).parts)
        for path in (root / "harness").rglob("*")
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts
    }
    assert folders <= listed, f"add to [tool.setuptools] packages: {sorted(folders - listed)}"
