"""Where a command agent runs: untrusted code, kept away from the ground truth, the keys and the run.

With bubblewrap (`bwrap`, Debian's `bubblewrap` package; `--sandbox bwrap`, or `auto` when it works here),
each item's process tree gets:
- its own PID namespace and `/proc`: the harness's processes (and their environments and command lines)
  do not exist for it, and when the agent's main process exits every process it started ends with it,
  daemons and double forks included;
- a read-only view of the system (`/usr`, the libraries, a few files of `/etc`), Python and the harness's
  virtual environment (for `python -m harness.gateway.mcp_stdio`), and nothing of the project: no tasks,
  fixtures, reports, caches, prompts or repository, whatever the layout (harness.sandbox_mounts: a folder
  holding one of them is mounted entry by entry without it); only the agent's own files, read-only, and a
  writable working folder of its own (`/home/agent`, also its HOME) and a private `/tmp` (capped in size
  where no cgroup caps the item's memory);
- an environment built from an allow-list (PATH, locale, time zone, and the names given with
  `--agent-env`), plus the gateway's variables: never the user's keys;
- limits: a cgroup capping processes and memory where this machine lets the harness create one, a cap on
  the processes of its own user namespace (RLIMIT_NPROC, counted per sandbox; the kernel does not apply it
  to a harness running as root), and a cap on each process's data segment everywhere.
What it does not promise: the network is shared (the agent reaches the gateway on 127.0.0.1, and can reach
whatever the machine can, a Redis cache on 127.0.0.1 included), unless `--agent-network gateway` leaves it
no network but the gateway (a Unix socket bound in, relayed inside); a kernel or bubblewrap bug is out of
scope.

Without bubblewrap (`--sandbox none`, or `auto` where it cannot run) the header says so once, and the
harness still does what it can: the allow-listed environment, the agent's own files, a working folder
outside the project, the harness's processes marked non-dumpable (their environments unreadable through
/proc to other processes of the same user), a process cap relative to this user's current count, and the
agent's process group, cgroup and every process carrying its item's credential killed when the item ends.
A process running as the same user can still read the project.

The agent's files (`agent_files`): what its command line names and `--agent-files` adds, each at the place
the command expects it, and for a script in a folder of its own that whole folder. A folder is never given
whole when it is, holds or lies inside the project's tasks (any task file's `evals` folder), fixtures,
prompts, reports, cache or repository, the project or invocation folder, the home folder or one of its
dot-folders: then the script alone is given, and the header says so.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from harness.cgroups import ItemGroup, Layout, layout
from harness.errors import ConfigError
from harness.project import PROTECTED, is_task_file  # noqa: F401 (PROTECTED re-exported)
from harness.sandbox_mounts import MountPlan, plan_mounts

MODES = ("auto", "bwrap", "none")
AGENT_HOME = "/home/agent"
ENV_ALLOWED = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM")
SYSTEM_READ_ONLY = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_READ_ONLY = (
    "/etc/alternatives", "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf", "/etc/hosts",
    "/etc/nsswitch.conf", "/etc/localtime", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
    "/etc/passwd", "/etc/group", "/etc/mime.types", "/etc/os-release",
)  # fmt: skip
# How many entries a folder may hold before it is not searched for task files: a folder found beside the
# agent's script is then not given whole; one named with --agent-files is refused.
FOLDER_CHECK_ENTRIES = 100_000
NAMED_CHECK_ENTRIES = 500_000
_PR_SET_DUMPABLE = 4
NETWORKS = ("shared", "gateway")
GATEWAY_SOCKET = "/run/harness/gateway.sock"  # where a sandbox without a network finds the gateway
# `--agent-network gateway`: inside the sandbox, 127.0.0.1:<the gateway's port> is served by this relay to the
# gateway's Unix socket, bound into the sandbox. It listens before it detaches (the agent starts only then),
# and it lives in the sandbox's PID namespace, so it ends with the item.
INNER_RELAY = """
import asyncio, os, socket, sys
port, path = int(sys.argv[1]), sys.argv[2]
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(128)
if os.fork():
    os._exit(0)
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
async def pipe(reader, writer):
    try:
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
        writer.write_eof()
    except OSError:
        pass
async def handle(reader, writer):
    try:
        upstream_reader, upstream_writer = await asyncio.open_unix_connection(path)
    except OSError:
        writer.close()
        return
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))
    writer.close()
    upstream_writer.close()
async def main():
    server = await asyncio.start_server(handle, sock=listener)
    await server.serve_forever()
