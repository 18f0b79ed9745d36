"""The creators' own YAML (fixtures/creators/<group>.yaml), validated: who each creator is and what they write.

Everything a person wrote lives in these files; scripts/generate_creator_pool.py derives the numbers (views,
engagement, audience, rates) from fixtures/creators/rules.yaml and renders the pages. The format is documented
in fixtures/creators/README.md.

    python -m scripts.creator_pool.schema [FILE ...]     # validate (all files by default); exit 1 on a problem
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

ROOT = Path(__file__).resolve().parents[2]
CREATORS = ROOT / "fixtures" / "creators"
RULES = CREATORS / "rules.yaml"
HANDLE = re.compile(r"^[a-z0-9][a-z0-9._]{2,28}[a-z0-9]$")
AGE_BUCKETS = ("13-17", "18-24", "25-34", "35-44", "45+")
Platform = Literal["YouTube", "TikTok", "Instagram"]
Role = Literal["pick", "qualified", "near_miss", "lookalike", "filler"]
STRICT = ConfigDict(extra="forbid", str_strip_whitespace=True)


def rules() -> dict:
    return yaml.safe_load(RULES.read_text(encoding="utf-8"))


class Collaboration(BaseModel):
    """A past brand deal, as an agency would note it."""

    model_config = STRICT
    brand: str = Field(min_length=2, max_length=60, description="A fictional brand")
    category: str = Field(min_length=3, max_length=60, description="what the brand sells: 'budgeting app'")
    format: str = Field(min_length=3, max_length=80, description="'60-second integration', 'three TikToks'")
    year: int = Field(ge=2018, le=2026)
    outcome: str = Field(min_length=10, max_length=300, description="how it went, in the agency's words")


class Audience(BaseModel):
    """Overrides of the derived audience (when the creator's story depends on it)."""

    model_config = STRICT
    age: dict[str, int] | None = Field(default=None, description="percent per bucket 13-17 ... 45+, summing to 100")
    female: int | None = Field(default=None, ge=5, le=95, description="percent of the audience that is female")
    top_countries: dict[str, int] | None = Field(default=None, description="the first is the creator's region")

    @field_validator("age")
    @classmethod
    def _age(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        if value is not None:
            if tuple(value) != AGE_BUCKETS:
                raise ValueError(f"age must list the buckets {list(AGE_BUCKETS)} in that order")
            if sum(value.values()) != 100 or min(value.values()) < 0:
                raise ValueError("age shares must be whole percents summing to 100")
        return value

    @field_validator("top_countries")
    @classmethod
    def _countries(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        if value is not None:
            shares = list(value.values())
            if shares != sorted(shares, reverse=True) or sum(shares) > 100 or min(shares) < 1:
                raise ValueError("top_countries shares must be descending whole percents summing to at most 100")
        return value


class Performance(BaseModel):
    """Overrides of the derived performance, when the story needs it (a creator whose views collapsed)."""

    model_config = STRICT
    views_ratio: float | None = Field(default=None, gt=0, le=5, description="avg_views / followers")
    engagement: float | None = Field(default=None, gt=0, le=30, description="(likes + comments) / views, percent")
    posts_per_month: int | None = Field(default=None, ge=1, le=60)
    views_trend: int | None = Field(
        default=None, ge=-90, le=400, description="views of the last 90 days against the 90 before, percent change"
    )
    suspicious_followers: int | None = Field(
        default=None, ge=0, le=60, description="percent of followers an audit flags as bots or inactive accounts"
    )


class Creator(BaseModel):
    model_config = STRICT

    handle: str = Field(description="lowercase letters, digits, '.' and '_': the file name and the profile URL")
    platform: Platform
    name: str = Field(min_length=2, max_length=80, description="display name: a person, a duo, a channel name")
    presenter: Literal["female", "male", "duo", "group"]
    role: Role = Field(description="for its group's brief; fillers belong to no brief")
    why: str = Field(default="", max_length=400, description="pick: why the client chose them; else what they miss")
    visible: str = Field(
        default="", max_length=300, description="near_miss / lookalike: a verbatim phrase of their own text showing it"
    )
    niche: str
    sub_niches: list[str] = Field(min_length=1, max_length=4)
    region: str = Field(description="the creator's country (a region of rules.yaml)")
    city: str = Field(min_length=2, max_length=80)
    language: str = Field(description="the language they post in (allowed for the region in rules.yaml)")
    since: int = Field(ge=2008, le=2026, description="year they started posting")
    followers: int = Field(ge=300, le=200_000_000, description="exact, as the platform shows it")
    audience: Audience | None = None
    performance: Performance | None = None
    price_level: Literal["budget", "standard", "premium", "very_premium"] = "standard"
    formats: list[str] | None = Field(
        default=None,
        min_length=1,
        description="the sponsored formats they sell (rules.yaml rate_formats); all if unset",
    )
    bio: str = Field(min_length=80, max_length=900, description="who they are, in the third person")
    content: str = Field(min_length=60, max_length=900, description="what their posts are like: formats, series")
    recent: list[str] = Field(min_length=3, max_length=5, description="titles of recent posts")
    brand_history: list[Collaboration] = Field(default_factory=list, max_length=4)
    notes: str = Field(default="", max_length=900, description="availability, restrictions, terms, management")
    brand_safety: str = Field(
        default="", max_length=600, description="incidents, complaints, pulled posts: what a brand-safety check finds"
    )

    @field_validator("handle")
    @classmethod
    def _handle(cls, value: str) -> str:
        if not HANDLE.match(value):
            raise ValueError("a handle is 4-30 characters: lowercase letters, digits, '.' and '_'")
        return value

    @field_validator("followers")
    @classmethod
    def _not_round(cls, value: int) -> int:
        if value >= 10_000 and value % 1000 == 0:
            raise ValueError("follower counts are exact (a platform shows 412,318, not 412,000)")
        return value

    @field_validator("recent")
    @classmethod
    def _titles(cls, value: list[str]) -> list[str]:
        if any(not 4 <= len(t) <= 140 for t in value):
            raise ValueError("each recent title is 4-140 characters")
        if len(set(value)) != len(value):
            raise ValueError("recent titles repeat")
        return value

    @model_validator(mode="after")
    def _story(self) -> Creator:
        if self.role != "filler" and len(self.why) < 10:
            raise ValueError(f"a {self.role} needs `why` (at least 10 characters)")
        if self.role in ("qualified", "near_miss", "lookalike"):
            if len(self.visible) < 8:
                raise ValueError(f"a {self.role} needs `visible`: the phrase of its own text that shows the miss")
            own = " ".join([self.bio, self.content, self.notes, self.brand_safety, *self.recent,
                            *(c.outcome for c in self.brand_history)])  # fmt: skip
            if self.visible not in own:
                raise ValueError("`visible` must be a verbatim phrase of the creator's bio, content, notes, brand "
                                 "safety, titles or brand outcomes")  # fmt: skip
        return self


class Group(BaseModel):
    """One file: the creators written for one brief (picks, near misses, look-alikes) or a set of fillers."""

    model_config = STRICT
    group: str = Field(min_length=3, max_length=80, description="the brief's task id, or filler-<topic>")
    creators: list[Creator] = Field(min_length=1)


def check_against_rules(creator: Creator, table: dict) -> list[str]:
    """What rules.yaml says about a creator's niche, region and language."""
    problems = []
    if creator.niche not in table["niches"]:
        problems.append(f"niche {creator.niche!r} is not in rules.yaml (niches: {sorted(table['niches'])})")
    region = table["regions"].get(creator.region)
    if region is None:
        problems.append(f"region {creator.region!r} is not in rules.yaml (regions: {sorted(table['regions'])})")
    elif creator.language not in region["languages"]:
        problems.append(f"{creator.region} creators post in {region['languages']}, not {creator.language!r}")
    offered = table["rate_formats"].get(creator.platform, {})
    if creator.formats is not None:
        unknown = [f for f in creator.formats if f not in offered]
        if unknown or len(set(creator.formats)) != len(creator.formats):
            problems.append(f"formats {creator.formats}: each once, from {list(offered)} on {creator.platform}")
    top = (creator.audience.top_countries if creator.audience else None) or {}
    if top and next(iter(top)) != creator.region:
        problems.append(f"the audience's first country must be the creator's region ({creator.region})")
    return problems


def describe(error: ValidationError, raw: object) -> list[str]:
    """Each validation error on one line, naming the creator by handle: '@moneywithmaya: bio: ...'."""
    lines = []
    for item in error.errors():
        loc = list(item["loc"])
        where = ".".join(str(part) for part in loc) or "the file"
        if len(loc) >= 2 and loc[0] == "creators" and isinstance(loc[1], int) and isinstance(raw, dict):
            creators = raw.get("creators") or []
            entry = creators[loc[1]] if loc[1] < len(creators) else None
            handle = entry.get("handle") if isinstance(entry, dict) else None
            field_path = ".".join(str(part) for part in loc[2:]) or "the creator"
            where = f"@{handle} (creators[{loc[1]}]): {field_path}" if handle else f"creators[{loc[1]}]: {field_path}"
        message = item["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {message}")
    return lines


@dataclass
class GroupFile:
    """One group file as loaded: its creators when it validates, and its problems (one line each)."""

    path: Path
    shown: str
    group: Group | None
    problems: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.group is not None and not self.problems


def load_files(paths: list[Path] | None = None, table: dict | None = None) -> list[GroupFile]:
    """Every group file (all of fixtures/creators/ by default), each validated on its own and against the files
    before it (a handle may be in one file only); problems name the file and the creator."""
    table = table or rules()
    files: list[GroupFile] = []
    seen: dict[tuple[str, str], str] = {}
    for path in paths or sorted(CREATORS.glob("*.yaml")):
        if path.name == RULES.name:
            continue
        shown = str(path.resolve().relative_to(ROOT) if ROOT in path.resolve().parents else path)
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
            group = Group.model_validate(raw)
        except yaml.YAMLError as exc:
            files.append(GroupFile(path, shown, None, [f"{shown}: not YAML: {' '.join(str(exc).split())}"]))
            continue
        except ValidationError as exc:
            files.append(GroupFile(path, shown, None, [f"{shown}: {line}" for line in describe(exc, raw)]))
            continue
        loaded = GroupFile(path, shown, group)
        for creator in group.creators:
            key = (creator.platform, creator.handle)
            if key in seen:
                loaded.problems.append(f"{shown}: {creator.platform} @{creator.handle} is already in {seen[key]}")
            seen.setdefault(key, shown)
            loaded.problems += [f"{shown}: @{creator.handle}: {p}" for p in check_against_rules(creator, table)]
        files.append(loaded)
    return files


def load_groups(paths: list[Path] | None = None) -> tuple[list[Group], list[str]]:
    """Every group file, validated; problems are one line each, naming the file and the creator."""
    files = load_files(paths)
    groups = [f.group for f in files if f.group is not None]
    return groups, [problem for f in files for problem in f.problems]


def main(argv: list[str] | None = None) -> int:
    paths = [Path(p) for p in (argv if argv is not None else sys.argv[1:])]
    groups, problems = load_groups(paths or None)
    for problem in problems:
        print(problem)
    count = sum(len(g.creators) for g in groups)
    print(f"{len(groups)} files, {count} creators, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
