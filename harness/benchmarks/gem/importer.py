"""`harness import gem-bench DIR`: the authors' released data (or a sample in its schemas) as task files.

Read exactly as the reference reading says (§1): the TSVs with CSV quoting (a doubled quote inside a quoted
field is one quote), file order kept, duplicates kept (all 100 LM-Market prompts), every LM-Market prompt
with its own category (the reference labels them all with the first one), every CA-Prod query with its
own candidate list (its rows of the pairs file, in file order) and a relevance label per candidate, query
texts kept raw (five are still URL-encoded). Writes one task file per data set and the ad database they
point at. Anything that does not match the schemas, or the release's counts, is refused with the file
and what was expected.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness.benchmarks.gem.data import AdDatabaseError, load_ad_database

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


def _json_list(path: Path) -> list[str]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ImportError_(f"{path}: missing (expected a JSON list of strings)") from exc
    except ValueError as exc:
        raise ImportError_(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ImportError_(f"{path}: expected a JSON list of non-empty strings")
    return value


def _tsv(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle, delimiter="\t")  # standard CSV quoting, as the release needs
            rows = list(reader)
            header = reader.fieldnames or []
    except FileNotFoundError as exc:
        raise ImportError_(f"{path}: missing") from exc
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


def _check_counts(counts: dict[str, int], expect: str, root: Path) -> None:
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
                f"{root / where[name]}: expected {expected} {name} (the GEM-Bench release), found {counts.get(name)}; "
                "pass --expect any to import a data set of your own in the same schemas"
            )


def read_chatbot(root: Path, name: str) -> list[tuple[str, str]]:
    prompts = _json_list(root / name / "prompts.json")
    categories = _json_list(root / name / "categories.json")
    if len(categories) != len(prompts):
        raise ImportError_(
            f"{root / name / 'categories.json'}: expected one category per prompt ({len(prompts)}), "
            f"found {len(categories)}"
        )
    return list(zip(prompts, categories, strict=True))


def read_ca_prod(root: Path) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Every query with its candidates (file order, duplicates kept) and their labels."""
    folder = root / "ca_prod"
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
        by_product[product_id] = row
    text_of: dict[int, str] = {}
    for number, row in enumerate(queries, start=2):
        query_id = _int(folder / "queries.tsv", number, row, "query_id")
        if query_id in text_of:
            raise ImportError_(f"{folder / 'queries.tsv'}:{number}: query_id {query_id} appears twice")
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
    source: Path, out: Path, *, suite: str = "gem", expect: str = "official", link_ads: bool = False
) -> Imported:
    """Check the release and write <out>/{mt_human,lm_market,ca_prod}.yaml and the ad database."""
    if not source.is_dir():
        raise ImportError_(f"{source}: not a directory (expected the GEM-Bench release's data folder)")
    result = Imported()
    chat = {name: read_chatbot(source, name) for name in ("mt_human", "lm_market")}
    result.counts.update({f"{name} prompts": len(rows) for name, rows in chat.items()})
    try:
        ads = load_ad_database(source / "adchat_products")
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
    search, counts = read_ca_prod(source)
    result.counts.update(counts)
    _check_counts(result.counts, expect, source)
    out.mkdir(parents=True, exist_ok=True)
    if link_ads:
        ads_path = Path(_relative(source / "adchat_products", out))
    else:
        target = out / "adchat_products"
        target.mkdir(exist_ok=True)
        for name in ("products.json", "topics.json"):
            shutil.copyfile(source / "adchat_products" / name, target / name)
        ads_path = Path("adchat_products")
    origin = f"GEM-Bench data in the release's schemas, from {source.name}/"
    for name, rows in chat.items():
        tasks = [
            {"id": f"{name}-{i + 1:03d}", "inputs": {"query": prompt, "category": category}}
            for i, (prompt, category) in enumerate(rows)
        ]
        header = {
            "suite": suite,
            "defaults": {
                "kind": "gem",
                "version": 1,
                "inputs": {"dataset": name, "scenario": "chatbot", "ad_database": str(ads_path)},
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
    header = {
        "suite": suite,
        "defaults": {
            "kind": "gem",
            "version": 1,
            "inputs": {"dataset": "ca_prod", "scenario": "search"},
            "metadata": {"mode": "static", "source": f"{origin}ca_prod/"},
        },
    }
    path = out / "ca_prod.yaml"
    _write_suite(path, header, tasks, "ca_prod: written by `harness import gem-bench`; do not edit by hand.")
    result.files.append(path)
    return result


def _relative(target: Path, start: Path) -> str:
    import os

    return os.path.relpath(target.resolve(), start.resolve())
