"""Command agents are untrusted code (harness.sandbox): what they may see, what they may start, and how their
files reach them. The agents here report what they observe as their answer; the tests read it back."""

from __future__ import annotations

import json
import os
import shlex
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
    project.write("agent.py", "print('Paris')\n")  # the script exists: what is refused is the tasks it names
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "--agent-cmd", f"{sys.executable} agent.py evals/sample/facts.yaml"
    )
    assert out.returncode == 4 and "an agent may not read the run's tasks" in out.stderr, out.stderr
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


# -- the agent's own files: never a folder that holds the project, its tasks or the home folder ----------


def _guard(project: Path, invocation: Path | None = None) -> Any:
    from harness import sandbox

    protected = [project / name for name in sandbox.PROTECTED]
    return sandbox.Guard.build(project, invocation or project, protected, None)


def _layout(tmp_path: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_script_beside_the_project_is_given_alone_never_with_its_folder(tmp_path: Path) -> None:
    """`--agent-cmd /outer/peek.sh` for the project /outer/p1: the script's folder holds the project (and
    its tasks), so the agent gets the script alone, and the header says why."""
    from harness import sandbox

    _layout(tmp_path, {"peek.sh": "cat p1/evals/sample/facts.yaml\n", "p1/evals/sample/facts.yaml": "tasks: []\n"})
    project = tmp_path / "p1"
    found = sandbox.agent_files(f"{tmp_path / 'peek.sh'}", [], project, _guard(project))
    assert [(f.source, f.target) for f in found.files] == [(tmp_path / "peek.sh", str(tmp_path / "peek.sh"))]
    assert found.notes and "holds the project" in found.notes[0]


def test_a_script_in_the_home_folder_never_brings_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """~/agent.py with the project in ~/proj: neither `~/agent.py` nor its absolute path brings ~ (and
    ~/.aws with it); a script in a dot-folder of the home does not bring that folder either."""
    from harness import sandbox

    home = tmp_path / "home"
    _layout(home, {"agent.py": "", ".aws/credentials": "secret", ".config/tool/run.py": "", "proj/evals/a.yaml": ""})
    monkeypatch.setenv("HOME", str(home))
    project = home / "proj"
    for command in ("python3 ~/agent.py", f"python3 {home / 'agent.py'}", "python3 ~/.config/tool/run.py"):
        found = sandbox.agent_files(command, [], project, _guard(project))
        assert all(f.source.is_file() for f in found.files), (command, found.files)
        assert found.notes, command
    found = sandbox.agent_files("python3 ~/agent.py", [], project, _guard(project))
    assert [f.target for f in found.files] == ["agent.py"]  # `~` is the agent's home: its working folder
    elsewhere = tmp_path / "elsewhere"  # a project outside the home: naming the home is still refused
    with pytest.raises(ConfigError, match="is the home folder"):
        sandbox.agent_files("true", ["~"], elsewhere, _guard(elsewhere))


def test_tasks_collected_outside_the_project_folder_are_guarded_too(tmp_path: Path) -> None:
    """`cd outer && pytest p1/evals/sample --agent-cmd "sh p1/agent/peek2.sh"`: whatever the project folder
    is taken to be, the agent gets its own folder p1/agent/, never p1/ (which holds the tasks); a script
    directly in p1/ comes alone, and a task folder named on the command line is refused."""
    from harness import sandbox

    _layout(tmp_path, {"p1/agent/peek2.sh": "", "p1/agent/lib.sh": "", "p1/run.sh": "", "p1/evals/s/f.yaml": ""})
    for project in (tmp_path, tmp_path / "p1"):
        guard = _guard(project, invocation=tmp_path)
        found = sandbox.agent_files("sh p1/agent/peek2.sh", [], tmp_path, guard)
        assert [(f.source, f.target) for f in found.files] == [(tmp_path / "p1" / "agent", "p1/agent")]
        found = sandbox.agent_files("sh p1/run.sh", [], tmp_path, guard)
        assert [f.target for f in found.files] == ["p1/run.sh"] and "p1/run.sh alone" in found.notes[0]
        with pytest.raises(ConfigError, match="an agent may not read the run's tasks"):
            sandbox.agent_files("sh p1/run.sh p1/evals/s", [], tmp_path, guard)


def test_relative_commands_keep_their_place_from_the_invocation_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent starts where its command expects: `./agent.sh` and `agents/main.py` from its working
    folder, `../agents/a.py` one folder down in it; a relative path to an interpreter the sandbox shows
    anyway (a virtual environment) is a link to it."""
    from harness import sandbox

    _layout(tmp_path, {"proj/agent.sh": "", "proj/agents/main.py": "", "agents/a.py": "", "proj/evals/s/f.yaml": ""})
    venv = tmp_path / "proj" / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    monkeypatch.setattr(sandbox, "_python_paths", lambda: [venv.parent, Path(sys.base_prefix).resolve()])
    project = tmp_path / "proj"
    guard = _guard(project)
    found = sandbox.agent_files("./agent.sh", [], project, guard)
    assert found.start == "." and [f.target for f in found.files] == ["agent.sh"]
    found = sandbox.agent_files("python3 agents/main.py", [], project, guard)
    assert found.start == "." and [f.target for f in found.files] == ["agents"]
    found = sandbox.agent_files("python3 ../agents/a.py", [], project, guard)
    assert found.start == "proj" and [(f.source, f.target) for f in found.files] == [(tmp_path / "agents", "agents")]
    found = sandbox.agent_files(".venv/bin/python agents/main.py", [], project, guard)
    assert [(f.target, f.link) for f in found.files] == [(".venv", True), ("agents", False)]


@pytest.mark.needs_bwrap
def test_an_agent_beside_the_project_cannot_read_its_tasks(project: Project, fresh_stub: StubProcess) -> None:
    """The agent's script lies in the folder that holds the project: it runs, and the tasks are not there."""
    project.copy_sample()
    agent = project.root.parent / f"{project.root.name}-peek.py"
    agent.write_text(SPY.format(project=str(project.root)))
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", "bwrap",
        "--agent-cmd", f"{sys.executable} {agent}",
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["error"] is None, result["error"]
    seen = json.loads(result["answer"])
    assert not seen["evals"] and not seen["task_file"] and not seen["reports"]
    assert "alone: its folder holds the project" in out.stdout


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.needs_bwrap)])
def test_an_agent_in_a_sibling_folder_runs_by_its_relative_path(
    project: Project, fresh_stub: StubProcess, sandbox: str
) -> None:
    """`--agent-cmd "python ../agents/a.py"` from the project: the script runs and imports the module beside it."""
    project.copy_sample()
    folder = project.root.parent / f"{project.root.name}-agents"
    folder.mkdir()
    (folder / "helper.py").write_text("ANSWER = 'Paris'\n")
    (folder / "a.py").write_text("import json, sys\nfrom helper import ANSWER\njson.load(sys.stdin)\nprint(ANSWER)\n")
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", sandbox,
        "--agent-cmd", f"{Path(sys.executable).name} ../{folder.name}/a.py",
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"},
    )  # fmt: skip
    (result,) = out.results.values()
    assert result["outcome"] == "passed" and result["answer"] == "Paris", result["error"]


