"""`harness import gem-bench` on the authors' release (read from ../shared, never copied into the project),
on deliberately broken copies, and the committed sample against the importer's own output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import GEM_RELEASE, GEM_RELEASE_MISSING, REPO

from harness.benchmarks.gem.importer import OFFICIAL_COUNTS, ImportError_, import_gem_bench
from harness.task import load_task_file

RELEASE = GEM_RELEASE
needs_release = pytest.mark.skipif(not RELEASE.is_dir(), reason=GEM_RELEASE_MISSING)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    if not RELEASE.is_dir():
        pytest.skip(GEM_RELEASE_MISSING)
    out = tmp_path_factory.mktemp("gem") / "evals" / "gem" / "imported"
    result = import_gem_bench(RELEASE, out)
    return out, result.counts


def tasks_of(path: Path) -> list:
    loaded = load_task_file(path)
    assert loaded.problems == [], loaded.problems[:3]
    return [task for task, _ in loaded.tasks]


@needs_release
def test_the_release_imports_with_its_published_counts(imported: tuple[Path, dict[str, int]]) -> None:
    out, counts = imported
    assert counts == OFFICIAL_COUNTS
    assert len(tasks_of(out / "mt_human.yaml")) == 10
    lm = tasks_of(out / "lm_market.yaml")
    assert len(lm) == 100 and len({t.inputs.query for t in lm}) == 93  # duplicates kept
    source = json.loads((RELEASE / "lm_market" / "categories.json").read_text())
    assert [t.inputs.category for t in lm] == source  # each prompt its own category, not categories[0]
    assert [t.inputs.query for t in lm] == json.loads((RELEASE / "lm_market" / "prompts.json").read_text())
    ca = tasks_of(out / "ca_prod.yaml")
    assert len(ca) == 120 and sum(len(t.inputs.candidates) for t in ca) == 2222
    assert sum(sum(t.ground_truth.labels) for t in ca) == 555
    assert sum(c.url == "" for t in ca for c in t.inputs.candidates) >= 2  # no website: no url
    assert any("%26" in t.inputs.query for t in ca)  # URL-encoded texts are kept raw
    (ads,) = [out / "adchat_products"]
    assert json.loads((ads / "products.json").read_text()) == json.loads(
        (RELEASE / "adchat_products" / "products.json").read_text()
    )


@needs_release
def test_ca_prod_keeps_csv_quoting_file_order_and_conflicting_labels(imported: tuple[Path, dict[str, int]]) -> None:
    import csv

    out, _ = imported
    ca = {t.id: t for t in tasks_of(out / "ca_prod.yaml")}
    with (RELEASE / "ca_prod" / "products.tsv").open(newline="") as handle:
        titles = {int(r["product_id"]): r["ad_title"] for r in csv.DictReader(handle, delimiter="\t")}
    quoted = [t for t in titles.values() if '"' in t]
    assert quoted, "the release has titles with quotes; they must survive parsing"
    names = {c.name for t in ca.values() for c in t.inputs.candidates}
    assert set(quoted) & names
    with (RELEASE / "ca_prod" / "final_balanced_dataset.tsv").open(newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    by_query: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        by_query.setdefault(int(row["original_query_id"]), []).append(
            (int(row["original_product_id"]), int(row["label"]))
        )
    for query_id, pairs in by_query.items():
        task = ca[f"ca_prod-{query_id}"]
        assert [
            (c.product_id, label) for c, label in zip(task.inputs.candidates, task.ground_truth.labels, strict=True)
        ] == pairs
    conflicting = [
        t
        for t in ca.values()
        if len({(c.product_id, lab) for c, lab in zip(t.inputs.candidates, t.ground_truth.labels, strict=True)})
        > len({c.product_id for c in t.inputs.candidates})
    ]
    assert conflicting, "query 29 lists one pair twice with labels 1 and 0"


@pytest.mark.parametrize(
    ("break_it", "needle"),
    [
        pytest.param(
            lambda d: [
                (d / "lm_market" / f).write_text(json.dumps(["x"] * 99)) for f in ("prompts.json", "categories.json")
            ],
            "lm_market/prompts.json: expected 100",
            marks=needs_release,  # the official counts; the sample's own refusal is tested below
        ),
        (
            lambda d: (d / "mt_human" / "categories.json").write_text(json.dumps(["Humanities"] * 9)),
            "mt_human/categories.json: expected one category per prompt",
        ),
        (lambda d: (d / "ca_prod" / "queries.tsv").write_text("id\ttext\n1\tx\n"), "queries.tsv: expected the columns"),
        (lambda d: (d / "mt_human" / "prompts.json").write_text("{not json"), "mt_human/prompts.json: not valid JSON"),
        (lambda d: (d / "ca_prod" / "final_balanced_dataset.tsv").unlink(), "final_balanced_dataset.tsv: missing"),
    ],
)
def test_a_broken_copy_is_refused_naming_the_file(tmp_path: Path, break_it, needle: str) -> None:
    source = RELEASE if RELEASE.is_dir() else REPO / "fixtures" / "gem" / "sample"
    copy = tmp_path / "release"
    shutil.copytree(source, copy)
    for path in copy.rglob("*"):
        path.chmod(0o644 if path.is_file() else 0o755)
    break_it(copy)
    with pytest.raises(ImportError_) as caught:
        import_gem_bench(copy, tmp_path / "out", expect="official" if source == RELEASE else "any")
    assert needle in str(caught.value)


def test_the_sample_is_not_taken_for_the_official_release(tmp_path: Path) -> None:
    """Without --expect any, counts that are not the release's are refused, naming the file and both counts."""
    with pytest.raises(ImportError_) as caught:
        import_gem_bench(REPO / "fixtures" / "gem" / "sample", tmp_path / "out")
    message = str(caught.value)
    assert "mt_human/prompts.json: expected 10 mt_human prompts" in message and "found 6" in message
    assert "--expect any" in message and not (tmp_path / "out").exists()


