"""`harness import gem-bench DIR`: the authors' released data (or a sample in its schemas) as task files.

Read exactly as the reference reading says (§1): the TSVs with CSV quoting (a doubled quote inside a quoted
field is one quote), file order kept, duplicates kept (all 100 LM-Market prompts), every LM-Market prompt
with its own category (the reference labels them all with the first one), every CA-Prod query with its
own candidate list (its rows of the pairs file, in file order) and a relevance label per candidate, query
texts kept raw (five are still URL-encoded). Writes one task file per data set and the ad database they
point at. Anything that does not match the schemas, or the release's counts, is refused with the file
and what was expected.

The release is verified by content: every file's SHA-256 against the ones shipped here (computed by this
project from the release), and a copy that differs is refused, naming the file, unless `allow_modified`
(then every task written says its data is modified). The folder may be in this project's layout
(mt_human/, lm_market/, adchat_products/, ca_prod/) or the authors' (GemBench/benchmarking/dataset/ with
MT_Human/, LM_Market/, product/, CA_Prod/src/dataset/). Each task file records the data's hash and status
in its `data` field; runs carry them into results.json.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness.benchmarks.gem.data import (
    AdDatabaseError,
    GemInputs,
    GemTruth,
    TextFileError,
    load_ad_database,
    lone_surrogate,
    read_utf8,
)
from harness.benchmarks.gem.provenance import OFFICIAL_SHA256, RELEASE, data_hash, task_digest

# Where each file is in the authors' repository, under GemBench/benchmarking/dataset/.
AUTHORS_LAYOUT = {
    "mt_human": "MT_Human",
    "lm_market": "LM_Market",
    "adchat_products": "product",
    "ca_prod": "CA_Prod/src/dataset",
}

# The counts of the GEM-Bench release at commit 6540866 (shared/data/gem-bench/README.md).
OFFICIAL_COUNTS = {
    "mt_human prompts": 10,
    "lm_market prompts": 100,
    "ad keys": 626,
    "ads": 6558,
    "top-level topics": 26,
    "sub-topics": 600,
    "ca_prod queries": 120,
    "ca_prod products": 2215,
    "ca_prod clusters": 6,
    "ca_prod pairs": 2222,
}
TSV_COLUMNS = {
    "queries.tsv": ["query_id", "query_text"],
    "products.tsv": ["product_id", "ad_title", "ad_description", "website", "source", "brand", "cluster_category"],
    "cluster_labels.tsv": [
        "cluster_id",
        "cluster_name",
        "description",
        "key_themes",
        "total_products",
        "sample_size",
        "confidence",
    ],
    "final_balanced_dataset.tsv": [
        "query_idx",
        "product_idx",
        "label",
        "cluster_id",
        "original_query_id",
        "original_product_id",
    ],
}


class ImportError_(ValueError):
    """The directory is not a GEM-Bench release: names the file and what was expected."""


@dataclass
class Imported:
    counts: dict[str, int] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    layout: str = "harness"
    data: dict[str, Any] = field(default_factory=dict)  # the `data` record written into every task file


@dataclass(frozen=True)
class Release:
    """Where the release's files are: a folder per data set, in this project's layout or the authors'."""

    root: Path
    layout: str  # "harness" or "authors"

    def folder(self, name: str) -> Path:
        return self.root / (AUTHORS_LAYOUT[name] if self.layout == "authors" else name)

    def file(self, relative: str) -> Path:
        folder, name = relative.split("/")
        return self.folder(folder) / name


def locate(source: Path) -> Release:
    """The release's folder in either layout: this project's, the authors' dataset folder, or the authors'
    repository root (GemBench/benchmarking/dataset/ inside it)."""
    for root in (source, source / "GemBench" / "benchmarking" / "dataset", source / "benchmarking" / "dataset"):
        if (root / "MT_Human").is_dir() or (root / "product").is_dir():
            return Release(root, "authors")
    return Release(source, "harness")


