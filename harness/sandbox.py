"""Where a command agent runs: untrusted code, kept away from the ground truth, the keys and the run.

With bubblewrap (`bwrap`, Debian's `bubblewrap` package; `--sandbox bwrap`, or `auto` when it works here),
each item's process tree gets:
- its own PID namespace and `/proc`: the harness's processes (and their environments and command lines)
  do not exist for it, and when the agent's main process exits every process it started ends with it,
  daemons and double forks included;
- a read-only view of the system (`/usr`, the libraries, a few files of `/etc`), Python and the harness's
  virtual environment (for `python -m harness.gateway.mcp_stdio`), and nothing of the project: no tasks,
  fixtures, reports, caches, prompts or repository; only the agent's own files, read-only, and a writable
  working folder of its own (`/home/agent`, also its HOME) and a private `/tmp`;
- an environment built from an allow-list (PATH, locale, time zone, and the names given with
  `--agent-env`), plus the gateway's variables: never the user's keys;
- limits: a cgroup capping processes and memory where this machine lets the harness create one, and a
  cap on each process's data segment everywhere.
What it does not promise: the network is shared (the agent reaches the gateway on 127.0.0.1, and can reach
whatever the machine can); a kernel or bubblewrap bug is out of scope.

Without bubblewrap (`--sandbox none`, or `auto` where it cannot run) the header says so once, and the
harness still does what it can: the allow-listed environment, the agent's own files, a working folder
outside the project, the harness process marked non-dumpable (its environment unreadable to other users'
processes), and the agent's process group, cgroup and every process carrying its item's credential killed
when the item ends. A process running as the same user can still read the project.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness.cgroups import ItemGroup, Layout, layout
from harness.errors import ConfigError

MODES = ("auto", "bwrap", "none")
AGENT_HOME = "/home/agent"
# Folders of the project an agent may never see: what it is graded on, and what the run writes.
PROTECTED = ("evals", "fixtures", "reports", "prompts", ".harness-cache", ".git")
ENV_ALLOWED = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM")
SYSTEM_READ_ONLY = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_READ_ONLY = (
    "/etc/alternatives", "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf", "/etc/hosts",
    "/etc/nsswitch.conf", "/etc/localtime", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
    "/etc/passwd", "/etc/group", "/etc/mime.types", "/etc/os-release",
)  # fmt: skip
_PR_SET_DUMPABLE = 4


@dataclass(frozen=True)
class Limits:
    max_processes: int = 256
    max_memory_mb: int = 4096


@dataclass(frozen=True)
class AgentFile:
    """A file or folder of the agent's own, and where the agent finds it (relative: in its working folder)."""

    source: Path
    target: str