# -- the agent's processes ------------------------------------------------------------------------------


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.needs_bwrap)])
def test_an_agent_that_exits_while_its_children_hold_stdout_is_scored_and_they_end(
    project: Project, fresh_stub: StubProcess, sandbox: str
) -> None:
    """The agent prints its answer and exits 0, leaving two children on its stdout: one in its process
    group, one detached (its own session, a double fork). The answer is scored at once, and both end."""
    import socket

    project.copy_sample()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        agent = project.write("agent.py", f"""
            import json, os, socket, sys, time
            json.load(sys.stdin)
            def linger():
                sock = socket.create_connection(("127.0.0.1", {port}))
                time.sleep(300)
            if os.fork() == 0:
                linger()
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    linger()
                os._exit(0)
            time.sleep(0.5)
            print("Paris", flush=True)
            """)  # fmt: skip
        out = project.pytest(
            "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--sandbox", sandbox,
            "--agent-cmd", f"{sys.executable} {agent}", "--agent-timeout", "60",
        )  # fmt: skip
        (result,) = out.results.values()
        assert result["outcome"] == "passed" and result["answer"] == "Paris", result["error"]
        listener.settimeout(5)
        for _ in range(2):
            connection, _ = listener.accept()  # each child did connect
            connection.settimeout(10)
            with connection:
                assert connection.recv(1) == b"", "a child of the agent outlived its item"