def file_hashes(release: Release) -> dict[str, str]:
    """SHA-256 of each of the release's data files (by this project's names), for the files present."""
    hashes = {}
    for name in OFFICIAL_SHA256:
        path = release.file(name)
        if path.is_file():
            hashes[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


def verify(release: Release, hashes: dict[str, str], expect: str, allow_modified: bool) -> dict[str, Any]:
    """The data record: official (every file is the release's), own (--expect any, not the release), or
    modified (--allow-modified on a copy that differs). A copy that differs is refused otherwise, naming
    the first file that differs. Data of one's own that shares files with the release records the release
    and lists the files that differ from it."""
    differ = [name for name, digest in OFFICIAL_SHA256.items() if hashes.get(name) != digest]
    record: dict[str, Any] = {"release": RELEASE, "status": "official", "sha256": data_hash(hashes), "modified": []}
    if not differ:
        return record
    if expect != "official":
        shares = len(differ) < len(OFFICIAL_SHA256)  # some files are the release's own: a changed copy of it
        return {**record, "release": RELEASE if shares else None, "status": "own", "modified": differ if shares else []}
    if not allow_modified:
        first = differ[0]
        more = f" (and {len(differ) - 1} more: {', '.join(differ[1:4])}{'...' if len(differ) > 4 else ''})"
        raise ImportError_(
            f"{release.file(first)}: differs from the official {RELEASE} release (sha256 "
            f"{hashes.get(first, 'missing')[:16]}..., expected {OFFICIAL_SHA256[first][:16]}...)"
            f"{more if len(differ) > 1 else ''}; pass --allow-modified to import it anyway (every run on it is "
            "marked modified), or --expect any for a data set of your own"
        )
    return {**record, "status": "modified", "modified": differ}


def describe(data: dict[str, Any]) -> str:
    """What the importer found, in one line (the command prints it)."""
    if data["status"] == "official":
        return f"the official {data['release']} release, every file verified by SHA-256"
    if data["status"] == "modified":
        return (
            f"a MODIFIED copy of {data['release']} ({', '.join(data['modified'])} differ); every run on it is "
            "marked modified"
        )
    if data.get("release"):
        kept = len(OFFICIAL_SHA256) - len(data["modified"])
        return (
            f"data of your own, a changed copy of {data['release']}: {kept} of its {len(OFFICIAL_SHA256)} files "
            f"are the release's, these differ: {', '.join(data['modified'])}"
        )
    return "not the GEM-Bench release: data of your own"


def _text(path: Path, missing: str = "missing") -> str:
    try:
        return read_utf8(path, missing)
    except TextFileError as exc:
        raise ImportError_(str(exc)) from None


def _json_list(path: Path) -> list[str]:
    text = _text(path, "missing (expected a JSON list of strings)")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ImportError_(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(value, list):
        raise ImportError_(f"{path}: expected a JSON list of non-empty strings")
    for index, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise ImportError_(f"{path}: item {index} must be a non-empty string, got {json.dumps(item)[:60]}")
        if (place := lone_surrogate(item)) is not None:
            raise ImportError_(f"{path}: item {index} holds half a character ({place}); expected text")
    return value


def _tsv(path: Path) -> list[dict[str, str]]:
    text = _text(path)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter="\t")  # standard CSV quoting
        rows = list(reader)
        header = reader.fieldnames or []
    except csv.Error as exc:
        raise ImportError_(f"{path}: not a readable TSV ({exc})") from None
    expected = TSV_COLUMNS[path.name]
    if header != expected:
        raise ImportError_(f"{path}: expected the columns {expected}, found {header}")
    for number, row in enumerate(rows, start=2):
        if None in row or any(v is None for v in row.values()):
            raise ImportError_(f"{path}:{number}: expected {len(expected)} tab-separated fields")
    return rows


def _int(path: Path, number: int, row: dict[str, str], column: str) -> int:
    text = row[column].strip()
    try:
        return int(float(text)) if text.endswith(".0") else int(text)
    except ValueError:
        raise ImportError_(f"{path}:{number}: {column} must be an integer, got {text!r}") from None


def _check_counts(counts: dict[str, int], expect: str, release: Release) -> None:
    if expect != "official":
        return
    where = {
        "mt_human prompts": "mt_human/prompts.json",
        "lm_market prompts": "lm_market/prompts.json",
        "ad keys": "adchat_products/products.json",
        "ads": "adchat_products/products.json",
        "top-level topics": "adchat_products/topics.json",
        "sub-topics": "adchat_products/topics.json",
        "ca_prod queries": "ca_prod/queries.tsv",
        "ca_prod products": "ca_prod/products.tsv",
        "ca_prod clusters": "ca_prod/cluster_labels.tsv",
        "ca_prod pairs": "ca_prod/final_balanced_dataset.tsv",
    }
    for name, expected in OFFICIAL_COUNTS.items():
        if counts.get(name) != expected:
            raise ImportError_(
                f"{release.file(where[name])}: expected {expected} {name} (the GEM-Bench release), found "
                f"{counts.get(name)}; pass --expect any to import a data set of your own in the same schemas"
            )


def read_chatbot(release: Release, name: str) -> list[tuple[str, str]]:
    prompts = _json_list(release.folder(name) / "prompts.json")
    categories = _json_list(release.folder(name) / "categories.json")
    if len(categories) != len(prompts):
        raise ImportError_(
            f"{release.folder(name) / 'categories.json'}: expected one category per prompt ({len(prompts)}), "
            f"found {len(categories)}"
        )
    return list(zip(prompts, categories, strict=True))


def read_ca_prod(release: Release) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Every query with its candidates (file order, duplicates kept) and their labels."""
    folder = release.folder("ca_prod")
    queries = _tsv(folder / "queries.tsv")
    products = _tsv(folder / "products.tsv")
    clusters = _tsv(folder / "cluster_labels.tsv")
    pairs = _tsv(folder / "final_balanced_dataset.tsv")
    cluster_names = {
        _int(folder / "cluster_labels.tsv", n, r, "cluster_id"): r["cluster_name"] for n, r in enumerate(clusters, 2)
    }
    by_product: dict[int, dict[str, str]] = {}
    for number, row in enumerate(products, start=2):
        product_id = _int(folder / "products.tsv", number, row, "product_id")
        if product_id in by_product:
            raise ImportError_(f"{folder / 'products.tsv'}:{number}: product_id {product_id} appears twice")
        if not row["ad_title"].strip():
            raise ImportError_(f"{folder / 'products.tsv'}:{number}: ad_title is empty (a candidate needs a title)")
        by_product[product_id] = row
    text_of: dict[int, str] = {}
    for number, row in enumerate(queries, start=2):
        query_id = _int(folder / "queries.tsv", number, row, "query_id")
        if query_id in text_of:
            raise ImportError_(f"{folder / 'queries.tsv'}:{number}: query_id {query_id} appears twice")
        if not row["query_text"].strip():
            raise ImportError_(f"{folder / 'queries.tsv'}:{number}: query_text is empty (a task needs a query)")
        text_of[query_id] = row["query_text"]
    rows_of: dict[int, list[tuple[dict[str, str], int]]] = defaultdict(list)
    query_of_idx: dict[int, int] = {}
    path = folder / "final_balanced_dataset.tsv"
    for number, row in enumerate(pairs, start=2):
        query_idx = _int(path, number, row, "query_idx")
        query_id = _int(path, number, row, "original_query_id")
        product_id = _int(path, number, row, "original_product_id")
        label = _int(path, number, row, "label")
        cluster_id = _int(path, number, row, "cluster_id")
        if query_id not in text_of:
            raise ImportError_(f"{path}:{number}: original_query_id {query_id} is not in queries.tsv")
        if product_id not in by_product:
            raise ImportError_(f"{path}:{number}: original_product_id {product_id} is not in products.tsv")
        if label not in (0, 1):
            raise ImportError_(f"{path}:{number}: label must be 0 or 1, got {label}")
        if cluster_id not in cluster_names:
            raise ImportError_(f"{path}:{number}: cluster_id {cluster_id} is not in cluster_labels.tsv")
        if query_of_idx.setdefault(query_idx, query_id) != query_id:
            raise ImportError_(f"{path}:{number}: query_idx {query_idx} maps to two original_query_ids")
        rows_of[query_id].append((row, number))
    tasks = []
    for query_id, text in text_of.items():
        rows = rows_of.get(query_id, [])
        if not rows:
            raise ImportError_(f"{path}: query_id {query_id} ({text!r}) has no candidate rows")
        candidates, labels = [], []
        for row, _number in rows:
            product = by_product[int(row["original_product_id"])]
            website = product["website"].strip()
            candidates.append(
                {
                    "name": product["ad_title"],
                    "desc": product["ad_description"],
                    "url": f"https://{website}" if website else "",
                    "category": cluster_names[int(row["cluster_id"])],
                    "product_id": int(row["original_product_id"]),
                }
            )
            labels.append(int(row["label"]))
        tasks.append(
            {
                "query_id": query_id,
                "query": text,
                "cluster": cluster_names[int(rows[0][0]["cluster_id"])],
                "candidates": candidates,
                "labels": labels,
            }
        )
    counts = {
        "ca_prod queries": len(queries),
        "ca_prod products": len(products),
        "ca_prod clusters": len(clusters),
        "ca_prod pairs": len(pairs),
    }
    return tasks, counts


def _write_suite(path: Path, header: dict[str, Any], tasks: list[dict[str, Any]], comment: str) -> None:
    document = {**header, "tasks": tasks}
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
    path.write_text(f"# {comment}\n{text}", encoding="utf-8")


def import_gem_bench(
    source: Path,
    out: Path,
    *,
    suite: str = "gem",
    expect: str = "official",
    link_ads: bool = False,
    allow_modified: bool = False,
) -> Imported:
    """Check the release and write <out>/{mt_human,lm_market,ca_prod}.yaml and the ad database."""
    if not source.is_dir():
        raise ImportError_(f"{source}: not a directory (expected the GEM-Bench release's data folder)")
    release = locate(source)
    result = Imported(layout=release.layout)
    chat = {name: read_chatbot(release, name) for name in ("mt_human", "lm_market")}
    result.counts.update({f"{name} prompts": len(rows) for name, rows in chat.items()})
    try:
        ads = load_ad_database(release.folder("adchat_products"))
    except AdDatabaseError as exc:
        raise ImportError_(str(exc)) from exc
    result.counts.update(
        {
            "ad keys": len(ads.ads),
            "ads": len(ads.all_ads),
            "top-level topics": len(ads.topics),
            "sub-topics": sum(len(s) for s in ads.topics.values()),
        }
    )
    search, counts = read_ca_prod(release)
    result.counts.update(counts)
    if not allow_modified:
        _check_counts(result.counts, expect, release)
    result.data = verify(release, file_hashes(release), expect, allow_modified)
    result.data["ad_database_digest"] = ads.digest
    out.mkdir(parents=True, exist_ok=True)
    if link_ads:
        ads_path = Path(_relative(release.folder("adchat_products"), out))
    else:
        target = out / "adchat_products"
        target.mkdir(exist_ok=True)
        for name in ("products.json", "topics.json"):
            shutil.copyfile(release.folder("adchat_products") / name, target / name)
        ads_path = Path("adchat_products")
    origin = f"GEM-Bench data in the release's schemas, from {source.name}/"
    for name, rows in chat.items():
        tasks = [
            {"id": f"{name}-{i + 1:03d}", "inputs": {"query": prompt, "category": category}}
            for i, (prompt, category) in enumerate(rows)
        ]
        shared = {"dataset": name, "scenario": "chatbot", "ad_database": str(ads_path)}
        header = {
            "suite": suite,
            "defaults": {
                "kind": "gem",
                "version": 1,
                "data": {**result.data, "tasks": _digests(tasks, shared)},
                "inputs": shared,
                "metadata": {"mode": "static", "source": f"{origin}{name}/prompts.json"},
            },
        }
        path = out / f"{name}.yaml"
        _write_suite(path, header, tasks, f"{name}: written by `harness import gem-bench`; do not edit by hand.")
        result.files.append(path)
    tasks = [
        {
            "id": f"ca_prod-{t['query_id']}",
            "inputs": {"query": t["query"], "cluster": t["cluster"], "candidates": t["candidates"]},
            "ground_truth": {"labels": t["labels"]},
        }
        for t in search
    ]
    shared = {"dataset": "ca_prod", "scenario": "search"}
    data = {k: v for k, v in result.data.items() if k != "ad_database_digest"}
    header = {
        "suite": suite,
        "defaults": {
            "kind": "gem",
            "version": 1,
            "data": {**data, "tasks": _digests(tasks, shared)},
            "inputs": shared,
            "metadata": {"mode": "static", "source": f"{origin}ca_prod/"},
        },
    }
    path = out / "ca_prod.yaml"
    _write_suite(path, header, tasks, "ca_prod: written by `harness import gem-bench`; do not edit by hand.")
    result.files.append(path)
    return result


def _digests(tasks: list[dict[str, Any]], shared: dict[str, Any]) -> dict[str, str]:
    """Each task's content hash, from the models a run validates it with (so a run can check it again)."""
    return {
        task["id"]: task_digest(
            task["id"],
            GemInputs.model_validate({**shared, **task["inputs"]}),
            GemTruth.model_validate(task.get("ground_truth") or {}),
        )
        for task in tasks
    }


def _relative(target: Path, start: Path) -> str:
    import os

    return os.path.relpath(target.resolve(), start.resolve())
