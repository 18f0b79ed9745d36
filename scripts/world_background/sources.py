"""The hand-written source data of one world's background, read and checked before anything is generated."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = ROOT / "fixtures" / "world-sources"
WORLDS = ROOT / "fixtures" / "worlds"
BACKGROUND = "background"  # the folder of generated pages inside a world


class SourceError(ValueError):
    """Source data the generator cannot use; the message names the file and the field."""


def fold(text: str) -> str:
    """Lower case without accents: how names are compared and slugs are made ("Sandström" -> "sandstrom")."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ß", "ss").replace("ø", "o").replace("Ø", "O"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")


def _load(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SourceError(f"{path.relative_to(ROOT)}: cannot read ({exc})") from exc


@dataclass
class Sources:
    name: str
    world: dict[str, Any]
    names: dict[str, Any]
    companies: list[dict[str, Any]]
    functions: dict[str, Any]
    phrases: dict[str, Any]
    languages: dict[str, Any]
    guard_files: list[Path]

    @property
    def folder(self) -> Path:
        return WORLDS / self.name


def _require(where: str, item: dict[str, Any], fields: tuple[str, ...]) -> None:
    for name in fields:
        if item.get(name) in (None, "", []):
            raise SourceError(f"{where}: field '{name}' is required")


def load(name: str) -> Sources:
    """Every source file of world `name`, checked for the fields the generator needs."""
    folder = SOURCES / name
    if not folder.is_dir():
        raise SourceError(f"{folder.relative_to(ROOT)}: no source data for world {name!r}")
    common = SOURCES / "common"
    sources = Sources(
        name=name,
        world=_load(folder / "world.yaml"),
        names=_load(folder / "names.yaml"),
        companies=_load(folder / "companies.yaml"),
        functions=_load(common / "functions.yaml"),
        phrases=_load(common / "phrases.yaml"),
        languages=_load(common / "languages.yaml"),
        guard_files=sorted((folder / "guards").glob("*.yaml")),
    )
    shown = f"fixtures/world-sources/{name}"
    for key in ("seed", "people_url", "counts", "cultures", "shared_employers", "schools", "cities", "outlets"):
        if key not in sources.world:
            raise SourceError(f"{shown}/world.yaml: field '{key}' is required")
    for culture, weight in sources.world["cultures"].items():
        if culture not in sources.names:
            raise SourceError(f"{shown}/world.yaml: cultures.{culture} has no entry in names.yaml")
        if not isinstance(weight, int | float) or weight <= 0:
            raise SourceError(f"{shown}/world.yaml: cultures.{culture} must be a positive weight")
    for culture, entry in sources.names.items():
        _require(f"{shown}/names.yaml: {culture}", entry, ("family", "given_f", "given_m", "cities"))
    cities = sources.world["cities"]
    for index, company in enumerate(sources.companies):
        where = f"{shown}/companies.yaml: entry {index + 1}"
        _require(where, company, ("name", "domain", "hq", "founded", "staff", "field", "what", "products", "teams"))
        for city in [company["hq"], *company.get("offices", [])]:
            if city not in cities:
                raise SourceError(f"{where} ({company['name']}): city {city!r} is not in world.yaml cities")
        for team, functions in company["teams"].items():
            unknown = [f for f in functions if f not in sources.functions]
            if unknown:
                raise SourceError(f"{where} ({company['name']}): team {team!r} has unknown functions {unknown}")
    for school in sources.world["schools"]:
        _require(f"{shown}/world.yaml: schools", school, ("name", "city", "degrees"))
        if not school.get("url") and not school.get("domain"):
            raise SourceError(f"{shown}/world.yaml: school {school['name']!r} needs a url (its page) or a domain")
    for employer in sources.world["shared_employers"]:
        _require(f"{shown}/world.yaml: shared_employers", employer, ("name", "url", "cities"))
    return sources
