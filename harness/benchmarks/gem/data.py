"""GEM-Bench's task fields and its chatbot ad database (the authors' products.json/topics.json schema).

A chatbot task (MT-Human, LM-Market) points at an ad database folder; a search task (CA-Prod) carries its
own candidate list with a relevance label per candidate, in file order, duplicates kept.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from harness.task_model import STRICT

DATASET_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
_SURROGATE = re.compile("[\ud800-\udfff]")


class TextFileError(ValueError):
    """A data file that cannot be read as UTF-8 text; the message names the file (and the line and byte)."""


def read_utf8(path: Path, missing: str = "missing") -> str:
    """The file's text. Anything else is one line naming the file: missing, a folder, unreadable, or not
    UTF-8 (with the line and the absolute byte offset of the first bad byte). NUL bytes are refused too:
    UTF-16 and UTF-32 text holds them and would otherwise pass as odd UTF-8 (json.loads on bytes even
    decodes UTF-16 silently)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise TextFileError(f"{path}: {missing}") from None
    except IsADirectoryError:
        raise TextFileError(f"{path}: is a folder; expected a file") from None
    except PermissionError:
        raise TextFileError(f"{path}: cannot be read (permission denied)") from None
    except OSError as exc:
        raise TextFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if (nul := raw.find(b"\0")) >= 0:
        line = raw.count(b"\n", 0, nul) + 1
        raise TextFileError(
            f"{path}:{line}: not UTF-8 text (a NUL byte at byte offset {nul}, as in UTF-16 or UTF-32 text)"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise TextFileError(
            f"{path}:{line}: not UTF-8 (byte 0x{raw[exc.start]:02x} at byte offset {exc.start})"
        ) from None


def lone_surrogate(text: str) -> str | None:
    """Where `text` holds half a character (a lone UTF-16 surrogate, which JSON's \\ud83d escapes can
    produce): "\\ud83d at character 6", or None. Such text cannot be written as UTF-8, so it is refused
    where a file is read, naming the place, rather than failing later in a cache key or a report."""
    match = _SURROGATE.search(text)
    return None if match is None else f"\\u{ord(match.group()):04x} at character {match.start() + 1}"


class Candidate(BaseModel):
    """One product shown for a keyword query (CA-Prod)."""

    model_config = STRICT

    name: str = Field(description="The ad title.")
    desc: str = Field(description="The ad description, in full.")
    url: str = Field(default="", description="https:// + the advertiser's site, or empty.")
    category: str = Field(default="", description="The product's cluster name.")
    product_id: int | None = Field(default=None, description="The product's id in the source data.")


class GemInputs(BaseModel):
    model_config = STRICT

    dataset: str = Field(pattern=DATASET_PATTERN, description="mt_human, lm_market, ca_prod or your own.")
    scenario: Literal["chatbot", "search"] = Field(description="chatbot: a chat query; search: a keyword query.")
    query: str = Field(min_length=1, description="What the user asked (kept raw, URL-encoding included).")
    category: str | None = Field(default=None, description="The query's own category (e.g. Travel Planning).")
    ad_database: str | None = Field(
        default=None, description="Chatbot: folder with products.json and topics.json, relative to the task file."
    )
    cluster: str | None = Field(default=None, description="Search: the query's cluster (its first row's).")
    candidates: tuple[Candidate, ...] = Field(default=(), description="Search: the query's candidate products.")

    @model_validator(mode="after")
    def _scenario_fields(self) -> GemInputs:
        if self.scenario == "chatbot" and not self.ad_database:
            raise ValueError("a chatbot task needs ad_database (a folder with products.json and topics.json)")
        if self.scenario == "search" and not self.candidates:
            raise ValueError("a search task needs its candidates")
        return self


class GemTruth(BaseModel):
    model_config = STRICT

    labels: tuple[Literal[0, 1], ...] = Field(
        default=(), description="Search: one relevance label per candidate, in the same order (1 = relevant)."
    )


class GemData(BaseModel):
    """Which data a task comes from, as `harness import gem-bench` verified it (runs record it)."""

    model_config = STRICT

    status: Literal["official", "modified", "own"] = Field(
        description="official: every file is the release's (by SHA-256); modified: a copy that differs, imported "
        "with --allow-modified; own: a data set of your own in the release's schemas (--expect any)."
    )
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 over the data files' own SHA-256s.")
    release: str | None = Field(default=None, description="The release the data is (or was copied from).")
    modified: tuple[str, ...] = Field(default=(), description="The release's files that differ in this copy.")
    ad_database_digest: str | None = Field(
        default=None, description="Chatbot: the imported ad database's digest (a later edit is refused)."
    )
    tasks: dict[str, str] = Field(
        default_factory=dict,
        description="Each task's content hash as the importer wrote it (id -> 16 hex digits of SHA-256 over its id, "
        "inputs and labels); a run hashes every task again, and an edited task marks its data set modified.",
    )


class GemScoring(BaseModel):
    model_config = STRICT

    judges: tuple[str, ...] = Field(
        default=("accuracy", "naturalness", "personality", "trust", "notice", "click"),
        description="The judged metrics to ask for (none: quantitative metrics only).",
    )


@dataclass(frozen=True)
class Ad:
    name: str
    url: str
    desc: str
    topic: str

    def as_product(self) -> dict[str, str]:
        return {"name": self.name, "url": self.url, "desc": self.desc, "category": self.topic}

    def text(self) -> str:
        """How the retriever and the injector embed an ad: "name: description." (trailing dots trimmed)."""
        return f"{self.name}: {self.desc.rstrip('.')}."


@dataclass(frozen=True)
class AdDatabase:
    """The two-level topic tree and the ads under every topic and sub-topic (file order, duplicates kept)."""

    folder: Path
    topics: dict[str, tuple[str, ...]]  # top-level topic -> its sub-topics
    ads: dict[str, tuple[Ad, ...]]  # any topic or sub-topic -> its ads (empty for an empty category)
    digest: str

    @property
    def all_ads(self) -> list[Ad]:
        """Every ad under every key, top-level keys included, in file order: the retriever's database."""
        return [ad for key in self.ads for ad in self.ads[key]]


def surrogate_in(value: Any, where: str = "") -> str | None:
    """The first place in a parsed JSON value (keys included) holding half a character, as "field.path
    (\\ud83d at character 7)", or None."""
    if isinstance(value, str):
        place = lone_surrogate(value)
        return None if place is None else f"{where or 'the value'} ({place})"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        at = f"{where}.{key}" if where else str(key)
        if isinstance(key, str) and (place := lone_surrogate(key)) is not None:
            return f"the key {at!r} ({place})"
        if (found := surrogate_in(item, at)) is not None:
            return found
    return None


class AdDatabaseError(ValueError):
    """An ad database that does not match the schema; the message names the file and what was expected."""


def _json_file(path: Path) -> tuple[bytes, Any]:
    """The file's bytes and its JSON value, or one line naming the file."""
    try:
        text = read_utf8(path, "no such file (an ad database is products.json + topics.json)")
    except TextFileError as exc:
        raise AdDatabaseError(str(exc)) from None
    try:
        return text.encode("utf-8"), json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise AdDatabaseError(f"{path}: not valid JSON ({exc})") from None


def _no_surrogate(path: Path, where: str, text: str) -> None:
    if (place := lone_surrogate(text)) is not None:
        raise AdDatabaseError(f"{path}: {where} holds half a character ({place}); expected text")


def load_ad_database(folder: Path) -> AdDatabase:
    """Read products.json and topics.json (the GEM-Bench release's schema), checking them as we go."""
    products_path, topics_path = folder / "products.json", folder / "topics.json"
    products_raw, products = _json_file(products_path)
    topics_raw, topics = _json_file(topics_path)
    if not isinstance(topics, dict) or not all(isinstance(v, dict) for v in topics.values()):
        raise AdDatabaseError(f"{topics_path}: expected an object of topic -> {{sub-topic: {{}}}}")
    if not isinstance(products, dict):
        raise AdDatabaseError(f"{products_path}: expected an object of topic -> {{names, urls, descs}}")
    for top, subs in topics.items():
        for key in (top, *subs):
            _no_surrogate(topics_path, f"the topic {key!r}", key)
    tree = {str(top): tuple(str(s) for s in subs) for top, subs in topics.items()}
    ads: dict[str, tuple[Ad, ...]] = {}
    for key, value in products.items():
        _no_surrogate(products_path, f"the key {key!r}", key)
        if value == {}:
            ads[key] = ()
            continue
        if not isinstance(value, dict) or not all(isinstance(value.get(f), list) for f in ("names", "urls", "descs")):
            raise AdDatabaseError(f"{products_path}: {key!r} must be {{}} or have lists names, urls and descs")
        names, urls, descs = value["names"], value["urls"], value["descs"]
        if not len(names) == len(urls) == len(descs):
            raise AdDatabaseError(
                f"{products_path}: {key!r} has {len(names)} names, {len(urls)} urls and {len(descs)} descs; "
                "expected parallel lists of one length"
            )
        for field_name, values in (("names", names), ("urls", urls), ("descs", descs)):
            for index, item in enumerate(values):
                if not isinstance(item, str) or (field_name == "names" and not item.strip()):
                    what = "a non-empty string" if field_name == "names" else "a string"
                    raise AdDatabaseError(
                        f"{products_path}: {key!r} {field_name}[{index}] must be {what}, got {json.dumps(item)[:60]}"
                    )
                _no_surrogate(products_path, f"{key!r} {field_name}[{index}]", item)
        ads[key] = tuple(Ad(n, u, d, key) for n, u, d in zip(names, urls, descs, strict=True))
    missing = [s for subs in tree.values() for s in subs if s not in ads]
    if missing:
        raise AdDatabaseError(f"{products_path}: sub-topics of topics.json with no entry: {missing[:5]}")
    return AdDatabase(folder=folder, topics=tree, ads=ads, digest=ad_database_digest(products_raw, topics_raw))


def ad_database_digest(products_raw: bytes, topics_raw: bytes) -> str:
    """The ad database's digest: the first 16 hex digits of SHA-256 over both files' bytes."""
    return hashlib.sha256(products_raw + b"\0" + topics_raw).hexdigest()[:16]


def candidates_as_products(candidates: tuple[Candidate, ...]) -> list[Ad]:
    return [Ad(c.name, c.url, c.desc, c.category) for c in candidates]


def product_of(ad: Ad | None, scenario: str) -> dict[str, Any] | None:
    """The product record a solution claims (search-mode records name the description "description", as
    the reference does; the metrics read only name and url)."""
    if ad is None:
        return None
    if scenario == "search":
        return {"name": ad.name, "description": ad.desc, "url": ad.url, "category": ad.topic}
    return {"name": ad.name, "url": ad.url, "desc": ad.desc}
