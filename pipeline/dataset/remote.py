"""Datasets on an object store (`s3://bucket/prefix`, any fsspec URL): publishing one, reading one, judging one.

Writing. `bsl augment --out URL` runs its tasks straight against the store (chunks, task shards and completion
markers under `<URL>/.work/`, through `pipeline.base.storage`), then builds the dataset's files in a private
local staging folder exactly as on disk (`pipeline.augment.job.finalize_dataset`), with shard names that carry
their content id (`train-00000-of-00002-<16 hex digits of its sha256>.parquet`: an object store cannot swap a
folder in, so a name never stands for other bytes), and `publish_dataset` uploads them so that the manifest stays
the commit point:

1. upload: every shard not already at its name with these bytes goes to `<URL>/.bsl-staging/<its name>`, which no
   glob over `data/` or `rejects/` sees; the dataset there before (manifest and shards) is untouched and still
   verifies. A staged object a killed run left with the same bytes is not uploaded again.
2. commit: objects under data/ or rejects/ that are neither this dataset's nor the old manifest's own shards (with
   their sha256) move to `.bsl-replaced/<time>/`; the staged shards move to their names (a server-side copy, then
   the staged object's removal); the card (a card that is not the one the tool wrote, outside its judged-views
   block, is moved aside first); the judgments file, moved aside when its marks judge other pairs than the new
   ones; the manifest, the commit point; the old manifest's own shards that the new one
   does not list are removed (unless the new one is another dataset, `Manifest.is_other_dataset`: other methods,
   another or a changed corpus; then they moved aside with the rest); the output marker; what is left under
   `.bsl-staging/` (a killed run's) moves aside.

Before each of these writes the writer confirms that it still holds the prefix's lease (`storage.Lease.confirm`):
a writer whose lease another host took over (after a long pause) stops there, writing nothing over the new holder's.

Reading is `pipeline.dataset.manifest.load_manifest(URL)`: it reads a local copy of the dataset
(`pipeline.base.storage.local_copy`), so every reader checks it as on disk.

Judging (`bsl review` on a URL): each mark is one read and one write of `<URL>/judgments.jsonl` (an object cannot be
appended to) under the dataset's writer lease (`.bsl-lock`, taken for that mark only: `append_judgment_remote`), so
two reviewers lose nothing and no mark is written while `bsl augment` writes the dataset.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, REPLACED_DIR
from bsl_pipeline.pipeline.dataset.manifest import ANNOTATIONS, DATASET_FOLDERS, MANIFEST_NAME, Manifest

log = logging.getLogger(__name__)


# -- writing -------------------------------------------------------------------------------------------------------
def _manifest_is_ours(url: str) -> bool:
    from bsl_pipeline.pipeline.dataset.manifest import manifest_checksum

    try:
        data = json.loads(storage.read_text(url))
    except (ValueError, UnicodeDecodeError, InputError):
        return False
    return isinstance(data, dict) and data.get("checksum") == manifest_checksum(data)


STAGING_DIR = ".bsl-staging"
JUDGMENTS_NAME = ANNOTATIONS["judgments"]["path"]


def publish_dataset(stage: Path, url: str, previous: Manifest | None, built: Manifest,
                    confirm: Callable[[], None] = lambda: None) -> None:
    """Upload the dataset built in `stage` (its manifest `built`) to `url` (module doc: staged, then committed by
    the manifest; what is kept, removed, moved aside). `confirm` is called before each step that writes (the
    writer lease's `Lease.confirm`): once it raises LeaseLost, the publish stops there, touching nothing more."""
    done = {"committing": False, "committed": False}  # how far the publish got: what a lost lease's message says

    def step() -> None:
        try:
            confirm()
        except storage.LeaseLost as lost:
            if done["committed"]:
                what = "this run's manifest was published; the rest of its clean-up is left to that writer"
            elif done["committing"]:
                what = ("nothing of this run was published (its manifest was not written; shards it moved in are "
                        "set aside by the next publish)")
            else:
                what = "nothing of this run was published"
            raise storage.LeaseLost(f"{lost}; {what}") from None

    step()
    objects = storage.listing(url)
    aside = f"{REPLACED_DIR}/{storage.stamp()}"
    moved: list[str] = []

    def set_aside(names: list[str]) -> None:
        if names:
            step()
            moved.extend(names)
            storage.set_aside_objects(url, names, aside)

    new = {p.relative_to(stage).as_posix(): p for d in DATASET_FOLDERS for p in sorted((stage / d).glob("*"))
           if p.is_file()}
    # 1. Upload, under the staging prefix.
    staged = {}
    for name, path in new.items():
        if name in objects and storage.same_bytes(objects[name], path, storage.join(url, name)):
            continue  # already there (a name stands for its bytes)
        staging = f"{STAGING_DIR}/{name}"
        if staging not in objects or not storage.same_bytes(objects[staging], path, storage.join(url, staging)):
            step()
            storage.write_bytes(storage.join(url, staging), path.read_bytes())
        staged[name] = staging
    # 2. Commit.
    step()
    done["committing"] = True
    if MANIFEST_NAME in objects and not _manifest_is_ours(storage.join(url, MANIFEST_NAME)):
        set_aside([MANIFEST_NAME])
    # Of the dataset being replaced, the tool's own shards are dropped after the commit; of another dataset (other
    # methods, another or a changed corpus), as on disk, none: they are all set aside.
    listed = {s.path: s.sha256 for s in previous.shards} \
        if previous is not None and not previous.is_other_dataset(built.method_names, built.source) else {}
    own_old, foreign = [], []
    for name in objects:
        if name.split("/", 1)[0] not in DATASET_FOLDERS or (name in new and name not in staged):
            continue
        if name not in new and name in listed and storage.sha256(storage.join(url, name)) == listed[name]:
            own_old.append(name)  # the tool's own shard of the dataset being replaced: removed after the commit
        else:
            foreign.append(name)  # not the tool's, or changed since: kept, aside
    set_aside(foreign)
    for name, staging in staged.items():
        step()
        storage.move(storage.join(url, staging), storage.join(url, name))
    card = stage / "README.md"
    card_url = storage.join(url, "README.md")
    if "README.md" in objects and not storage.same_bytes(objects["README.md"], card, card_url) and not _card_is_ours(
            card_url, previous):
        set_aside(["README.md"])
    step()
    storage.write_bytes(storage.join(url, "README.md"), card.read_bytes())
    if JUDGMENTS_NAME in objects:
        _set_aside_replaced_judgments(url, stage, built, aside, step)
    step()
    storage.write_bytes(storage.join(url, MANIFEST_NAME), (stage / MANIFEST_NAME).read_bytes())  # the commit
    done["committed"] = True
    step()
    for name in own_old:
        storage.remove_own(storage.join(url, name))
    if (stage / MARKER_NAME).is_file():
        storage.write_bytes(storage.join(url, MARKER_NAME), (stage / MARKER_NAME).read_bytes())
    step()
    _clear_staging(url, aside, moved)
    if moved:
        log.warning("warning: %s: %d object(s) that were not the tool's own copies were moved to %s/ (nothing "
                    "deleted): %s", storage.redact(url), len(moved), storage.join(url, aside), ", ".join(moved[:5]))


def _set_aside_replaced_judgments(url: str, stage: Path, built: Manifest, aside: str, step: Callable[[], None]) -> None:
    """As on disk (`pipeline.augment.job`): the judgments file on the store moves to `aside` when its marks judge
    other pairs than those of `built` (read from a copy in `stage`); marks of these very pairs stay."""
    from bsl_pipeline.pipeline.dataset.judgments import judges_other_pairs, pairs_checksum, replaced_judgments_note

    copy = stage / f".{JUDGMENTS_NAME}.published"
    storage.download(storage.join(url, JUDGMENTS_NAME), copy)
    other = judges_other_pairs(copy, pairs_checksum(built))
    copy.unlink()
    if other:
        step()
        storage.set_aside_objects(url, [JUDGMENTS_NAME], aside)
        log.warning("warning: %s", storage.redact(replaced_judgments_note(
            storage.join(url, JUDGMENTS_NAME), other, storage.join(url, aside, JUDGMENTS_NAME), url)))

def _card_is_ours(card_url: str, previous: Manifest | None) -> bool:
    """The card on the store is the one the tool wrote for `previous`, but for its judged-views block (which `bsl
    review` rewrites)."""
    from bsl_pipeline.pipeline.dataset.card import card_is_ours

    if previous is None:
        return False
    try:
        return card_is_ours(storage.read_text(card_url), previous)
    except (UnicodeDecodeError, InputError):
        return False


def _clear_staging(url: str, aside: str, moved: list[str]) -> None:
    """What a killed run left under the staging prefix: a copy of an object now published with the same bytes is
    removed (nothing is lost); anything else is moved aside."""
    objects = storage.listing(url)
    left = [n for n in objects if n.startswith(STAGING_DIR + "/")]
    other = []
    for name in left:
        if _same_objects(url, name, objects[name], name[len(STAGING_DIR) + 1:], objects):
            storage.remove_own(storage.join(url, name))
        else:
            other.append(name)
    if other:
        moved.extend(other)
        storage.set_aside_objects(url, other, aside)


def _same_objects(url: str, name: str, info: dict, other: str, objects: dict[str, dict]) -> bool:
    """The objects `name` and `other` under `url` hold the same bytes: equal sizes, and equal ETags that are the md5
    of the bytes (a single PUT), or else (multipart, SSE-KMS: the ETag proves nothing) equal sha256, downloaded."""
    published = objects.get(other)
    if published is None or published.get("size") != info.get("size"):
        return False
    etag = str(info.get("etag") or "").strip('"')
    if etag and "-" not in etag and etag == str(published.get("etag") or "").strip('"'):
        return True
    return storage.sha256(storage.join(url, name)) == storage.sha256(storage.join(url, other))


def pull_identity(url: str, stage: Path) -> None:
    """The output marker and current manifest of `url`, copied into `stage` (the dataset's id and version)."""
    for name in (MARKER_NAME, MANIFEST_NAME):
        if storage.is_file(storage.join(url, name)):
            storage.download(storage.join(url, name), stage / name)


def pull_checked(url: str, target: Path, sha256: str) -> Path:
    """Download `url` to `target` and check it against the sha256 its completion marker recorded."""
    from bsl_pipeline.pipeline.base.errors import BSLError
    from bsl_pipeline.pipeline.base.provenance import sha256_file

    storage.download(url, target)
    if sha256 and sha256_file(target) != sha256:
        raise BSLError(f"{storage.redact(url)} changed after its task finished (its sha256 is not its completion "
                       f"marker's); rerun to recompute it")
    return target


# -- judging -------------------------------------------------------------------------------------------------------
#: What a review's lease says it is: another mark, and `bsl augment`, wait for it (up to MARK_WAIT_S); a mark finding
#: the lease of `bsl augment` (writing the dataset) is refused.
JUDGING = "dataset's judgments (one mark)"
MARK_WAIT_S = 10.0


@contextlib.contextmanager
def judging_lease(url: str) -> Iterator[None]:
    """The dataset's writer lease (`.bsl-lock`) for one mark: a second reviewer's mark waits for it; while `bsl
    augment` writes the dataset, LockedError naming that writer."""
    with storage.Lease(url, JUDGING, wait_s=MARK_WAIT_S, wait_for=(JUDGING,)):
        yield


def dataset_lease(url: str, config: storage.StorageConfig | None = None) -> storage.Lease:
    """The writer lease `bsl augment` holds on a dataset on a store while it writes it (waiting up to MARK_WAIT_S
    for a review mark being written)."""
    return storage.Lease(url, "dataset", config, wait_s=MARK_WAIT_S, wait_for=(JUDGING,))


def stored_manifest_checksum(url: str) -> str:
    """The checksum the manifest on the store records now ("" when there is none, or it is unreadable)."""
    try:
        data = json.loads(storage.read_text(storage.join(url, MANIFEST_NAME)))
    except (ValueError, UnicodeDecodeError, InputError):
        return ""
    return str(data.get("checksum", "")) if isinstance(data, dict) else ""


def append_judgment_remote(url: str, line: str) -> None:
    """Append one line to `<url>/judgments.jsonl` (call it under `judging_lease`): the object is read and written
    back whole with the line added (a line cut off on disk is closed with a newline first, as there), then the
    local copy's file is brought up to date."""
    target = storage.join(url, JUDGMENTS_NAME)
    try:
        data = storage.read_bytes(target)
    except InputError:
        data = b""
    if data and not data.endswith(b"\n"):
        data += b"\n"
    storage.write_bytes(target, data + line.encode("utf-8"))
    storage.refresh_copied(url, JUDGMENTS_NAME)


def refresh_judgments(url: str) -> None:
    """The local copy's judgments file as it is on the store now (another reviewer's marks count)."""
    storage.refresh_copied(url, JUDGMENTS_NAME)


def patch_card_remote(url: str, manifest: Manifest, pairs=None) -> bool:
    """Rewrite the judged-views block of the card on the store (call it under `judging_lease`), every other byte
    kept; False (nothing written) when the card is not text holding that block once."""
    from bsl_pipeline.pipeline.dataset.card import MAX_CARD_BYTES, judged_views_patched

    card = storage.join(url, "README.md")
    try:
        data = storage.read_bytes(card)
        text = data.decode("utf-8") if len(data) <= MAX_CARD_BYTES else None
    except (InputError, UnicodeDecodeError):
        text = None
    patched = judged_views_patched(text, manifest, pairs) if text is not None else None
    if patched is None:
        return False
    if patched != text:
        storage.write_bytes(card, patched.encode("utf-8"))
    return True
