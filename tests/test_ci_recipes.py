"""The CI recipes and command examples in README.md and docs/ are what a team copies first: every YAML
block parses, every GitHub workflow passes GitHub's workflow schema (SchemaStore's, as check-jsonschema
ships it: tests/data/github-workflow.schema.json, Apache-2.0, its licence beside it), main's baseline is
saved whatever its items scored, provider-only workflows skip or cache the llama.cpp build, every
Kubernetes manifest names what it is, and every option an example uses exists."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(language: str) -> list[tuple[str, int, str]]:
    """(file, line, text) of every fenced block in that language."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == language:
                found.append((path.relative_to(REPO).as_posix(), text[: match.start()].count("\n") + 1, match.group(2)))
    return found


YAML = blocks("yaml")


def _documents(text: str) -> list[Any]:
    """The block's YAML documents; a top-level key `on` stays `on` (YAML 1.1 reads it as true, GitHub does not)."""
    docs = [d for d in yaml.safe_load_all(text) if d is not None]
    return [{("on" if k is True else k): v for k, v in d.items()} if isinstance(d, dict) else d for d in docs]


@pytest.mark.parametrize("where,line,text", YAML, ids=[f"{w}:{n}" for w, n, _ in YAML])
def test_every_yaml_block_parses(where: str, line: int, text: str) -> None:
    try:
        _documents(text)
    except yaml.YAMLError as exc:
        pytest.fail(f"{where}:{line}: not valid YAML: {exc}")


def _workflows() -> list[tuple[str, dict[str, Any]]]:
    """Whole workflows (a block whose first line names .github/workflows/), and step lists (fragments to
    paste into one), wrapped into a workflow of their own."""
    found = []
    for where, line, text in YAML:
        docs = _documents(text)
        if text.lstrip().startswith("# .github/workflows/"):
            found.append((f"{where}:{line}", docs[0]))
        elif len(docs) == 1 and isinstance(docs[0], list) and all(isinstance(s, dict) for s in docs[0]):
            wrapped = {"on": "push", "jobs": {"eval": {"runs-on": "ubuntu-latest", "steps": docs[0]}}}
            found.append((f"{where}:{line} (steps)", wrapped))
    return found


WORKFLOWS = _workflows()


def test_the_docs_hold_workflows() -> None:
    assert len([w for w, _ in WORKFLOWS if "(steps)" not in w]) >= 2 and len(WORKFLOWS) >= 4


@pytest.mark.parametrize("where,workflow", WORKFLOWS, ids=[w for w, _ in WORKFLOWS])
def test_workflows_pass_githubs_schema(where: str, workflow: dict[str, Any]) -> None:
    import jsonschema

    schema = json.loads((REPO / "tests/data/github-workflow.schema.json").read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(workflow), key=lambda e: list(e.path))
    assert not errors, f"{where}: " + "; ".join(f"{'/'.join(map(str, e.path))}: {e.message[:200]}" for e in errors)


def _steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for job in (workflow.get("jobs") or {}).values() for s in job.get("steps") or []]


def test_main_saves_its_baseline_whatever_its_items_scored() -> None:
    saving = [
        (where, step)
        for where, workflow in WORKFLOWS
        for step in _steps(workflow)
        if "baseline" in json.dumps(step) and "refs/heads/main" in str(step.get("if", ""))
    ]
    assert saving, "no step saves main's baseline"
    for where, step in saving:
        assert "always()" in str(step["if"]), f"{where}: {step.get('name')} is skipped when an item fails"


def test_provider_workflows_skip_or_cache_the_llama_build() -> None:
    for where, workflow in WORKFLOWS:
        text = json.dumps(workflow)
        if "--model openai/" not in text:
            continue
        for step in _steps(workflow):
            run = str(step.get("run", ""))
            if "scripts/install.sh" in run:
                cached = "harness/wheels" in text
                assert "--no-local-model" in run or cached, f"{where}: {step.get('name')} builds llama.cpp"


def test_kubernetes_manifests_name_what_they_are() -> None:
    manifests = [(w, n, d) for w, n, t in YAML for d in _documents(t) if isinstance(d, dict) and "apiVersion" in d]
    assert len(manifests) >= 3
    for where, line, doc in manifests:
        assert doc.get("kind") and (doc.get("metadata") or {}).get("name"), f"{where}:{line}: {doc.get('kind')}"
        assert isinstance(doc.get("spec"), dict), f"{where}:{line}: {doc['kind']} has no spec"


