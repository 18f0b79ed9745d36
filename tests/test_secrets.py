"""harness.secrets: secrets redacted before anything is written."""

from __future__ import annotations

import json

import pytest

from harness.secrets import redact


def test_redaction_of_environment_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-1234567890")
    doc = {"a": ["error: bad key tok-1234567890", {"b": "sk-abcdefghijklmnop"}], "n": 3}
    assert json.dumps(redact(doc)).count("[REDACTED]") == 2 and redact(doc)["n"] == 3
