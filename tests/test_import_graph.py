"""The package's imports form no circle, and every import points down the layers.

The graph is read from the source with ``ast``, not by importing it: every ``import`` that runs counts, at
module level and inside functions alike (an import tucked into a function to dodge a circle is still a
circle), and importing a submodule counts as importing its package too, whose ``__init__`` runs first.
Imports under ``if TYPE_CHECKING:`` never run and are left out.

The layers (``LAYERS``, lowest first; docs/architecture.md names them in the same order) say which way an
import may point: a module may import its own layer and the ones below, never one above. Every module of the
package belongs to exactly one layer, so a new module must be placed before the check passes.
"""

from __future__ import annotations

import ast
import re
from fnmatch import fnmatchcase
from pathlib import Path

PACKAGE = "harness"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE
ARCHITECTURE = ROOT.parent / "docs" / "architecture.md"

# Lowest first. Names are relative to the package ("harness" is its own __init__); "x.*" is every module
# below the package x. A module listed by name belongs to that layer even where a pattern of another matches.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        (
            "harness", "errors", "atomic_write", "json_text", "wellformed", "secrets", "strict_yaml", "stats",
            "scores", "tracebacks", "processes", "project", "terminal_fit",
        ),
    ),
    ("tasks", ("task_model", "kinds", "task", "item_names", "reference", "world", "tools")),
    ("calls", ("llm", "llm.*", "local", "local.*", "cache", "cache_store", "redis_store", "self_preference")),
    (
        "items",
        (
            "judge", "solvers", "model_handle", "context", "result", "runner", "task_fields", "sandbox",
            "sandbox_mounts", "cgroups", "gateway", "gateway.*", "external_agents",
        ),
    ),
    (
        "run",
        (
            "settings", "services", "collect", "one_line", "estimate", "sampling", "sharding", "run_inputs",
            "run_state", "run_files", "resume", "preflight", "progress", "xdist_support",
        ),
    ),
    ("results", ("report", "report.*", "analysis", "analysis.*", "calibration", "calibration.*")),
    ("benchmarks", ("benchmarks", "benchmarks.*", "baselines", "baselines.*")),
    (
        "commands",
        ("plugin", "hookspecs", "cli", "analysis.commands", "analysis.judge_commands", "solve", "solve.*",
         "testing", "testing.*"),
    ),
)  # fmt: skip


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Every module and package of the package, by dotted name."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run: all of them but those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                walk(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return found


