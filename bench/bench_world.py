"""Offline worlds at scale: indexing a 10,000-page generated world and searching it, next to floors.

- indexing: `load_world` (read every file, parse its front matter, check URLs and links, build the BM25
  index); target under 5 s. The floor is bm25s indexing the same texts already in memory: what is left
  when reading and checking the files costs nothing.
- search: `World.search` (rank, then a snippet per hit) over queries of 2-4 words; target under 5 ms per
  query. The floor is bm25s's retrieval alone on the same queries, without snippets.

  python bench/bench_world.py [--pages 10000] [--queries 500]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

FIRST = ("Amara", "Bo", "Chidi", "Dana", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kavya", "Lior", "Mateo")
LAST = ("Okafor", "Lindqvist", "Tanaka", "Moreau", "Haddad", "Kowalski", "Reyes", "Nakamura", "Osei", "Brennan")
ROLES = ("staff engineer", "product manager", "data scientist", "recruiter", "head of design", "SRE", "CFO")
TOPICS = (
    "robotics",
    "payments",
    "genomics",
    "logistics",
    "compilers",
    "battery chemistry",
    "search ranking",
    "fraud detection",
    "computer vision",
    "supply chain",
    "insurance pricing",
    "edge inference",
)
CITIES = ("Lagos", "Lisbon", "Osaka", "Austin", "Warsaw", "Nairobi", "Montreal", "Pune", "Leeds", "Valparaiso")
FILLER = (
    "led",
    "shipped",
    "hired",
    "migrated",
    "scaled",
    "rewrote",
    "the platform",
    "a team of eight",
    "the quarterly plan",
    "three launches",
    "an internal tool",
    "the on-call rotation",
    "customer interviews",
)


def write_world(folder: Path, pages: int, rng: random.Random) -> list[str]:
    """`pages` Markdown pages with front matter and 150-400 words each; returns their texts (for the floor)."""
    texts = []
    for i in range(pages):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        title = f"{name} - {rng.choice(ROLES)} in {rng.choice(TOPICS)}"
        sentences = []
        for _ in range(rng.randint(12, 30)):
            words = [rng.choice(FILLER) for _ in range(rng.randint(3, 6))]
            where, what = rng.choice(CITIES), rng.choice(TOPICS)
            sentences.append(f"In {where} {name.split()[0]} " + " ".join(words) + f" for {what}.")
        text = " ".join(sentences)
        links = [f"https://people.example/p{rng.randrange(pages)}"] if i else []
        page = folder / f"{i // 1000:02d}" / f"p{i}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(
            f"---\nurl: https://people.example/p{i}\ntitle: {title}\nlinks: {links}\n---\n{text}\n", encoding="utf-8"
        )
        texts.append(f"{title}\n{title}\n{text}")
    return texts


def queries(count: int, rng: random.Random) -> list[str]:
    shapes = (
        lambda: f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        lambda: f"{rng.choice(ROLES)} {rng.choice(TOPICS)}",
        lambda: f"{rng.choice(TOPICS)} {rng.choice(CITIES)} {rng.choice(ROLES)}",
        lambda: f"{rng.choice(LAST)} {rng.choice(TOPICS)} {rng.choice(CITIES)} hired",
    )
    return [rng.choice(shapes)() for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=500)
    args = parser.parse_args()

    import bm25s

    from harness.world import load_world

    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "generated"
        texts = write_world(folder, args.pages, rng)
        size = sum(p.stat().st_size for p in folder.rglob("*.md"))

        started = time.perf_counter()
        world = load_world(folder)
        index_s = time.perf_counter() - started

        started = time.perf_counter()
        floor = bm25s.BM25()
        floor.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
        floor_index_s = time.perf_counter() - started

        asked = queries(args.queries, rng)
        for query in asked[:20]:  # warm both paths
            world.search(query)
        ours, bare = [], []
        for query in asked:
            started = time.perf_counter()
            world.search(query, 5)
            ours.append(time.perf_counter() - started)
            started = time.perf_counter()
            tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
            floor.retrieve(tokens, k=5, show_progress=False)
            bare.append(time.perf_counter() - started)

    def ms(values: list[float], q: float) -> float:
        return 1000 * statistics.quantiles(values, n=100)[int(q) - 1]

    print(f"world: {args.pages:,} pages, {size / 2**20:.1f} MiB of Markdown")
    print(f"index (load_world)      {index_s:6.2f} s   target < 5 s")
    print(f"  floor (bm25s, texts in memory) {floor_index_s:6.2f} s   ratio {index_s / floor_index_s:.2f}x")
    print(
        f"search (World.search)   median {1000 * statistics.median(ours):.2f} ms, p95 {ms(ours, 95):.2f} ms"
        "   target < 5 ms"
    )
    print(
        f"  floor (bm25s retrieve) median {1000 * statistics.median(bare):.2f} ms, p95 {ms(bare, 95):.2f} ms"
        f"   ratio {statistics.median(ours) / statistics.median(bare):.2f}x"
    )


if __name__ == "__main__":
    main()
