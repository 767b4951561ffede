"""`bsl review`: judge a dataset's views in the browser, blind to the method; print the figures; export what the
marks teach.

The page is served on 127.0.0.1 only, on a free port, under a random token made for this run: every request whose
path does not start with `/<token>/` is refused with 403. Each mark is appended to the dataset's judgments file
(`pipeline.dataset.judgments`) before the page shows the next pair, so a closed tab or a stopped server loses at
most the mark being made, and two reviewers (two servers) at once lose nothing.
"""

from __future__ import annotations

import argparse
import getpass
import hmac
import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bsl_pipeline.cli.config_args import add_command
from bsl_pipeline.pipeline.base.errors import BSLError, InputError

MAX_BODY = 64 << 10
LOOPBACK = "127.0.0.1"


class ReviewSession:
    """One reviewer's run over a sample: which pair is next, marks and undo, each written to the judgments file."""

    def __init__(self, manifest, n: int, seed: int, reviewer: str, per_method: bool = False,
                 methods: list[str] | None = None):
        from bsl_pipeline.pipeline.dataset.judgments import judgments_path, live_marks, read_dataset_judgments
        from bsl_pipeline.pipeline.dataset.review_sample import review_sample

        self.manifest = manifest
        self.path = judgments_path(manifest)
        self.reviewer = reviewer
        self.lock = threading.Lock()
        judged = set(live_marks(read_dataset_judgments(manifest)))  # refuses another dataset's file by name
        self.items = review_sample(manifest, n, seed, judged, per_method, methods)
        self.by_id = {item.pair_id: item for item in self.items}
        self.restore: dict[str, Any] | None = None

    def _live(self) -> dict[str, list]:
        from bsl_pipeline.pipeline.dataset.judgments import live_marks, read_dataset_judgments

        return live_marks(read_dataset_judgments(self.manifest))

    def state(self, live: dict[str, list] | None = None, last=None) -> dict[str, Any]:
        """What the page shows: the first pair of the sample nobody has marked yet (re-read from the file, so a
        second reviewer's marks count), progress, and the last mark of this reviewer with its method revealed."""
        from bsl_pipeline.pipeline.dataset.inspection import word_diff

        live = self._live() if live is None else live
        done = sum(1 for item in self.items if item.pair_id in live)
        current = next((item for item in self.items if item.pair_id not in live), None)
        out: dict[str, Any] = {"reviewer": self.reviewer, "done": done, "total": len(self.items), "item": None,
                               "last": None, "restore": None}
        if current is not None:
            out["item"] = {**current.to_json(reveal=False), "diff": word_diff(current.source, current.view)}
            if self.restore and self.restore["pair_id"] == current.pair_id:
                out["restore"] = self.restore
        if last is None:
            mine = [j for marks in live.values() for j in marks if j.reviewer == self.reviewer and j.pair_id in
                    self.by_id]
            last = max(mine, key=lambda j: j.line, default=None)
        if last is not None:
            out["last"] = {"pair_id": last.pair_id, "mark": last.mark, "classes": list(last.classes),
                           "method": last.method}
        return out

    def mark(self, body: dict[str, Any]) -> dict[str, Any]:
        from bsl_pipeline.pipeline.dataset.judgments import UNDO, append_judgment, make_judgment

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
            append_judgment(self.path, judgment)
            self.restore = None
            self._update_card()
            return self.state(last=judgment)

    def undo(self) -> dict[str, Any]:
        """Take back this reviewer's latest live mark of the sample; the page shows that pair again, with the
        classes and note it had."""
        from bsl_pipeline.pipeline.dataset.judgments import UNDO, append_judgment, make_judgment

        with self.lock:
            live = self._live()
            mine = [j for marks in live.values() for j in marks if j.reviewer == self.reviewer and j.pair_id in
                    self.by_id]
            if not mine:
                raise InputError("nothing of yours to undo in this sample")
            latest = max(mine, key=lambda j: j.line)
            append_judgment(self.path, make_judgment(self.manifest, latest.pair_id, latest.method, UNDO,
                                                     reviewer=self.reviewer))
            self.restore = {"pair_id": latest.pair_id, "classes": list(latest.classes), "note": latest.note}
            self._update_card()
            return self.state()

    def _update_card(self) -> None:
        from bsl_pipeline.pipeline.dataset.card import write_dataset_card

        if self.manifest.source is not None and self.manifest.stats is not None:
            write_dataset_card(self.manifest.root, self.manifest)


def page_html(session: ReviewSession, token: str) -> str:
    import html

    from bsl_pipeline.cli.commands.review_page import PAGE
    from bsl_pipeline.pipeline.dataset.judgments import ERROR_CLASSES

    title = html.escape(f"Review {session.manifest.name}: does the view keep the meaning?")
    return (PAGE.replace("__TITLE__", title).replace("__API__", f"/{token}/")
            .replace("__KEYS__", json.dumps([list(k) for k in ERROR_CLASSES])))


