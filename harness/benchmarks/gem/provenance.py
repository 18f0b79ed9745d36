"""Which data a GEM-Bench task comes from, and whether its content is still what the importer wrote.

`harness import gem-bench` checks the release's files against the SHA-256s below and records, in every
task file's `data` field, the files' hash, a status (official, modified, own) and the content hash of each
task it wrote (`data.tasks`: id -> hash of the task's id, inputs and labels). A run hashes every task it
collects again and compares (`verify_task`), as it does for the ad database:

- a task whose content differs from its recorded hash (a label flipped, a prompt or a candidate edited in
  the YAML) is *modified*, and its data set's hash in results.json changes with it, so `harness compare`
  and the gate say the runs are on different data;
- "official" is never taken from the file's word: it holds only when the file's hashes are the ones this
  project computed from the release itself (shipped here), so a status edited back to official is caught.

Data of one's own (`--expect any`) has no shipped hashes: its per-task hashes catch an edit by hand, not a
forger who recomputes them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

RELEASE = "GEM-Bench 6540866"  # github.com/Generative-Engine-Marketing/GEM-Bench at 6540866af157 (2025-10-02)
# SHA-256 of every data file of that release, computed by this project from the release (the byte-exact
# copies in the workspace's shared/data/gem-bench/, each checked against the upstream git blob).
OFFICIAL_SHA256 = {
    "mt_human/prompts.json": "c76ae7cc786958668dce16dd0bf02eb826e5700faaefcd2db40f1d5b9a04b04f",
    "mt_human/categories.json": "7dde925a548dc4fc0bf7f33417c9341ebb7c45e19e0d05981c733bd20633c3b2",
    "lm_market/prompts.json": "7d831a847f8531c3ad947d95f6067aa28a186905899180424e0a7a019b019c12",
    "lm_market/categories.json": "44ae8d79190e5cbc627e3017956ce2a9b5ae16d7e6f7458982475636ec446b62",
    "adchat_products/products.json": "d688ce3b5169f6402af4a948e846a45a4c557fafa83971c6c043b60cac74bb9c",
    "adchat_products/topics.json": "86f0c0176cff523305d2cfc472cb4e9f68426ca4de02f7ca93824a7a35629bf9",
    "ca_prod/queries.tsv": "10af5bf63fad49f153ee3f599ceeb195e303a8da9cab06b853309227581a0ef8",
    "ca_prod/products.tsv": "63a37533481812c6fff7d646cc04ba93f52e66f1237c4e0f9c7deabac3dc7ad9",
    "ca_prod/cluster_labels.tsv": "cc8082f3e4466fc5fe2af47a0cbb7b28e1a7274f4f04fec9fb6ce866eadc8085",
    "ca_prod/final_balanced_dataset.tsv": "0160edab8a2b5ed1489a948d1761f205c89432c932c362ffc6395bc530a66ff0",
}
# What the importer writes from that release, computed by this project with it (tests re-derive both):
# the ad database's digest, and per data set the hash over its tasks' content hashes (`tasks_hash`).
OFFICIAL_AD_DATABASE_DIGEST = "300d0c0506659c96"
OFFICIAL_TASKS_SHA256 = {
    "mt_human": "7689a7781f74f8bbc60f66d94c97ffadddffd9aac591a11e08d7784503f12992",
    "lm_market": "148861878a2ce9cd966b58bccc1d9736b62b241fc9db7df32490f418ba054a02",
    "ca_prod": "6261c02a80242121c9d8f6a6b2ef76b39728c88978083b981e6019a359eb28ff",
}


def data_hash(hashes: Mapping[str, str]) -> str:
    """One hash for the whole data: SHA-256 over "name  sha256" lines, by name."""
    lines = "".join(f"{name}  {hashes[name]}\n" for name in sorted(hashes))
    return hashlib.sha256(lines.encode()).hexdigest()


OFFICIAL_DATA_SHA256 = data_hash(OFFICIAL_SHA256)


def task_digest(task_id: str, inputs: Any, ground_truth: Any) -> str:
    """A task's content hash: the first 16 hex digits of SHA-256 over its id, its inputs (but where the ad
    database lies, which depends on --out and --link-ads; its content has a digest of its own) and its
    ground truth, as canonical JSON of the validated models (formatting and comments do not count)."""
    content = {
        "id": task_id,
        "inputs": inputs.model_dump(mode="json", exclude={"ad_database"}),
        "ground_truth": ground_truth.model_dump(mode="json"),
    }
    text = json.dumps(content, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def tasks_hash(digests: Mapping[str, str]) -> str:
    """One hash over a task file's recorded task hashes, in file order."""
    return hashlib.sha256("".join(f"{i} {d}\n" for i, d in digests.items()).encode()).hexdigest()


def _official(data: Any, dataset: str, scenario: str) -> bool:
    """Whether a data record that says "official" has the official release's hashes throughout."""
    return (
        data.release == RELEASE
        and data.sha256 == OFFICIAL_DATA_SHA256
        and not data.modified
        and tasks_hash(data.tasks) == OFFICIAL_TASKS_SHA256.get(dataset)
        and (scenario != "chatbot" or data.ad_database_digest == OFFICIAL_AD_DATABASE_DIGEST)
    )


def verify_task(task: Any) -> dict[str, str]:
    """The task's data labels, checked: `data_status` (official, modified, own, or unrecorded for task files
    without recorded hashes), `data_sha256` (the recorded hash, or, for a record that claims to be the
    release but is not, one derived from what it holds) and, for a task edited since the import,
    `data_edited` (its content hash now)."""
    data = getattr(task, "data", None)
    if data is None:
        return {}
    if not data.tasks:  # written by hand, or by an importer that did not record the tasks' hashes yet
        return {"data_sha256": data.sha256, "data_status": "unrecorded"}
    labels = {"data_sha256": data.sha256, "data_status": data.status}
    inputs = task.inputs
    if data.status == "official" and not _official(data, inputs.dataset, inputs.scenario):
        derived = hashlib.sha256(f"{data.sha256} {tasks_hash(data.tasks)}".encode()).hexdigest()
        labels = {"data_sha256": derived, "data_status": "modified"}
    digest = task_digest(task.id, inputs, task.ground_truth)
    if data.tasks.get(task.id) != digest:
        labels.update({"data_status": "modified", "data_edited": digest})
    return labels