asyncio.run(main())
"""


@dataclass(frozen=True)
class Limits:
    max_processes: int = 256
    max_memory_mb: int = 4096


@dataclass(frozen=True)
class AgentFile:
    """A file or folder of the agent's own, and where the agent finds it (relative: in its working folder).
    `link`: a symbolic link to `source`, a path the sandbox shows anyway (an interpreter, a virtual
    environment), rather than a read-only mount."""

    source: Path
    target: str
    link: bool = False


@dataclass(frozen=True)
class AgentFiles:
    """The agent's files, where it starts in its working folder (deeper than its root only when its
    command climbs out with `..`), and what the header says about files given alone."""

    files: list[AgentFile]
    start: str = "."
    notes: list[str] = field(default_factory=list)


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
    start: str = "."  # where the agent starts, relative to its working folder
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    network: str = "shared"  # or "gateway": no network in the sandbox but the gateway, through a Unix socket
    sockets: Path | None = None  # this process's gateway socket folder: private, never one a task can name
    hidden: tuple[Path, ...] = ()  # never shown, nor any folder holding one (harness.sandbox_mounts)
    strict: tuple[Path, ...] = ()  # as hidden, and nothing the sandbox shows may lie inside one
    tmp_size_mb: int | None = None  # the private /tmp's size: set where no cgroup caps the item's memory

    @property
    def description(self) -> str:
        if self.mode == "bwrap":
            caps = "processes and memory capped" if self.cgroups else "memory per process capped (no cgroup access)"
            net = "the network is shared" if self.network == "shared" else "no network but the gateway"
            text = f"command agents run in a bubblewrap sandbox ({caps}; {net})"
        else:
            why = f": {self.reason}" if self.reason else ""
            text = f"command agents run WITHOUT a sandbox{why}; they can read what this user can read"
        shown = [f.target + ("/" if f.source.is_dir() else "") for f in self.files if not f.link]
        if shown:
            text += f"; agent files: {', '.join(shown)}"
        if self.notes:
            text += f" ({'; '.join(self.notes)})"
        return text

    def folder_for(self, item: str) -> Path:
        """The item's working folder, emptied; `item` is unique in the run (external_agents.folder_name)."""
        if self.root is None:
            self.root = Path(tempfile.mkdtemp(prefix="harness-agents-"))
        folder = self.root / item
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        (folder / "tmp").mkdir()
        (folder / self.start).mkdir(parents=True, exist_ok=True)
        return folder

    def gateway_socket(self, name: str = "gateway") -> Path:
        """Where this process serves its gateway to a sandbox without a network (one socket per item, `name`):
        a Unix socket in a folder of its own (each xdist worker has its gateway and its sockets), apart from
        the items' working folders (a task may be named anything, `gateway.sock` included) and short enough
        for a socket's path."""
        if self.sockets is None:
            self.sockets = Path(tempfile.mkdtemp(prefix="harness-gw-"))
        return self.sockets / f"{name}.sock"

    def close(self) -> None:
        if self.sockets is not None:
            shutil.rmtree(self.sockets, ignore_errors=True)
            self.sockets = None
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

    def argv(
        self, command: str, folder: Path, group: ItemGroup | None, gateway_port: int | None = None,
        socket: Path | None = None,
    ) -> list[str]:  # fmt: skip
        """The command line that runs `command` (a shell command line) for one item. `gateway_port`: the
        gateway's, which a sandbox without a network serves from inside through its relay to `socket` (the
        item's Unix socket to the gateway)."""
        limit = f"ulimit -d {self.limits.max_memory_mb * 1024} 2>/dev/null; "
        processes = self._process_limit()
        if processes is not None:  # bash spells it -u, dash -p
            limit += f"ulimit -u {processes} 2>/dev/null || ulimit -p {processes} 2>/dev/null; "
        if self.mode == "bwrap" and self.network == "gateway":
            relay = [str(interpreter()), "-I", "-S", "-c", INNER_RELAY, str(gateway_port), GATEWAY_SOCKET]
            limit += f"{shlex.join(relay)} || exit 125; "
        limit += f"exec /bin/sh -c {shlex.quote(command)}"
        if self.mode == "bwrap":
            inner = [*self._bwrap_args(folder, socket), "/bin/sh", "-c", limit]
        else:
            self._link_files(folder)
            inner = ["/bin/sh", "-c", limit]
        if group is None:
            return inner
        files = [str(p) for p in group.procs_files()]
        enter = 'n=$1; shift; i=0; while [ "$i" -lt "$n" ]; do echo $$ > "$1" || exit 126; shift; i=$((i+1)); done'
        enter += '; exec "$@"'
        return ["/bin/sh", "-c", enter, "sh", str(len(files)), *files, *inner]

    def _process_limit(self) -> int | None:
        """RLIMIT_NPROC for the agent's processes. The kernel counts it per user and user namespace: in the
        sandbox's own namespace that is the sandbox's processes; without one it is every process of this
        user on the machine, so the cap is what this user runs now plus the item's share. Root is not bound
        by it (the cgroup is what caps a harness running as root)."""
        if self.mode == "bwrap":
            return self.limits.max_processes
        if os.getuid() == 0:
            return None
        return _threads_of_this_user() + self.limits.max_processes

    def cwd(self, folder: Path) -> Path:
        return folder if self.mode == "bwrap" else folder / self.start

    def group(self, item: str) -> ItemGroup | None:
        return ItemGroup.create(self.cgroups, item, self.limits.max_processes, self.limits.max_memory_mb)

    def _bwrap_args(self, folder: Path, socket: Path | None = None) -> list[str]:
        args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session"]
        args += ["--share-net"] if self.network == "shared" else []
        args += ["--unshare-user", "--uid", "1000", "--gid", "1000", "--disable-userns"]
        for path in SYSTEM_READ_ONLY:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
        system, python = self.mount_plans()
        for mount in system.mounts:
            args += mount.args()
        for path in ETC_READ_ONLY:
            args += ["--ro-bind-try", path, path]
        # The private /tmp first: a mount made after it may sit inside it (a project cloned under /tmp
        # has its virtual environment there), one made before it would be hidden by it.
        args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        if self.tmp_size_mb is not None and _bwrap_sizes_tmpfs():  # without a cgroup: /tmp capped by its size
            args[-2:-2] = ["--size", str(self.tmp_size_mb * 2**20)]
        for mount in python.mounts:
            args += mount.args()
        args += ["--bind", str(folder), AGENT_HOME]
        if self.network == "gateway":
            args += ["--bind", str(socket or self.gateway_socket()), GATEWAY_SOCKET]
        for item in self.files:  # sorted: a folder is mounted before what lies inside it
            target = item.target if item.target.startswith("/") else f"{AGENT_HOME}/{item.target}"
            if item.link:
                args += ["--symlink", str(item.source), target]
            else:
                args += ["--ro-bind", str(item.source), target]
        args += ["--chdir", os.path.normpath(f"{AGENT_HOME}/{self.start}"), "--"]
        return args

    def mount_plans(self) -> tuple[MountPlan, MountPlan]:
        """(the system's mounts, the harness's Python's): what the sandbox shows, without anything hidden."""
        return _mount_plans(self.hidden, self.strict)

    def check(self) -> str | None:
        """Why an agent cannot start in this sandbox, or None: the very command line items use (the relay to
        the gateway included), run once on an empty command, before any call."""
        if self.mode != "bwrap":
            return None
        with tempfile.TemporaryDirectory(prefix="harness-check-") as scratch:
            folder = Path(scratch) / "item"
            folder.mkdir()
            (folder / self.start).mkdir(parents=True, exist_ok=True)
            placeholder = None
            if self.network == "gateway":  # the socket is bound in: a file must be there to bind
                placeholder = self.gateway_socket()
                placeholder.touch()
            try:
                done = subprocess.run(
                    self.argv("exit 0", folder, None, gateway_port=65000), capture_output=True, text=True, timeout=60
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                return f"bwrap did not run ({exc})"
            finally:
                if placeholder is not None:
                    placeholder.unlink(missing_ok=True)
        said = " ".join((done.stderr or "").split())[-300:] or "no message"  # one line, its end
        if done.returncode == 125 and self.network == "gateway":
            return f"the relay to the gateway could not start inside the sandbox with {interpreter()} ({said})"
        if done.returncode != 0:
            return f"an empty agent exited with status {done.returncode} ({said})"
        return None

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


@functools.cache
def _bwrap_sizes_tmpfs() -> bool:
    """Whether this bubblewrap has `--size` (0.8 and later): a private /tmp of a given size."""
    try:
        done = subprocess.run(["bwrap", "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--size" in done.stdout + done.stderr


def interpreter() -> Path:
    """This Python as the sandbox shows it: its folder resolved (the sandbox mounts resolved paths, so a
    virtual environment reached through a symbolic link is not at the path the harness was started by),
    its own name kept (a virtual environment's `python` is a link to the base interpreter, and only the
    link makes it the environment's)."""
    executable = Path(sys.executable)
    return executable.parent.resolve() / executable.name


def _mount_plans(hidden: tuple[Path, ...] = (), strict: tuple[Path, ...] = ()) -> tuple[MountPlan, MountPlan]:
    python = _python_paths()
    system = [Path(p).resolve() for p in SYSTEM_READ_ONLY if os.path.isdir(p) and not os.path.islink(p)]
    return (
        plan_mounts(system, list(hidden), python, list(strict)),
        plan_mounts(python, list(hidden), python, list(strict)),
    )


def _python_paths() -> list[Path]:
    """What `python -m harness.gateway.mcp_stdio` needs, read-only: the interpreter's installation, the
    virtual environment and the harness package itself (an editable install points into the project)."""
    import harness

    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), Path(harness.__file__).resolve().parent}
    return sorted(p for p in paths if p.is_dir())


def _threads_of_this_user() -> int:
    """How many tasks (threads) run under this real user id: what RLIMIT_NPROC is compared with."""
    uid, total = str(os.getuid()), 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = dict(line.split(":", 1) for line in Path(entry.path, "status").read_text().splitlines())
        except (OSError, ValueError):
            continue
        if fields.get("Uid", "").split()[:1] == [uid]:
            total += int(fields.get("Threads", "1").strip() or 1)
    return total


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
    """Mark this process non-dumpable: its environment (the keys) and memory can then not be read by other
    processes of the same user through /proc (processes with CAP_SYS_PTRACE, root, still can). Every
    process of a run that holds keys calls it: the controller and each xdist worker."""
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


# -- the agent's own files ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Guard:
    """What an agent may never see. `protected`: the run's tasks, fixtures, prompts, reports, cache and
    repository; a path that is, holds or lies inside one is refused. `holders`: folders never given whole,
    by name (the project, the invocation folder, the home folder, the temporary folder, --agent-work): they
    hold the above, the user's dotfiles or other runs' working folders."""

    protected: list[Path]
    holders: list[tuple[str, Path]]
    home: Path | None

    @classmethod
    def build(cls, project: Path, invocation: Path, protected: list[Path], work: Path | None) -> Guard:
        guarded = {p.resolve() for p in protected}
        guarded |= {git for start in (project, invocation) if (git := _repository(start)) is not None}
        home = _home()
        holders = [("the project", project.resolve()), ("the invocation folder", invocation.resolve())]
        holders += [("the temporary folder", Path(tempfile.gettempdir()).resolve())]
        holders += [("the home folder", home)] if home is not None else []
        holders += [("--agent-work", work.resolve())] if work is not None else []
        return cls(sorted(guarded), holders, home)

    def problem(self, path: Path, *, whole_folder: bool) -> str | None:
        """Why the agent may not be given `path` (resolved): None when it may. `whole_folder`: a folder
        found beside a script (stricter: never the invocation folder, a top-level folder or a dot-folder
        of the home)."""
        for guarded in self.protected:
            if path == guarded or guarded in path.parents:
                return f"is in {guarded}"
        if "evals" in path.parts:
            return "is in an evals folder (where tasks are collected from)"
        for label, holder in self.holders:
            if (path == holder or path in holder.parents) and (whole_folder or label != "the invocation folder"):
                return f"{'is' if path == holder else 'holds'} {label} ({holder})"
        for guarded in self.protected:
            if path in guarded.parents:
                return f"holds {guarded}"
        if whole_folder:
            if len(path.parts) <= 2:
                return "is a top-level folder"
            if self.home is not None and self.home in path.parents:
                first = path.relative_to(self.home).parts[0]
                if first.startswith("."):
                    return f"is in {self.home / first}"
        if path.is_dir():
            return _task_file_under(path, FOLDER_CHECK_ENTRIES if whole_folder else NAMED_CHECK_ENTRIES)
        return None

    def hidden_paths(self) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
        """(hidden, strict) for the sandbox's mounts: no mount holds the project, the invocation folder, the
        home folder, --agent-work or what `protected` names; nothing it shows lies inside the latter."""
        holders = tuple(path for label, path in self.holders if label != "the temporary folder")
        return tuple(sorted({*holders, *self.protected})), tuple(self.protected)


def _home() -> Path | None:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return Path(home).resolve() if home and home != "/" else None


def _repository(start: Path) -> Path | None:
    """The `.git` of the repository that holds `start`, if any."""
    for folder in (start.resolve(), *start.resolve().parents):
        if (folder / ".git").exists():
            return folder / ".git"
    return None


def _task_file_under(folder: Path, budget: int) -> str | None:
    """A task file under `folder` (what pytest would collect as tasks: YAML inside an `evals` folder), or
    why the folder cannot be cleared; None when it holds none."""
    seen = 0
    for root, dirs, files in os.walk(folder):
        seen += len(dirs) + len(files)
        if seen > budget:
            return f"holds more than {budget:,} entries, too many to search for task files"
        base = Path(root)
        if "evals" in base.parts:
            for name in files:
                if is_task_file(base / name):
                    return f"holds the task file {base / name}"
    return None


def _visible(guard: Guard) -> Any:
    """Whether every sandbox of this run shows a path anyway (the system and the harness's Python)."""
    plans = _mount_plans(*guard.hidden_paths())
    return lambda path: any(plan.shows(path) for plan in plans)


def _climb(word: str) -> int:
    """How many folders above the invocation folder a relative path reaches (`../../a.py`: 2)."""
    parts = Path(os.path.normpath(word)).parts
    return next((i for i, part in enumerate(parts) if part != ".."), len(parts))


def agent_files(command: str, named: list[str], invocation: Path, guard: Guard) -> AgentFiles:
    """The agent's own files: what `--agent-files` names, and every path in the command line that exists,
    at the place the command expects it. A relative path keeps its place relative to where the agent
    starts, which mirrors the invocation folder (`node agent.js`, `./agent.sh`, `agents/main.py`, and
    `../agents/a.py`, for which the agent starts one folder down in its working folder); `~/x` is `x` in
    its home (its working folder); an absolute path keeps its own. A script's folder comes with it when
    it is a folder of its own (Guard.problem); otherwise the script alone, and a note says why.

    A named path that is, holds or lies inside the project's tasks, fixtures, reports, prompts, cache or
    repository, or holds the project or the home folder, is a ConfigError: the agent would read what it
    is graded on."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"--agent-cmd is not a valid command line ({exc})") from exc
    candidates = [(w, True) for w in words if not w.startswith("-") and ("/" in w or "." in w)]
    candidates += [(n, False) for n in named]
    relative = [w for w, _ in candidates if not os.path.isabs(w) and not w.startswith("~")]
    depth = min(max((_climb(w) for w in relative), default=0), len(invocation.parents))
    anchor = invocation.parents[depth - 1] if depth else invocation
    start = invocation.relative_to(anchor).as_posix() if depth else "."
    shown = _visible(guard)
    found: dict[str, AgentFile] = {}
    notes: list[str] = []

    for word, from_command in candidates:
        place = _place(word, anchor, start, guard.home)
        if place is None:
            continue
        base, target = place
        if target == "." and from_command:  # where the agent starts: its own working folder
            continue
        lexical = Path(os.path.normpath(base / target)) if not target.startswith("/") else Path(target)
        source = lexical.resolve()
        if not source.exists():
            if from_command:
                continue
            raise ConfigError(f"--agent-files {word}: no such file or folder")
        if from_command and shown(source):  # an interpreter or a system file: the sandbox shows it anyway
            if target.startswith("/"):
                if not shown(lexical):
                    found.setdefault(target, AgentFile(source, target, link=True))
                continue
            first = Path(target).parts[0]
            if shown((base / first).resolve()):  # a virtual environment: the whole of it, by a link
                found.setdefault(first, AgentFile((base / first).resolve(), first, link=True))
            else:
                found.setdefault(target, AgentFile(source, target, link=True))
            continue
        problem = guard.problem(source, whole_folder=False)
        if problem is not None:
            where = "--agent-cmd names" if from_command else "--agent-files names"
            raise ConfigError(
                f"{where} {word}, which {problem}: an agent may not read the run's tasks, fixtures, reports, "
                "prompts, cache or repository, nor the home folder; keep the agent's files in a folder of their own"
            )
        if target == ".":  # a copy of this folder cannot be the agent's writable working folder
            raise ConfigError(f"--agent-files {word} names the folder the agent starts in; name its files instead")
        entry = AgentFile(source, target)
        parent_target = os.path.dirname(target)
        if from_command and source.is_file() and parent_target not in ("", "/"):
            folder = lexical.parent.resolve()
            why = guard.problem(folder, whole_folder=True)
            if why is None:
                entry = AgentFile(folder, parent_target)
            else:
                notes.append(f"{target} alone: its folder {why}")
        elif from_command and source.is_file():
            why = guard.problem(lexical.parent.resolve(), whole_folder=True) or "is where the agent starts"
            notes.append(f"{target} alone: its folder {why}")
        found.setdefault(entry.target, entry)
    return AgentFiles(_without_nested(found), start, notes)


def _place(word: str, anchor: Path, start: str, home: Path | None) -> tuple[Path, str] | None:
    """(the folder `target` is relative to, the target): where the agent finds what `word` names."""
    if word.startswith("~"):
        expanded = os.path.expanduser(word)
        if expanded.startswith("~"):
            return None
        if (word == "~" or word.startswith("~/")) and home is not None:
            inside = os.path.relpath(os.path.normpath(expanded), home)
            return (home, inside) if not inside.startswith("..") else (Path("/"), os.path.normpath(expanded))
        return Path("/"), os.path.normpath(expanded)
    if os.path.isabs(word):
        return Path("/"), os.path.normpath(word)
    return anchor, os.path.normpath(os.path.join(start, word))


def _without_nested(found: dict[str, AgentFile]) -> list[AgentFile]:
    """Sorted by target (a folder before what lies in it), without entries a given folder already holds."""
    entries = sorted(found.values(), key=lambda f: f.target)
    folders = [f.target for f in entries if not f.link and f.source.is_dir()]
    return [f for f in entries if not any(f.target.startswith(d + "/") for d in folders if d != f.target)]


def cache_warnings(cache_url: str | None) -> list[str]:
    """A shared cache a command agent could write to: the network is shared, so an agent reaches a Redis on
    this machine, and without a password it could plant answers and verdicts that later runs replay."""
    if not cache_url:
        return []
    parts = urlsplit(cache_url)
    if parts.scheme not in ("redis", "rediss") or parts.password:
        return []
    return [
        "--cache-url has no password and command agents share this machine's network: an agent could write "
        "to the cache (use a Redis with a password; see docs/agents.md)"
    ]


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
    invocation: Path | None = None,
    cache_url: str | None = None,
    network: str = "shared",
) -> Sandbox:
    """Decide how this run's command agents run; a ConfigError (before any call) when that cannot work.
    `invocation`: the folder the command line is relative to (where pytest runs)."""
    if mode not in MODES:
        raise ConfigError(f"--sandbox must be one of {', '.join(MODES)}, got {mode!r}")
    if network not in NETWORKS:
        raise ConfigError(f"--agent-network must be one of {', '.join(NETWORKS)}, got {network!r}")
    if network == "gateway" and mode == "none":
        raise ConfigError("--agent-network gateway needs the sandbox: use --sandbox bwrap (or auto)")
    invocation = (invocation or Path.cwd()).resolve()
    guard = Guard.build(project, invocation, protected, work)
    found = agent_files(command, named_files, invocation, guard)
    if work is not None:
        for guarded in guard.protected:
            if work == guarded or guarded in work.parents or work in guarded.parents:
                raise ConfigError(f"--agent-work {work} is or holds {guarded}: agents would write there")
    reason = None
    chosen = mode
    if mode in ("auto", "bwrap"):
        problem = bwrap_problem() if probe else None
        if problem is not None and (mode == "bwrap" or network == "gateway"):
            asked = f"--sandbox {mode}" + (" --agent-network gateway" if network == "gateway" else "")
            raise ConfigError(f"{asked}: {problem}")
        chosen = "none" if problem is not None else "bwrap"
        reason = problem
    keep = work is not None
    if keep:
        work.mkdir(parents=True, exist_ok=True)
    hidden, strict = guard.hidden_paths()
    groups = layout()
    sandbox = Sandbox(
        chosen, project, found.files, tuple(env_names), limits, reason, groups, work, keep,
        start=found.start, notes=found.notes, network=network,
        warnings=cache_warnings(cache_url) if network == "shared" else [], hidden=hidden, strict=strict,
        tmp_size_mb=None if groups is not None else limits.max_memory_mb,
    )  # fmt: skip
    if chosen == "bwrap":
        for mount_plan in sandbox.mount_plans():
            if mount_plan.problems:
                raise ConfigError(
                    f"--sandbox: the harness's Python {mount_plan.problems[0]}: an agent would need "
                    "it; install the harness's environment outside the project's protected folders"
                )
        problem = sandbox.check() if probe else None
        if problem is not None:
            raise ConfigError(f"--sandbox {mode}: {problem}")
    return sandbox