def test_a_broken_ad_database_names_the_key(tmp_path: Path) -> None:
    copy = tmp_path / "sample"
    shutil.copytree(REPO / "fixtures" / "gem" / "sample", copy)
    products = copy / "adchat_products" / "products.json"
    data = json.loads(products.read_text())
    key = next(k for k, v in data.items() if v)
    data[key]["urls"] = data[key]["urls"][:-1]
    products.chmod(0o644)
    products.write_text(json.dumps(data))
    with pytest.raises(ImportError_, match=f"{key!r} has"):
        import_gem_bench(copy, tmp_path / "out", expect="any")


def test_the_committed_sample_is_the_importers_output(tmp_path: Path) -> None:
    out = tmp_path / "evals" / "gem" / "sample"
    shutil.copytree(REPO / "fixtures", tmp_path / "fixtures")
    import_gem_bench(tmp_path / "fixtures" / "gem" / "sample", out, suite="gem-sample", expect="any", link_ads=True)
    for name in ("mt_human.yaml", "lm_market.yaml", "ca_prod.yaml"):
        assert (out / name).read_text() == (REPO / "evals" / "gem" / "sample" / name).read_text(), name


def test_the_sample_meets_the_sizes_it_promises() -> None:
    sample = REPO / "evals" / "gem" / "sample"
    chat = tasks_of(sample / "mt_human.yaml") + tasks_of(sample / "lm_market.yaml")
    search = tasks_of(sample / "ca_prod.yaml")
    assert len(chat) >= 12 and len(search) >= 12
    assert {"Humanities", "Travel Planning", "Recipe Recommendation", "Software Tools Comparison"} <= {
        t.inputs.category for t in chat
    }
    assert all(8 <= len(t.inputs.candidates) <= 20 for t in search)
    products = json.loads((REPO / "fixtures" / "gem" / "sample" / "adchat_products" / "products.json").read_text())
    topics = yaml.safe_load((REPO / "fixtures" / "gem" / "sample" / "adchat_products" / "topics.json").read_text())
    assert sum(len(v.get("names", [])) for v in products.values()) >= 300
    assert sum(1 for subs in topics.values() for _ in subs) >= 20


def test_the_command_prints_counts_and_fails_with_one_line(tmp_path: Path) -> None:
    sample = REPO / "fixtures" / "gem" / "sample"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.cli",
            "import",
            "gem-bench",
            str(sample),
            "--out",
            str(tmp_path / "o"),
            "--expect",
            "any",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "lm_market prompts" in done.stdout and "ca_prod pairs" in done.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "harness.cli", "import", "gem-bench", str(sample), "--out", str(tmp_path / "p")],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "expected 10 mt_human prompts" in refused.stderr
    assert refused.stderr.count("\n") == 1


def _writable_copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for path in target.rglob("*"):
        path.chmod(0o644 if path.is_file() else 0o755)
    return target


