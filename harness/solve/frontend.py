"""What the solver sees: the prompt, the tools' outputs as plain text, the budget, the score.

Two ways in, the same commands: a terminal prompt (`solve> `) for people, and one command per process
(`harness solve --session DIR search ...`) for agents that drive a detached solve step by step. Nothing
here reads a task file: the prompt comes from the agent inside the run, the score from the run's result.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from harness.solve import protocol
from harness.solve.session import Session, read_json, write_json

COMMANDS = """commands:
  search QUERY          search the task's world (one call)
  open URL [PAGE]       open a page (one call); open N opens the N-th result of the last search
  call TOOL JSON        any tool of the task with JSON arguments, e.g. call search {"query": "x", "k": 10}
  answer                write the answer here, ending with a line that holds a single "."
  answer FILE           the answer is the text of FILE ("-": standard input)
  budget                calls used and left, minutes taken
  prompt                show the task's prompt again
  tools                 the task's tools and their arguments
  quit                  give up without an answer (the item scores 0)"""
ONE_SHOT = """commands (one per call: harness solve --session DIR COMMAND ...):
  search QUERY | open URL [PAGE] | open N | call TOOL JSON | answer FILE | answer - (standard input)
  budget | prompt | tools | wait (the score, once answered) | quit (give up: the item scores 0)"""


ENDED = {
    "answered": "the answer was given",
    "quit": "the solve was given up",
    "stopped": "the task's time limit ran out",
    "idle": "no command came for the idle limit (--idle-minutes)",
}


class SolveError(Exception):
    """Something the solver is told in one line (a refused call, a session that is over, bad input)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Reply:
    text: str
    code: int = 0


def budget_line(fields: dict[str, Any]) -> str:
    used, budget = fields.get("calls_used"), fields.get("call_budget")
    left = fields.get("calls_left")
    line = f"calls: {used} of {budget} used, {left} left; {float(fields.get('minutes') or 0):.1f} minutes"
    if fields.get("time_limit_minutes"):
        line += f" (time limit {fields['time_limit_minutes']:g} minutes)"
    return line


def show_search(output: str) -> tuple[str, list[str]]:
    """Search results as a numbered list, and their URLs (for `open N`)."""
    try:
        data = json.loads(output)
        results = data["results"]
    except (ValueError, KeyError, TypeError):
        return show_raw(output), []
    if not results:
        return "no results", []
    lines, urls = [], []
    for number, hit in enumerate(results, 1):
        urls.append(str(hit.get("url")))
        lines += [f"{number}. {hit.get('title')}", f"   {hit.get('url')}", f"   {hit.get('snippet')}", ""]
    return "\n".join(lines).rstrip(), urls


def show_open(output: str) -> str:
    try:
        data = json.loads(output)
    except ValueError:
        return show_raw(output)
    if not isinstance(data, dict) or "text" not in data:
        return show_raw(output)
    head = f"{data.get('title')}\n{data.get('url')}"
    pages = int(data.get("pages") or 1)
    if pages > 1:
        page = int(data.get("page") or 1)
        more = f"; next: open {data.get('url')} {page + 1}" if page < pages else ""
        head += f"  (part {page} of {pages}{more})"
    return f"{head}\n\n{data['text']}"


def show_raw(output: str) -> str:
    try:
        data = json.loads(output)
    except ValueError:
        return output
    if isinstance(data, dict) and set(data) == {"error"}:
        return f"error: {data['error']}"
    return json.dumps(data, indent=1, ensure_ascii=False)


def result_text(summary: dict[str, Any]) -> str:
    """The end of a solve: the score and where the report is; never the judges' reasoning."""
    lines = []
    if summary.get("score") is not None:
        level = (summary.get("metrics") or {}).get("level")
        shown = f"score {float(summary['score']):.1f}"
        if level is not None:
            shown += f" (level {float(level):g} of 5)"
        lines.append(f"{shown}, outcome {summary.get('outcome')}")
    else:
        lines.append(f"no score, outcome {summary.get('outcome') or 'none'}")
    if summary.get("error"):
        lines.append(f"error: {summary['error']}")
    lines.append(
        f"calls: {summary.get('calls_used')} of {summary.get('call_budget')}; "
        f"minutes: {float(summary.get('minutes') or 0):.1f}"
    )
    if summary.get("report"):
        lines.append(f"report: {summary['report']}")
    return "\n".join(lines)