@pytest.mark.needs_bwrap
def test_without_a_cgroup_the_sandbox_still_caps_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RLIMIT_NPROC, counted in the sandbox's own user namespace: an agent cannot fork past its cap where no
    cgroup is available. The kernel exempts root, so as root the sandbox runs as `nobody` here."""
    import shutil
    import subprocess
    import tempfile

    from harness import sandbox

    python = "/usr/bin/python3"
    prefix: list[str] = []
    if os.getuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root this test needs setpriv (util-linux) to run the sandbox as an ordinary user")
        prefix = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
    if not os.path.exists(python):
        pytest.skip(f"this test's agent needs {python}, which the sandbox shows from /usr")
    monkeypatch.setattr(sandbox, "_python_paths", lambda: [])  # the harness's Python may be unreadable to nobody
    root = Path(tempfile.mkdtemp(prefix="harness-nproc-"))
    root.chmod(0o755)
    forks = "import os, time\nn = 0\nfor _ in range(120):\n    try:\n        pid = os.fork()\n    except OSError:\n"
    forks += "        break\n    if pid == 0:\n        time.sleep(20)\n        os._exit(0)\n    n += 1\nprint(n)\n"
    chosen = sandbox.Sandbox("bwrap", tmp_path, [], limits=sandbox.Limits(max_processes=40), root=root)
    try:
        folder = chosen.folder_for("item")
        done = subprocess.run(
            [*prefix, *chosen.argv(f"{python} -c {shlex.quote(forks)}", folder, None)],
            env=chosen.environment(dict(os.environ), {}, folder), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        chosen.close()
    assert done.returncode == 0, done.stderr
    assert 0 < int(done.stdout) < 40, done.stdout


NOSY = """
import json, os, subprocess, sys, time
json.load(sys.stdin)
control = subprocess.Popen(["sleep", "30"], env={"CONTROL_MARK": "control-5e1d"})
time.sleep(0.2)
control_read, readable = False, []
for pid in os.listdir("/proc"):
    try:
        environ = open(f"/proc/{pid}/environ", "rb").read() if pid.isdigit() else b""
    except OSError:
        continue
    control_read |= b"control-5e1d" in environ
    if b"pk-live-91c0ffee" in environ:
        readable.append(pid)
