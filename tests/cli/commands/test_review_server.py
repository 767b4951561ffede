"""The review server fails safe: a body limit that holds for any Content-Length and for chunked bodies, a JSON
error with a status for every bad request, the token never on a command line, the card's judged-views block the
only part a mark rewrites, and no more writes once its dataset changed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bsl_pipeline.cli.commands.review import ReviewSession, make_server
from bsl_pipeline.pipeline.augment.job import run_augment
from bsl_pipeline.pipeline.dataset.inspection import open_dataset
from bsl_pipeline.pipeline.dataset.judgments import judgments_path, read_dataset_judgments
from bsl_pipeline.pipeline.dataset.store import verify_dataset
from small_corpus import augment_config, write_corpus


@pytest.fixture
def corpus(tmp_path) -> Path:
    return write_corpus(tmp_path)


@pytest.fixture
def ds(tmp_path, corpus) -> Path:
    out = tmp_path / "ds"
    run_augment(corpus, out, augment_config(tmp_path))
    return out


@pytest.fixture
def served(ds):
    """(session, host, port, token path prefix) of a running review server over 4 pairs."""
    session = ReviewSession(open_dataset(ds), 4, 0, "ann")
    server, url = make_server(session)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address
    yield session, host, port, "/" + url.split("/", 3)[3]
    server.shutdown()
    server.server_close()


def _raw(host: str, port: int, request: bytes) -> tuple[int, dict]:
    """Send raw bytes (then end the write side), return (status, JSON body) of the reply."""
    with socket.create_connection((host, port), timeout=30) as sock:
        try:
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered and closed before reading everything: what it sent is still there
        reply = b""
        try:
            while chunk := sock.recv(65536):
                reply += chunk
        except ConnectionResetError:
            pass  # closed with unread bytes: the reply came first
    assert reply, "empty reply"
    head, _, body = reply.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)


def _post(prefix: str, headers: str, body: bytes, route: str = "api/mark") -> bytes:
    return f"POST {prefix}{route} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode() + body


@pytest.mark.parametrize("length, status, says", [("-1", 400, "Content-Length"), ("abc", 400, "Content-Length"),
                                                  ("+5", 400, "Content-Length"),
                                                  (str(10 ** 30), 413, "too large"), (None, 411, "Content-Length")])
def test_any_content_length_is_bounded_and_answered_in_json(served, length, status, says):
    session, host, port, prefix = served
    body = b'{"pair_id": "x", "mark": "usable"}' + b" " * (1 << 20)
    headers = f"Content-Length: {length}\r\n" if length is not None else ""
    got, reply = _raw(host, port, _post(prefix, headers, body))
    assert (got, says in reply["error"]) == (status, True), reply
    assert not judgments_path(session.manifest).exists()


def _chunked(data: bytes, size: int = 4096) -> bytes:
    out = b""
    for i in range(0, len(data), size):
        part = data[i:i + size]
        out += f"{len(part):x}\r\n".encode() + part + b"\r\n"
    return out + b"0\r\n\r\n"


def test_chunked_bodies_are_read_and_bounded(served):
    session, host, port, prefix = served
    item = session.items[0]
    mark = json.dumps({"pair_id": item.pair_id, "mark": "usable"}).encode()
    status, reply = _raw(host, port, _post(prefix, "Transfer-Encoding: chunked\r\n", _chunked(mark)))
    assert status == 200 and reply["last"]["pair_id"] == item.pair_id
    assert [j.pair_id for j in read_dataset_judgments(session.manifest)] == [item.pair_id]
    huge = b'{"note": "' + b"x" * (1 << 20) + b'"}'
    status, reply = _raw(host, port, _post(prefix, "Transfer-Encoding: chunked\r\n", _chunked(huge)))
    assert status == 413 and "too large" in reply["error"]
    assert len(read_dataset_judgments(session.manifest)) == 1


def test_every_bad_request_is_a_json_error_with_a_status(served):
    session, host, port, prefix = served
    deep = b"[" * 60_000
    cases = [
        (_post(prefix, f"Content-Length: {len(deep)}\r\n", deep), 400, "not JSON"),
        (_post(prefix, "Content-Length: 2\r\n", b"[]"), 400, "not a JSON object"),
        (_post(prefix, "Content-Length: 14\r\n", b'{"pair_id": 1}'), 400, "not in this review's sample"),
        (f"OPTIONS {prefix}api/mark HTTP/1.1\r\nHost: x\r\n\r\n".encode(), 501, ""),
        (f"HEAD {prefix} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), 501, ""),
        (b"GET /a b HTTP/1.1\r\n\r\n", 400, "Bad request syntax"),
        (f"GET {prefix}api/nothing HTTP/1.1\r\nHost: x\r\n\r\n".encode(), 404, "not found"),
    ]
    for request, status, says in cases:
        got, reply = _raw(host, port, request) if not request.startswith(b"HEAD") else _head(host, port, request)
        assert got == status and says in reply.get("error", ""), (request[:60], got, reply)
    assert not judgments_path(session.manifest).exists()


def _head(host: str, port: int, request: bytes) -> tuple[int, dict]:
    """A HEAD reply has headers only: its status, and that it says JSON."""
    with socket.create_connection((host, port), timeout=30) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head = reply.split(b"\r\n\r\n")[0]
    assert b"Content-Type: application/json" in head, head
    return int(head.split(b" ", 2)[1]), {"error": ""}


def test_a_mark_patches_only_the_judged_views_block_of_the_card(served, ds):
    session, host, port, prefix = served
    card = ds / "README.md"
    edited = card.read_text().replace("# ds\n", "# ds\n\nLicence: CC BY 4.0. Collected by me.\n")
    edited += "\nMy own closing notes.\n"
    card.write_text(edited)
    item = session.items[0]
    body = json.dumps({"pair_id": item.pair_id, "mark": "not_usable", "classes": ["grammar"]}).encode()
    status, _ = _raw(host, port, _post(prefix, f"Content-Length: {len(body)}\r\n", body))
    assert status == 200
    text = card.read_text()
    assert "Licence: CC BY 4.0. Collected by me." in text and text.endswith("My own closing notes.\n")
    assert "## Judged views" in text and "grammar 1" in text
    verify_dataset(ds)  # the front matter is untouched


def test_a_server_whose_dataset_was_augmented_again_stops_writing(served, ds, corpus, tmp_path):
    session, host, port, prefix = served
    run_augment(corpus, ds, augment_config(tmp_path, seed=7))  # the dataset is rebuilt under the server
    card = (ds / "README.md").read_bytes()
    item = session.items[0]
    body = json.dumps({"pair_id": item.pair_id, "mark": "usable"}).encode()
    status, reply = _raw(host, port, _post(prefix, f"Content-Length: {len(body)}\r\n", body))
    assert status == 409 and "changed since this review started" in reply["error"]
    status, _ = _raw(host, port, _post(prefix, "Content-Length: 2\r\n", b"{}", "api/undo"))
    assert status == 409
    assert (ds / "README.md").read_bytes() == card and not judgments_path(session.manifest).exists()
    verify_dataset(ds)


def test_the_token_is_never_on_the_browsers_command_line(ds, tmp_path):
    seen = tmp_path / "browser.json"
    browser = tmp_path / "browser.py"
    browser.write_text(f"""import json, sys
