"""The installed import packages live under one namespace, `bsl_pipeline`: a user's own `training.py` or `pipeline/`
folder (or another PyPI package named `pipeline`, `flows` or `bsl`) cannot shadow them.

Built as a user gets it: the wheel, installed into a fresh virtual environment (its dependencies borrowed from this
one), imported from a directory that holds a `training.py` and a `pipeline/` of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_wheel_imports_its_own_modules_beside_a_users_training_py_and_pipeline_folder(tmp_path):
    source, wheels = tmp_path / "source", tmp_path / "wheels"  # built from a copy: setuptools writes build/ beside it
    for name in ("pyproject.toml", "README.md"):
        source.mkdir(exist_ok=True)
        shutil.copy(REPO / name, source / name)
    for name in ("pipeline", "training", "evaluation", "flows", "cli", "configs"):
        shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels),
                    str(source)], check=True, capture_output=True, timeout=300)
    (wheel,) = wheels.glob("bsl_pipeline-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "bsl_pipeline/training/config.py" in names and "bsl_pipeline/cli/cli.py" in names
    # Every module and data file of the tree is in the wheel (a new sub-package or data folder left out of
    # pyproject.toml's package list would be missing here, though an editable install still finds it).
    shipped = {p.relative_to(source).as_posix() for p in source.rglob("*")
               if p.is_file() and p.suffix in (".py", ".yaml", ".json")
               and p.relative_to(source).parts[0] in ("pipeline", "training", "evaluation", "flows", "cli", "configs")}
    assert any(s.startswith("configs/recipes/") for s in shipped) and any("rewrite_rules/cases/" in s for s in shipped)
    assert sorted(s for s in shipped if f"bsl_pipeline/{s}" not in names) == []
    assert not [n for n in names if n.split("/")[0] in ("pipeline", "training", "evaluation", "flows", "cli")], names[:20]

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True, timeout=300)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    # The dependencies (torch, transformers, ...) from this environment, after the venv's own packages.
    Path(site, "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    project = tmp_path / "my-research"
    (project / "pipeline").mkdir(parents=True)
    (project / "training.py").write_text("raise SystemExit('the user training.py was imported')\n")
    (project / "pipeline" / "__init__.py").write_text("raise SystemExit('the user pipeline/ was imported')\n")
    (project / "flows.py").write_text("raise SystemExit('the user flows.py was imported')\n")
    code = ("import bsl_pipeline.training.config as c, bsl_pipeline.pipeline.augment.job as j, "
            "bsl_pipeline.flows.augment_job as f, bsl_pipeline.cli.cli as cli\n"
            "from bsl_pipeline.training.integrations.st_bsl import BSLLoss\n"
            "print(c.__file__); print(j.__file__); print(f.__file__); print(cli.__file__)\n"
            "print(c.TrainConfig().optim.lr)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    proc = subprocess.run([str(python), "-c", code], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    files = proc.stdout.splitlines()[:4]
    assert all(f.startswith(site) for f in files), files
    proc = subprocess.run([str(venv / "bin" / "bsl"), "--help"], cwd=project, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and "usage: bsl" in proc.stdout, proc.stderr
    # The package data reads from the installed wheel: the recipes and the rewrite rules' cases.
    proc = subprocess.run([str(venv / "bin" / "bsl"), "recipes"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and "\nunsupervised (default): " in proc.stdout and "supervised: " in proc.stdout, proc.stderr
    code = ("from bsl_pipeline.pipeline.augment.rewrite_rules import catalog\n"
            "print(catalog.CASES_DIR); print(len(list(catalog.CASES_DIR.glob('*.json'))))\n")
    proc = subprocess.run([str(python), "-c", code], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    cases_dir, count = proc.stdout.split()
    assert proc.returncode == 0 and cases_dir.startswith(site) and int(count) == len(
        list((REPO / "pipeline/augment/rewrite_rules/cases").glob("*.json"))), proc.stdout + proc.stderr