@dataclass
class Sandbox:
    """How this run's command agents are run; built once, before any call (`plan`)."""

    mode: str  # "bwrap" or "none"
    project: Path
    files: list[AgentFile]
    env_names: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    reason: str | None = None  # why not bwrap, when the user did not ask for none
    cgroups: Layout | None = None
    root: Path | None = None  # the run's working folders, outside the project
    keep: bool = False  # --agent-work: the folders stay after the run

    @property
    def description(self) -> str:
        if self.mode == "bwrap":
            caps = "processes and memory capped" if self.cgroups else "memory per process capped (no cgroup access)"
            return f"command agents run in a bubblewrap sandbox ({caps}; the network is shared)"
        why = f": {self.reason}" if self.reason else ""
        return f"command agents run WITHOUT a sandbox{why}; they can read what this user can read"

    def folder_for(self, item: str) -> Path:
        if self.root is None:
            self.root = Path(tempfile.mkdtemp(prefix="harness-agents-"))
        folder = self.root / item
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        (folder / "tmp").mkdir()
        return folder

    def close(self) -> None:
        if self.root is not None and not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    # -- one item -------------------------------------------------------------------------------------

    def environment(self, base: dict[str, str], extra: dict[str, str], folder: Path) -> dict[str, str]:
        """The agent's environment: the allow-list, the names the user passed, and `extra` (the gateway's)."""
        env = {k: v for k, v in base.items() if k in ENV_ALLOWED or k.startswith("LC_")}
        env.update({k: base[k] for k in self.env_names if k in base})
        home = AGENT_HOME if self.mode == "bwrap" else str(folder)
        env.update({"HOME": home, "TMPDIR": "/tmp" if self.mode == "bwrap" else str(folder / "tmp")})
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env.update(extra)
        return env

    def argv(self, command: str, folder: Path, group: ItemGroup | None) -> list[str]:
        """The command line that runs `command` (a shell command line) for one item."""
        limit = f"ulimit -d {self.limits.max_memory_mb * 1024} 2>/dev/null; exec /bin/sh -c {shlex.quote(command)}"
        if self.mode == "bwrap":
            inner = [*self._bwrap_args(folder), "/bin/sh", "-c", limit]
        else:
            self._link_files(folder)
            inner = ["/bin/sh", "-c", limit]
        if group is None:
            return inner
        files = [str(p) for p in group.procs_files()]
        enter = 'n=$1; shift; i=0; while [ "$i" -lt "$n" ]; do echo $$ > "$1" || exit 126; shift; i=$((i+1)); done'
        enter += '; exec "$@"'
        return ["/bin/sh", "-c", enter, "sh", str(len(files)), *files, *inner]

    def cwd(self, folder: Path) -> Path:
        return folder

    def group(self, item: str) -> ItemGroup | None:
        return ItemGroup.create(self.cgroups, item, self.limits.max_processes, self.limits.max_memory_mb)

    def _bwrap_args(self, folder: Path) -> list[str]:
        args = ["bwrap", "--unshare-all", "--share-net", "--die-with-parent", "--new-session"]
        args += ["--unshare-user", "--uid", "1000", "--gid", "1000", "--disable-userns"]
        for path in SYSTEM_READ_ONLY:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        for path in ETC_READ_ONLY:
            args += ["--ro-bind-try", path, path]
        # The private /tmp first: a mount made after it may sit inside it (a project cloned under /tmp
        # has its virtual environment there), one made before it would be hidden by it.
        args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        for path in _python_paths():
            args += ["--ro-bind", str(path), str(path)]
        args += ["--bind", str(folder), AGENT_HOME]
        for item in self.files:
            target = item.target if item.target.startswith("/") else f"{AGENT_HOME}/{item.target}"
            args += ["--ro-bind", str(item.source), target]
        args += ["--chdir", AGENT_HOME, "--"]
        return args

    def _link_files(self, folder: Path) -> None:
        """Without bwrap: the agent's relative files appear in its working folder as links."""
        for item in self.files:
            if item.target.startswith("/"):
                continue
            link = folder / item.target
            link.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                link.symlink_to(item.source)

    def end(self, process_group: int | None, group: ItemGroup | None, token: str) -> None:
        """Every process the item started ends now (its main process has, or its time is up)."""
        if process_group is not None:
            with contextlib.suppress(OSError):
                os.killpg(process_group, signal.SIGKILL)
        if group is not None:
            group.kill_all()
        if self.mode == "none":
            kill_carrying(token)


def _python_paths() -> list[Path]:
    """What `python -m harness.gateway.mcp_stdio` needs, read-only: the interpreter's installation, the
    virtual environment and the harness package itself (an editable install points into the project)."""
    import harness

    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), Path(harness.__file__).resolve().parent}
    return sorted(p for p in paths if p.is_dir())


def kill_carrying(token: str) -> int:
    """Kill every process of this user whose environment holds the item's credential: an agent's children
    that left its process group (`setsid`, double forks) still carry it. Returns how many were killed."""
    needle = f"HARNESS_ITEM_TOKEN={token}".encode()
    killed = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                os.kill(int(entry.name), signal.SIGKILL)
                killed += 1
        except OSError:
            continue
    return killed


