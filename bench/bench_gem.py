"""GEM-Bench's hot paths, each next to a floor measured in the same run.

- metric throughput: the five quantitative metrics for 1,000 responses whose sentences are already
  embedded (target: at least 2,000 responses/s); the floor is the same cosine arithmetic done in one
  vectorised numpy pass, which no per-response code can beat;
- the splitter on the same 1,000 responses (sentences/s), for scale;
- retrieval over 6,558 ads (the release's count; the release's own ads when ../shared is there, as
  texts only: the vectors are random unit vectors, since the embedding model's cost is not retrieval's):
  the index saved once and loaded from disk, then top-5 per query (target: under 1 ms per query); the
  floor is numpy's argpartition over the same scores (no stable order, no clamping).

  python bench/bench_gem.py [--responses 1000] [--ads 6558] [--queries 2000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from harness.benchmarks.gem.adllm import AdIndex, build_index
from harness.benchmarks.gem.data import Ad
from harness.benchmarks.gem.metrics import quantitative_metrics
from harness.benchmarks.gem.splitter import split_sentences

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "gem-bench" / "adchat_products" / "products.json"
WORDS = ("the", "city", "tram", "museum", "market", "river", "pass", "ticket", "walk", "coffee", "view", "garden")


def responses(count: int, dims: int, rng: random.Random) -> list[tuple[list[str], np.ndarray, dict[str, str]]]:
    out = []
    for i in range(count):
        n = rng.randint(3, 14)
        sentences = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 16))).capitalize() + "." for _ in range(n)
        ]
        if i % 4:
            sentences[rng.randrange(n)] += " Try Tramline today."
        vectors = np.asarray([[rng.gauss(0, 1) for _ in range(dims)] for _ in range(n)])
        out.append((sentences, vectors, {"name": "Tramline", "url": "https://tramline.example", "desc": "passes"}))
    return out


def metric_throughput(data: list[tuple[list[str], np.ndarray, dict[str, str]]], repeats: int) -> tuple[float, float]:
    """(responses/s of the harness's metrics, responses/s of the vectorised floor), medians."""
    ours, floor = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        for sentences, vectors, product in data:
            quantitative_metrics(sentences, vectors, product)
        ours.append(len(data) / (time.perf_counter() - started))
        started = time.perf_counter()
        stacked = np.concatenate([v for _, v, _ in data])
        unit = stacked / np.linalg.norm(stacked, axis=1, keepdims=True)
        (unit[:-1] * unit[1:]).sum(axis=1)  # every adjacent cosine at once
        floor.append(len(data) / (time.perf_counter() - started))
    return statistics.median(ours), statistics.median(floor)


def ads(count: int) -> list[Ad]:
    if RELEASE.is_file():
        data = json.loads(RELEASE.read_text())
        found = [
            Ad(n, u, d, k)
            for k, v in data.items()
            if v
            for n, u, d in zip(v["names"], v["urls"], v["descs"], strict=True)
        ]
        return (found * (count // len(found) + 1))[:count]
    return [Ad(f"Brand {i}", f"https://b{i}.example", f"product number {i}", "topic") for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--responses", type=int, default=1000)
    parser.add_argument("--ads", type=int, default=6558)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(0)
    data = responses(args.responses, args.dims, rng)
    ours, floor = metric_throughput(data, args.repeats)
    print(f"GEM-Bench metrics, {args.responses} responses of 3-14 embedded sentences ({args.dims} dims), ", end="")
    print(f"median of {args.repeats}:")
    verdict = "met" if ours >= 2000 else "NOT met"
    print(f"  quantitative metrics  {ours:,.0f} responses/s   floor (one vectorised pass) {floor:,.0f}/s", end="")
    print(f"   target >= 2,000: {verdict}")
    texts = [" ".join(s) for s, _, _ in data]
    split_sentences(texts[0])  # load Punkt once
    started = time.perf_counter()
    total = sum(len(split_sentences(t)) for t in texts)
    print(f"  sentence splitter     {total / (time.perf_counter() - started):,.0f} sentences/s ({total} sentences)")

    catalogue = ads(args.ads)
    vectors = np.asarray([[rng.gauss(0, 1) for _ in range(args.dims)] for _ in catalogue])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "index.npy"
        started = time.perf_counter()
        index = build_index(catalogue, vectors.tolist())
        built = time.perf_counter() - started
        np.save(path, index.unit)
        started = time.perf_counter()
        loaded = AdIndex(tuple(catalogue), np.load(path))
        load = time.perf_counter() - started
    queries = [np.asarray([rng.gauss(0, 1) for _ in range(args.dims)]) for _ in range(args.queries)]
    started = time.perf_counter()
    for query in queries:
        loaded.top(query, 5)
    ours_ms = (time.perf_counter() - started) / len(queries) * 1000
    started = time.perf_counter()
    for query in queries:
        scores = loaded.unit @ query
        np.argpartition(-scores, 5)[:5]
    floor_ms = (time.perf_counter() - started) / len(queries) * 1000
    source = "the release's ad texts" if RELEASE.is_file() else "generated ad texts"
    print(f"Retrieval over {len(catalogue):,} ads ({source}, {args.dims}-dim vectors), {args.queries} queries:")
    print(f"  index built in {built * 1000:.0f} ms, saved, loaded from disk in {load * 1000:.1f} ms")
    verdict = "met" if ours_ms < 1 else "NOT met"
    print(f"  top-5 per query       {ours_ms:.3f} ms   floor (argpartition, unordered) {floor_ms:.3f} ms", end="")
    print(f"   target < 1 ms: {verdict}")


if __name__ == "__main__":
    main()
