"""Command agents are untrusted code (harness.sandbox): what they may see, what they may start, and how their
files reach them. The agents here report what they observe as their answer; the tests read it back."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import Project, stub_args

from harness.errors import ConfigError
from harness.testing import StubProcess

SPY = """
import json, os, sys
task = json.load(sys.stdin)
project = {project!r}
seen = {{
    "evals": os.path.exists(os.path.join(project, "evals")),
    "task_file": os.path.exists(os.path.join(project, "evals", "sample", "facts.yaml")),
    "reports": os.path.exists(os.path.join(project, "reports")),
    "cache": os.path.exists(os.path.join(project, ".harness-cache")),
    "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "home_writable": os.access(os.environ["HOME"], os.W_OK),
}}
try:
    open(os.path.join(project, "reports", "planted.txt"), "w").write("x")
    seen["wrote_reports"] = True
except OSError:
    seen["wrote_reports"] = False
print(json.dumps({{"answer": json.dumps(seen)}}))
"""


def _run_spy(project: Project, stub: StubProcess, sandbox: str) -> dict[str, Any]:
    project.copy_sample()
    (project.root / "reports").mkdir(exist_ok=True)
    agent = project.root / "spy" / "agent.py"
    agent.parent.mkdir()
    agent.write_text(SPY.format(project=str(project.root)))
    out = project.pytest(
        "evals/sample", *stub_args(stub), "-k", "capital-france", "--sandbox", sandbox,
        "--agent-cmd", f"{sys.executable} spy/agent.py",
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["error"] is None, result["error"]
    return {"seen": json.loads(result["answer"]), "stdout": out.stdout}


@pytest.mark.needs_bwrap
def test_in_the_sandbox_an_agent_sees_none_of_the_project_nor_the_harness(
    project: Project, fresh_stub: StubProcess
) -> None:
    spied = _run_spy(project, fresh_stub, "bwrap")
    seen = spied["seen"]
    assert not seen["evals"] and not seen["task_file"] and not seen["reports"] and not seen["cache"]
    assert not seen["wrote_reports"] and not (project.root / "reports" / "planted.txt").exists()
    assert seen["home_writable"]
    assert max(seen["pids"]) < 50, "a PID namespace of its own: the harness's processes do not exist for it"
    assert "command agents run in a bubblewrap sandbox" in spied["stdout"]


def test_without_a_sandbox_the_header_says_so(project: Project, fresh_stub: StubProcess) -> None:
    spied = _run_spy(project, fresh_stub, "none")
    assert "harness WARNING: command agents run WITHOUT a sandbox" in spied["stdout"]
    assert spied["seen"]["home_writable"]


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.needs_bwrap)])
def test_a_relative_command_finds_the_agents_own_files(project: Project, fresh_stub: StubProcess, sandbox: str) -> None:
    """`--agent-cmd "python agents/main.py"` from the project folder: the script and the module beside it
    are there, read-only, in the agent's working folder."""
    project.copy_sample()
    project.write("agents/helper.py", "ANSWER = 'Paris'\n")
    project.write("agents/main.py", """
        import json, sys
        sys.path.insert(0, "agents")
        from helper import ANSWER
        json.load(sys.stdin)
        print(ANSWER)
        """)  # fmt: skip
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", sandbox,
        "--agent-cmd", f"{Path(sys.executable).name} agents/main.py",
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["outcome"] == "passed", result["error"]


def test_an_agent_command_that_names_the_tasks_is_refused_before_any_call(
    project: Project, fresh_stub: StubProcess
) -> None:
    project.copy_sample()
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "--agent-cmd", f"{sys.executable} agent.py evals/sample/facts.yaml"
    )
    assert out.returncode == 4 and "an agent may not read the run's tasks" in out.stderr
    assert fresh_stub.stats()["requests"] == 0


@pytest.mark.needs_bwrap
def test_an_agent_cannot_start_more_processes_than_its_cap(project: Project, fresh_stub: StubProcess) -> None:
    from harness.cgroups import layout

    if layout() is None:
        pytest.skip("this machine gives the harness no cgroup to cap processes with")
    project.copy_sample()
    project.write("agent.py", """
        import json, os, sys, time
        json.load(sys.stdin)
        started = 0
        for _ in range(120):
            try:
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                started += 1
            except OSError:
                break
        print(started)
        """)  # fmt: skip
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", "bwrap",
        "--agent-processes", "40", "--agent-cmd", f"{sys.executable} agent.py",
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["answer"] is not None and 0 < int(result["answer"]) < 40, result


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.needs_bwrap)])
def test_an_agent_cannot_take_more_memory_than_its_cap(project: Project, fresh_stub: StubProcess, sandbox: str) -> None:
    project.copy_sample()
    project.write("agent.py", """
        import json, sys
        json.load(sys.stdin)
        try:
            block = bytearray(600 * 2**20)
            print("allocated")
        except MemoryError:
            print("refused")
        """)  # fmt: skip
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", sandbox,
        "--agent-memory-mb", "256", "--agent-cmd", f"{sys.executable} agent.py",
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["answer"] == "refused", result


def test_without_bubblewrap_auto_falls_back_and_bwrap_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from harness import sandbox

    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    common: dict[str, Any] = {"named_files": [], "env_names": [], "protected": [], "limits": sandbox.Limits()}
    chosen = sandbox.plan("auto", "true", tmp_path, **common)
    assert chosen.mode == "none" and "bwrap is not installed" in (chosen.reason or "")
    assert "WITHOUT a sandbox: bwrap is not installed" in chosen.description
    with pytest.raises(ConfigError, match="--sandbox bwrap: bwrap is not installed"):
        sandbox.plan("bwrap", "true", tmp_path, **common)


def test_the_agents_environment_is_an_allow_list(tmp_path: Path) -> None:
    from harness import sandbox

    chosen = sandbox.Sandbox("none", tmp_path, [], env_names=("NODE_OPTIONS",))
    base = {"PATH": "/usr/bin", "LANG": "C.UTF-8", "NODE_OPTIONS": "--max-old-space-size=512",
            "MY_SERVICE_KEY_2": "x" * 20, "DATABASE_URL": "postgres://u:p@h/db", "HOME": "/root"}  # fmt: skip
    env = sandbox.Sandbox.environment(chosen, base, {"OPENAI_API_KEY": "hk-item-1"}, tmp_path)
    assert set(env) == {"PATH", "LANG", "NODE_OPTIONS", "HOME", "TMPDIR", "OPENAI_API_KEY"}
    assert env["HOME"] == str(tmp_path)


@pytest.mark.needs_bwrap
def test_a_python_installed_under_tmp_stays_visible_in_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project cloned under /tmp has its virtual environment there: the sandbox's private /tmp must not
    hide it (the agent's `python` and the MCP bridge live in it)."""
    import subprocess

    from harness import sandbox

    venv = tmp_path / "clone" / ".venv" / "bin"  # tmp_path is under /tmp, as a clone in /tmp/x would be
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\necho interpreter reached\n")
    (venv / "python").chmod(0o755)
    monkeypatch.setattr(sandbox, "_python_paths", lambda: [venv.parent])
    chosen = sandbox.Sandbox("bwrap", tmp_path / "project", [])
    folder = chosen.folder_for("item")
    try:
        done = subprocess.run(
            chosen.argv(str(venv / "python"), folder, None),
            env=chosen.environment(dict(os.environ), {}, folder),
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    finally:
        chosen.close()
    assert done.returncode == 0 and done.stdout.strip() == "interpreter reached", done.stderr
