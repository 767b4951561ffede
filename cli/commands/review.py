"""`bsl review`: judge a dataset's views in the browser, blind to the method; print the figures; export what the
marks teach.

The page is served on 127.0.0.1 only, on a free port, under a random token made for this run: every request whose
path does not start with `/<token>/` is refused with 403. Each mark is appended to the dataset's judgments file
(`pipeline.dataset.judgments`) before the page shows the next pair, so a closed tab or a stopped server loses at
most the mark being made, and two reviewers (two servers) at once lose nothing. A dataset on an object store
(`s3://...`, read through its local copy) gets its marks in `<URL>/judgments.jsonl`, each written under the
dataset's writer lease (`pipeline.dataset.remote.judging_lease`): a lease `bsl augment` holds is a 409.

The server fails safe: a request body is read only up to MAX_BODY bytes whatever its `Content-Length` says (absent,
negative, not a number, huge) or when it comes in chunks; every error is a JSON `{"error": ...}` with its status,
never a traceback or an empty reply. The token never goes on a command line: the browser is started on a private
file (mode 0600, in a folder only this user can enter) that forwards to the page. After each mark only the card's
judged-views block is rewritten (`pipeline.dataset.card.patch_judged_views`); a dataset whose manifest changed
since the review started (augmented again) gets no more marks and no card update.
"""

from __future__ import annotations

import argparse
import getpass
import hmac
import json
import logging
import os
import secrets
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bsl_pipeline.cli.config_args import add_command
from bsl_pipeline.pipeline.base.errors import BSLError, InputError

MAX_BODY = 64 << 10
READ_TIMEOUT_S = 30.0  # a connection that sends nothing for this long is closed (it would hold a thread)
LOOPBACK = "127.0.0.1"
log = logging.getLogger(__name__)


