"""The cases of the data-safety review of judgments, written files, links and the review server, run through the
`bsl` command on real files; prints one line per case. Run it once on the code before a change and once after, and
compare (docs/results/data-safety.md):

    BSL_SHARED_DATA=../shared/data OMP_NUM_THREADS=1 python experiments/data_safety/judgments_links_server.py

Needs the repository's tests/ folder (the small corpus and the tiny BERT built offline) and the public STS files.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
SHARED = Path(os.environ.get("BSL_SHARED_DATA", REPO.parent / "shared" / "data"))
ENV = {**os.environ, "BSL_NO_PROGRESS": "1", "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}


def bsl(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env or ENV, check=False)


def last_line(proc: subprocess.CompletedProcess) -> str:
    text = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
    return f"exit {proc.returncode}: {text[-1][:150] if text else ''}"


def augment(root: Path, out: Path, methods: str = "noise,span-mask") -> None:
    proc = bsl("augment", str(root / "corpus" / "corpus.txt"), "--out", str(out), "--methods", methods,
               "-o", "corpus.chunk_size=8", "-o", f"registry_dir={root / 'registry'}")
    assert proc.returncode == 0, proc.stderr


def pairs(ds: Path) -> dict[str, str]:
    import pyarrow.parquet as pq

    out = {}
    for shard in sorted((ds / "data").glob("*.parquet")):
        t = pq.read_table(shard, columns=["pair_id", "method"])
        out.update(zip(t.column("pair_id").to_pylist(), t.column("method").to_pylist()))
    return out


def serve(ds: Path, extra_env: dict | None = None, browser: bool = False):
    args = [sys.executable, "-m", "bsl_pipeline.cli", "review", str(ds), "-n", "4"] + ([] if browser else
                                                                                        ["--no-browser"])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**ENV, **(extra_env or {})})
    for line in proc.stdout:
        if line.startswith("open "):
            return proc, line.split()[1]
    raise RuntimeError(proc.stderr.read())


def stop(proc) -> None:
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)


def raw(url: str, request: bytes) -> str:
    host, port = url.split("/")[2].split(":")
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        try:
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        reply = b""
        try:
            while chunk := sock.recv(65536):
                reply += chunk
        except ConnectionResetError:
            pass
    if not reply:
        return "empty reply"
    head, _, body = reply.partition(b"\r\n\r\n")
    return f"{head.split(b' ', 2)[1].decode()} {body.decode(errors='replace')[:110]}"


def post(url: str, route: str, body: dict) -> str:
    data = json.dumps(body).encode()
    path = "/" + url.split("/", 3)[3] + route
    return raw(url, f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)


def main() -> None:
    from small_corpus import write_corpus
    from tiny_models import build_tiny_bert

    root = Path(tempfile.mkdtemp(prefix="bsl-cases-"))
    write_corpus(root)
    ds = root / "DS"
    augment(root, ds)
    ids = pairs(ds)

    # 1. forged marks
    forged = root / "forged"
    shutil.copytree(ds, forged)
    from bsl_pipeline.pipeline.dataset.judgments import pairs_checksum
    from bsl_pipeline.pipeline.dataset.store import load_manifest

    checksum = pairs_checksum(load_manifest(forged))
    lines = [{"pair_id": f"forged-{i}", "method": "noise"} for i in range(200)]
    lines += [{"pair_id": p, "method": "noise"} for p, m in ids.items() if m == "span-mask"]
    with open(forged / "judgments.jsonl", "w") as fh:
        for line in lines:
            fh.write(json.dumps({"dataset": checksum, "mark": "usable", "classes": [], "note": "", "reviewer": "m",
                                 "time": "2026-01-01T00:00:00Z", **line}) + "\n")
    summary = bsl("review", str(forged), "--summary", "--no-verify").stdout.splitlines()
    noise = next((line for line in summary if line.startswith("noise")), "")
    print(f"forged marks ({len(lines)} lines, DS has {sum(m == 'noise' for m in ids.values())} noise pairs): "
          f"summary `{' '.join(noise.split()[:3])}`; {summary[-1][:90] if summary else ''}")
    print(f"  verify: {last_line(bsl('verify', str(forged), '-q'))}")

    # 2. --plot onto a script that mentions bsl evaluate
    tiny = build_tiny_bert(root / "tiny")
    script = root / "run_eval.sh"
    script.write_text("#!/bin/sh\nbsl evaluate my_model --plot run_eval.png\n")
    proc = bsl("evaluate", str(tiny), "--data-dir", str(SHARED), "--tasks", "stsb", "--no-stsb-dev", "--no-cache",
               "--no-progress", "--plot", str(script))
    print(f"--plot run_eval.sh: {last_line(proc)}; script now starts {script.read_bytes()[:4]!r}")

    # 3. a planted link to another directory as a stale retired folder
    victim = root / "victim"
    victim.mkdir()
    for i in range(5):
        (victim / f"file{i}.txt").write_text("mine")
    (ds / ".data.old-4000000-deadbeef").symlink_to(victim)
    proc = bsl("augment", str(root / "corpus" / "corpus.txt"), "--out", str(ds), "--methods", "noise,span-mask",
               "-o", "corpus.chunk_size=8", "-o", f"registry_dir={root / 'registry'}", "-o", "seed=3")
    print(f".data.old-* -> victim, augment again: {last_line(proc)}; victim files left: "
          f"{len(list(victim.iterdir()))} of 5")
    (ds / ".data.old-4000000-deadbeef").unlink()

    # 4. the review server
    served = root / "served"
    augment(root, served)
    proc, url = serve(served)
    try:
        path = "/" + url.split("/", 3)[3] + "api/mark"
        for what, headers, body in (("Content-Length: -1 with a 1 MiB body", "Content-Length: -1", b"x" * (1 << 20)),
                                    ("Content-Length: abc", "Content-Length: abc", b""),
                                    ("a body nested 60,000 deep", "Content-Length: 60000", b"[" * 60000)):
            request = f"POST {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n\r\n".encode() + body
            print(f"{what}: {raw(url, request)}")
        card = served / "README.md"
        card.write_text(card.read_text().replace("\n# ", "\nLicence: CC BY 4.0 (added by hand).\n\n# ", 1))
        import urllib.request

        state = json.load(urllib.request.urlopen(url + "api/state"))
        reply = post(url, "api/mark", {"pair_id": state["item"]["pair_id"], "mark": "usable"})
        print(f"a mark on a hand-edited card: {reply[:3]}; licence line kept: "
              f"{'Licence: CC BY 4.0' in card.read_text()}")
        augment(root, served)  # augmented again under the running server
        card_before = card.read_bytes()
        state = json.load(urllib.request.urlopen(url + "api/state"))
        reply = post(url, "api/mark", {"pair_id": state["item"]["pair_id"], "mark": "usable"}) \
            if state["item"] else "no item"
        print(f"a mark after the dataset was augmented again: {reply[:100]}; card unchanged: "
              f"{card.read_bytes() == card_before}; verify: {last_line(bsl('verify', str(served), '-q'))}")
    finally:
        stop(proc)

    # 5. the token on the browser's command line
    seen = root / "argv.json"
    browser = root / "browser.py"
    browser.write_text(f"import json, sys; open({str(seen)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    proc, url = serve(ds, {"BROWSER": f"{sys.executable} {browser} %s"}, browser=True)
    for _ in range(600):
        if seen.exists() and seen.read_text():
            break
        time.sleep(0.05)
    stop(proc)
    token = url.split("/")[3]
    argv = json.loads(seen.read_text())
    print(f"browser command line holds the token: {any(token in a for a in argv)} ({argv[0][:60]})")

    # 6. annotations.judgments.path naming a shard, in an unsigned manifest
    shard_ds = root / "shard_ds"
    shutil.copytree(ds, shard_ds)
    data = json.loads((shard_ds / "manifest.json").read_text())
    shard = next(s for s in data["shards"] if s["kind"] == "pairs")["path"]
    data["annotations"]["judgments"]["path"] = shard
    data.pop("checksum")
    from bsl_pipeline.pipeline.dataset.manifest import write_manifest

    write_manifest(data, shard_ds / "manifest.json")
    before = (shard_ds / shard).read_bytes()
    print(f"annotations.judgments.path = a shard: verify: {last_line(bsl('verify', str(shard_ds), '-q'))}")
    proc, url = serve(shard_ds)
    state = json.load(urllib.request.urlopen(url + "api/state"))
    post(url, "api/mark", {"pair_id": state["item"]["pair_id"], "mark": "usable"})
    stop(proc)
    print(f"  after a mark in the review page, the shard's bytes changed: {(shard_ds / shard).read_bytes() != before}")

    # 7. corpus-manifest inside the corpus, and 8. a planted dataset_infos.json
    proc = bsl("corpus-manifest", ".", "--name", "x", cwd=root / "corpus")
    print(f"corpus-manifest . --name x inside the corpus: {last_line(proc)}; files in the corpus now: "
          f"{sorted(p.relative_to(root / 'corpus').as_posix() for p in (root / 'corpus').rglob('*') if p.is_file())}")
    (ds / "dataset_infos.json").write_text(json.dumps({"default": {"features": {"source": {"dtype": "int64",
                                                                                           "_type": "Value"}}}}))
    print(f"planted dataset_infos.json: {last_line(bsl('verify', str(ds), '-q'))}")
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