control.kill()
print(json.dumps({"answer": json.dumps({"control": control_read, "readable": readable})}))
"""


def test_no_process_of_the_run_lets_an_agent_read_its_environment(project: Project, fresh_stub: StubProcess) -> None:
    """Without a sandbox, under xdist: the controller and every worker hold the keys in their environment,
    and each is non-dumpable, so an agent of the same user reads none of them through /proc. (Root reads
    every process's environment, so as root the run goes without capabilities, as an ordinary user's
    would; a dumpable process of the agent's own, the control, shows that the check can read one.)"""
    import shutil
    import subprocess

    from helpers import RunOutput

    prefix: list[str] = []
    if os.getuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root this test needs setpriv (util-linux) to run the harness without capabilities")
        prefix = ["setpriv", "--bounding-set", "-all", "--inh-caps", "-all", "--ambient-caps", "-all"]
    project.copy_sample()
    agent = project.write("agent.py", NOSY)
    command = project.command(
        "evals/sample", *stub_args(fresh_stub, "--api-key-env", "MY_PROVIDER_KEY"), "-k", "capital-france",
        "-n", "2", "--sandbox", "none", "--agent-cmd", f"{sys.executable} {agent}",
    )  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")} | {"MY_PROVIDER_KEY": "pk-live-91c0ffee"}
    done = subprocess.run([*prefix, *command], cwd=project.root, env=env, capture_output=True, text=True, timeout=300)
    out = RunOutput(done.returncode, done.stdout, done.stderr, project.report_dir, project.cache_dir)
    (result,) = out.results.values()
    assert result["error"] is None, result["error"]
    seen = json.loads(result["answer"])
    assert seen["control"], "the check could not read even a dumpable process's environment"
    assert seen["readable"] == [], "a process of the run left its keys readable through /proc"


# -- what the agent prints ------------------------------------------------------------------------------


def test_an_agents_text_is_cleaned_at_the_boundary() -> None:
    """Terminal escapes, C0/C1 controls and bidirectional overrides leave stderr tails; lone surrogates in
    an answer (half an emoji, in JSON) become U+FFFD; text and newlines stay."""
    from harness.external_agents import printable, read_answer

    raw = "bad \x1b[31mRED\x1b]0;pwned-title\x07 \x1b[2J\r\roverwrite \x1bP1;2q\x1b\\ "
    raw += "\x9b2J \u202eevil\u2066x\u2069\nok"
    assert printable(raw) == "bad RED overwrite  2J evilx\nok"
    assert read_answer(b'{"answer": "Paris \\ud83d"}', "stdout") == "Paris \ufffd"
    assert read_answer(b'{"answer": "smile \\ud83d\\ude00"}', "stdout") == "smile \U0001f600"


def test_an_agents_stderr_and_a_cut_emoji_reach_no_terminal_or_report_raw(
    project: Project, fresh_stub: StubProcess
) -> None:
    """One item answers with a lone surrogate: it is scored, and the run's report is written. Another fails
    with escapes and a right-to-left override on stderr: its reason, in results.json and on the terminal,
    carries the text without them."""
    project.copy_sample()
    agent = project.write("agent.py", r"""
        import json, sys
        task = json.load(sys.stdin)
        if task["id"] == "capital-france":
            print('{"answer": "Paris \\ud83d"}')
        else:
            sys.stderr.write("bad \x1b[31mRED\x1b]0;pwned-title\x07 \x1b[2J\r\roverwrite \u202eevil\n")
            sys.exit(3)
        """)  # fmt: skip
    out = project.pytest(
        "evals/sample", *stub_args(fresh_stub), "-k", "capital-france or capital-japan", "--sandbox", "none",
        "--agent-cmd", f"{sys.executable} {agent}",
    )  # fmt: skip
    results = {r["task_id"]: r for r in out.results.values()}
    assert results["capital-france"]["answer"] == "Paris \ufffd" and results["capital-france"]["error"] is None
    message = results["capital-japan"]["error"]["message"]
    assert "stderr ends: bad RED overwrite evil" in message, message
    for raw in ("\x1b", "\x07", "\r", "\u202e", "pwned-title"):
        assert raw not in message, repr(raw)
    for raw in ("\x1b]0;", "\u202e", "pwned-title"):
        assert raw not in out.stdout, repr(raw)


def test_a_shared_cache_without_a_password_is_flagged_in_the_header(project: Project) -> None:
    """Agents share the machine's network: a Redis without a password is one they could write to."""
    from harness.sandbox import cache_warnings

    assert cache_warnings("redis://:s3cret@127.0.0.1:6379/0") == []
    assert cache_warnings(None) == [] and cache_warnings("unix:///run/redis.sock") == []
    project.copy_sample()
    out = project.pytest(
        "evals/sample", "--collect-only", "--cache-url", "redis://127.0.0.1:6390/0",
        "--agent-cmd", "true", "--sandbox", "none",
    )  # fmt: skip
    assert "WARNING: --cache-url has no password and command agents share this machine's network" in out.stdout


REACHER = """
import json, os, socket, sys, urllib.request
task = json.load(sys.stdin)
messages = [{{"role": "user", "content": task["prompt"]}}]
body = json.dumps({{"model": "m", "messages": messages, "stream": True}}).encode()
request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
                                 headers={{"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                           "Content-Type": "application/json"}})
text = ""
for line in urllib.request.urlopen(request):
    chunk = json.loads(line[6:]) if line.startswith(b"data: {{") else {{}}
    for choice in chunk.get("choices") or []:
        text += choice["delta"].get("content") or ""
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
    reached = "reached"
except OSError:
    reached = "blocked"
print(json.dumps({{"answer": text + " | " + reached}}))
"""


@pytest.mark.needs_bwrap
@pytest.mark.parametrize("network", ["shared", "gateway"])
def test_an_agent_without_a_network_still_reaches_the_gateway(
    project: Project, fresh_stub: StubProcess, network: str
) -> None:
    """`--agent-network gateway`: the agent streams a reply from the gateway as usual, and nothing else on
    this machine answers it (a listener on 127.0.0.1, as a Redis cache would be); with the shared network,
    the same listener answers."""
    import socket

    project.copy_sample()
    fresh_stub.control(answers={"capital of France": "Paris"})
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        agent = project.write("agent.py", REACHER.format(port=listener.getsockname()[1]))
        out = project.pytest(
            "evals/sample", *stub_args(fresh_stub), "-k", "capital-france", "--agent-network", network,
            "--agent-cmd", f"{sys.executable} {agent}",
        )  # fmt: skip
    (result,) = out.results.values()
    assert result["error"] is None, result["error"]
    assert result["answer"] == f"Paris | {'blocked' if network == 'gateway' else 'reached'}"
    assert len(result["calls"]) == 1


def test_no_network_but_the_gateway_needs_the_sandbox(tmp_path: Path) -> None:
    from harness import sandbox

    common: dict[str, Any] = {"named_files": [], "env_names": [], "protected": [], "limits": sandbox.Limits()}
    with pytest.raises(ConfigError, match="--agent-network gateway needs the sandbox"):
        sandbox.plan("none", "true", tmp_path, network="gateway", probe=False, **common)
    chosen = sandbox.plan("bwrap", "true", tmp_path, network="gateway", probe=False, cache_url="redis://h/0", **common)
    assert "no network but the gateway" in chosen.description and chosen.warnings == []
