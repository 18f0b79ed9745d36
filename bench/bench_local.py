"""Benchmark the embedded local models: chat speed, embedding throughput and peak memory.

Usage: python bench/bench_local.py [--part chat|embeddings] [--quick]

Each part runs in its own subprocess so that the peak RSS figures (ru_maxrss) are separate.
Embeddings are batched by equal token length (nothing padded), so a text gets the same bits whatever else is
in its batch; `padded batches` gives the old padded grouping's speed beside it, the price of that. Measured with
--quick on the 2-core machine shared with other jobs (load about 8): 122 short sentences/s against 161/s padded,
so determinism costs about a quarter of the speed on short sentences.

Why: the local models are the offline default of the harness, so their speed bounds how fast an
offline eval suite can run on a small CI machine (the targets assume 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

TARGET_GENERATION_TPS = 80.0
TARGET_EMBEDDINGS_PER_S = 300.0

_PARAGRAPH = (
    "The committee reviewed the quarterly report, compared the regional figures with last year's, "
    "and asked the engineering team to explain why the latency of the search service had doubled "
    "after the migration to the new cluster. "
)


def peak_rss_mb() -> float:
    """Peak resident set size of this process (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def bench_chat(quick: bool) -> dict[str, Any]:
    from harness.local.chat import complete_local

    def ask(system: str, user: str, **params: Any) -> dict[str, Any]:
        body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": user}], **params}
        return complete_local("smollm2", body)

    start = time.perf_counter()
    ask("Warm-up.", "Hi", max_tokens=1, temperature=0)
    load_s = time.perf_counter() - start

    # Prompt processing: long prompts whose system message differs from its first token on, so the
    # llama.cpp KV prefix cache cannot reuse the previous request.
    pp_rates, pp_tokens = [], 0
    for i in range(2 if quick else 5):
        start = time.perf_counter()
        result = ask(f"Run {i} {random.random():.6f}. Summarise documents.", _PARAGRAPH * 12, max_tokens=1)
        pp_rates.append(result["usage"]["prompt_tokens"] / (time.perf_counter() - start))
        pp_tokens += result["usage"]["prompt_tokens"]
    pp_tps = statistics.median(pp_rates)

    # Generation: sampled stories (a fixed seed each) so the tiny model keeps going instead of
    # stopping early; prompt time is subtracted using the prompt-processing rate measured above.
    gen_rates, e2e_rates, gen_tokens = [], [], 0
    for seed in range(2 if quick else 6):
        start = time.perf_counter()
        result = ask(
            f"Story {seed}.",
            "Write a long, detailed story about a lighthouse keeper and a storm.",
            max_tokens=256,
            temperature=0.8,
            seed=seed,
        )
        elapsed = time.perf_counter() - start
        usage = result["usage"]
        gen_tokens += usage["completion_tokens"]
        e2e_rates.append(usage["completion_tokens"] / elapsed)
        gen_rates.append(usage["completion_tokens"] / max(elapsed - usage["prompt_tokens"] / pp_tps, 1e-9))
    return {
        "part": "chat",
        "model": "local/smollm2 (SmolLM2-135M-Instruct Q4_1, llama.cpp)",
        "load_and_first_call_s": round(load_s, 3),
        "prompt_tokens_per_s": round(pp_tps, 1),
        "prompt_tokens_per_s_best": round(max(pp_rates), 1),
        "prompt_tokens_per_s_runs": [round(r) for r in pp_rates],
        "prompt_tokens_measured": pp_tokens,
        "generation_tokens_per_s": round(statistics.median(gen_rates), 1),
        "generation_tokens_per_s_best": round(max(gen_rates), 1),
        "generation_tokens_per_s_runs": [round(r) for r in gen_rates],
        "generation_tokens_per_s_end_to_end": round(statistics.median(e2e_rates), 1),
        "generated_tokens_measured": gen_tokens,
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def short_sentences(n: int, seed: int = 0) -> list[str]:
    """Typical short eval sentences (8-16 tokens), deterministic."""
    rng = random.Random(seed)
    subjects = ["The cat", "A young engineer", "My neighbour", "The committee", "Our new model", "She", "Every student"]
    verbs = ["quickly reviewed", "was surprised by", "never understood", "carefully tested", "wrote about", "compared"]
    objects = [
        "the quarterly report.",
        "a strange noise in the kitchen.",
        "the results of the experiment",
        "its latest release notes!",
        "how tokenizers split words?",
        "two competing proposals for the budget.",
    ]
    return [f"{rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(objects)}" for _ in range(n)]


def bench_embeddings(quick: bool) -> dict[str, Any]:
    from harness.local.embeddings import embed_local

    start = time.perf_counter()
    embed_local("all-minilm-l6-v2", ["warm-up"])
    load_s = time.perf_counter() - start

    sentences = short_sentences(500 if quick else 2000)
    embed_local("all-minilm-l6-v2", sentences[:100])
    rates, tokens = [], 0
    for _ in range(2 if quick else 5):
        start = time.perf_counter()
        _, tokens = embed_local("all-minilm-l6-v2", sentences)
        rates.append(len(sentences) / (time.perf_counter() - start))

    padded = padded_rate(sentences, 2 if quick else 5)

    paragraphs = [_PARAGRAPH * 2 + s for s in short_sentences(100, seed=1)]
    start = time.perf_counter()
    _, long_tokens = embed_local("all-minilm-l6-v2", paragraphs)
    long_rate = len(paragraphs) / (time.perf_counter() - start)
    return {
        "part": "embeddings",
        "model": "local/all-minilm-l6-v2 (numpy float32)",
        "load_and_first_call_s": round(load_s, 3),
        "short_sentences": len(sentences),
        "mean_tokens_per_sentence": round(tokens / len(sentences), 1),
        "embeddings_per_s_median": round(statistics.median(rates), 1),
        "embeddings_per_s_best": round(max(rates), 1),
        "padded_embeddings_per_s_median": round(padded, 1),
        "paragraph_tokens_mean": round(long_tokens / len(paragraphs), 1),
        "paragraph_embeddings_per_s": round(long_rate, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def _padded_batches(lengths: Any) -> list[Any]:
    """The grouping the encoder used before it was made deterministic: neighbours in length order, each
    batch padded to its longest text (faster, but a text's vector moved with its company)."""
    import numpy as np

    order = np.argsort(lengths, kind="stable")
    batches, start = [], 0
    while start < len(order):
        stop = start + 1
        while stop < len(order) and stop - start < 128 and (stop - start + 1) * int(lengths[order[stop]]) <= 512:
            stop += 1
        batches.append(order[start:stop])
        start = stop
    return batches


def padded_rate(sentences: list[str], repeats: int) -> float:
    """Sentences/s with the padded grouping: the floor the deterministic (equal-length) grouping is judged by."""
    from harness.local import embeddings

    exact = embeddings._length_batches
    embeddings._length_batches = _padded_batches
    try:
        rates = []
        for _ in range(repeats):
            start = time.perf_counter()
            embeddings.embed_local("all-minilm-l6-v2", sentences)
            rates.append(len(sentences) / (time.perf_counter() - start))
    finally:
        embeddings._length_batches = exact
    return statistics.median(rates)


PARTS = {"chat": bench_chat, "embeddings": bench_embeddings}


def run_part_in_subprocess(part: str, quick: bool) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--part", part, *(["--quick"] if quick else [])]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=REPO)
    if proc.returncode != 0:
        return {"part": part, "error": (proc.stderr or proc.stdout).strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def verdict(value: float, target: float) -> str:
    return f"(target >= {target:g}: {'OK' if value >= target else 'BELOW TARGET'})"


def print_report(results: dict[str, dict[str, Any]]) -> None:
    """Human-readable figures; medians are judged against the targets, bests show the quiet-machine speed."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, load avg {load}")
    chat, emb = results["chat"], results["embeddings"]
    print("\n[chat] " + chat.get("model", ""))
    if "error" in chat:
        print(f"  failed: {chat['error']}")
    else:
        gen = chat["generation_tokens_per_s"]
        runs, best = chat["generation_tokens_per_s_runs"], chat["generation_tokens_per_s_best"]
        judged = verdict(gen, TARGET_GENERATION_TPS)
        print(f"  generation        {gen:8.1f} tok/s (median; best {best}; runs {runs})  {judged}")
        print(f"  generation e2e    {chat['generation_tokens_per_s_end_to_end']:8.1f} tok/s  (prompt time included)")
        pp, pp_best, pp_runs = (
            chat["prompt_tokens_per_s"],
            chat["prompt_tokens_per_s_best"],
            chat["prompt_tokens_per_s_runs"],
        )
        print(f"  prompt processing {pp:8.1f} tok/s (median; best {pp_best}; runs {pp_runs})")
        print(f"  load + 1st call   {chat['load_and_first_call_s']:8.2f} s")
        print(f"  peak RSS          {chat['peak_rss_mb']:8.1f} MB")
    print("\n[embeddings] " + emb.get("model", ""))
    if "error" in emb:
        print(f"  failed: {emb['error']}")
    else:
        rate = emb["embeddings_per_s_median"]
        print(
            f"  short sentences   {rate:8.1f} /s (median; best {emb['embeddings_per_s_best']:.1f}; "
            f"{emb['mean_tokens_per_sentence']} tokens each)  {verdict(rate, TARGET_EMBEDDINGS_PER_S)}"
        )
        padded = emb["padded_embeddings_per_s_median"]
        print(f"  padded batches    {padded:8.1f} /s (median; the non-deterministic grouping, for the cost)")
        para_rate, para_tokens = emb["paragraph_embeddings_per_s"], emb["paragraph_tokens_mean"]
        print(f"  paragraphs        {para_rate:8.1f} /s ({para_tokens} tokens each)")
        print(f"  load + 1st call   {emb['load_and_first_call_s']:8.2f} s")
        print(f"  peak RSS          {emb['peak_rss_mb']:8.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=sorted(PARTS), help="run one part in this process and print JSON")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", action="store_true", help="print the raw results as JSON")
    args = parser.parse_args()
    if args.part:
        print(json.dumps(PARTS[args.part](args.quick)))
        return
    results = {part: run_part_in_subprocess(part, args.quick) for part in PARTS}
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)


if __name__ == "__main__":
    main()
