"""A real S3-compatible server for tests: moto's server mode (`moto_server`, from the `moto[server]` test extra) as a
separate process on 127.0.0.1 and a free port. The `s3_server` fixture (tests/conftest.py) starts one per test
session; tests make their own bucket in it (`S3Server.bucket`) and reach it with `endpoint_url` or the environment
(`S3Server.env`)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

#: Credentials the server accepts (moto takes any); tests plant them to check none is ever shown.
ACCESS_KEY = "AKIABSLTESTACCESSKEY1"
SECRET_KEY = "bsl-planted-secret-Zq9Xv7Lm3Kp2Wt8Ys"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class S3Server:
    endpoint_url: str
    process: subprocess.Popen

    @property
    def env(self) -> dict[str, str]:
        """Environment variables that point the AWS clients at this server with the planted credentials."""
        return {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
                "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": self.endpoint_url}

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint_url, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY, region_name="us-east-1")

    def bucket(self, prefix: str = "bsl") -> str:
        """A new, empty bucket."""
        name = f"{prefix}-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_s3_server(log_dir: Path, timeout_s: float = 60) -> S3Server:
    """`moto_server -H 127.0.0.1 -p PORT` in its own session; returns once it answers."""
    import urllib.error
    import urllib.request

    port = free_port()
    exe = shutil.which("moto_server", path=str(Path(sys.executable).parent)) or shutil.which("moto_server")
    args = [exe, "-H", "127.0.0.1", "-p", str(port)] if exe else [
        sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    log = open(Path(log_dir) / "moto_server.log", "wb")  # noqa: SIM115 - the server writes it while it runs
    process = subprocess.Popen(args, stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"moto_server exited with {process.returncode}; see {log.name}")
        try:
            urllib.request.urlopen(url + "/", timeout=2).read()  # noqa: S310 - our own local server
            return S3Server(url, process)
        except urllib.error.HTTPError:  # it answers (refusing an unsigned request when it enforces IAM)
            return S3Server(url, process)
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"moto_server did not answer on {url} within {timeout_s} s")
