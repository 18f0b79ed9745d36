"""Repository wiring: the harness plugin is active here even without an installed entry point."""

pytest_plugins = ["harness.plugin"]