def not_dumpable() -> None:
    """Mark the harness's own process non-dumpable: its environment (the keys) and memory can then not be
    read by other processes of the same user through /proc (processes with CAP_SYS_PTRACE, root, still can)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def bwrap_problem() -> str | None:
    """Why bubblewrap cannot run a sandbox here, or None when it can (one real, empty sandbox)."""
    if shutil.which("bwrap") is None:
        return "bwrap is not installed (Debian: apt-get install bubblewrap)"
    sandbox = Sandbox(mode="bwrap", project=Path("/nonexistent"), files=[])
    with tempfile.TemporaryDirectory(prefix="harness-probe-") as folder:
        argv = [*sandbox._bwrap_args(Path(folder)), "/bin/sh", "-c", "exit 0"]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bwrap did not run ({exc})"
    if done.returncode != 0:
        return f"bwrap cannot create its namespaces here ({(done.stderr or '').strip()[:200]})"
    return None


def agent_files(command: str, project: Path, named: list[str], protected: list[Path]) -> list[AgentFile]:
    """The agent's own files: what `--agent-files` names, and every path in the command line that exists
    (its script, with the folder it lives in unless that is the project itself). Paths inside the project
    appear at the same relative place in the agent's working folder, so `node agent.js` run from the project
    works; others at their own absolute path. A path inside the project's tasks, fixtures, reports, prompts,
    cache or repository is a ConfigError: the agent would read what it is graded on."""
    found: dict[str, AgentFile] = {}
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"--agent-cmd is not a valid command line ({exc})") from exc
    visible = [Path(p).resolve() for p in SYSTEM_READ_ONLY if os.path.exists(p)] + _python_paths()
    candidates = [(w, True) for w in words if not w.startswith("-") and ("/" in w or "." in w)]
    candidates += [(n, False) for n in named]
    for word, from_command in candidates:
        absolute = os.path.isabs(word)
        path = Path(word).resolve() if absolute else (project / word).resolve()
        if not path.exists():
            if from_command:
                continue
            raise ConfigError(f"--agent-files {word}: no such file or folder")
        if from_command and any(path == v or v in path.parents for v in visible):
            continue  # an interpreter or a system file: the sandbox shows it anyway
        for guarded in protected:
            if path == guarded or guarded in path.parents or path in guarded.parents:
                where = "--agent-cmd names" if from_command else "--agent-files names"
                raise ConfigError(
                    f"{where} {word}, which is or holds {guarded}: an agent may not read the run's tasks, "
                    "fixtures, reports, prompts, cache or repository; keep the agent's files in a folder of their own"
                )
        share = path
        if from_command and path.is_file() and path.parent != project and project in path.parents:
            share = project / path.relative_to(project).parts[0]  # the agent's folder, for its other files
        elif from_command and path.is_file() and project not in path.parents and path.parent.parent != path.parent:
            share = path.parent if len(path.parent.parts) > 2 else path  # its folder, unless that is / or /tmp
        inside = project in share.parents
        target = str(share) if absolute or not inside else str(share.relative_to(project))
        found.setdefault(target, AgentFile(share, target))
    return sorted(found.values(), key=lambda f: f.target)


def plan(
    mode: str,
    command: str,
    project: Path,
    *,
    named_files: list[str],
    env_names: list[str],
    protected: list[Path],
    limits: Limits,
    work: Path | None = None,
    probe: bool = True,
) -> Sandbox:
    """Decide how this run's command agents run; a ConfigError (before any call) when that cannot work."""
    if mode not in MODES:
        raise ConfigError(f"--sandbox must be one of {', '.join(MODES)}, got {mode!r}")
    files = agent_files(command, project, named_files, protected)
    if work is not None:
        for guarded in protected:
            if work == guarded or guarded in work.parents or work in guarded.parents:
                raise ConfigError(f"--agent-work {work} is or holds {guarded}: agents would write there")
    reason = None
    chosen = mode
    if mode in ("auto", "bwrap"):
        problem = bwrap_problem() if probe else None
        if problem is not None and mode == "bwrap":
            raise ConfigError(f"--sandbox bwrap: {problem}")
        chosen = "none" if problem is not None else "bwrap"
        reason = problem
    keep = work is not None
    if keep:
        work.mkdir(parents=True, exist_ok=True)
    return Sandbox(chosen, project, files, tuple(env_names), limits, reason, layout(), work, keep)
