"""A creator's numbers, derived from fixtures/creators/rules.yaml, and the consistency rules every page keeps.

derive() turns a creator as written (schema.Creator: followers, niche, region, sub-niches, optional overrides)
into what its page shows: tier, average views, engagement, posts per month, audience, rates and its recent posts'
views, likes and comments. Each quantity has its own random stream seeded by the platform and handle, so two runs
agree and editing one creator (or one of its titles) changes nothing else. check() is the rule book: it reads
only a page's `data` and the rules, so tests run it on committed pages too.
"""

from __future__ import annotations

import math
import random
import re
import statistics
from typing import Any

from scripts.creator_pool.schema import AGE_BUCKETS, Creator

SEED = "creator-pool-2026"
DATA_KEYS = (
    "name",
    "handle",
    "platform",
    "niche",
    "sub_niches",
    "region",
    "language",
    "followers",
    "avg_views",
    "engagement_rate",
    "posts_per_month",
    "views_trend_90d",
    "suspicious_followers",
    "audience",
    "rates_usd",
    "collaborations",
    "recent_content",
)
HANDLE = re.compile(r"^[a-z0-9][a-z0-9._]{2,28}[a-z0-9]$")
_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
NUMBER_WORDS = {word: i for i, word in enumerate(_WORDS, 1)} | {"once": 1, "twice": 2}
_COUNT = rf"({'|'.join(NUMBER_WORDS)}|\d{{1,2}})"
_POST = r"(?:uploads?|videos?|posts?|reels?|tiktoks?|episodes?|shorts)"
CADENCES = (  # how a writer states a cadence: "two uploads a month", "posts three times a week", "daily Reels"
    re.compile(rf"\b{_COUNT} (?:new |long |full |short )?{_POST} (?:a|per|each|every) (week|month)\b", re.I),
    re.compile(rf"\b(?:posts?|uploads?|publish(?:es)?) {_COUNT}(?: times)? (?:a|per|each|every) (week|month)\b", re.I),
    re.compile(rf"\b(?:(?:posts?|uploads?) (?:daily|every day)|daily {_POST})\b()()", re.I),
)


def stream(creator: Creator, purpose: str) -> random.Random:
    return random.Random(f"{SEED}|{creator.platform}|{creator.handle}|{purpose}")


def tier_of(followers: int, rules: dict) -> str:
    """nano, micro, mid, macro or mega: the last tier whose threshold the count reaches."""
    return max((low, name) for name, low in rules["tiers"].items() if followers >= low)[1]


def is_round(followers: int) -> bool:
    """A hand-picked number: 412,000 rather than a platform's 412,143."""
    return followers >= 10_000 and followers % 1000 == 0


def round_sig(value: float, digits: int = 3) -> int:
    if value <= 0:
        return 0
    magnitude = 10 ** max(0, math.floor(math.log10(value)) - digits + 1)
    return int(round(value / magnitude) * magnitude)


def money_step(value: float) -> int:
    """The step prices are quoted in at this size: $5 under $100, $10 under $1,000, ... $1,000 above $100,000."""
    for limit, step in ((100, 5), (1_000, 10), (10_000, 50), (100_000, 250)):
        if value < limit:
            return step
    return 1_000


def nice_money(value: float, low: float = 0.0, high: float = math.inf) -> int:
    """value rounded to a quoting step, kept within [low, high] when the step allows."""
    step = money_step(value)
    price = max(step, int(round(value / step) * step))
    while price > high and price - step >= max(low, step):
        price -= step
    while price < low and price + step <= high:
        price += step
    return price


def largest_remainder(weights: list[float], total: int = 100) -> list[int]:
    """Whole shares of total in proportion to weights, summing exactly to total."""
    whole = sum(weights)
    raw = [w * total / whole for w in weights]
    floors = [math.floor(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - floors[i]), i))
    for i in order[: total - sum(floors)]:
        floors[i] += 1
    return floors


