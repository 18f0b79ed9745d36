"""The install resolves nothing on the day: every requirement of pyproject.toml is pinned, one exact version
with its hashes, in the files scripts/install.sh installs from."""

from __future__ import annotations

import re

from helpers import REPO

from scripts.lock import LOCKS, _entries, _name, check_locks

PIN = re.compile(r"^[A-Za-z0-9_.\-]+(\[[^\]]*\])?==[^\s=<>!~*]+ \\$")


def test_every_requirement_of_pyproject_is_pinned() -> None:
    assert check_locks() == 0


def test_every_entry_is_one_exact_version_with_hashes() -> None:
    files = sorted(LOCKS.glob("*.txt"))
    assert {f.name for f in files} == {"main.txt", "build.txt", "models.txt", "native.txt"}
    names = []
    for lock in files:
        for entry in _entries(lock.read_text()):
            first = entry.splitlines()[0]
            assert PIN.match(first), f"{lock.name}: {first!r} is not one exact version"
            assert "--hash=sha256:" in entry, f"{lock.name}: {first!r} has no hash"
            names.append(_name(entry))
    assert len(names) == len(set(names)), "a package is pinned twice"


def test_the_install_reads_every_pin_file() -> None:
    install = (REPO / "scripts" / "install.sh").read_text() + (REPO / "scripts" / "build_llama.sh").read_text()
    for lock in LOCKS.glob("*.txt"):
        assert f"requirements/{lock.name}" in install, f"scripts/install.sh never installs from {lock.name}"