def _resolve(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> set[str]:
    """The package's modules one import statement loads (outside modules are dropped)."""
    targets: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                targets.add(alias.name)
    else:
        if node.level:
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{node.module}" if node.module else package
        else:
            base = node.module or ""
        if base != PACKAGE and not base.startswith(PACKAGE + "."):
            return targets
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            targets.add(sub if sub in known else base)
    # Importing `harness.a.b` runs `harness/a/__init__.py` first: a module outside `harness.a` depends on it too.
    for target in list(targets):
        parent = target.rpartition(".")[0]
        while parent != PACKAGE and parent and not (name + ".").startswith(parent + "."):
            targets.add(parent)
            parent = parent.rpartition(".")[0]
    return {t for t in targets if t in known and t != name}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module's set of the package's modules it imports when it runs."""
    known = module_names(root)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in _runtime_imports(tree):
            edges |= _resolve(name, path, node, known)
        graph[name] = edges
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (a circle lives inside one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return components


def one_circle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest circle through the component's first module, as a path that ends where it starts."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return component


def describe(graph: dict[str, set[str]]) -> list[str]:
    """One line per circle: the modules in it and one path round it."""
    return [
        f"{len(component)} modules ({', '.join(component)}): {' -> '.join(one_circle(graph, component))}"
        for component in strongly_connected(graph)
    ]


def test_the_graph_is_read_from_the_whole_package() -> None:
    graph = import_graph()
    assert "harness.settings" in graph and "harness.analysis.history" in graph
    assert any(graph.values()), "no import between the package's modules was found"


def test_a_circle_is_found_and_named(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from harness.sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from ..c import thing\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nimport harness.a\nif TYPE_CHECKING:\n    from harness.d import T\n"
    )
    (package / "d.py").write_text("from . import a\n")
    graph = import_graph(package)
    assert graph["harness.a"] == {"harness.sub", "harness.sub.b"}
    assert graph["harness.sub.b"] == {"harness.c"}
    assert graph["harness.c"] == {"harness.a"}
    assert describe(graph) == [
        "3 modules (harness.a, harness.c, harness.sub.b): harness.a -> harness.sub.b -> harness.c -> harness.a"
    ]


def test_no_import_circle() -> None:
    circles = describe(import_graph())
    assert not circles, "import circle(s) in the package:\n" + "\n".join(circles)


def layer_of(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> int | None:
    """The index of a module's layer in `layers`: its name listed exactly, else the last pattern matching."""
    relative = module if module == PACKAGE else module.removeprefix(PACKAGE + ".")
    found = None
    for index, (_, members) in enumerate(layers):
        for member in members:
            if member == relative:
                return index
            if fnmatchcase(relative, member):
                found = index
    return found


def unplaced(graph: dict[str, set[str]], layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> list[str]:
    """The modules no layer holds."""
    return sorted(module for module in graph if layer_of(module, layers) is None)


def upward(graph: dict[str, set[str]], layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> list[str]:
    """One line per import that points up: the importing module and its layer, the imported one and its."""
    found = []
    for module in sorted(graph):
        low = layer_of(module, layers)
        for imported in sorted(graph[module]):
            high = layer_of(imported, layers)
            if low is not None and high is not None and high > low:
                found.append(f"{module} ({layers[low][0]}) imports {imported} ({layers[high][0]})")
    return found


def test_every_module_has_a_layer() -> None:
    missing = unplaced(import_graph())
    assert not missing, "modules in no layer of tests/test_import_graph.py's LAYERS: " + ", ".join(missing)


def test_an_import_against_the_layers_is_found_and_named(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    (package / "high").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "high" / "__init__.py").write_text("")
    (package / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import harness.top\n")
    (package / "mid.py").write_text("def f():\n    from harness.high import part\n")
    (package / "high" / "part.py").write_text("from harness import low, mid\n")
    (package / "top.py").write_text("")
    layers = (("low", ("harness", "low")), ("mid", ("mid",)), ("high", ("high", "high.*")))
    graph = import_graph(package)
    assert unplaced(graph, layers) == ["harness.top"]
    assert upward(graph, layers) == [
        "harness.mid (mid) imports harness.high (high)",
        "harness.mid (mid) imports harness.high.part (high)",
    ]


def test_every_import_points_down_the_layers() -> None:
    wrong = upward(import_graph())
    assert not wrong, (
        f"{len(wrong)} import(s) against the layers (lowest first: "
        + ", ".join(name for name, _ in LAYERS)
        + "):\n"
        + "\n".join(wrong)
    )


def documented_modules(text: str) -> dict[str, str]:
    """The modules docs/architecture.md names under "## Modules": path (relative to the package) -> the layer
    heading ("### name") it is listed under."""
    section = text.partition("\n## Modules\n")[2].partition("\n## ")[0]
    named: dict[str, str] = {}
    heading = ""
    for line in section.splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
        elif match := re.match(r"\| `([^`]+\.py)` \|", line):
            named[match.group(1)] = heading
    return named


def test_the_architecture_names_every_module_under_its_layer() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = documented_modules(text)
    section = text.partition("\n## Modules\n")[2].partition("\n## ")[0]
    headings = [line[4:].strip() for line in section.splitlines() if line.startswith("### ")]
    assert headings == [name for name, _ in LAYERS], "the layer headings of docs/architecture.md's Modules"
    modules = {str(path.relative_to(ROOT)): name for name, path in module_names().items()}
    missing = sorted(set(modules) - set(named))
    gone = sorted(set(named) - set(modules))
    assert not missing, "modules docs/architecture.md does not name: " + ", ".join(missing)
    assert not gone, "docs/architecture.md names modules that do not exist: " + ", ".join(gone)
    misplaced = [
        f"{path} is under {named[path]!r}, its layer is {LAYERS[layer][0]!r}"
        for path, name in sorted(modules.items())
        if (layer := layer_of(name)) is not None and named[path] != LAYERS[layer][0]
    ]
    assert not misplaced, "docs/architecture.md lists modules under another layer:\n" + "\n".join(misplaced)


def test_a_module_the_doc_leaves_out_is_found() -> None:
    text = "# A\n\n## Modules\n\n### base\n\n| module | one concern |\n|---|---|\n| `a.py` | a |\n\n"
    text += "### run\n\n| `b/__init__.py` | b |\n\n## Next\n\n| `c.py` | not a module row |\n"
    assert documented_modules(text) == {"a.py": "base", "b/__init__.py": "run"}
