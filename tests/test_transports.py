"""harness.llm.transports: the key policy (a key goes only to its own provider)."""

from __future__ import annotations

import pytest


def test_a_key_goes_only_to_its_own_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.errors import ProviderError
    from harness.llm.transports import LiteLLMTransport, endpoint_key

    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-0123456789")
    monkeypatch.setenv("MY_GATEWAY_KEY", "gw-0123456789")
    # the provider's own endpoint gets the provider's own key
    assert endpoint_key(None, None, "OPENAI_API_KEY") == "sk-openai-0123456789"
    # a custom endpoint gets no key unless one is named for it
    assert endpoint_key("http://127.0.0.1:9/v1", None, "OPENAI_API_KEY") is None
    assert endpoint_key("http://127.0.0.1:9/v1", "MY_GATEWAY_KEY", "OPENAI_API_KEY") == "gw-0123456789"
    # litellm would fill in the provider's key itself: a custom base gets a placeholder instead
    assert LiteLLMTransport._key_for("http://127.0.0.1:9/v1", None) == "no-key"
    assert LiteLLMTransport._key_for(None, None) is None
    with pytest.raises(ProviderError, match="NOT_SET_ANYWHERE"):
        endpoint_key(None, "NOT_SET_ANYWHERE", None)
