"""The hub cache's snapshot of a model (pipeline/base/hub.py hub_snapshot) stays inside the cache's snapshots/."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SNAPSHOT = """
import sys
from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.hub import hub_snapshot
try:
    print(hub_snapshot("org/tiny", ["*.json", "*.txt"], where="model"))
except BSLError as exc:
    print(f"error: {exc}")
"""


def _snapshot(cache: Path) -> str:
    proc = subprocess.run([sys.executable, "-c", SNAPSHOT], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.mark.parametrize("how", ["ref-path", "symlinked-snapshot", "plain"])
def test_a_cached_snapshot_outside_the_cache_is_refused(tiny_bert_dir, tmp_path, how):
    repo = tmp_path / "cache" / "models--org--tiny"
    (repo / "refs").mkdir(parents=True)
    (repo / "snapshots").mkdir()
    shutil.copytree(tiny_bert_dir, tmp_path / "elsewhere")
    if how == "ref-path":
        (repo / "refs" / "main").write_text("../../../elsewhere")
    else:
        (repo / "refs" / "main").write_text("abc123")
        if how == "symlinked-snapshot":
            (repo / "snapshots" / "abc123").symlink_to(tmp_path / "elsewhere")
        else:
            shutil.copytree(tiny_bert_dir, repo / "snapshots" / "abc123")
    printed = _snapshot(tmp_path / "cache")
    if how == "plain":
        assert printed == str(repo / "snapshots" / "abc123")
    elif how == "ref-path":
        assert printed.startswith("error: model: the hub cache's snapshot of 'org/tiny' is ") and \
            "not a folder of its snapshots/" in printed, printed
    else:
        assert printed.startswith("error: model: the hub cache's snapshot of 'org/tiny': 'abc123' points outside ") \
            and "through a symlink" in printed, printed
