"""harness.settings: the options checked together into one Settings."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.settings import add_options, settings_from_options


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