class RequestError(Exception):
    """A request the server answers with `status` and a JSON error."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ReviewSession:
    """One reviewer's run over a sample: which pair is next, marks and undo, each written to the judgments file."""

    def __init__(self, manifest, n: int, seed: int, reviewer: str, per_method: bool = False,
                 methods: list[str] | None = None):
        from bsl_pipeline.pipeline.base.storage import copied_from, join, redact
        from bsl_pipeline.pipeline.dataset.judgments import JUDGMENTS_NAME, PairMethods, judgments_path
        from bsl_pipeline.pipeline.dataset.review_sample import review_sample

        self.manifest = manifest
        self.path = judgments_path(manifest)
        # A dataset read through its local copy of an object store: marks go to the store, under its lease.
        self.remote = copied_from(manifest.root)
        self.shown_root = redact(self.remote) if self.remote else str(manifest.root)
        self.where = redact(join(self.remote, JUDGMENTS_NAME)) if self.remote else str(self.path)
        self.reviewer = reviewer
        self.lock = threading.Lock()
        self.reading = threading.Lock()  # one refresh of the local copy's judgments file at a time
        self.pairs = PairMethods(manifest)  # which pair ids are the dataset's, read once
        judged = set(self._live())  # refuses another dataset's file by name
        self.items = review_sample(manifest, n, seed, judged, per_method, methods)
        self.by_id = {item.pair_id: item for item in self.items}
        self.pairs.remember({item.pair_id: item.method for item in self.items})
        self.restore: dict[str, Any] | None = None
        self.changed: str | None = None  # why this server no longer writes (its dataset changed), once it has
        self.card_warned = False  # said once that the card has no judged-views block to update

    def _live(self) -> dict[str, list]:
        """The live marks that count (`check_judgments`: of this dataset's pairs and methods, signed under a key)."""
        from bsl_pipeline.pipeline.dataset.judgments import dataset_judgments, live_marks

        if self.remote:
            from bsl_pipeline.pipeline.dataset.remote import refresh_judgments

            with self.reading:
                refresh_judgments(self.remote)
        return live_marks(dataset_judgments(self.manifest, self.pairs).valid)

    def state(self, live: dict[str, list] | None = None, last=None) -> dict[str, Any]:
        """What the page shows: the first pair of the sample nobody has marked yet (re-read from the file, so a
        second reviewer's marks count), progress, and the last mark of this reviewer with its method revealed."""
        from bsl_pipeline.pipeline.dataset.inspection import word_diff

        from bsl_pipeline.pipeline.dataset.judgments import NOT_USABLE, SKIP

        live = self._live() if live is None else live
        marked = [item.pair_id for item in self.items if item.pair_id in live]
        # Judged: marked usable or not usable by someone; a pair only skipped is not counted (nor shown again).
        skipped = sum(1 for pair_id in marked if all(j.mark == SKIP for j in live[pair_id]))
        current = next((item for item in self.items if item.pair_id not in live), None)
        out: dict[str, Any] = {"reviewer": self.reviewer, "done": len(marked) - skipped, "skipped": skipped,
                               "total": len(self.items), "item": None, "last": None, "restore": None}
        if current is not None:
            out["item"] = {**current.to_json(reveal=False), "diff": word_diff(current.source, current.view)}
            if self.restore and self.restore["pair_id"] == current.pair_id:
                out["restore"] = self.restore
        if last is None:
            mine = [j for marks in live.values() for j in marks if j.reviewer == self.reviewer and j.pair_id in
                    self.by_id]
            last = max(mine, key=lambda j: j.line, default=None)
        if last is not None:
            out["last"] = {"pair_id": last.pair_id, "mark": last.mark, "method": last.method,
                           "classes": list(last.classes) if last.mark == NOT_USABLE else []}
        return out

    def mark(self, body: dict[str, Any]) -> dict[str, Any]:
        from bsl_pipeline.pipeline.dataset.judgments import UNDO, make_judgment

        item = self.by_id.get(str(body.get("pair_id")))
        if item is None:
            raise InputError(f"pair {body.get('pair_id')!r} is not in this review's sample")
        if body.get("mark") == UNDO:
            raise InputError("undo has its own request")
        classes = body.get("classes") or []
        if not isinstance(classes, list):
            raise InputError("classes must be a list")
        judgment = make_judgment(self.manifest, item.pair_id, item.method, str(body.get("mark")), classes,
                                 body.get("note") or "", self.reviewer)
        with self.lock:
            self._write(judgment)
            self.restore = None
            return self.state(last=judgment)

    def undo(self) -> dict[str, Any]:
        """Take back this reviewer's latest live mark of the sample; the page shows that pair again, with the
        note it had and, from a not-usable mark, its classes."""
        from bsl_pipeline.pipeline.dataset.judgments import NOT_USABLE, UNDO, make_judgment

        with self.lock:
            self._require_unchanged()
            live = self._live()
            mine = [j for marks in live.values() for j in marks if j.reviewer == self.reviewer and j.pair_id in
                    self.by_id]
            if not mine:
                raise InputError("nothing of yours to undo in this sample")
            latest = max(mine, key=lambda j: j.line)
            self._write(make_judgment(self.manifest, latest.pair_id, latest.method, UNDO, reviewer=self.reviewer))
            self.restore = {"pair_id": latest.pair_id, "note": latest.note,
                            "classes": list(latest.classes) if latest.mark == NOT_USABLE else []}
            return self.state()

    def _write(self, judgment) -> None:
        """Append one mark (the dataset unchanged), then update the card. On disk: one O_APPEND write under a
        lock; on an object store: under the dataset's writer lease for this mark (`pipeline.dataset.remote`), a
        lease another writer holds being a 409 naming it."""
        from bsl_pipeline.pipeline.dataset.judgments import append_judgment, judgment_line

        if not self.remote:
            self._require_unchanged()
            append_judgment(self.path, judgment)
            self._update_card()
            return
        from bsl_pipeline.pipeline.base.ownership import LockedError
        from bsl_pipeline.pipeline.dataset.remote import append_judgment_remote, judging_lease

        try:
            with judging_lease(self.remote):
                self._require_unchanged()
                append_judgment_remote(self.remote, judgment_line(judgment))
                self._update_card()
        except LockedError as exc:
            raise RequestError(409, f"{exc}; the mark is not saved: make it again later") from None

    def _require_unchanged(self) -> None:
        """Refuse (409) every write once the dataset's manifest is no longer the one this review started on: the
        dataset was augmented again, and its card and pairs are not the ones this page shows."""
        from bsl_pipeline.pipeline.dataset.remote import stored_manifest_checksum
        from bsl_pipeline.pipeline.dataset.store import load_manifest

        if self.changed is None:
            if self.remote:
                now = stored_manifest_checksum(self.remote) or "no manifest"
            else:
                try:
                    now = load_manifest(self.manifest.root).checksum
                except BSLError as exc:
                    now = f"unreadable ({exc})"
            if now != self.manifest.checksum:
                self.changed = (f"{self.shown_root} changed since this review started (augmented again?): nothing "
                                f"more is written; restart `bsl review` to judge its new pairs")
        if self.changed is not None:
            raise RequestError(409, self.changed)

    def _update_card(self) -> None:
        """Rewrite the card's judged-views block only; a card without it (edited by hand) is left as it is."""
        from bsl_pipeline.pipeline.dataset.card import patch_judged_views
        from bsl_pipeline.pipeline.dataset.remote import patch_card_remote

        if self.manifest.source is not None and self.manifest.stats is not None:
            patched = (patch_card_remote(self.remote, self.manifest, self.pairs) if self.remote
                       else patch_judged_views(self.manifest.root, self.manifest, self.pairs))
            if not patched and not self.card_warned:
                self.card_warned = True
                log.warning("warning: %s/README.md has no judged-views block bsl wrote; the card is left as it is "
                            "(`bsl review --summary` prints the figures)", self.shown_root)