from pathlib import Path
arg = sys.argv[1]
page = Path(arg[len("file://"):]) if arg.startswith("file://") else None
info = {{"argv": sys.argv[1:], "mode": oct(page.stat().st_mode & 0o777) if page else None,
        "dir_mode": oct(page.parent.stat().st_mode & 0o777) if page else None,
        "text": page.read_text() if page else ""}}
Path({str(seen)!r}).write_text(json.dumps(info))
""")
    browser.chmod(0o755)
    env = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s", "BSL_NO_PROGRESS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "bsl_pipeline.cli", "review", str(ds), "-n", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = ""
        for line in proc.stdout:
            if line.startswith("open "):
                url = line.split()[1]
                break
        assert url.startswith("http://127.0.0.1:")
        for _ in range(600):  # the browser runs in a thread of the server: wait for what it saw
            if seen.exists() and seen.read_text():
                break
            time.sleep(0.05)
        info = json.loads(seen.read_text())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    token = url.split("/")[3]
    assert all(token not in a for a in info["argv"]), info["argv"]
    assert info["mode"] == "0o600" and info["dir_mode"] == "0o700"
    assert url in info["text"]
    assert not Path(info["argv"][0][len("file://"):]).exists()  # removed when the server stopped


@pytest.mark.browser
def test_the_forwarding_file_opens_the_review_page_in_chromium(served, tmp_path):
    """The file `bsl review` hands the browser forwards it to the review page (Chromium through Playwright, which
    waits for the page's text rather than a fixed time budget)."""
    from bsl_pipeline.cli.commands.review import browser_file

    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing (CI)")
        pytest.skip("no chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    session, host, port, prefix = served
    opener = browser_file(f"http://{host}:{port}{prefix}")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium), args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page()
            page.goto(opener.as_uri())
            page.wait_for_url(f"http://{host}:{port}{prefix}*", timeout=60_000)
            page.get_by_text("does the view keep the meaning?").first.wait_for(timeout=60_000)
            assert page.url.startswith(f"http://{host}:{port}{prefix}")
        finally:
            browser.close()


def test_a_port_out_of_range_or_in_use_is_one_line(ds):
    from one_line import one_line_error

    def review(port: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bsl_pipeline.cli", "review", str(ds), "--no-browser", "--port",
                               port], capture_output=True, text=True, check=False, timeout=120,
                              env={**os.environ, "BSL_NO_PROGRESS": "1"})

    one_line_error(review("99999"), "--port must be 0 (a free port) or 1-65535, got 99999")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_line_error(review(str(port)), f"cannot serve the review on 127.0.0.1:{port}", "choose another --port")


def test_a_card_without_the_judged_views_block_is_left_alone_and_said_once(ds, caplog):
    import logging

    card = ds / "README.md"
    text = card.read_text()
    begin, end = text.index("<!-- bsl review: judged views"), text.index("<!-- end of judged views -->")
    card.write_text(text[:begin] + "My own section instead.\n" + text[end + len("<!-- end of judged views -->"):])
    edited = card.read_bytes()
    session = ReviewSession(open_dataset(ds), 4, 0, "ann")
    with caplog.at_level(logging.WARNING):
        for item in session.items[:3]:
            session.mark({"pair_id": item.pair_id, "mark": "usable"})
    assert card.read_bytes() == edited and len(read_dataset_judgments(session.manifest)) == 3
    assert caplog.text.count("no judged-views block") == 1
