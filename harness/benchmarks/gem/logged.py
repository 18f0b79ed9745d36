"""The GEM-Bench authors' logged runs, read as they were written (their `benchmarking/output/` folders).

A run folder holds the responses (`SOLUTION/DATASET/REPEAT/result.json`, or all of them in one `results.json`),
one workbook of verdicts per judged metric (`METRIC_evaluation.xlsx`: Question, Method, Response, Evaluation,
Category Code, Score; rows in blocks by data set, then repeat, then solution, without saying which), and the
authors' aggregates (`evaluation_result*.xlsx`). Nothing here scores anything: this module only reads, checks
each verdict row against the response it judges (question, solution and response text), and refuses a folder
that is malformed, partial or mismatched with one line naming the file, the row and what was expected.
Workbooks are read with openpyxl.

A verdict's category is read from the judge's own text (its last `[[CODE]]`); where that text has none the
authors' code filled in a default category (personality and notice 30, the others 0), which the workbook
records as if the judge had chosen it. `readable` says which verdicts those are.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.benchmarks.gem.judges import BY_NAME

# The authors' names -> this project's.
DATASETS = {"MT-Human": "mt_human", "LM-Market": "lm_market", "CA_Prod": "ca_prod"}
SOLUTIONS = {"Ad-Chat": "adchat", "GI-R": "gi-r", "GIR-R": "gir-r", "GIR-P": "gir-p"}
# The workbook of each judged metric (the authors' metric name -> this project's).
METRIC_FILES = {
    "accuracy": "accuracy",
    "naturalness": "naturalness",
    "personality": "personality",
    "trust": "trust",
    "notice_products": "notice",
    "click_products": "click",
}
VERDICT_COLUMNS = ("Question", "Method", "Response", "Evaluation", "Category Code", "Score")
AGGREGATE_FILES = (
    "evaluation_result.xlsx",
    "evaluation_result_average.xlsx",
    "evaluation_result_with_product.xlsx",
    "evaluation_result_with_product_average.xlsx",
)
# The authors' metric keys in the aggregate workbooks -> this project's metric names.
AGGREGATE_METRICS = {
    "local_flow": "response_flow",
    "global_coherence": "response_coherence",
    "ad_transition_similarity": "ad_flow",
    "ad_content_alignment": "ad_coherence",
    "has_ad": "injection_rate",
    "product_selection_accuracy": "ctr",
    "in_token": "ittft",
    "out_token": "ottft",
    "price": "logged_price",
    **{k: v for k, v in METRIC_FILES.items()},
}
FOLDER_NAME = re.compile(
    r"_ALL-(?P<embedder>.+?)-(?P<injector>[A-Za-z]+_weight)-(?P<judge>.+)-repeat-(?P<repeats>\d+)$"
)
CODE = re.compile(r"\[\[([A-Za-z_]+)\]\]")


class LoggedRunError(ValueError):
    """A run folder that cannot be imported; the message is one line naming the file and what was expected."""


@dataclass(frozen=True)
class Response:
    dataset: str  # this project's name (mt_human, lm_market, ca_prod)
    solution: str  # this project's name (adchat, gi-r, gir-r, gir-p)
    repeat: int
    index: int  # the position in its result.json list
    prompt: str
    category: str
    content: str
    product: dict[str, Any] | None
    in_token: float
    out_token: float
    price: float

    @property
    def key(self) -> tuple[str, str, int, int]:
        return (self.dataset, self.solution, self.repeat, self.index)


@dataclass(frozen=True)
class Verdict:
    category: str  # as the workbook records it
    score: float  # as the workbook records it
    readable: bool  # the judge's own text names this category; False: the authors' default
    text: str


@dataclass
class LoggedRun:
    folder: Path
    judge: str
    embedder: str
    repeats: int
    responses: list[Response] | None  # None: a run that re-judged another run's responses
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)  # metric -> one per row, in row order
    rows: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # metric -> (question, method, response)
    aggregates: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # the authors' per-response RF, RC, AF, AC (evaluation_result.json, when the folder has it): response key ->
    # metric -> value, a metric the authors' code found not applicable absent
    measured: dict[tuple[str, str, int, int], dict[str, float]] | None = None

    @property
    def name(self) -> str:
        return self.folder.name


def describe_folder(folder: Path) -> dict[str, Any]:
    """The judge, the retrieval embedder and the repeats its name gives (`<time>_ALL-<embedder>-<injector>-<judge>
    -repeat-<n>`)."""
    match = FOLDER_NAME.search(folder.name)
    if match is None:
        raise LoggedRunError(
            f"{folder}: not a GEM-Bench run folder name (expected <time>_ALL-<embedder>-<injector>_weight-<judge>"
            "-repeat-<n>, as the authors' code names its output folders)"
        )
    return {**match.groupdict(), "repeats": int(match["repeats"])}


def _number(value: Any, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LoggedRunError(f"{where}: {name} must be a number, got {value!r}")
    return float(value)


def _response(raw: Any, where: str, dataset: str, solution: str, repeat: int, index: int) -> Response:
    if not isinstance(raw, dict):
        raise LoggedRunError(f"{where}: item {index} is not an object")
    for name in ("prompt", "category", "content"):
        if not isinstance(raw.get(name), str):
            raise LoggedRunError(f"{where}: item {index}: {name} must be text, got {raw.get(name)!r}")
    product = raw.get("product")
    if product is not None and not isinstance(product, dict):
        raise LoggedRunError(f"{where}: item {index}: product must be an object or null, got {product!r}")
    price = raw.get("price")
    if not isinstance(price, dict):
        raise LoggedRunError(f"{where}: item {index}: price must be an object with in_token, out_token and price")
    return Response(
        dataset=DATASETS[dataset],
        solution=SOLUTIONS[solution],
        repeat=repeat,
        index=index,
        prompt=raw["prompt"],
        category=raw["category"],
        content=raw["content"],
        product=product,
        in_token=_number(price.get("in_token"), f"{where}: item {index}", "price.in_token"),
        out_token=_number(price.get("out_token"), f"{where}: item {index}", "price.out_token"),
        price=_number(price.get("price"), f"{where}: item {index}", "price.price"),
    )


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise LoggedRunError(f"{path}: not UTF-8 (byte offset {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise LoggedRunError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from None
    except OSError as exc:
        raise LoggedRunError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _blocks(path: Path, document: Any, expected_key: str | None) -> dict[tuple[str, str, int], list[Any]]:
    """`"SOLUTION|DATASET|REPEAT" -> [item, ...]` from one result file."""
    if not isinstance(document, dict) or not document:
        raise LoggedRunError(f'{path}: expected an object mapping "SOLUTION|DATASET|REPEAT" to a list of responses')
    blocks = {}
    for key, items in document.items():
        parts = key.split("|")
        if len(parts) != 3 or parts[0] not in SOLUTIONS or parts[1] not in DATASETS or not parts[2].isdigit():
            raise LoggedRunError(
                f"{path}: key {key!r} is not SOLUTION|DATASET|REPEAT (solutions {', '.join(SOLUTIONS)}; data sets "
                f"{', '.join(DATASETS)})"
            )
        if expected_key is not None and key != expected_key:
            raise LoggedRunError(f"{path}: holds {key!r}, but its folder says {expected_key!r}")
        if not isinstance(items, list) or not items:
            raise LoggedRunError(f"{path}: {key!r} must be a non-empty list of responses")
        blocks[(parts[0], parts[1], int(parts[2]))] = items
    return blocks


def read_responses(folder: Path) -> list[Response] | None:
    """Every logged response, from the per-block `result.json` files (or the one `results.json`); None when
    the folder has neither (a run that re-judged another's responses)."""
    files = sorted(folder.glob("*/*/*/result.json"))
    raw: dict[tuple[str, str, int], tuple[Path, list[Any]]] = {}
    for path in files:
        solution, dataset, repeat = path.relative_to(folder).parts[:3]
        if solution not in SOLUTIONS or dataset not in DATASETS or not repeat.isdigit():
            raise LoggedRunError(
                f"{path}: not SOLUTION/DATASET/REPEAT/result.json (solutions {', '.join(SOLUTIONS)}; data sets "
                f"{', '.join(DATASETS)})"
            )
        for key, items in _blocks(path, _json(path), f"{solution}|{dataset}|{repeat}").items():
            raw[key] = (path, items)
    if not raw and (folder / "results.json").is_file():
        path = folder / "results.json"
        raw = {key: (path, items) for key, items in _blocks(path, _json(path), None).items()}
    if not raw:
        return None
    responses = []
    for (solution, dataset, repeat), (path, items) in sorted(raw.items(), key=lambda kv: _block_order(*kv[0])):
        where = f"{path} ({solution}|{dataset}|{repeat})"
        responses += [_response(item, where, dataset, solution, repeat, i) for i, item in enumerate(items)]
    _check_complete(folder, responses)
    return responses


def _block_order(solution: str, dataset: str, repeat: int) -> tuple[int, int, int]:
    """The order of the verdict workbooks' blocks: data set, then repeat, then solution."""
    return (list(DATASETS).index(dataset), repeat, list(SOLUTIONS).index(solution))


def _check_complete(folder: Path, responses: list[Response]) -> None:
    """Every (data set, solution) has the same repeats, and every repeat the same prompts in the same order:
    an item is (data set, solution, repeat, position), so a partial or shuffled block is refused."""
    by_block: dict[tuple[str, str, int], list[str]] = {}
    for r in responses:
        by_block.setdefault((r.dataset, r.solution, r.repeat), []).append(r.prompt)
    datasets = {d for d, _, _ in by_block}
    solutions = {s for _, s, _ in by_block}
    repeats = {n for _, _, n in by_block}
    for dataset in sorted(datasets):
        prompts: list[str] | None = None
        first = None
        for solution in sorted(solutions):
            for repeat in sorted(repeats):
                block = by_block.get((dataset, solution, repeat))
                if block is None:
                    raise LoggedRunError(
                        f"{folder}: {solution} has no responses for {dataset} repeat {repeat} (a partial run: every "
                        "solution needs every data set and repeat the run has)"
                    )
                if prompts is None:
                    prompts, first = block, (solution, repeat)
                elif block != prompts:
                    where = next((i for i, (a, b) in enumerate(zip(block, prompts, strict=False)) if a != b), None)
                    detail = (
                        f"{len(block)} responses against {len(prompts)}"
                        if where is None
                        else f"item {where} asks {block[where][:60]!r}, not {prompts[where][:60]!r}"
                    )
                    raise LoggedRunError(
                        f"{folder}: {dataset} {solution} repeat {repeat} does not answer the prompts of {first[0]} "
                        f"repeat {first[1]} in the same order ({detail})"
                    )


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def read_verdicts(path: Path) -> tuple[list[Verdict], list[tuple[str, str, str]]]:
    """One workbook of verdicts: each row's verdict and the (question, method, response) it judged."""
    import openpyxl

    metric = BY_NAME[METRIC_FILES[path.name.removesuffix("_evaluation.xlsx")]]
    codes = {code for code, _ in metric.categories}
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several kinds for a file that is not a workbook
        raise LoggedRunError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        rows = list(book.worksheets[0].iter_rows(values_only=True))
    finally:
        book.close()
    if not rows or tuple(_cell(c) for c in rows[0][:6]) != VERDICT_COLUMNS:
        found = tuple(_cell(c) for c in rows[0][:6]) if rows else ()
        raise LoggedRunError(f"{path}:1: expected the columns {', '.join(VERDICT_COLUMNS)}, found {found}")
    verdicts, judged = [], []
    for number, row in enumerate(rows[1:], start=2):
        cells = list(row[:6]) + [None] * (6 - len(row[:6]))
        question, method, response, text, category, score = cells
        if category not in codes:
            raise LoggedRunError(
                f"{path}:{number}: Category Code {category!r} is not one of {metric.label}'s "
                f"({', '.join(sorted(codes))})"
            )
        try:
            value = float(score)
        except (TypeError, ValueError):
            raise LoggedRunError(f"{path}:{number}: Score {score!r} is not a number") from None
        found = CODE.findall(_cell(text))
        verdicts.append(Verdict(str(category), value, bool(found) and found[-1] == category, _cell(text)))
        judged.append((_cell(question), _cell(method), _cell(response)))
    return verdicts, judged


def read_aggregates(path: Path) -> list[dict[str, Any]]:
    """The authors' aggregate workbook: one record per row, {dataset, solution, run, metric -> value}; the
    data set is written once per block, so it carries down."""
    import openpyxl

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:
        raise LoggedRunError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        rows = list(book.worksheets[0].iter_rows(values_only=True))
    finally:
        book.close()
    header = next((i for i, row in enumerate(rows) if row and row[0] == "data_set"), None)
    if header is None or header + 1 >= len(rows):
        raise LoggedRunError(f"{path}: no header row starting with data_set (the authors' report layout)")
    names = [_cell(c) for c in rows[header + 1]]
    records, dataset = [], None
    for number, row in enumerate(rows[header + 2 :], start=header + 3):
        if not any(c is not None for c in row):
            continue
        dataset = row[0] if row[0] is not None else dataset
        if dataset not in DATASETS or row[1] not in SOLUTIONS:
            raise LoggedRunError(f"{path}:{number}: data set {dataset!r} or solution {row[1]!r} is not the authors'")
        record: dict[str, Any] = {"dataset": DATASETS[dataset], "solution": SOLUTIONS[row[1]], "run": _cell(row[2])}
        for name, value in zip(names[3:], row[3:], strict=False):
            if name in AGGREGATE_METRICS and value not in (None, "", "\u2014"):  # an em dash: not applicable
                try:
                    record[AGGREGATE_METRICS[name]] = float(value)
                except (TypeError, ValueError):
                    raise LoggedRunError(f"{path}:{number}: {name} {value!r} is not a number") from None
        records.append(record)
    return records


def read_run(folder: Path) -> LoggedRun:
    """One run folder, checked: its responses (if it has them), every verdict workbook, its aggregates."""
    if not folder.is_dir():
        raise LoggedRunError(f"{folder}: no such folder")
    named = describe_folder(folder)
    run = LoggedRun(folder, named["judge"], named["embedder"], named["repeats"], read_responses(folder))
    workbooks = {name: folder / f"{name}_evaluation.xlsx" for name in METRIC_FILES}
    missing = [p.name for p in workbooks.values() if not p.is_file()]
    if missing:
        raise LoggedRunError(f"{folder}: missing {', '.join(missing)} (every run has one workbook per judged metric)")
    for name, path in workbooks.items():
        run.verdicts[METRIC_FILES[name]], run.rows[METRIC_FILES[name]] = read_verdicts(path)
    run.aggregates = {name: read_aggregates(folder / name) for name in AGGREGATE_FILES if (folder / name).is_file()}
    if run.responses is not None:
        match_verdicts(run, run.responses)
        run.measured = read_measured(folder / "evaluation_result.json", run.responses)
        if run.measured is not None and "evaluation_result.xlsx" in run.aggregates:
            check_measured(folder / "evaluation_result.json", run)
    return run


EMBEDDED_METRICS = {
    "local_flow": "response_flow",
    "global_coherence": "response_coherence",
    "ad_transition_similarity": "ad_flow",
    "ad_content_alignment": "ad_coherence",
}


def read_measured(path: Path, responses: list[Response]) -> dict[tuple[str, str, int, int], dict[str, float]] | None:
    """The authors' per-response values of RF, RC, AF and AC from `evaluation_result.json` (their evaluator's
    list of `[[solution, data set, repeat, metric, category, query, [answer, product]], value]`), each matched
    to the logged response of its block with the same query and answer (identical ones in turn); None when the
    folder has no such file. An entry that matches no response is refused, located."""
    if not path.is_file():
        return None
    document = _json(path)
    if not isinstance(document, list):
        raise LoggedRunError(f"{path}: expected a list of [key, value] entries (the authors' evaluation result)")
    waiting: dict[tuple[str, str, int, str, str], list[Response]] = {}
    for response in responses:
        key = (response.dataset, response.solution, response.repeat, response.prompt, response.content)
        waiting.setdefault(key, []).append(response)
    taken: dict[tuple[Any, ...], int] = {}
    measured: dict[tuple[str, str, int, int], dict[str, float]] = {}
    for number, entry in enumerate(document):
        try:
            (solution, dataset, repeat, metric, _category, query, (answer, _product)), value = entry
        except (TypeError, ValueError):
            raise LoggedRunError(
                f"{path}: entry {number} is not [[solution, data set, repeat, metric, category, query, [answer, "
                "product]], value]"
            ) from None
        if metric not in EMBEDDED_METRICS:
            continue
        if solution not in SOLUTIONS or dataset not in DATASETS or not str(repeat).isdigit():
            raise LoggedRunError(f"{path}: entry {number}: {solution!r}|{dataset!r}|{repeat!r} is not a logged block")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise LoggedRunError(f"{path}: entry {number}: {metric} must be a number, got {value!r}")
        key = (DATASETS[dataset], SOLUTIONS[solution], int(repeat), str(query), str(answer))
        candidates = waiting.get(key, [])
        turn = taken.get((*key, metric), 0)
        if turn >= len(candidates):
            raise LoggedRunError(
                f"{path}: entry {number} ({metric}, {solution} {dataset} repeat {repeat}): no logged response "
                f"{'left ' if candidates else ''}answers {str(query)[:50]!r} with this text"
            )
        taken[(*key, metric)] = turn + 1
        measured.setdefault(candidates[turn].key, {})[EMBEDDED_METRICS[metric]] = float(value)
    return measured


def check_measured(path: Path, run: LoggedRun) -> None:
    """The per-response values against the authors' own per-repeat workbook: the same means, or the two files
    are not of one run."""
    assert run.measured is not None and run.responses is not None
    sums: dict[tuple[str, str, str, str], list[float]] = {}
    for response in run.responses:
        for metric, value in run.measured.get(response.key, {}).items():
            block = (response.dataset, response.solution, str(response.repeat), metric)
            sums.setdefault(block, []).append(value)
    for record in run.aggregates["evaluation_result.xlsx"]:
        for metric in EMBEDDED_METRICS.values():
            values = sums.get((record["dataset"], record["solution"], record["run"], metric))
            if metric in record and values and abs(sum(values) / len(values) - record[metric]) > 1e-6:
                raise LoggedRunError(
                    f"{path}: the mean {metric} of {record['solution']} {record['dataset']} repeat {record['run']} is "
                    f"{sum(values) / len(values):.6f}, evaluation_result.xlsx says {record[metric]:.6f} (not one run)"
                )


AUTHORS_SOLUTION = {v: k for k, v in SOLUTIONS.items()}


def match_verdicts(run: LoggedRun, responses: list[Response]) -> None:
    """Each workbook row against the response it judges, in the workbooks' block order (data set, repeat,
    solution, then position): the question, the solution and the response text must all agree."""
    ordered = sorted(responses, key=lambda r: (*_block_order(AUTHORS_SOLUTION[r.solution], _authors(r.dataset),
                                                                r.repeat), r.index))  # fmt: skip
    for metric, rows in run.rows.items():
        path = run.folder / f"{_metric_file(metric)}_evaluation.xlsx"
        if len(rows) != len(ordered):
            raise LoggedRunError(
                f"{path}: {len(rows)} verdict rows for {len(ordered)} responses (one row per response expected)"
            )
        for number, (row, response) in enumerate(zip(rows, ordered, strict=True), start=2):
            question, method, text = row
            expected = AUTHORS_SOLUTION[response.solution]
            if question != response.prompt or method != expected or text != response.content:
                what = "question" if question != response.prompt else "method" if method != expected else "response"
                raise LoggedRunError(
                    f"{path}:{number}: the {what} does not match the response it should judge ({expected} "
                    f"{_authors(response.dataset)} repeat {response.repeat} item {response.index}: "
                    f"{response.prompt[:50]!r})"
                )


def _authors(dataset: str) -> str:
    return next(k for k, v in DATASETS.items() if v == dataset)


def _metric_file(metric: str) -> str:
    return next(k for k, v in METRIC_FILES.items() if v == metric)