class Client:
    """The front end's side of one session."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def wait_ready(self, timeout_s: float, alive: Callable[[], bool]) -> dict[str, Any]:
        """The agent's state once it serves the task; SolveError if the run ended or stopped first."""
        deadline = time.monotonic() + timeout_s
        while True:
            state = self.session.state()
            if state and state.get("status") == "open" and state.get("socket"):
                return state
            if state and state.get("status") in ENDED:
                raise SolveError(f"the session has ended: {ENDED[state['status']]}")
            result = self.session.result()
            if result is not None:
                said = result.get("error") or f"outcome {result.get('outcome')}"
                raise SolveError(f"the run ended before the task was served: {said}; see {self.session.run_log_path}")
            if not alive():
                raise SolveError(f"the run stopped before the task was served; see {self.session.folder}/run.log")
            if time.monotonic() > deadline:
                raise SolveError(f"the task was not served within {timeout_s:g} s; see {self.session.folder}/run.log")
            time.sleep(0.1)

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        state = self.session.state()
        if not state or state.get("status") != "open" or not state.get("socket"):
            status = (state or {}).get("status", "not started")
            raise SolveError(f"the session is not open (status: {status}); wait shows the result")
        result = self.session.result()
        if result is not None:  # the run has ended (a time limit, say) while the state still says open
            raise SolveError(f"the run is over (outcome {result.get('outcome') or 'none'}); wait shows the result")
        try:
            reply = protocol.request(Path(state["socket"]), message)
        except protocol.ProtocolError as exc:
            raise SolveError(str(exc)) from exc
        if not reply.get("ok"):
            raise SolveError(str(reply.get("error") or "refused"), code=1)
        return reply

    def call(self, tool: str, arguments: dict[str, Any]) -> Reply:
        reply = self.send({"op": "call", "tool": tool, "arguments": arguments})
        output = str(reply.get("output", ""))
        if tool == "search":
            text, urls = show_search(output)
            write_json(self.session.last_search_path, {"urls": urls})
        elif tool == "open":
            text = show_open(output)
        else:
            text = show_raw(output)
        return Reply(f"{text}\n\n[{budget_line(reply)}]")

    def wait_result(self, timeout_s: float | None, alive: Callable[[], bool]) -> dict[str, Any]:
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            result = self.session.result()
            if result is not None:
                return result
            if not alive():
                time.sleep(0.5)  # the supervisor writes the result just before it exits
                result = self.session.result()
                if result is not None:
                    return result
                raise SolveError(f"the run stopped without a result; see {self.session.folder}/run.log")
            if deadline is not None and time.monotonic() > deadline:
                raise SolveError(f"no result within {timeout_s:g} s")
            time.sleep(0.2)


def supervisor_alive(session: Session) -> bool:
    """Whether the session's supervisor still runs (its pid is in supervisor.pid)."""
    try:
        pid = int((session.folder / "supervisor.pid").read_text().strip())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (our own child, not yet reaped) has ended
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _open_arguments(words: list[str], session: Session) -> dict[str, Any]:
    if not words:
        raise SolveError("open needs a URL (or the number of a result of the last search)", code=2)
    target, page = words[0], 1
    if len(words) > 1:
        if len(words) > 2 or not words[1].isdigit():
            raise SolveError("open takes a URL and, for a long page, the part to read: open URL 2", code=2)
        page = int(words[1])
    if target.isdigit():
        urls = (read_json(session.last_search_path) or {}).get("urls") or []
        number = int(target)
        if not 1 <= number <= len(urls):
            raise SolveError(f"no result {number} in the last search ({len(urls)} results)", code=2)
        target = urls[number - 1]
    return {"url": target, "page": page}


def tool_command(client: Client, command: str, rest: str) -> Reply:
    """search / open / call, from the text after the command word."""
    if command == "search":
        if not rest.strip():
            raise SolveError("search needs a query", code=2)
        return client.call("search", {"query": rest.strip()})
    if command == "open":
        return client.call("open", _open_arguments(rest.split(), client.session))
    name, _, raw = rest.strip().partition(" ")
    if not name:
        raise SolveError('call needs a tool and JSON arguments: call search {"query": "..."}', code=2)
    try:
        arguments = json.loads(raw or "{}")
    except ValueError as exc:
        raise SolveError(f"the arguments are not JSON: {exc}", code=2) from exc
    if not isinstance(arguments, dict):
        raise SolveError("the arguments must be a JSON object", code=2)
    return client.call(name, arguments)


def info_command(client: Client, command: str) -> Reply:
    state = client.session.state() or {}
    if command in ("budget", "prompt") and state.get("status") in ENDED:  # over: as the session left them
        if command == "budget":
            return Reply(f"{budget_line(state)} (the session has ended: {ENDED[state['status']]})")
        return Reply(client.session.prompt_path.read_text(encoding="utf-8").rstrip())
    if command == "budget":
        return Reply(budget_line(client.send({"op": "budget"})))
    if command == "prompt":
        return Reply(str(client.send({"op": "prompt"})["prompt"]).rstrip())
    tools = client.send({"op": "tools"})["tools"]
    lines = []
    for tool in tools:
        params = tool.get("parameters", {}).get("properties", {})
        lines.append(f"{tool['name']}: {tool.get('description', '')}")
        lines += [f"   {name}: {spec.get('description', spec.get('type', ''))}" for name, spec in params.items()]
    return Reply("\n".join(lines))


