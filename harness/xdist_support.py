"""Everything that knows about pytest-xdist, in one place (the rest of the plugin stays unaware)."""

from __future__ import annotations

from typing import Any

import pytest

RUN_ID_KEY = "harness_run_id"
LOCAL_MODEL_KEY = "harness_local_model"
PROJECT_KEY = "harness_project_root"


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def is_controller(config: pytest.Config) -> bool:
    return not is_worker(config)


def shared_run_id(config: pytest.Config) -> str | None:
    """On a worker, the run id the controller chose; elsewhere None."""
    if is_worker(config):
        return config.workerinput.get(RUN_ID_KEY)  # type: ignore[attr-defined,no-any-return]
    return None


def shared_project_root(config: pytest.Config) -> str | None:
    """On a worker, the project folder the controller anchored the run on; else None."""
    if is_worker(config):
        return config.workerinput.get(PROJECT_KEY)  # type: ignore[attr-defined,no-any-return]
    return None


def shared_local_model(config: pytest.Config) -> dict[str, Any] | None:
    """On a worker, where the controller serves the embedded model (harness.local.service); else None."""
    if is_worker(config):
        return config.workerinput.get(LOCAL_MODEL_KEY)  # type: ignore[attr-defined,no-any-return]
    return None


class ControllerHooks:
    """xdist-only hooks, registered only when xdist is active (unknown hooks would fail otherwise)."""

    def __init__(
        self, run_id: str, state: Any, local_model: dict[str, Any] | None = None, project: str | None = None
    ) -> None:
        self.run_id = run_id
        self.state = state
        self.local_model = local_model
        self.project = project

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[RUN_ID_KEY] = self.run_id
        if self.project is not None:
            node.workerinput[PROJECT_KEY] = self.project
        if self.local_model is not None:
            node.workerinput[LOCAL_MODEL_KEY] = self.local_model

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
