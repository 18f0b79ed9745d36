"""A pytest-native evaluation harness for AI agents and LLM products."""

__version__ = "0.1.0"
