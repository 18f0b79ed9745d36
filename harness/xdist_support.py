"""Everything that knows about pytest-xdist, in one place (the rest of the plugin stays unaware)."""

from __future__ import annotations

from typing import Any

import pytest

RUN_ID_KEY = "harness_run_id"


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def is_controller(config: pytest.Config) -> bool:
    return not is_worker(config)


def shared_run_id(config: pytest.Config) -> str | None:
    """On a worker, the run id the controller chose; elsewhere None."""
    if is_worker(config):
        return config.workerinput.get(RUN_ID_KEY)  # type: ignore[attr-defined,no-any-return]
    return None


class ControllerHooks:
    """xdist-only hooks, registered only when xdist is active (unknown hooks would fail otherwise)."""

    def __init__(self, run_id: str, state: Any) -> None:
        self.run_id = run_id
        self.state = state

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[RUN_ID_KEY] = self.run_id

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Every worker collects everything; the controller learns the item count from the first."""
        self.state.total_items = max(self.state.total_items, len(ids))


def pending_item_indices(config: pytest.Config) -> list[int]:
    """Indices of the items the xdist scheduler has already sent to this worker but it has not run."""
    interactor = config.pluginmanager.getplugin("workerinteractor")
    queue = getattr(interactor, "torun", None)
    if queue is None:
        return []
    with queue.lock() as pending:
        indices = [i for i in pending if isinstance(i, int)]
    following = getattr(interactor, "nextitem_index", None)
    if isinstance(following, int):
        indices.insert(0, following)
    return indices