def home_and_abroad(rules: dict, region: str, language: str) -> tuple[list[int], list[str]]:
    """The home-country share range and the countries the rest of the audience lives in, for this language."""
    info = rules["regions"][region]
    variant = (info.get("by_language") or {}).get(language, {})
    return list(variant.get("home", info["home_share"])), list(variant.get("abroad", info["abroad"]))


def female_bounds(niche: str, sub_niches: list[str], rules: dict) -> tuple[int, int]:
    """The range the audience's female share must lie in for this niche and these sub-niches."""
    low, high = rules["female_range"]
    if niche in rules["female_majority_niches"]:
        low = max(low, rules["female_majority_min"])
    male_min = rules["male_majority_niches"].get(niche)
    friendly = niche == "gaming" and bool(set(sub_niches) & set(rules["female_friendly_gaming"]))
    if male_min is not None and not friendly:
        high = min(high, 100 - male_min)
    return low, high


# -- derivation ---------------------------------------------------------------------------------------------------


def _avg_views(creator: Creator, tier: str, rules: dict) -> int:
    override = creator.performance and creator.performance.views_ratio
    if override:
        ratio = override
    else:
        low, high = rules["view_ratio_bands"][creator.platform][tier]
        t = stream(creator, "views").betavariate(2.2, 2.2)  # most creators mid-band, a few near the edges
        ratio = math.exp(math.log(low * 1.12) + t * (math.log(high * 0.85) - math.log(low * 1.12)))
    low, high = rules["view_ratio_bands"][creator.platform][tier]
    views = creator.followers * ratio
    rounded = round_sig(views, 3)
    step = 10 ** max(0, math.floor(math.log10(max(views, 1))) - 2)  # rounding must not cross the band's edge
    if rounded > high * creator.followers >= views:
        rounded -= step
    elif rounded < low * creator.followers <= views:
        rounded += step
    return rounded


def _engagement(creator: Creator, tier: str, rules: dict) -> float:
    override = creator.performance and creator.performance.engagement
    if override:
        return round(override, 2)
    centre = rules["engagement_centre"][creator.platform]
    niche = rules["niches"][creator.niche]
    rate = centre["at_10k"] - centre["fall_per_tenfold"] * (math.log10(creator.followers) - 4)
    rate *= niche["engagement_factor"] * stream(creator, "engagement").uniform(0.82, 1.18)
    if tier == "nano":
        rate *= 1.12
    low, high = rules["engagement_bands"][creator.platform][tier]
    return round(min(max(rate, low + 0.15), high - 0.15), 2)


def stated_cadences(creator: Creator) -> list[tuple[str, int, int]]:
    """The cadences the creator's own text states, as (phrase, fewest, most posts a month), in text order."""
    found = []
    for text in (creator.content, creator.bio, creator.notes):
        matches = [match for pattern in CADENCES for match in pattern.finditer(text)]
        for match in sorted(matches, key=lambda m: m.start()):
            if not match[1]:  # daily
                found.append((match[0], 20, 31))
                continue
            n = NUMBER_WORDS.get(match[1].lower()) or int(match[1])
            low, high = (n, n) if match[2].lower() == "month" else (4 * n, 5 * n)
            found.append((match[0], low, high))
    return found


