"""The dataset card (pipeline.dataset.card) cannot redirect loading: `verify` checks its configs key by key."""

from __future__ import annotations

import pytest

from small_corpus import DOG_LINES, noise_dataset


@pytest.mark.parametrize("edit, named", [
    (lambda c: c[0].update(data_dir="../elsewhere"), r"configs\[0\]\.data_dir is not a key `bsl augment` writes"),
    (lambda c: c[0].update(data_files="data/*.parquet"), "malformed config"),  # refused before too
    (lambda c: c[0]["data_files"][0].update(split="test"), r"configs\[0\]\.data_files\[0\]\.split is 'test'"),
    (lambda c: c[0].update(default=False), r"configs\[0\]\.default is False"),
    (lambda c: c[0].update(features={"view1": "int64"}), r"configs\[0\]\.features is not a key"),
    (lambda c: c[0]["data_files"][0].update(path=["../elsewhere/*.parquet"]),
     r"names \.\./elsewhere/\*\.parquet, which the manifest does not list"),  # as before
])
def test_card_configs_are_checked_key_by_key(tmp_path, monkeypatch, edit, named):
    """A card whose configs gained `data_dir: ../elsewhere` made `datasets.load_dataset(dir)` read other data while
    `bsl verify` said OK."""
    import yaml

    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    monkeypatch.setenv("BSL_MANIFEST_KEY", "team-secret")
    out = tmp_path / "ds"
    noise_dataset(tmp_path, "ds", DOG_LINES)
    verify_dataset(out)
    card = out / "README.md"
    head, body = card.read_text(encoding="utf-8")[4:].split("\n---\n", 1)
    front = yaml.safe_load(head)
    edit(front["configs"])
    card.write_text("---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n" + body, encoding="utf-8")
    with pytest.raises(VerificationError, match=named):
        verify_dataset(out)


@pytest.mark.parametrize("files, differ", [
    (["data/*.parquet"], "it names data/*.parquet, which the manifest does not list; it does not name {shard}"),
    (["{shard}", "{shard}"], "it names {shard} more than once"),
    ([], "it does not name {shard}"),
])
def test_a_card_naming_other_files_is_told_entry_by_entry(tmp_path, files, differ):
    """A card whose 'default' config named a glob instead of a shard was reported as naming "1 file(s), not the
    manifest's 1 pairs shard(s)": the message now names the entries that differ."""
    import yaml

    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    manifest = noise_dataset(tmp_path, "ds", DOG_LINES)
    (shard,) = [s.path for s in manifest.shards_of("pairs")]
    card = tmp_path / "ds" / "README.md"
    head, body = card.read_text(encoding="utf-8")[4:].split("\n---\n", 1)
    front = yaml.safe_load(head)
    front["configs"][0]["data_files"][0]["path"] = [f.format(shard=shard) for f in files]
    card.write_text("---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n" + body, encoding="utf-8")
    with pytest.raises(VerificationError) as exc:
        verify_dataset(tmp_path / "ds")
    assert str(exc.value) == (f"{card}: the dataset card's 'default' config does not name the manifest's pairs shards: "
                              f"{differ.format(shard=shard)} (written by another run, or the write was interrupted): "
                              f"rerun `bsl augment`")


def test_card_dataset_info_is_refused(tmp_path):
    from bsl_pipeline.pipeline.base.errors import VerificationError
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    noise_dataset(tmp_path, "ds", DOG_LINES)
    card = tmp_path / "ds" / "README.md"
    card.write_text(card.read_text().replace("---\n", "---\ndataset_info:\n  features:\n  - name: view1\n"
                                             "    dtype: int64\n", 1))
    with pytest.raises(VerificationError, match="'dataset_info' is not one `bsl augment` writes"):
        verify_dataset(tmp_path / "ds")


def test_a_card_edited_past_its_front_matter_is_a_warning_naming_it(tmp_path, caplog):
    """Verify said nothing of a card whose text was not the one `bsl augment` wrote (its sha256 is in the manifest):
    now a warning naming the card, and verify still passes (the card's prose is the user's to edit); the judged-views
    block (`bsl review` rewrites it) and a manifest from before the record are not flagged."""
    import json
    import logging

    from bsl_pipeline.pipeline.dataset.card import JUDGED_BEGIN, JUDGED_END
    from bsl_pipeline.pipeline.dataset.manifest import write_manifest
    from bsl_pipeline.pipeline.dataset.store import verify_dataset
    from small_corpus import run_bsl

    out = tmp_path / "ds"
    noise_dataset(tmp_path, "ds", DOG_LINES)
    card = out / "README.md"
    original = card.read_text(encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        verify_dataset(out)
        card.write_text(original.replace(JUDGED_BEGIN, JUDGED_BEGIN + "\nJudged: 3 of 4 kept.", 1), encoding="utf-8")
        verify_dataset(out)
    assert JUDGED_END in original and "card" not in caplog.text

    card.write_text(original.replace("Pairs: ", "Pairs (all hand-checked): ", 1), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        verify_dataset(out)
    assert f"warning: {card}: the dataset card is not the one `bsl augment` wrote" in caplog.text
    proc = run_bsl("verify", str(out))
    assert proc.returncode == 0 and proc.stdout.startswith("OK: "), (proc.stdout, proc.stderr)
    assert f"warning: {card}: the dataset card is not the one" in proc.stderr and "Traceback" not in proc.stderr

    caplog.clear()
    card.write_bytes(original.encode("utf-8") + b"\n\xff not UTF-8\n")
    with caplog.at_level(logging.WARNING):
        verify_dataset(out)
    assert f"warning: {card}: the dataset card is not the one" in caplog.text

    caplog.clear()
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))  # a manifest from before the record
    del data["card_sha256"]
    data.pop("checksum")
    write_manifest(data, out / "manifest.json")
    with caplog.at_level(logging.WARNING):
        verify_dataset(out)
    assert "card" not in caplog.text


def test_the_cards_stats_table_shows_each_figure_as_the_terminal_does(tmp_path):
    """The card printed the stats' floats unrounded (0.098715 where `bsl inspect --stats` shows 0.099): now both
    write each figure with `figure_text`, and a fresh dataset with that card still verifies."""
    from bsl_pipeline.pipeline.dataset.inspection import format_stats_text
    from bsl_pipeline.pipeline.dataset.store import verify_dataset

    manifest = noise_dataset(tmp_path, "ds", DOG_LINES)
    card = (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
    noise = manifest.stats.per_method["noise"]
    ratios = [r for r in (noise.mean_edit_ratio, noise.mean_length_ratio) if r != round(r, 3)]
    assert ratios  # a figure with more digits than the table shows
    row = next(line for line in card.splitlines() if line.startswith("| noise |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    terminal = next(line for line in format_stats_text(manifest).splitlines() if line.startswith("noise "))
    for ratio in ratios:
        assert f"{ratio:.3f}" in cells and f"{ratio:.3f}" in terminal.split()
        assert str(ratio) not in card
    verify_dataset(tmp_path / "ds")  # the card's digest in the manifest is of the card as written
