"""Keep API keys out of everything the harness writes: cache entries, reports and logs.

Keys never enter a request record or a cache key by construction; this module is the second line of
defence for text that comes back from providers (error messages that echo a key) or from user agents.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# A variable is secret when one of its underscore-separated words is (or ends with) one of these:
# MY_SERVICE_KEY_2, AWS_ACCESS_KEY_ID, GITHUB_TOKEN, DB_PASSWORD, OPENAIKEY. PWD and OLDPWD are folders.
_SECRET_WORDS = ("KEY", "KEYS", "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "CREDENTIAL",
                 "CREDENTIALS", "AUTH", "PRIVATE", "SIGNATURE", "COOKIE", "SESSION")  # fmt: skip
_NOT_SECRET_NAMES = frozenset({"PWD", "OLDPWD", "GPG_TTY", "SSH_AUTH_SOCK", "KEYBOARD", "XAUTHORITY"})
_KEY_SHAPES = re.compile(
    r"\b(sk-[A-Za-z0-9_\-]{8,}|sk-ant-[A-Za-z0-9_\-]{8,}|AIza[0-9A-Za-z_\-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|hk-item-[A-Za-z0-9_\-]{16,})"
)


class _SecretName:
    """`search(name)`: whether an environment variable's name says it holds a secret."""

    @staticmethod
    def search(name: str) -> bool:
        upper = name.upper()
        if upper in _NOT_SECRET_NAMES:
            return False
        return any(word.endswith(_SECRET_WORDS) for word in re.split(r"[_\W]+", upper) if word)


_SECRET_NAME = _SecretName()
MIN_SECRET_LENGTH = 8
_SECRET_PARAM = re.compile(r"(key|token|secret|password|passwd|pwd|sig|signature|auth|credential|code)", re.I)
_URL_WITH_USERINFO = re.compile(r"\b([a-z][a-z0-9+.-]*://)([^/\s@]+)@", re.I)
_QUERY_SECRET = re.compile(
    r"([?&][A-Za-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|sig|signature|auth|credential|code)[A-Za-z0-9_.-]*=)"
    r"[^&\s#\"']+",
    re.I,
)
REDACTED = "[REDACTED]"


def redact_url(url: str | None, *, drop: bool = False) -> str | None:
    """A URL with its credentials removed: the password (and user) of `user:pass@host`, and the values
    of query parameters named like keys or tokens (`?api-key=...`). With `drop`, they are left out
    entirely (for cache keys, where a credential must not change the address of an answer)."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return REDACTED
    netloc = parts.netloc
    if "@" in netloc:
        host = netloc.rsplit("@", 1)[1]
        netloc = host if drop else f"{REDACTED}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [
            (name, REDACTED if _SECRET_PARAM.search(name) else value)
            for name, value in pairs
            if not (drop and _SECRET_PARAM.search(name))
        ]
        query = urlencode(kept, safe="[]")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def has_credentials(url: str | None) -> bool:
    """Whether a URL carries credentials: a `user:pass@` part or a query parameter named like a key."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return True  # unreadable: treated as the worse case
    return "@" in parts.netloc or any(_SECRET_PARAM.search(name) for name, _ in parse_qsl(parts.query, True))


def url_credentials(url: str | None) -> list[str]:
    """The secrets inside a URL: the password of `user:pass@host` and the values of query parameters
    named like keys or tokens (`?api-key=...`)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        found = [parts.password or ""]
    except ValueError:
        return []
    found += [value for name, value in parse_qsl(parts.query, keep_blank_values=True) if _SECRET_PARAM.search(name)]
    return [value for value in found if len(value) >= 4]


# The secrets a run names itself: the values of the variables its options name for keys (--api-key-env
# LLM_ACCESS is a key whatever the variable is called) and the credentials in the URLs it was given. They
# belong with the environment's secrets, which are process-wide too: every process of a run (xdist workers
# included) registers its own at configuration, and every Redactor made afterwards knows them.
_RUN_SECRETS: set[str] = set()


def add_run_secrets(values: Iterable[str]) -> None:
    """Make `values` secret for every Redactor this process makes from now on."""
    _RUN_SECRETS.update(v for v in values if v and len(v) >= MIN_SECRET_LENGTH)


def _environment() -> dict[str, str]:
    """A snapshot of os.environ. Other threads set variables while this one reads (pytest sets
    PYTEST_CURRENT_TEST around every test): iterating the live mapping can fail half-way, so retry."""
    for _ in range(10):
        try:
            return dict(os.environ)
        except (KeyError, RuntimeError):
            continue
    return dict(os.environ)


def secret_values(extra: Iterable[str] = ()) -> list[str]:
    """Values of environment variables whose names look secret, the passwords inside any variable that holds
    a URL (`DATABASE_URL=postgres://app:pw@host/db`), the run's own (add_run_secrets), plus any given."""
    fingerprint = _environment_fingerprint()
    values = set(_scan_environment() if fingerprint is None else _secrets_of_environment(fingerprint))
    values.update(_RUN_SECRETS)
    values.update(v for v in extra if v and len(v) >= MIN_SECRET_LENGTH)
    return sorted(values, key=len, reverse=True)