def test_install_without_the_local_model_builds_nothing(tmp_path: Path) -> None:
    """scripts/install.sh in a copy whose python and llama build are stand-ins that log what they are asked."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "requirements").mkdir()
    for name in ("install.sh",):
        (tmp_path / "scripts" / name).write_text((REPO / "scripts" / name).read_text())
    log = tmp_path / "log"
    (tmp_path / "scripts" / "build_llama.sh").write_text(f"echo build >> {log}; echo /nowhere.whl\n")
    fake = tmp_path / "python"
    fake.write_text(
        "#!/bin/sh\n"
        f'echo "python $*" >> {log}\n'
        'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; fi\n'
        "exit 0\n"
    )
    fake.chmod(0o755)
    env = {**os.environ, "PYTHON": str(fake)}
    env.pop("HARNESS_NO_LOCAL_MODEL", None)
    skipped = subprocess.run(["bash", "scripts/install.sh", "--no-local-model"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)  # fmt: skip
    assert skipped.returncode == 0, skipped.stderr
    assert "build" not in log.read_text().split() and "local.check" not in log.read_text()
    assert "embedded chat model was skipped" in skipped.stderr
    log.unlink()
    full = subprocess.run(["bash", "scripts/install.sh"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert full.returncode == 0, full.stderr
    assert "build" in log.read_text().split() and "harness.local.check" in log.read_text()
    wrong = subprocess.run(["bash", "scripts/install.sh", "--no-local"], cwd=tmp_path, env=env, capture_output=True,
                           text=True)  # fmt: skip
    assert wrong.returncode == 2 and "unknown option --no-local" in wrong.stderr


# -- command examples --------------------------------------------------------------------------------------

PYTEST = re.compile(r"^(?:\S*python\S* -m pytest|pytest)\s")
HARNESS = re.compile(r"^(?:\S*/)?harness\s")


def _commands() -> list[tuple[str, list[str]]]:
    """Every pytest and harness command line in the docs' shell blocks (continuations joined, comments
    dropped, alternatives split at ` | ` and `&&`), as words."""
    found = []
    for where, line, text in blocks("bash"):
        joined = text.replace("\\\n", " ")
        for offset, raw in enumerate(joined.splitlines()):
            for part in re.split(r"\s(?:\||&&)\s", raw):
                part = part.strip()
                part = re.sub(r"^bash scripts/install.sh\s*", "", part)
                if not (PYTEST.match(part) or HARNESS.match(part)):
                    continue
                try:
                    words = shlex.split(part, comments=True)
                except ValueError:
                    continue
                found.append((f"{where}:{line + offset}", words))
    return found


COMMANDS = _commands()


@pytest.fixture(scope="module")
def pytest_options() -> set[str]:
    """Every long option pytest knows with the harness's plugin and xdist (from `pytest --help`)."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--help"], cwd=REPO, capture_output=True, text=True)
    return set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*)", out.stdout))


def _harness_options(words: list[str], pytest_options: set[str]) -> set[str]:
    """The options the `harness` parser accepts along the subcommands these words name (and pytest's, for
    a subcommand that hands the rest of its command line to a pytest run)."""
    import argparse

    from harness.cli import build_parser

    parser: Any = build_parser()
    known: set[str] = set()
    for word in [*words, ""]:
        known |= {o for action in parser._actions for o in action.option_strings}
        if any(action.nargs == argparse.REMAINDER for action in parser._actions):
            known |= pytest_options
        subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subparsers and word in subparsers[0].choices:
            parser = subparsers[0].choices[word]
    return known


def test_the_docs_hold_command_examples() -> None:
    assert len([c for c in COMMANDS if "pytest" in " ".join(c[1][:3])]) >= 20
    assert len([c for c in COMMANDS if c[1][0].endswith("harness")]) >= 10


@pytest.mark.parametrize("where,words", COMMANDS, ids=[f"{w}" for w, _ in COMMANDS])
def test_every_option_an_example_uses_exists(where: str, words: list[str], pytest_options: set[str]) -> None:
    options = {w.split("=", 1)[0] for w in words if w.startswith("--")}
    known = _harness_options(words[1:], pytest_options) if words[0].endswith("harness") else pytest_options
    unknown = options - known
    assert not unknown, f"{where}: {' '.join(words)}: no such option {sorted(unknown)}"


def test_the_readme_selection_example_selects_items() -> None:
    """The README's -m/-k example, collected (not run): it must select something."""
    (line,) = [w for _, w in COMMANDS if "-m" in w and "-k" in w and w[0] == "pytest"]
    args = [w for w in line[1:] if w not in ("--repeats", "3")]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args, "--collect-only", "-q"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0 and "no tests collected" not in out.stdout, out.stdout[-1000:]


PYTHON = blocks("python")


@pytest.mark.parametrize("where,line,text", PYTHON, ids=[f"{w}:{n}" for w, n, _ in PYTHON])
def test_python_examples_parse_and_their_harness_imports_exist(where: str, line: int, text: str) -> None:
    import ast
    import importlib

    tree = ast.parse(text, filename=f"{where}:{line}")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness"):
            module = importlib.import_module(node.module or "")
            missing = [a.name for a in node.names if not hasattr(module, a.name)]
            assert not missing, f"{where}:{line + node.lineno}: {node.module} has no {', '.join(missing)}"


def test_the_readmes_stub_commands_pass_every_sample_item(tmp_path: Path) -> None:
    """The README's offline commands, run as written (on a free port, in a copy of the project's sample)."""
    import socket
    import time

    (block,) = [t for w, _, t in blocks("bash") if w == "README.md" and "stub_server" in t]
    server_line, run_line = [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = str(sock.getsockname()[1])
    server = shlex.split(server_line.rstrip("& ").replace("8089", port).replace("python ", f"{sys.executable} ", 1))
    server = [REPO / w if w.startswith("examples/") else w for w in server]
    stub = subprocess.Popen([str(w) for w in server], stdout=subprocess.PIPE, text=True)
    try:
        assert stub.stdout is not None and stub.stdout.readline().startswith("PORT")
        (tmp_path / "pytest.ini").write_text("[pytest]\n")
        (tmp_path / "evals").mkdir()
        import shutil

        shutil.copytree(REPO / "evals" / "sample", tmp_path / "evals" / "sample")
        words = shlex.split(run_line.replace("8089", port))
        started = time.monotonic()
        out = subprocess.run(
            [sys.executable, "-m", *words, "-p", "no:cacheprovider", "--call-retry-backoff", "0.01"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert out.returncode == 0, (out.stdout[-3000:], time.monotonic() - started)
        assert "24 passed" in out.stdout
    finally:
        stub.terminate()
        stub.wait(timeout=10)
