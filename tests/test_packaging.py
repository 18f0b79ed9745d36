"""The wheel: every package of harness/ ships."""

from __future__ import annotations

from pathlib import Path


def test_every_harness_package_ships_in_the_wheel() -> None:
    """pyproject lists packages explicitly (prompts/ ships as harness_prompts); a new folder must be added."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(path.parent.relative_to(root).parts)
        for path in (root / "harness").rglob("*")
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts
    }
    assert folders <= listed, f"add to [tool.setuptools] packages: {sorted(folders - listed)}"