def make_server(session: ReviewSession, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """The review server on 127.0.0.1 (a free port when 0) and the URL with this run's token."""
    token = secrets.token_urlsafe(24)
    prefix = f"/{token}/"

    class Handler(BaseHTTPRequestHandler):
        server_version = "bsl-review"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - no request log on the terminal
            pass

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
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

        def do_GET(self) -> None:
            route = self._route()
            if route is None:
                return
            if route == "":
                self._send(200, page_html(session, token).encode("utf-8"), "text/html; charset=utf-8")
            elif route == "api/state":
                self._answer(session.state)
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self) -> None:
            route = self._route()
            if route is None:
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._json(413, {"error": "request too large"})
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json(400, {"error": "not JSON"})
                return
            if not isinstance(body, dict):
                self._json(400, {"error": "not a JSON object"})
            elif route == "api/mark":
                self._answer(lambda: session.mark(body))
            elif route == "api/undo":
                self._answer(session.undo)
            else:
                self._json(404, {"error": "not found"})

        def _answer(self, produce) -> None:
            try:
                self._json(200, produce())
            except BSLError as exc:
                self._json(400, {"error": str(exc)})

        do_PUT = do_DELETE = do_PATCH = do_POST

    server = ThreadingHTTPServer((LOOPBACK, port), Handler)
    server.daemon_threads = True
    return server, f"http://{LOOPBACK}:{server.server_address[1]}{prefix}"


def cmd_review(args: argparse.Namespace) -> int:
    from bsl_pipeline.pipeline.base.text import terminal_safe
    from bsl_pipeline.pipeline.dataset.inspection import open_dataset

    manifest = open_dataset(args.dataset, verify=not args.no_verify)
    if args.n < 1:
        raise BSLError("--n must be at least 1")
    methods = [m.strip() for m in args.method.split(",")] if args.method else None
    for m in methods or []:
        if m not in manifest.stats.per_method:
            raise BSLError(f"method {m!r} is not in {args.dataset}; it has: {', '.join(manifest.stats.per_method)}")
    if args.summary:
        return _summary(manifest)
    if args.export_avoid:
        return _export_avoid(manifest, args.export_avoid, args.wordnet_dir)
    from bsl_pipeline.pipeline.base.storage import is_url

    if is_url(args.dataset):  # marks are appended next to the dataset, which an object store cannot do
        raise BSLError(f"{args.dataset}: marks are written beside a local dataset; --summary and --export-avoid "
                       f"read this one, to judge it copy it to a local directory first")
    session = ReviewSession(manifest, args.n, args.seed, args.reviewer or _reviewer(), args.per_method, methods)
    if not session.items:
        print(f"nothing to review: every pair of {args.dataset} is judged (or it has none); figures: "
              f"bsl review {args.dataset} --summary")
        return 0
    server, url = make_server(session, args.port)
    print(f"reviewing {len(session.items)} pairs of {terminal_safe(manifest.name)} as {session.reviewer}; marks go to "
          f"{session.path}\nopen {url}\n(Ctrl-C stops; every mark is already saved)", flush=True)
    if not args.no_browser:
        import webbrowser

        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print()
    return _summary(manifest)


def _reviewer() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "reviewer"


def _summary(manifest) -> int:
    from bsl_pipeline.pipeline.base.text import terminal_safe
    from bsl_pipeline.pipeline.dataset.judgments import dataset_figures, format_figures_text, judgments_path

    figures = dataset_figures(manifest)
    if figures is None:
        print(f"no judged pairs in {judgments_path(manifest)}; judge some with `bsl review {manifest.root}`")
        return 0
    print(f"{terminal_safe(manifest.name)}: judged views (usable share with its 95% Wilson interval)")
    print(format_figures_text(figures))
    return 0


def _export_avoid(manifest, path: str, wordnet_dir: str | None) -> int:
    from bsl_pipeline.pipeline.augment.avoid_export import export_avoid_file, require_synonyms

    require_synonyms(manifest)
    added, total = export_avoid_file(manifest, Path(path), wordnet_dir)
    print(f"wrote {path}: {added} new substitution(s) to avoid, {total} in all; use it with "
          f"-o method_params.synonyms.words.avoid_file={path}")
    return 0


def register(sub) -> None:
    p = add_command(sub, "review", cmd_review, "judge view pairs in the browser (blind to the method); print the "
                    "usable share per method; export the substitutions judged wrong", """\
Verify the dataset, then serve a review page on 127.0.0.1 (a free port, a random token in the URL): one pair at a
time from a seeded sample stratified per method, leaving out pairs already judged; the source with the sentences
around it and the view with its changes marked; the method shown only once the pair is marked. Keys: u/1 usable,
n/0 not usable, s skip, z undo, one key per error class (shown on the page), t to write a note. Each mark is
appended to judgments.jsonl in the dataset directory (one line a mark, fsynced); the dataset card shows the figures.
--summary prints the figures; --export-avoid writes the synonyms method's substitutions judged wrong as an avoid
file (method_params.synonyms.words.avoid_file).
""")
    p.add_argument("dataset", help="dataset directory or manifest JSON")
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
                   "usable (and never usable) to FILE, appending to an avoid file already there")
    p.add_argument("--wordnet-dir", help="with --export-avoid: WordNet database dir (default: the one the dataset's "
                   "synonyms settings name, else where bsl finds it)")
    p.add_argument("--no-verify", action="store_true", help="skip `bsl verify` first (says loudly that it did)")