def page_html(session: ReviewSession, token: str) -> str:
    import html

    from bsl_pipeline.cli.commands.review_page import PAGE
    from bsl_pipeline.pipeline.dataset.judgments import ERROR_CLASSES

    title = html.escape(f"Review {session.manifest.name}: does the view keep the meaning?")
    return (PAGE.replace("__TITLE__", title).replace("__API__", f"/{token}/")
            .replace("__KEYS__", json.dumps([list(k) for k in ERROR_CLASSES])))


def read_body(headers, rfile, limit: int = MAX_BODY) -> bytes:
    """The request body, at most `limit` bytes: by `Content-Length` (digits only), or chunked. Raises RequestError
    (400 malformed, 411 no length, 413 too large) before reading more than `limit` bytes."""
    if "chunked" in (headers.get("Transfer-Encoding") or "").lower():
        body = bytearray()
        while True:
            size_line = rfile.readline(66)
            try:
                size = int(size_line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise RequestError(400, "malformed chunked body") from None
            if size < 0:
                raise RequestError(400, "malformed chunked body")
            if size == 0:
                while rfile.readline(1026).strip():  # trailers, up to the blank line
                    pass
                return bytes(body)
            if len(body) + size > limit:
                raise RequestError(413, f"request too large (over {limit} bytes)")
            body += rfile.read(size)
            rfile.readline(3)  # the CRLF after the chunk
    lengths = headers.get_all("Content-Length") or []
    if not lengths:
        raise RequestError(411, "a Content-Length is required")
    if len(set(lengths)) != 1 or not lengths[0].strip().isdigit():
        raise RequestError(400, f"malformed Content-Length {lengths[0][:40]!r}")
    length = int(lengths[0].strip())
    if length > limit:
        raise RequestError(413, f"request too large ({length} > {limit} bytes)")
    return rfile.read(length)


def make_server(session: ReviewSession, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """The review server on 127.0.0.1 (a free port when 0) and the URL with this run's token."""
    token = secrets.token_urlsafe(24)
    prefix = f"/{token}/"

    class Handler(BaseHTTPRequestHandler):
        server_version = "bsl-review"
        timeout = READ_TIMEOUT_S  # the socket's timeout on each read of a request
        sys_version = ""
        error_content_type = "application/json"
        error_message_format = '{"error": "%(message)s", "status": %(code)d}'

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - no request log on the terminal
            pass

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            """Errors http.server raises itself (a bad request line, an unknown method) as JSON too."""
            self.close_connection = True
            try:
                self._json(code, {"error": message or self.responses.get(code, ("error",))[0]})
            except OSError:
                pass

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json")

        def _route(self) -> str | None:
            """The path after the token, or None (403 sent) when the token is missing or wrong."""
            path = self.path.split("?", 1)[0]
            if not hmac.compare_digest(path[:len(prefix)].encode(), prefix.encode()):
                self._send(403, b"forbidden: this review's URL carries its token\n", "text/plain; charset=utf-8")
                return None
            return path[len(prefix):]

        def _safely(self, handle) -> None:
            """Run a request; any failure is a JSON error with a status (the connection is closed after one)."""
            try:
                handle()
            except RequestError as exc:
                self.close_connection = True
                self._json(exc.status, {"error": str(exc)})
            except BSLError as exc:
                self._json(400, {"error": str(exc)})
            except (ConnectionError, TimeoutError):
                self.close_connection = True
            except Exception as exc:  # noqa: BLE001 - the page gets an answer, the terminal one line
                self.close_connection = True
                log.warning("warning: review server: %s: %s", type(exc).__name__, exc)
                self._json(500, {"error": f"{type(exc).__name__}: {exc}"})

        def do_GET(self) -> None:
            self._safely(self._get)

        def do_POST(self) -> None:
            self._safely(self._post)

        def _get(self) -> None:
            route = self._route()
            if route is None:
                return
            if route == "":
                self._send(200, page_html(session, token).encode("utf-8"), "text/html; charset=utf-8")
            elif route == "api/state":
                self._json(200, session.state())
            else:
                self._json(404, {"error": "not found"})

        def _post(self) -> None:
            route = self._route()
            if route is None:
                self.close_connection = True  # its body is never read
                return
            try:
                body = json.loads(read_body(self.headers, self.rfile) or b"{}")
            except (ValueError, RecursionError):  # RecursionError: nested too deep
                raise RequestError(400, "not JSON") from None
            if not isinstance(body, dict):
                raise RequestError(400, "not a JSON object")
            if route == "api/mark":
                self._json(200, session.mark(body))
            elif route == "api/undo":
                self._json(200, session.undo())
            else:
                self._json(404, {"error": "not found"})

        do_PUT = do_DELETE = do_PATCH = do_POST

    if not 0 <= port <= 65535:
        raise BSLError(f"--port must be 0 (a free port) or 1-65535, got {port}")
    try:
        server = ThreadingHTTPServer((LOOPBACK, port), Handler)
    except OSError as exc:
        raise BSLError(f"cannot serve the review on {LOOPBACK}:{port} ({exc.strerror or exc}); choose another --port, "
                       f"or leave it out for a free one") from None
    server.daemon_threads = True
    return server, f"http://{LOOPBACK}:{server.server_address[1]}{prefix}"


def browser_file(url: str) -> Path:
    """A file that forwards a browser to `url`, readable only by this user (mode 0600 in a new 0700 folder): the
    browser is started on its path, so the token is never on a command line other users can read (`ps`)."""
    import html

    folder = Path(tempfile.mkdtemp(prefix="bsl-review-"))
    path = folder / "open.html"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(f'<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
                 f'<meta http-equiv="refresh" content="0; url={html.escape(url)}">'
                 f'<a href="{html.escape(url)}">open the review</a>\n')
    return path


def cmd_review(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.base.ownership import local_only
    from bsl_pipeline.pipeline.base.text import terminal_safe
    from bsl_pipeline.pipeline.dataset.inspection import open_dataset

    if args.export_avoid:
        local_only(args.export_avoid, "--export-avoid")  # before the dataset is read
    # Marks that do not count are only a warning here: the figures leave them out and say how many and why.
    manifest = open_dataset(args.dataset, verify=not args.no_verify, allow_dropped_marks=True)
    if args.n < 1:
        raise BSLError("--n must be at least 1")
    methods = [m.strip() for m in args.method.split(",")] if args.method else None
    for m in methods or []:
        if m not in manifest.stats.per_method:
            raise BSLError(f"method {m!r} is not in {args.dataset}; it has: {', '.join(manifest.stats.per_method)}")
    if args.summary:
        return _summary(manifest)
    if args.export_avoid:
        return _export_avoid(manifest, args.export_avoid, args.wordnet_dir, args.overwrite)
    session = ReviewSession(manifest, args.n, args.seed, args.reviewer or _reviewer(), args.per_method, methods)
    if not session.items:
        print(f"nothing to review: every pair of {args.dataset} is judged (or it has none); figures: "
              f"bsl review {args.dataset} --summary")
        return 0
    server, url = make_server(session, args.port)
    print(f"reviewing {len(session.items)} pairs of {terminal_safe(manifest.name)} as {session.reviewer}; marks go to "
          f"{session.where}\nopen {url}\n(Ctrl-C stops; every mark is already saved)", flush=True)
    opener = None
    if not args.no_browser:
        import webbrowser

        opener = browser_file(url)
        threading.Thread(target=webbrowser.open, args=(opener.as_uri(),), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if opener is not None:
            opener.unlink(missing_ok=True)
            opener.parent.rmdir()
    print()
    return _summary(manifest)


def _reviewer() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "reviewer"


def _summary(manifest) -> int:
    from bsl_pipeline.pipeline.base.text import terminal_safe
    from bsl_pipeline.pipeline.base.storage import shown
    from bsl_pipeline.pipeline.dataset.judgments import dataset_figures, format_figures_text, judgments_path

    figures = dataset_figures(manifest)
    if figures is None:
        print(shown(f"no judged pairs in {judgments_path(manifest)}; judge some with `bsl review {manifest.root}`"))
        return 0
    print(f"{terminal_safe(manifest.name)}: judged views (usable share with its 95% Wilson interval)")
    print(format_figures_text(figures))
    return 0


def _export_avoid(manifest, path: str, wordnet_dir: str | None, overwrite: bool) -> int:
    from bsl_pipeline.pipeline.augment.avoid_export import export_avoid_file, require_synonyms

    require_synonyms(manifest)
    added, total = export_avoid_file(manifest, Path(path), wordnet_dir, overwrite)
    print(f"wrote {path}: {added} new substitution(s) to avoid, {total} in all; use it with "
          f"-o method_params.synonyms.words.avoid_file={path}")
    return 0


def register(sub) -> None:
    p = add_command(sub, "review", cmd_review, "judge view pairs in the browser (blind to the method); print the "
                    "usable share per method; export the substitutions judged wrong", """\
Verify the dataset as `bsl verify` does (judgment lines that do not count are only a warning: the figures leave them
out and say how many), then serve a review page on 127.0.0.1 (a free port, a random token in the URL): one pair at a
time from a seeded sample stratified per method, leaving out pairs already judged; the source with the sentences
around it and the view with its changes marked; the method shown only once the pair is marked. Keys: u/1 usable,
n/0 not usable, s skip, z undo, one key per error class (shown on the page), t to write a note. Each mark is
appended to judgments.jsonl in the dataset directory (one line a mark, fsynced; on an object store, written under
the dataset's writer lease); the dataset card shows the figures.
--summary prints the figures; --export-avoid writes the synonyms method's substitutions judged wrong as an avoid
file (method_params.synonyms.words.avoid_file).
""")
    p.add_argument("dataset", help="dataset directory, its URL (s3://...) or manifest JSON")
    p.add_argument("--n", "-n", type=int, default=100, help="pairs in the sample, split evenly over the methods "
                   "(default %(default)s)")
    p.add_argument("--per-method", action="store_true", help="--n pairs of each method instead")
    p.add_argument("--seed", type=int, default=0, help="sample seed (default %(default)s)")
    p.add_argument("--method", help="only these methods (comma-separated)")
    p.add_argument("--reviewer", help="name written with each mark (default: the login name)")
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="print the URL only, open no browser")
    p.add_argument("--summary", action="store_true", help="print the judged figures per method and exit")
    p.add_argument("--export-avoid", metavar="FILE", help="write the substitutions of synonyms pairs judged not "
                   "usable (and never usable) to FILE, appending to an avoid file bsl wrote there")
    p.add_argument("--overwrite", action="store_true", help="with --export-avoid: replace a FILE bsl did not write "
                   "(it is moved to .bsl-replaced/<time>/ beside it, never deleted; an avoid file's entries are kept; "
                   "never the dataset's or the corpus's files)")
    p.add_argument("--wordnet-dir", help="with --export-avoid: WordNet database dir (default: the one the dataset's "
                   "synonyms settings name, else where bsl finds it)")
    p.add_argument("--no-verify", action="store_true", help="skip `bsl verify` first (says loudly that it did)")
