"""Datasets on an object store (`s3://bucket/prefix`, any fsspec URL): publishing one, and reading one.

Writing. `bsl augment --out URL` runs its tasks straight against the store (chunks, task shards and completion
markers under `<URL>/.work/`, through `pipeline.base.storage`), then builds the dataset's files in a private
local staging folder exactly as on disk (`pipeline.augment.job.finalize_dataset`) and `publish_dataset` uploads
them in the order that keeps the manifest the commit point:

1. the old manifest is taken away first (removed when it is the tool's own, with a valid checksum; else moved
   aside), so from here until step 4 nothing verifies;
2. shards: an object that already holds the same bytes is kept; one the old manifest listed with that sha256 is
   the tool's and is replaced; any other object under data/ or rejects/ is moved to `.bsl-replaced/<time>/`;
3. the dataset card (a card that is not the one the tool wrote for the old manifest is moved aside first);
4. the manifest, last; then the output marker with the dataset's identity.

Reading is `pipeline.dataset.manifest.load_manifest(URL)`: it reads a local copy of the dataset
(`pipeline.base.storage.local_copy`), so every reader checks it as on disk.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from bsl_pipeline.pipeline.base import storage
from bsl_pipeline.pipeline.base.errors import InputError
from bsl_pipeline.pipeline.base.ownership import MARKER_NAME, REPLACED_DIR
from bsl_pipeline.pipeline.dataset.manifest import DATASET_FOLDERS, MANIFEST_NAME, Manifest

log = logging.getLogger(__name__)


# -- writing -------------------------------------------------------------------------------------------------------
def _manifest_is_ours(url: str) -> bool:
    from bsl_pipeline.pipeline.dataset.manifest import manifest_checksum

    try:
        data = json.loads(storage.read_text(url))
    except (ValueError, UnicodeDecodeError, InputError):
        return False
    return isinstance(data, dict) and data.get("checksum") == manifest_checksum(data)


def publish_dataset(stage: Path, url: str, previous: Manifest | None) -> None:
    """Upload the dataset built in `stage` to `url` (module doc: the order, what is kept, replaced, moved aside)."""
    from bsl_pipeline.pipeline.dataset.card import dataset_card

    objects = storage.listing(url)
    aside = f"{REPLACED_DIR}/{storage.stamp()}"
    moved: list[str] = []
    # 1. The commit point goes first.
    if MANIFEST_NAME in objects:
        if _manifest_is_ours(storage.join(url, MANIFEST_NAME)):
            storage.remove_own(storage.join(url, MANIFEST_NAME))
        else:
            moved += [MANIFEST_NAME]
            storage.set_aside_objects(url, [MANIFEST_NAME], aside)
    # 2. Shards.
    new = {p.relative_to(stage).as_posix(): p for d in DATASET_FOLDERS for p in sorted((stage / d).glob("*"))
           if p.is_file()}
    listed = {s.path: s.sha256 for s in previous.shards} if previous is not None else {}
    replaceable = []
    for name, info in objects.items():
        if name.split("/", 1)[0] not in DATASET_FOLDERS:
            continue
        if name in new and storage.same_bytes(info, new[name]):
            del new[name]  # already there
        elif name in listed and storage.sha256(storage.join(url, name)) == listed[name]:
            replaceable.append(name)  # the tool's own shard of the dataset being replaced
        else:
            moved.append(name)
            storage.set_aside_objects(url, [name], aside)
    for name, path in new.items():
        storage.write_bytes(storage.join(url, name), path.read_bytes())
    for name in replaceable:
        if name not in new:
            storage.remove_own(storage.join(url, name))
    # 3. The card.
    card = stage / "README.md"
    if "README.md" in objects and not storage.same_bytes(objects["README.md"], card):
        try:
            ours = previous is not None and storage.read_text(storage.join(url, "README.md")) == dataset_card(previous)
        except (UnicodeDecodeError, InputError):
            ours = False
        if not ours:
            moved.append("README.md")
            storage.set_aside_objects(url, ["README.md"], aside)
    storage.write_bytes(storage.join(url, "README.md"), card.read_bytes())
    # 4. The manifest last, then the marker with the identity it records.
    storage.write_bytes(storage.join(url, MANIFEST_NAME), (stage / MANIFEST_NAME).read_bytes())
    if (stage / MARKER_NAME).is_file():
        storage.write_bytes(storage.join(url, MARKER_NAME), (stage / MARKER_NAME).read_bytes())
    if moved:
        log.warning("warning: %s: %d object(s) that were not the tool's own copies were moved to %s/ (nothing "
                    "deleted): %s", storage.redact(url), len(moved), storage.join(url, aside), ", ".join(moved[:5]))


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