def submit(client: Client, text: str) -> Reply:
    if not text.strip():
        raise SolveError("the answer is empty; nothing was sent", code=2)
    reply = client.send({"op": "answer", "text": text})
    return Reply(f"answer sent ({len(text)} characters) after {float(reply.get('minutes') or 0):.1f} minutes")


def read_answer_file(name: str, stdin: TextIO) -> str:
    if name == "-":
        return stdin.read()
    path = Path(name).expanduser()
    if not path.is_file():
        raise SolveError(f"no file {name}; type `answer` alone to write the answer here", code=2)
    return path.read_text(encoding="utf-8")


def header(state: dict[str, Any], prompt: str, task: str) -> str:
    tools = ", ".join(state.get("tools") or [])
    limit = state.get("time_limit_minutes")
    time_note = f"a time limit of {limit:g} minutes, counted" if limit else "the minutes count"
    rule = "-" * 72
    return (
        f"task {task}: {state.get('call_budget')} calls ({tools}); {time_note} from now.\n"
        f"{rule}\n{prompt.rstrip()}\n{rule}"
    )


class Repl:
    """The terminal prompt."""

    def __init__(self, client: Client, task: str, out: TextIO = sys.stdout, stdin: TextIO = sys.stdin) -> None:
        self.client = client
        self.task = task
        self.out = out
        self.stdin = stdin
        self.answered = False

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self, state: dict[str, Any]) -> None:
        """Until the answer is sent or the solver gives up (quit, end of input)."""
        if self.stdin.isatty():
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401 (line editing and history at the prompt)
        prompt = str(self.client.send({"op": "prompt"})["prompt"])
        self.say(header(state, prompt, self.task))
        self.say('type help for the commands; answer ends with a line that holds a single "."')
        while not self.answered:
            try:
                line = input("solve> ")
            except KeyboardInterrupt:
                self.say("\n(type quit to give up, or answer to finish)")
                continue
            except EOFError:
                self.say("")
                line = "quit"
            if self.step(line.strip()) == "quit":
                break
            status = (self.client.session.state() or {}).get("status")
            if status in ENDED and not self.answered:  # ended under the prompt: a time limit, the idle limit
                self.say(f"the session has ended: {ENDED[status]}")
                break

    def step(self, line: str) -> str | None:
        command, _, rest = line.partition(" ")
        try:
            if not command:
                return None
            if command in ("help", "?"):
                self.say(COMMANDS)
            elif command in ("search", "open", "call"):
                self.say(tool_command(self.client, command, rest).text)
            elif command in ("budget", "prompt", "tools"):
                self.say(info_command(self.client, command).text)
            elif command == "answer":
                text = read_answer_file(rest.strip(), self.stdin) if rest.strip() else self._answer_lines()
                if text is None:
                    self.say("(no answer sent)")
                    return None
                self.say(submit(self.client, text).text)
                self.answered = True
            elif command in ("quit", "exit"):
                with contextlib.suppress(SolveError):  # a session already over is left all the same
                    self.client.send({"op": "quit"})
                self.say("given up: no answer (the item scores 0)")
                return "quit"
            else:
                self.say(f"unknown command {command!r}; type help")
        except SolveError as exc:
            self.say(f"refused: {exc}" if "budget is used up" in str(exc) else f"error: {exc}")
        return None

    def _answer_lines(self) -> str | None:
        self.say('write the answer; end with a line that holds a single "." (an empty answer is not sent)')
        lines = []
        while True:
            try:
                line = input("")
            except (EOFError, KeyboardInterrupt):
                return None
            if line.strip() == ".":
                return "\n".join(lines)
            lines.append(line)


def one_shot(client: Client, words: list[str], stdin: TextIO, wait_timeout_s: float | None) -> Reply:
    """One command of a detached solve."""
    command, rest = words[0], words[1:]
    if command in ("search", "call"):
        return tool_command(client, command, " ".join(rest))
    if command == "open":
        return client.call("open", _open_arguments(rest, client.session))
    if command in ("budget", "prompt", "tools"):
        if rest:
            raise SolveError(f"{command} takes no arguments", code=2)
        return info_command(client, command)
    if command == "answer":
        if len(rest) != 1:
            raise SolveError("answer takes a file, or - for standard input: answer FILE", code=2)
        return submit(client, read_answer_file(rest[0], stdin))
    if command == "quit":
        client.send({"op": "quit"})
        return Reply(
            f"given up: no answer (the item scores 0); the result: harness solve --session {client.session.folder} wait"
        )
    if command == "wait":
        state = client.session.state() or {}
        if state.get("status") == "open":
            raise SolveError("no answer yet: send one first (answer FILE, or answer - to read standard input)")
        result = client.wait_result(wait_timeout_s, lambda: supervisor_alive(client.session))
        return Reply(result_text(result), 0 if result.get("score") is not None else 1)
    raise SolveError(f"unknown command {command!r}\n{ONE_SHOT}", code=2)