_VOLATILE = frozenset({b"PYTEST_CURRENT_TEST", "PYTEST_CURRENT_TEST"})


def _environment_fingerprint() -> frozenset[tuple[Any, Any]] | None:
    """What the environment holds, cheaply (its raw items, without PYTEST_CURRENT_TEST, which pytest
    changes around every test): the environment's secrets are worked out again only when it changes.
    None where os.environ keeps no raw mapping: then they are worked out every time."""
    data = getattr(os.environ, "_data", None)
    if not isinstance(data, dict):
        return None
    for _ in range(10):
        try:
            return frozenset(item for item in data.items() if item[0] not in _VOLATILE)
        except RuntimeError:  # another thread set a variable meanwhile
            continue
    return None


@functools.lru_cache(maxsize=4)
def _secrets_of_environment(fingerprint: frozenset[tuple[Any, Any]]) -> frozenset[str]:
    """`_scan_environment`, once per state of the environment (`fingerprint` is the cache's key)."""
    return _scan_environment()


def _scan_environment() -> frozenset[str]:
    environment = _environment()
    values = {v for name, v in environment.items() if _SECRET_NAME.search(name) and len(v) >= MIN_SECRET_LENGTH}
    for value in environment.values():
        if "://" in value and "@" in value:
            with contextlib.suppress(ValueError):
                password = urlsplit(value).password
                if password and len(password) >= 4:
                    values.add(password)
    return frozenset(values)


class Redactor:
    """One pass per string: the secret values and the secret-looking patterns are one compiled regex, and
    strings that cannot hold any of them (no ':', '=', '@' or a secret's first characters) are skipped."""

    def __init__(self, secrets: Iterable[str] | None = None) -> None:
        values = secret_values() if secrets is None else sorted(set(secrets), key=len, reverse=True)
        alternatives = [re.escape(v) for v in values if v]
        alternatives += [_URL_WITH_USERINFO.pattern, _QUERY_SECRET.pattern, _KEY_SHAPES.pattern]
        self._pattern = re.compile("|".join(f"(?:{a})" for a in alternatives), re.IGNORECASE)
        self._values = set(values)
        # Lower-cased once here; `text` looks for each in the lower-cased string (substring tests in C: faster
        # than one case-insensitive alternation) and returns most strings, which hold none, as they are.
        self._hints = tuple({v[:4].lower() for v in values} | {"sk-", "aiza", "://", "=", "@", "akia", "asia", "gh",
                                                               "glpat", "xox", "hk-item-"})  # fmt: skip

    def _replace(self, match: re.Match[str]) -> str:
        text = match.group(0)
        if text in self._values:
            return REDACTED
        if "://" in text and text.endswith("@"):
            return f"{text.split('://', 1)[0]}://{REDACTED}@"
        if "=" in text and text[0] in "?&":
            return f"{text.split('=', 1)[0]}={REDACTED}"
        return REDACTED

    def text(self, text: str) -> str:
        lowered = text.lower()
        for hint in self._hints:
            if hint in lowered:
                return self._pattern.sub(self._replace, text)
        return text

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value


@functools.lru_cache(maxsize=8)
def _redactor_for(values: tuple[str, ...]) -> Redactor:
    return Redactor(values)


def redact_text(text: str, secrets: Iterable[str] | None = None) -> str:
    """Replace every known secret value, and anything shaped like a provider key, with a marker."""
    return _redactor_for(tuple(secret_values() if secrets is None else secrets)).text(text)


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """Redact every string inside a JSON-like value."""
    return _redactor_for(tuple(secret_values() if secrets is None else secrets)).value(value)


def agent_environment(base: dict[str, str], named: Iterable[str | None] = ()) -> dict[str, str]:
    """The environment an agent's process gets: `base` without anything that could be a provider's key.
    Dropped: variables named like secrets (..._KEY, ..._TOKEN, ...SECRET, ...PASSWORD, ...CREDENTIALS),
    the variables the run names for its keys (--api-key-env and the like), and any variable whose value
    looks like a key or equals one of those. The agent reaches models through the gateway instead."""
    names = {n for n in named if n}
    secret = {v for n, v in base.items() if (n in names or _SECRET_NAME.search(n)) and len(v) >= MIN_SECRET_LENGTH}
    return {
        name: value
        for name, value in base.items()
        if name not in names and not _SECRET_NAME.search(name) and value not in secret and not _KEY_SHAPES.search(value)
    }
