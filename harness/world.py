"""Offline worlds: folders of hand-editable pages an agent can search and open, instead of the live web.

A world is `fixtures/worlds/<name>/`: Markdown files (any depth) with YAML front matter (`url`, `title`,
optional `kind`, `links` and `data`), the page text after it. README.md files describe the world for
people and are not pages. The loader refuses a world with a located, file-named message: unreadable or
malformed files, missing fields, a URL used twice, a link to a page the world does not have.

Agents get two tools (`world_tools`): `search` ranks pages by BM25 (bm25s, over title and text) and returns
URL, title and a snippet; `open` returns a page by URL, in pages of about 4,000 characters. Benchmarks use
the same world to look up what the agent cites (xbench Marketing reads candidates' profiles from it).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from harness.strict_yaml import YamlProblem, parse_yaml
from harness.tools import Tool

PAGE_CHARS = 4000
SNIPPET_CHARS = 240
_FRONT = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n?", re.DOTALL)
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


class WorldError(ValueError):
    """A world that cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Page:
    url: str
    title: str
    kind: str
    text: str
    links: tuple[str, ...]
    data: dict[str, Any]
    path: Path


# Query parameters that track a click rather than name a page (share links carry them).
TRACKING_PARAMETERS = frozenset(
    {"fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "igsh", "si", "mc_cid", "mc_eid", "_hsenc", "_hsmi"}
)


def _tracking(name: str) -> bool:
    return name.lower() in TRACKING_PARAMETERS or name.lower().startswith("utm_")


def normalize_url(url: str) -> str:
    """The form URLs are compared in: no scheme, no "www.", lower case, no trailing slash, no fragment,
    no tracking parameters (utm_*, fbclid, igshid, si, ...); other parameters kept, in their order."""
    text = url.strip()
    if "://" not in text:
        text = f"https://{text}"
    try:
        parts = urlsplit(text)
    except ValueError:
        return url.strip().lower()
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = parts.path.rstrip("/")
    kept = [p for p in parts.query.split("&") if p and not _tracking(p.split("=", 1)[0])]
    query = f"?{'&'.join(kept)}" if kept else ""
    return f"{host}{path}{query}".lower()


def _read_page(path: Path, root: Path) -> Page:
    shown = path.relative_to(root.parent) if root.parent in path.parents else path
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise WorldError(f"{shown}: cannot read the page ({exc})") from exc
    match = _FRONT.match(raw)
    if match is None:
        raise WorldError(f"{shown}:1: expected YAML front matter between --- lines (url, title, ...)")
    try:
        _, meta = parse_yaml(match.group(1))
    except YamlProblem as exc:
        raise WorldError(f"{shown}:{exc.line + 1}: {exc.message}") from exc
    if not isinstance(meta, dict):
        raise WorldError(f"{shown}:2: the front matter must be a mapping with url and title")
    for name in ("url", "title"):
        if not isinstance(meta.get(name), str) or not meta[name].strip():
            raise WorldError(f"{shown}: front matter field '{name}' is required (a non-empty string)")
    links = meta.get("links") or []
    if not isinstance(links, list) or not all(isinstance(link, str) for link in links):
        raise WorldError(f"{shown}: front matter field 'links' must be a list of URLs")
    data = meta.get("data") or {}
    if not isinstance(data, dict):
        raise WorldError(f"{shown}: front matter field 'data' must be a mapping")
    unknown = sorted(set(meta) - {"url", "title", "kind", "links", "data"})
    if unknown:
        raise WorldError(f"{shown}: unknown front matter field(s) {unknown}; expected url, title, kind, links, data")
    return Page(
        url=meta["url"].strip(),
        title=meta["title"].strip(),
        kind=str(meta.get("kind") or "page"),
        text=raw[match.end() :].strip(),
        links=tuple(links),
        data=data,
        path=path,
    )


def world_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.md") if p.name.lower() != "readme.md")


def world_digest(folder: Path) -> str:
    """Changes when any page changes (names, sizes and times): the key of a world's built index."""
    digest = hashlib.sha256()
    for path in world_files(folder):
        stat = path.stat()
        digest.update(f"{path.relative_to(folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:16]


class World:
    """A loaded world: its pages by normalised URL and a BM25 index over title and text."""

    def __init__(self, name: str, pages: list[Page]) -> None:
        import logging

        import bm25s

        logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every build at DEBUG

        self.name = name
        self.pages = pages
        self.by_url = {normalize_url(p.url): p for p in pages}
        corpus = [f"{p.title}\n{p.title}\n{p.text}" for p in pages]  # the title counts twice
        self._retriever = bm25s.BM25()
        self._retriever.index(bm25s.tokenize(corpus, stopwords="en", show_progress=False), show_progress=False)

    def get(self, url: str) -> Page | None:
        return self.by_url.get(normalize_url(url))

    def search(self, query: str, k: int = 5) -> list[dict[str, Any]]:
        """Ranked pages for `query`: url, title, a snippet around the query's words, and the score."""
        import bm25s

        if not _TOKEN.search(query.lower()):
            return []
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
        if not tokens.ids or not tokens.ids[0]:
            return []
        k = max(1, min(k, len(self.pages)))
        documents, scores = self._retriever.retrieve(tokens, k=k, show_progress=False)
        hits = []
        for index, score in zip(documents[0], scores[0], strict=True):
            if score <= 0:
                continue
            page = self.pages[int(index)]
            hits.append(
                {"url": page.url, "title": page.title, "snippet": snippet(page.text, query), "score": float(score)}
            )
        return hits

    def open(self, url: str, page: int = 1) -> dict[str, Any]:
        found = self.get(url)
        if found is None:
            return {"error": f"no page at {url} in this world; search for it first"}
        chunks = paginate(found.text)
        if not 1 <= page <= len(chunks):
            return {"error": f"{found.url} has {len(chunks)} page(s); asked for page {page}"}
        return {"url": found.url, "title": found.title, "page": page, "pages": len(chunks), "text": chunks[page - 1]}


def snippet(text: str, query: str) -> str:
    """The stretch of `text` (about 240 characters) holding most of the query's words."""
    words = {w for w in _TOKEN.findall(query.lower()) if len(w) > 2}
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= SNIPPET_CHARS or not words:
        return flat[:SNIPPET_CHARS]
    best, best_hits = 0, -1
    for start in range(0, max(1, len(flat) - SNIPPET_CHARS), 60):
        window = flat[start : start + SNIPPET_CHARS].lower()
        hits = sum(w in window for w in words)
        if hits > best_hits:
            best, best_hits = start, hits
    cut = flat[best : best + SNIPPET_CHARS]
    return ("..." if best else "") + cut + ("..." if best + SNIPPET_CHARS < len(flat) else "")


def paginate(text: str, size: int = PAGE_CHARS) -> list[str]:
    """`text` in pages of at most `size` characters, cut at line breaks where possible."""
    pages, current = [], ""
    for line in text.splitlines(keepends=True):
        while len(line) > size:
            if current:
                pages.append(current)
                current = ""
            pages.append(line[:size])
            line = line[size:]
        if len(current) + len(line) > size:
            pages.append(current)
            current = ""
        current += line
    if current or not pages:
        pages.append(current)
    return [p.rstrip("\n") for p in pages]


def read_pages(folder: Path) -> list[Page]:
    """Every page of a world, checked: unique URLs and links that lead somewhere. A page that is a link to a
    file outside the world's folder is refused: the world would serve whatever it points at."""
    if not folder.is_dir():
        raise WorldError(f"{folder}: no such world (expected a folder of pages under fixtures/worlds/)")
    root = folder.resolve()
    for path in world_files(folder):
        target = path.resolve()
        if root not in target.parents:
            raise WorldError(f"{path}: links to {target}, outside the world's folder; a page must be a file of it")
    pages = [_read_page(path, folder) for path in world_files(folder)]
    if not pages:
        raise WorldError(f"{folder}: the world has no pages (*.md files with front matter)")
    seen: dict[str, Path] = {}
    for page in pages:
        key = normalize_url(page.url)
        if key in seen:
            raise WorldError(f"{page.path}: url {page.url} is already the url of {seen[key]}")
        seen[key] = page.path
    for page in pages:
        for link in page.links:
            if normalize_url(link) not in seen:
                raise WorldError(f"{page.path}: links to {link}, which is not a page of this world")
    return pages


def load_world(folder: Path) -> World:
    return World(folder.name, read_pages(folder))


@lru_cache(maxsize=16)
def world_problem(folder: str, digest: str) -> str | None:
    """Why a world cannot be used, or None (checked once per world version per process)."""
    try:
        read_pages(Path(folder))
    except WorldError as exc:
        return str(exc)
    return None


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def world_tools(world: World) -> list[Tool]:
    """`search` and `open` over a world, as function-calling tools (their outputs are JSON text)."""

    def search(query: str, k: int = 5) -> str:
        hits = world.search(str(query), min(10, max(1, _int(k, 5))))
        results = [{name: hit[name] for name in ("url", "title", "snippet")} for hit in hits]
        return json.dumps({"query": query, "results": results}, ensure_ascii=False)

    def open_page(url: str, page: int = 1) -> str:
        return json.dumps(world.open(str(url), _int(page, 1)), ensure_ascii=False)

    return [
        Tool(
            name="search",
            description="Search the web for pages about people, companies, teams, schools or creators. "
            "Returns the best-matching pages with their URL, title and a snippet.",
            parameters={
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "keywords, e.g. a name, a company, a skill, a city"},
                    "k": {"type": "integer", "description": "how many results (default 5, at most 10)"},
                },
                "required": ["query"],
            },
            function=search,
        ),
        Tool(
            name="open",
            description="Open a page by its URL and read its text (long pages come in parts: pass page=2, ...).",
            parameters={
                "type": "object",
                "properties": {
                    "url": {"type": "string", "description": "a URL from the search results or from another page"},
                    "page": {"type": "integer", "description": "which part of a long page (default 1)"},
                },
                "required": ["url"],
            },
            function=open_page,
        ),
    ]
