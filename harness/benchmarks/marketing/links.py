"""Creator profile links, read the way a person reads them, so that a recommendation is found in the pool
whatever form its link takes.

`https://www.youtube.com/@MoneyWithMaya/videos?si=x`, `youtube.com/@moneywithmaya`, `m.youtube.com/c/
moneywithmaya` and `[Maya](https://youtube.com/@moneywithmaya)` are one creator: the key is (platform,
handle), lower case, from the host and the path's first segment (`@handle`, `c/handle`, `user/handle`,
or a bare `handle`); scheme, `www.`/`m.`, trailing slashes, fragments, query strings (tracking
parameters) and sub-pages (`/videos`, `/reels`) do not count. A bare `@handle` with no site is found
when exactly one creator of the allowed platforms has it. A post or video link (`instagram.com/p/...`,
`youtu.be/...`) names no profile and is not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from harness.world import World

HOSTS = {
    "youtube.com": "YouTube",
    "tiktok.com": "TikTok",
    "instagram.com": "Instagram",
    "twitch.tv": "Twitch",
    "x.com": "X",
    "twitter.com": "X",
    "facebook.com": "Facebook",
    "linkedin.com": "LinkedIn",
    "bilibili.com": "Bilibili",
}
_SUBDOMAINS = ("www.", "m.", "mobile.", "vm.", "web.")
_NOT_HANDLES = {"p", "reel", "reels", "tv", "stories", "watch", "shorts", "video", "playlist", "embed", "explore"}
_MARKDOWN_LINK = re.compile(r"^\[[^\]]*\]\((?P<url>[^)\s]+)\)$")
_HANDLE = re.compile(r"^[\w.\-]{1,100}$", re.UNICODE)


@dataclass(frozen=True)
class ProfileKey:
    platform: str
    handle: str


def profile_key(link: str) -> ProfileKey | None:
    """The (platform, handle) a profile link names, or None when it names no profile of a known site."""
    text = link.strip().strip("<>\"'`")
    markdown = _MARKDOWN_LINK.match(text)
    if markdown:
        text = markdown.group("url")
    if not text or text.startswith("@"):
        return None
    if "://" not in text:
        text = f"https://{text}"
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    for prefix in _SUBDOMAINS:
        host = host.removeprefix(prefix)
    platform = HOSTS.get(host)
    if platform is None:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if not segments:
        return None
    first = segments[0]
    if platform == "YouTube" and first.lower() in ("c", "user") and len(segments) > 1:
        first = segments[1]
    if first.lower() in _NOT_HANDLES or first.lower() == "channel":
        return None
    handle = first.removeprefix("@").lower()
    if not _HANDLE.match(handle):
        return None
    return ProfileKey(platform, handle)


class CreatorIndex:
    """The creators of a world by profile key (their page URL, read by `profile_key`)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.by_key: dict[ProfileKey, Any] = {}
        self.by_handle: dict[str, list[Any]] = {}
        for page in world.pages:
            key = profile_key(page.url)
            if key is None:
                continue
            self.by_key[key] = page
            self.by_handle.setdefault(key.handle, []).append(page)

    def resolve(self, link: str, platforms: tuple[str, ...] = ()) -> tuple[Any | None, str]:
        """(the creator's page, how it was found) or (None, why not)."""
        text = link.strip()
        if not text:
            return None, "no link given"
        if text.startswith("@") and "/" not in text:
            handle = text[1:].strip().lower()
            pages = [p for p in self.by_handle.get(handle, []) if not platforms or _platform(p) in platforms]
            if len(pages) == 1:
                return pages[0], "bare @handle"
            if len(pages) > 1:
                return None, f"@{handle} is on several platforms; the link must say which"
            return None, "not in the pool"
        key = profile_key(text)
        if key is None:
            found = self.world.get(text)  # a creator whose page is not on a known social site
            if found is not None and found.kind == "creator":
                return found, "page url"
            return None, "not a creator profile link"
        page = self.by_key.get(key)
        return (page, "profile link") if page is not None else (None, "not in the pool")


def _platform(page: Any) -> str | None:
    key = profile_key(page.url)
    return key.platform if key else None