def _flip_first_label(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    header = lines[0].split("\t")
    fields = lines[1].split("\t")
    at = header.index("label")
    fields[at] = "0" if fields[at] == "1" else "1"
    lines[1] = "\t".join(fields)
    path.write_text("\n".join(lines), encoding="utf-8")


@needs_release
def test_the_official_release_is_verified_by_content_and_its_hash_recorded(
    imported: tuple[Path, dict[str, int]],
) -> None:
    from harness.benchmarks.gem.importer import OFFICIAL_SHA256, data_hash

    out, _ = imported
    for name in ("mt_human.yaml", "lm_market.yaml", "ca_prod.yaml"):
        data = yaml.safe_load((out / name).read_text())["defaults"]["data"]
        assert data["status"] == "official" and data["sha256"] == data_hash(OFFICIAL_SHA256), name
    (task, *_) = tasks_of(out / "mt_human.yaml")
    assert task.data.status == "official" and task.data.release.startswith("GEM-Bench 6540866")


@needs_release
@pytest.mark.parametrize(
    ("relative", "change"),
    [
        ("ca_prod/final_balanced_dataset.tsv", _flip_first_label),  # a flipped relevance label, same counts
        (
            "lm_market/prompts.json",  # a replaced prompt, same counts
            lambda p: p.write_text(json.dumps(["Where should I go?", *json.loads(p.read_text())[1:]])),
        ),
    ],
)
def test_a_modified_copy_is_refused_naming_the_file_unless_allowed_and_then_marked(
    tmp_path: Path, relative: str, change
) -> None:
    copy = _writable_copy(RELEASE, tmp_path / "release")
    change(copy / relative)
    with pytest.raises(ImportError_) as caught:
        import_gem_bench(copy, tmp_path / "refused")
    assert str(caught.value).startswith(f"{copy / relative}: differs from the official GEM-Bench 6540866 release")
    assert "--allow-modified" in str(caught.value) and not (tmp_path / "refused").exists()
    result = import_gem_bench(copy, tmp_path / "out", allow_modified=True)
    assert result.data["status"] == "modified" and result.data["modified"] == [relative]
    for name in ("mt_human.yaml", "ca_prod.yaml"):
        data = yaml.safe_load((tmp_path / "out" / name).read_text())["defaults"]["data"]
        assert data["status"] == "modified" and data["modified"] == [relative]


@needs_release
def test_the_authors_folder_layout_imports_as_the_same_release(tmp_path: Path) -> None:
    from harness.benchmarks.gem.importer import AUTHORS_LAYOUT

    repo = tmp_path / "GEM-Bench"
    dataset = repo / "GemBench" / "benchmarking" / "dataset"
    for ours, theirs in AUTHORS_LAYOUT.items():
        (dataset / theirs).parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(RELEASE / ours, dataset / theirs)
    for source in (repo, dataset):  # the repository's root or its dataset folder
        result = import_gem_bench(source, tmp_path / f"out-{source.name}")
        assert result.layout == "authors" and result.counts == OFFICIAL_COUNTS
        assert result.data["status"] == "official"


def test_the_authors_layout_works_for_data_of_your_own_too(tmp_path: Path) -> None:
    from harness.benchmarks.gem.importer import AUTHORS_LAYOUT

    sample = REPO / "fixtures" / "gem" / "sample"
    dataset = tmp_path / "dataset"
    for ours, theirs in AUTHORS_LAYOUT.items():
        (dataset / theirs).parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(sample / ours, dataset / theirs)
    theirs = import_gem_bench(dataset, tmp_path / "a", expect="any")
    ours = import_gem_bench(sample, tmp_path / "b", expect="any")
    assert theirs.layout == "authors" and ours.layout == "harness"
    assert theirs.data == ours.data and theirs.data["status"] == "own"  # the same content, the same hash
    for name in ("lm_market.yaml", "ca_prod.yaml"):
        a, b = (yaml.safe_load((tmp_path / d / name).read_text()) for d in ("a", "b"))
        assert a["tasks"] == b["tasks"] and a["defaults"]["data"] == b["defaults"]["data"], name


def _empty_first_query(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[1] = lines[1].split("\t")[0] + "\t"
    path.write_text("\n".join(lines), encoding="utf-8")


def _edit_products(copy: Path, edit) -> None:
    products = copy / "adchat_products" / "products.json"
    data = json.loads(products.read_text())
    key = next(k for k, v in data.items() if v)
    edit(data[key])
    products.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("break_it", "needle"),
    [
        (lambda d: _edit_products(d, lambda v: v["names"].__setitem__(0, None)), "names[0] must be a non-empty string"),
        (lambda d: _edit_products(d, lambda v: v["urls"].__setitem__(2, 123)), "urls[2] must be a string, got 123"),
        (
            lambda d: (d / "ca_prod" / "queries.tsv").write_bytes(
                (d / "ca_prod" / "queries.tsv").read_bytes().replace(b"\n", b"\n\xff", 1)
            ),
            "queries.tsv: not UTF-8 (byte 0xff",
        ),
        (
            lambda d: _empty_first_query(d / "ca_prod" / "queries.tsv"),
            "queries.tsv:2: query_text is empty",
        ),
        (lambda d: (d / "mt_human" / "prompts.json").write_text('["ok", " "]'), "mt_human/prompts.json: item 1"),
    ],
)
def test_content_that_cannot_be_a_task_is_refused_with_its_place_even_when_modifications_are_allowed(
    tmp_path: Path, break_it, needle: str
) -> None:
    copy = _writable_copy(REPO / "fixtures" / "gem" / "sample", tmp_path / "sample")
    break_it(copy)
    for allow in (False, True):
        with pytest.raises(ImportError_) as caught:
            import_gem_bench(copy, tmp_path / "out", expect="any", allow_modified=allow)
        assert needle in str(caught.value) and "\n" not in str(caught.value)
    command = [sys.executable, "-m", "harness.cli", "import", "gem-bench", str(copy), "--expect", "any"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and needle in done.stderr and "Traceback" not in done.stderr
