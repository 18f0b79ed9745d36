"""A creator's page: front matter (url, title, kind, data) and a body rendered by one of the Jinja layouts in
fixtures/creators/layouts/.

The layouts add only scaffolding (headings, tables, short "Label: value" lines); every sentence of prose on a page
is the creator's own text, copied verbatim. Which layout a creator gets, and the few wording choices a layout
makes (a heading's words, how numbers and prices are written), come from a random stream seeded by the creator's
platform and handle.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import jinja2

from scripts.creator_pool.numbers import DATA_KEYS, round_sig, stream
from scripts.creator_pool.schema import ROOT, Creator, rules

LAYOUTS_DIR = ROOT / "fixtures" / "creators" / "layouts"
FOLDERS = {"YouTube": "youtube", "TikTok": "tiktok", "Instagram": "instagram"}
LAYOUT_WEIGHTS = {  # how often each layout is drawn, per platform
    "YouTube": {"media_kit": 25, "scouting_notes": 25, "card": 15, "work_with_me": 15, "analytics": 20},
    "TikTok": {"media_kit": 20, "scouting_notes": 20, "card": 25, "work_with_me": 25, "analytics": 10},
    "Instagram": {"media_kit": 25, "scouting_notes": 15, "card": 25, "work_with_me": 25, "analytics": 10},
}
WORDS = {  # what each platform calls things
    "YouTube": {"followers": "subscribers", "post": "video", "posts": "videos", "views": "views", "account": "channel"},
    "TikTok": {"followers": "followers", "post": "video", "posts": "videos", "views": "views", "account": "account"},
    "Instagram": {"followers": "followers", "post": "Reel", "posts": "Reels", "views": "plays", "account": "account"},
}
RATE_LABELS = {
    "integration_60s": "60-90 second integration",
    "dedicated_video": "Dedicated video",
    "shorts": "YouTube Short",
    "sponsored_video": "Sponsored video",
    "three_video_bundle": "Three-video bundle",
    "spark_ads_30d": "Spark Ads usage (30 days)",
    "reel": "Reel",
    "carousel_post": "Carousel post",
    "story_set": "Story set (3 frames)",
    "reel_and_stories": "Reel + Stories package",
}
TIER_WORDS = {"nano": "nano", "micro": "micro", "mid": "mid-tier", "macro": "macro", "mega": "mega"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")


def profile_url(platform: str, handle: str) -> str:
    return {
        "YouTube": f"https://www.youtube.com/@{handle}",
        "TikTok": f"https://www.tiktok.com/@{handle}",
        "Instagram": f"https://www.instagram.com/{handle}/",
    }[platform]


def page_title(creator: Creator) -> str:
    noun = "creators" if creator.presenter in ("duo", "group") else "creator"
    return f"{creator.name} (@{creator.handle}) - {creator.platform} {creator.niche} {noun}"


def page_path(creator: Creator) -> str:
    return f"{FOLDERS[creator.platform]}/{creator.handle}.md"


def layout_of(creator: Creator) -> str:
    weights = LAYOUT_WEIGHTS[creator.platform]
    return stream(creator, "layout").choices(list(weights), weights=list(weights.values()))[0]


@cache
def table() -> dict:
    return rules()


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(LAYOUTS_DIR),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # Markdown, not HTML: the creator's text goes on the page as written
    )


# -- numbers as people write them -------------------------------------------------------------------------------


def short_number(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.2f}".rstrip("0").rstrip(".") + "M"
    if n >= 10_000:
        return f"{n / 1_000:.1f}".rstrip("0").rstrip(".") + "K"
    return f"{n:,}"


def money(n: int, style: str) -> str:
    return {"dollar": f"${n:,}", "usd": f"USD {n:,}", "us": f"US${n:,}"}[style]


def trend_text(change: int) -> str:
    return f"{change:+d}%" if change else "0%"


def period_views(data: dict[str, Any]) -> tuple[int, int]:
    """Views of the last 90 days and of the 90 before, as an analytics tool totals them (three months of posts)."""
    recent = data["avg_views"] * data["posts_per_month"] * 3
    return round_sig(recent, 3), round_sig(recent / (1 + data["views_trend_90d"] / 100), 3)


def context(creator: Creator, data: dict[str, Any]) -> dict[str, Any]:
    """What a layout may use: the creator as written (c), its numbers (d) and formatting helpers."""
    rules, tier = table(), data["tier"]
    rng = stream(creator, "words")
    number_style = rng.choice(("exact", "exact", "short"))
    money_style = rng.choice(("dollar", "usd", "us"))
    views = data["avg_views"]
    posts = [
        {**post, "engagement": round((post["likes"] + post["comments"]) / post["views"] * 100, 2)}
        for post in data["recent_content"]
    ]
    cells = [*creator.recent, *(f"{d.brand}{d.category}{d.format}{d.outcome}" for d in creator.brand_history)]
    return {
        "c": creator,
        "d": data,
        "url": profile_url(creator.platform, creator.handle),
        "w": WORDS[creator.platform],
        "tier": TIER_WORDS[tier],
        "posts": posts,
        "ages": list(data["audience"]["age"].items()),
        "countries": list(data["audience"]["top_countries"].items()),
        "female": data["audience"]["gender"]["female"],
        "male": data["audience"]["gender"]["male"],
        "rates": [(RATE_LABELS[key], value) for key, value in data["rates_usd"].items()],
        "not_offered": [
            RATE_LABELS[key] for key in rules["rate_formats"][creator.platform] if key not in data["rates_usd"]
        ],
        "trend": trend_text(data["views_trend_90d"]),
        "views_90d": period_views(data),
        "suspicious": data["suspicious_followers"],
        "main_rate": next(iter(data["rates_usd"].values())),
        "cpm": round(next(iter(data["rates_usd"].values())) / views * 1000, 1),
        "reach": round(views / data["followers"] * 100, 1),
        "band_reach": "{:g}-{:g}%".format(*(x * 100 for x in rules["view_ratio_bands"][creator.platform][tier])),
        "band_engagement": "{:g}-{:g}%".format(*rules["engagement_bands"][creator.platform][tier]),
        "translated": creator.language != "English",
        "tables_ok": not any("|" in text for text in cells),  # a pipe would break a Markdown table
        "month": rng.choice(MONTHS),
        "choose": lambda *options: rng.choice(options),
        "n": (lambda x: short_number(x)) if number_style == "short" else (lambda x: f"{x:,}"),
        "exact": lambda x: f"{x:,}",
        "short": short_number,
        "usd": lambda x: money(x, money_style),
    }


def body(creator: Creator, data: dict[str, Any], layout: str | None = None) -> str:
    template = environment().get_template(f"{layout or layout_of(creator)}.md.j2")
    text = template.render(context(creator, data))
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


# -- front matter -------------------------------------------------------------------------------------------------


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else json.dumps(key, ensure_ascii=False)


def _mapping(mapping: dict[str, Any], indent: int) -> list[str]:
    pad, lines = " " * indent, []
    for key, value in mapping.items():
        if isinstance(value, dict):
            lines += [f"{pad}{_key(key)}:", *_mapping(value, indent + 2)]
        elif isinstance(value, list) and any(isinstance(item, dict) for item in value):
            lines.append(f"{pad}{_key(key)}:")
            for item in value:
                inner = ", ".join(f"{_key(k)}: {_scalar(v)}" for k, v in item.items())
                lines.append(f"{pad}  - {{{inner}}}")
        elif isinstance(value, list):
            lines.append(f"{pad}{_key(key)}: [{', '.join(_scalar(item) for item in value)}]")
        else:
            lines.append(f"{pad}{_key(key)}: {_scalar(value)}")
    return lines


def page(creator: Creator, data: dict[str, Any], layout: str | None = None) -> str:
    """The whole file: front matter with the page's data (DATA_KEYS), then the body."""
    head = [
        f"url: {_scalar(profile_url(creator.platform, creator.handle))}",
        f"title: {_scalar(page_title(creator))}",
        "kind: creator",
        "data:",
        *_mapping({key: data[key] for key in DATA_KEYS}, 2),
    ]
    return "---\n" + "\n".join(head) + "\n---\n" + body(creator, data, layout)


def own_text(creator: Creator) -> list[str]:
    """Everything the creator's writer wrote that the page must show verbatim."""
    pieces = [creator.name, creator.bio, creator.content, *creator.recent]
    for deal in creator.brand_history:
        pieces += [deal.brand, deal.category, deal.format, str(deal.year), deal.outcome]
    return [piece for piece in [*pieces, creator.notes, creator.brand_safety] if piece]
