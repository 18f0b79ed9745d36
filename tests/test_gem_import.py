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
from helpers import GEM_RELEASE, GEM_RELEASE_MISSING, REPO, load_tasks

from harness.benchmarks.gem.importer import OFFICIAL_COUNTS, ImportError_, import_gem_bench

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
    return load_tasks([path])


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


def _folder_instead(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _reencode(path: Path, encoding: str) -> None:
    path.write_bytes(path.read_text(encoding="utf-8").encode(encoding))


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
            "ca_prod/queries.tsv:2: not UTF-8 (byte 0xff at byte offset",
        ),
        (lambda d: _folder_instead(d / "mt_human" / "prompts.json"), "mt_human/prompts.json: is a folder; expected a"),
        (lambda d: _folder_instead(d / "ca_prod" / "queries.tsv"), "ca_prod/queries.tsv: is a folder; expected a file"),
        (
            lambda d: _folder_instead(d / "adchat_products" / "products.json"),
            "adchat_products/products.json: is a folder; expected a file",
        ),
        (  # json.loads on bytes would decode UTF-16 silently
            lambda d: _reencode(d / "adchat_products" / "topics.json", "utf-16"),
            "adchat_products/topics.json:1: not UTF-8 text (a NUL byte at byte offset",
        ),
        (
            lambda d: (d / "adchat_products" / "products.json").write_bytes(
                b"\xff" + (d / "adchat_products" / "products.json").read_bytes()
            ),
            "adchat_products/products.json:1: not UTF-8 (byte 0xff at byte offset 0)",
        ),
        (  # a JSON escape for half of an emoji
            lambda d: (d / "mt_human" / "prompts.json").write_text('["Paris \\ud83d", "ok"]'),
            "mt_human/prompts.json: item 0 holds half a character (\\ud83d at character 7)",
        ),
        (
            lambda d: _edit_products(d, lambda v: v["descs"].__setitem__(1, "Day passes \ud83d")),
            "descs[1] holds half a character (\\ud83d at character 12)",
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


def test_a_byte_that_is_not_utf8_is_located_by_the_files_line_and_its_absolute_offset(tmp_path: Path) -> None:
    """Far beyond the first block a text reader decodes at once (8 KiB): the offset is the file's own."""
    copy = _writable_copy(REPO / "fixtures" / "gem" / "sample", tmp_path / "sample")
    products = copy / "ca_prod" / "products.tsv"
    raw = bytearray(products.read_bytes())
    line_start = raw.index(b"\n", 30_000) + 1
    at = raw.index(b"\t", line_start) + 1  # the first byte of that row's title
    raw[at] = 0xFF
    products.write_bytes(bytes(raw))
    with pytest.raises(ImportError_) as caught:
        import_gem_bench(copy, tmp_path / "out", expect="any")
    line = raw.count(b"\n", 0, at) + 1
    assert str(caught.value) == f"{products}:{line}: not UTF-8 (byte 0xff at byte offset {at})"


def test_a_file_that_cannot_be_read_is_one_line_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Permission is denied to root by no mode bits, so the read itself is made to fail as the OS would."""
    copy = _writable_copy(REPO / "fixtures" / "gem" / "sample", tmp_path / "sample")
    denied = copy / "lm_market" / "categories.json"
    read_bytes = Path.read_bytes

    def refuse(path: Path) -> bytes:
        if path == denied:
            raise PermissionError(13, "Permission denied", str(path))
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(ImportError_) as caught:
        import_gem_bench(copy, tmp_path / "out", expect="any")
    assert str(caught.value) == f"{denied}: cannot be read (permission denied)"


def test_the_command_names_the_authors_layout(tmp_path: Path) -> None:
    from harness.benchmarks.gem.importer import AUTHORS_LAYOUT

    sample = REPO / "fixtures" / "gem" / "sample"
    dataset = tmp_path / "dataset"
    for ours, theirs in AUTHORS_LAYOUT.items():
        (dataset / theirs).parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(sample / ours, dataset / theirs)
    command = [sys.executable, "-m", "harness.cli", "import", "gem-bench", str(dataset), "--expect", "any"]
    done = subprocess.run([*command, "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert done.returncode == 0 and f"read {dataset} (the authors' layout):" in done.stdout, done.stderr


@needs_release
def test_a_changed_copy_imported_as_data_of_ones_own_lists_the_files_that_differ(tmp_path: Path) -> None:
    copy = _writable_copy(RELEASE, tmp_path / "release")
    _flip_first_label(copy / "ca_prod" / "final_balanced_dataset.tsv")
    command = [sys.executable, "-m", "harness.cli", "import", "gem-bench", str(copy), "--expect", "any"]
    done = subprocess.run([*command, "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data = yaml.safe_load((tmp_path / "o" / "ca_prod.yaml").read_text())["defaults"]["data"]
    assert data["status"] == "own" and data["release"] == "GEM-Bench 6540866"
    assert data["modified"] == ["ca_prod/final_balanced_dataset.tsv"]
    assert "a changed copy of GEM-Bench 6540866: 9 of its 10 files are the release's, these differ: " in done.stdout
    assert "ca_prod/final_balanced_dataset.tsv" in done.stdout


def _labels(path: Path) -> dict[str, dict[str, str]]:
    from harness.benchmarks import get_benchmark

    gem = get_benchmark("gem")
    return {task.id: gem.labels(task) for task in tasks_of(path)}


def _flip_first_task_label(path: Path) -> str:
    """Flip the first relevance label of the first task in an imported ca_prod.yaml, as a hand edit would."""
    document = yaml.safe_load(path.read_text())
    task = document["tasks"][0]
    task["ground_truth"]["labels"][0] = 1 - task["ground_truth"]["labels"][0]
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
    return str(task["id"])


def test_a_task_edited_after_the_import_is_modified_the_others_keep_their_status(tmp_path: Path) -> None:
    out = tmp_path / "own"
    import_gem_bench(REPO / "fixtures" / "gem" / "sample", out, expect="any")
    before = _labels(out / "ca_prod.yaml")
    assert {(v["data_status"], "data_edited" in v) for v in before.values()} == {("own", False)}
    edited = _flip_first_task_label(out / "ca_prod.yaml")
    after = _labels(out / "ca_prod.yaml")
    assert after[edited]["data_status"] == "modified" and after[edited]["data_edited"]
    assert all(after[t] == before[t] for t in after if t != edited)
    mt = out / "mt_human.yaml"  # a prompt edited by hand (comments and layout are not content)
    mt.write_text(mt.read_text().replace("# mt_human", "# a comment\n# mt_human", 1))
    assert {v["data_status"] for v in _labels(mt).values()} == {"own"}
    document = yaml.safe_load(mt.read_text())
    document["tasks"][1]["inputs"]["query"] += " Answer in French."
    mt.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
    assert [t for t, v in _labels(mt).items() if v["data_status"] == "modified"] == [document["tasks"][1]["id"]]


@needs_release
def test_the_official_task_files_verify_against_the_shipped_hashes(imported: tuple[Path, dict[str, int]]) -> None:
    from harness.benchmarks.gem.provenance import OFFICIAL_AD_DATABASE_DIGEST, OFFICIAL_TASKS_SHA256, tasks_hash

    out, _ = imported
    for name in ("mt_human", "lm_market", "ca_prod"):
        data = yaml.safe_load((out / f"{name}.yaml").read_text())["defaults"]["data"]
        assert tasks_hash(data["tasks"]) == OFFICIAL_TASKS_SHA256[name], name  # the constants are the importer's
        assert data.get("ad_database_digest", OFFICIAL_AD_DATABASE_DIGEST) == OFFICIAL_AD_DATABASE_DIGEST
        assert {v["data_status"] for v in _labels(out / f"{name}.yaml").values()} == {"official"}, name


@needs_release
def test_an_official_task_file_edited_by_hand_is_no_longer_official(tmp_path: Path) -> None:
    from harness.benchmarks.gem.provenance import OFFICIAL_DATA_SHA256

    out = tmp_path / "official"
    import_gem_bench(RELEASE, out)
    edited = _flip_first_task_label(out / "ca_prod.yaml")  # the audit's case: a label flipped in the YAML
    labels = _labels(out / "ca_prod.yaml")
    assert labels[edited]["data_status"] == "modified" and "data_edited" in labels[edited]
    assert sum(v["data_status"] == "official" for v in labels.values()) == 119
    # a copy imported with --allow-modified, its status then edited back to official (and its hash too)
    copy = _writable_copy(RELEASE, tmp_path / "release")
    _flip_first_label(copy / "ca_prod" / "final_balanced_dataset.tsv")
    import_gem_bench(copy, tmp_path / "modified", allow_modified=True)
    forged = tmp_path / "modified" / "ca_prod.yaml"
    document = yaml.safe_load(forged.read_text())
    for claim in ({"status": "official"}, {"status": "official", "sha256": OFFICIAL_DATA_SHA256, "modified": []}):
        document["defaults"]["data"].update(claim)
        forged.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
        labels = _labels(forged)
        assert {v["data_status"] for v in labels.values()} == {"modified"}, claim
        assert OFFICIAL_DATA_SHA256 not in {v["data_sha256"] for v in labels.values()}, claim