def _posts_per_month(creator: Creator, rules: dict) -> int:
    """performance.posts_per_month; else the first cadence the text states ("one video a week": 4), within the
    platform's range; else drawn from that range."""
    override = creator.performance and creator.performance.posts_per_month
    if override:
        return override
    low, high = rules["posts_per_month"][creator.platform]
    if stated := stated_cadences(creator):
        return min(max(round((stated[0][1] + stated[0][2]) / 2 - 0.01), low), high)
    rng = stream(creator, "cadence")
    return rng.randint(low, (low + high) // 2 + rng.randint(0, (high - low) // 2))


def _age(creator: Creator, rules: dict) -> dict[str, int]:
    if creator.audience and creator.audience.age:
        return dict(creator.audience.age)
    rng = stream(creator, "age")
    prior, shift = rules["niches"][creator.niche]["age"], rules["platform_age_shift"][creator.platform]
    weights = [w + s for w, s in zip(prior, shift, strict=True)]
    for sub in creator.sub_niches:
        shift = rules["sub_niche_age_shift"].get(sub, [0] * len(AGE_BUCKETS))
        weights = [w + s for w, s in zip(weights, shift, strict=True)]
    weights = [max(1.0, w) * rng.uniform(0.85, 1.18) for w in weights]
    return dict(zip(AGE_BUCKETS, largest_remainder(weights), strict=True))


def _female(creator: Creator, rules: dict) -> int:
    if creator.audience and creator.audience.female is not None:
        return creator.audience.female  # as written: check() says so if it breaks a rule
    moves = [rules["sub_niche_gender_shift"].get(sub, 0) for sub in creator.sub_niches]
    female = rules["niches"][creator.niche]["female"] + rules["platform_female_shift"][creator.platform]
    female += max([0, *moves]) + min([0, *moves]) + rules["presenter_female_shift"][creator.presenter]
    female = round(female + stream(creator, "gender").gauss(0, 5))
    low, high = female_bounds(creator.niche, creator.sub_niches, rules)
    return min(max(female, low), high)


def _countries(creator: Creator, rules: dict) -> dict[str, int]:
    if creator.audience and creator.audience.top_countries:
        return dict(creator.audience.top_countries)
    rng = stream(creator, "countries")
    home_range, abroad = home_and_abroad(rules, creator.region, creator.language)
    abroad = [country for country in abroad if country != creator.region]
    home = rng.randint(*home_range)
    count = min(len(abroad), rng.randint(2, 4))
    weights = [1.0 / (i + 1) for i in range(len(abroad))]  # the nearer the list's head, the likelier
    chosen = []
    while len(chosen) < count:
        i = abroad.index(rng.choices(abroad, weights=weights)[0])
        chosen.append(abroad.pop(i))
        weights.pop(i)
    spread = max(count, round((100 - home) * rng.uniform(0.5, 0.82)))
    shares = largest_remainder(sorted((rng.uniform(0.25, 1.0) for _ in chosen), reverse=True), spread)
    shares = [max(1, min(share, home - 1)) for share in shares]
    ranked = sorted(zip(chosen, shares, strict=True), key=lambda pair: -pair[1])
    return {creator.region: home, **dict(ranked)}


def _views_trend(creator: Creator, rules: dict) -> int:
    """Views of the last 90 days against the 90 before, in percent: as written, else a small drift either way."""
    if creator.performance and creator.performance.views_trend is not None:
        return creator.performance.views_trend
    low, high = rules["views_trend_drift"]
    drift = stream(creator, "trend").gauss((low + high) / 4, (high - low) / 6)  # a little more often up than down
    return round(min(max(drift, low), high))


def _suspicious(creator: Creator, rules: dict) -> int:
    """The share of followers an audit flags (bots, inactive accounts): as written, else an ordinary few percent."""
    if creator.performance and creator.performance.suspicious_followers is not None:
        return creator.performance.suspicious_followers
    low, high = rules["suspicious_followers_usual"]
    return stream(creator, "audit").randint(low, high)


def _rates(creator: Creator, avg_views: int, rules: dict) -> dict[str, int]:
    rng = stream(creator, "rates")
    region_factor = rules["regions"][creator.region]["rate_factor"]
    main = avg_views / 1000 * rules["base_cpm_usd"][creator.platform]
    main *= rules["niches"][creator.niche]["cpm_factor"] * region_factor * rules["price_levels"][creator.price_level]
    main *= rng.uniform(*rules["rate_noise"])
    floor = rules["rate_floor_usd"]
    main = max(main, floor["minimum"], floor["per_rate_factor"] * region_factor)
    cpm_low, cpm_high = rules["cpm_range_usd"]
    low, high = cpm_low * avg_views / 1000, cpm_high * avg_views / 1000
    main = nice_money(min(max(main, low), high), low, high)
    rates = {}
    for key, (m_low, m_high) in rules["rate_formats"][creator.platform].items():
        rates[key] = main if m_low == m_high == 1.0 else nice_money(main * rng.uniform(m_low, m_high))
    if creator.formats is not None:  # what they sell; the prices of the others are drawn all the same, so that
        rates = {key: price for key, price in rates.items() if key in creator.formats}  # the others stay put
    return rates


def _posts(creator: Creator, avg_views: int, engagement: float, rules: dict) -> list[dict[str, Any]]:
    rng = stream(creator, "posts")
    c_low, c_high = rules["comment_share"][creator.platform]
    posts = []
    for title in creator.recent:
        views = max(50, int(avg_views * min(2.3, max(0.45, math.exp(rng.gauss(0, 0.35))))))
        interactions = views * engagement * rng.uniform(0.8, 1.2) / 100
        comments = max(1, round(interactions * rng.uniform(c_low, c_high)))
        likes = max(comments + 1, round(interactions - comments))
        posts.append({"title": title, "views": views, "likes": likes, "comments": comments})
    return posts


def derive(creator: Creator, rules: dict) -> dict[str, Any]:
    """The page's `data` (the keys of DATA_KEYS, in that order) plus `tier`, which pages show but data omits."""
    tier = tier_of(creator.followers, rules)
    avg_views = _avg_views(creator, tier, rules)
    engagement = _engagement(creator, tier, rules)
    female = _female(creator, rules)
    return {
        "name": creator.name,
        "handle": creator.handle,
        "platform": creator.platform,
        "niche": creator.niche,
        "sub_niches": list(creator.sub_niches),
        "region": creator.region,
        "language": creator.language,
        "followers": creator.followers,
        "avg_views": avg_views,
        "engagement_rate": engagement,
        "posts_per_month": _posts_per_month(creator, rules),
        "views_trend_90d": _views_trend(creator, rules),
        "suspicious_followers": _suspicious(creator, rules),
        "audience": {
            "age": _age(creator, rules),
            "gender": {"female": female, "male": 100 - female},
            "top_countries": _countries(creator, rules),
        },
        "rates_usd": _rates(creator, avg_views, rules),
        "collaborations": [deal.brand for deal in creator.brand_history],
        "recent_content": _posts(creator, avg_views, engagement, rules),
        "tier": tier,
    }


# -- the rules ----------------------------------------------------------------------------------------------------


def _within(value: float, band: list[float] | tuple[float, float]) -> bool:
    return band[0] <= value <= band[1]


def check(data: dict[str, Any], rules: dict) -> list[str]:
    """Every consistency rule a page's `data` breaks (fixtures/worlds/creator-pool/README.md), one line each."""
    problems = []
    if tuple(data) != DATA_KEYS:
        return [f"data keys are {list(data)}, expected {list(DATA_KEYS)}"]
    platform, region, followers = data["platform"], data["region"], data["followers"]
    tier = tier_of(followers, rules)
    if not HANDLE.match(data["handle"]):
        problems.append(f"handle {data['handle']!r}: only a-z, 0-9, '.' and '_', 4-30 characters")
    if data["niche"] not in rules["niches"]:
        problems.append(f"niche {data['niche']!r} is not one of rules.yaml's niches")
    if region not in rules["regions"]:
        return [*problems, f"region {region!r} is not one of rules.yaml's regions"]
    if data["language"] not in rules["regions"][region]["languages"]:
        problems.append(f"{data['language']} is not a language of {region} ({rules['regions'][region]['languages']})")
    band = rules["engagement_bands"][platform][tier]
    if not _within(data["engagement_rate"], band):
        problems.append(f"engagement {data['engagement_rate']}% is outside the {platform} {tier} band {band}")
    band = rules["view_ratio_bands"][platform][tier]
    ratio = data["avg_views"] / followers
    if not _within(ratio, band):
        problems.append(f"avg_views / followers = {ratio:.3f} is outside the {platform} {tier} band {band}")
    band = rules["posts_per_month"][platform]
    if not _within(data["posts_per_month"], band):
        problems.append(f"{data['posts_per_month']} posts per month is outside {band} for {platform}")
    if not _within(data["views_trend_90d"], rules["views_trend_range"]):
        problems.append(f"views trend {data['views_trend_90d']}% is outside {rules['views_trend_range']}")
    if not _within(data["suspicious_followers"], rules["suspicious_followers_range"]):
        problems.append(f"{data['suspicious_followers']}% suspicious followers is outside "
                        f"{rules['suspicious_followers_range']}")  # fmt: skip
    problems += _check_posts(data, rules)
    problems += _check_audience(data, rules)
    problems += _check_rates(data, rules)
    return problems


def _check_posts(data: dict[str, Any], rules: dict) -> list[str]:
    posts, avg = data["recent_content"], data["avg_views"]
    if not 3 <= len(posts) <= 5:
        return [f"{len(posts)} recent posts; a page shows 3 to 5"]
    problems = []
    low, high = rules["post_views_vs_avg"]
    for post in posts:
        if not low * avg <= post["views"] <= high * avg:
            problems.append(f"post {post['title']!r}: {post['views']} views, outside {low}-{high} x avg_views {avg}")
        if not post["comments"] < post["likes"] < post["views"]:
            problems.append(f"post {post['title']!r}: needs comments < likes < views")
    median = statistics.median(p["views"] for p in posts) / avg
    if not _within(median, rules["median_views_vs_avg"]):
        problems.append(f"the recent posts' median views are {median:.2f} x avg_views")
    measured = statistics.fmean((p["likes"] + p["comments"]) / p["views"] * 100 for p in posts)
    if abs(measured - data["engagement_rate"]) > rules["engagement_tolerance"] * data["engagement_rate"]:
        problems.append(f"recent posts engage at {measured:.2f}%, far from engagement_rate {data['engagement_rate']}%")
    return problems


def _check_audience(data: dict[str, Any], rules: dict) -> list[str]:
    problems = []
    audience = data["audience"]
    if tuple(audience["age"]) != AGE_BUCKETS or sum(audience["age"].values()) != 100:
        problems.append(f"audience.age must be the buckets {list(AGE_BUCKETS)} summing to 100")
    gender = audience["gender"]
    if tuple(gender) != ("female", "male") or gender["female"] + gender["male"] != 100:
        problems.append("audience.gender must be female and male summing to 100")
    low, high = female_bounds(data["niche"], data["sub_niches"], rules)
    if not low <= gender["female"] <= high:
        problems.append(f"a {gender['female']}% female audience; a {data['niche']} creator's lies in {low}-{high}")
    top = list(audience["top_countries"].items())
    if not top or top[0][0] != data["region"]:
        problems.append(f"the audience's first country must be the creator's region ({data['region']})")
        return problems
    shares = [share for _, share in top]
    if shares != sorted(shares, reverse=True) or sum(shares) > 100:
        problems.append("audience.top_countries must be descending and sum to at most 100")
    home, _ = home_and_abroad(rules, data["region"], data["language"])
    if not _within(top[0][1], home):
        problems.append(f"home share {top[0][1]}% is outside {home} for {data['region']} in {data['language']}")
    return problems


def _check_rates(data: dict[str, Any], rules: dict) -> list[str]:
    formats = rules["rate_formats"][data["platform"]]
    rates = data["rates_usd"]
    if not rates or list(rates) != [key for key in formats if key in rates]:
        return [f"rates_usd formats {list(rates)}: some of {list(formats)}, in that order, on {data['platform']}"]
    main_key = next(iter(formats))
    if main_key not in rates:  # a creator who does not sell the main format: its price implied by the first one
        first = next(iter(rates))
        low, high = formats[first]
        main = rates[first] / ((low + high) / 2)
    else:
        main = rates[main_key]
    cpm = main / data["avg_views"] * 1000
    if not _within(cpm, rules["cpm_range_usd"]):
        problems = [f"{main_key} at {main} USD is {cpm:.1f} USD per 1,000 views, outside {rules['cpm_range_usd']}"]
    else:
        problems = []
    for key, (low, high) in formats.items():
        if key in rates and not low * 0.9 * main - 5 <= rates[key] <= high * 1.1 * main + 5:
            problems.append(f"{key} at {rates[key]} USD is out of proportion to {main_key} ({low}-{high} x {main})")
    return problems
