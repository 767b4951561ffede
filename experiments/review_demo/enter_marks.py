"""Enter a blind judge's marks through `bsl review` itself: start the review server on a dataset, open its page in
headless Chromium and press, for each pair the page shows, the keys of that pair's judgment (u or n, then the error
classes' keys and a note), as a reviewer would.

    python experiments/review_demo/enter_marks.py DATASET JUDGED.tsv KEY.tsv [--n 100 --seed 0 --reviewer judge]

JUDGED.tsv: the judge's file (n, source, view, meaning_kept, fluent, errors, note); KEY.tsv maps n to the pair id
(written when the sample was drawn with the same --n and --seed).
"""

from __future__ import annotations

import argparse
import csv
import threading

from playwright.sync_api import sync_playwright

from bsl_pipeline.cli.commands.review import ReviewSession, make_server
from bsl_pipeline.pipeline.dataset.judgments import ERROR_CLASSES
from bsl_pipeline.pipeline.dataset.store import load_manifest

KEY_OF_CLASS = {name: key for name, key, _ in ERROR_CLASSES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("judged")
    parser.add_argument("key")
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reviewer", default="judge")
    args = parser.parse_args()
    with open(args.key, newline="", encoding="utf-8") as fh:
        pair_of = {r["n"]: r["pair_id"] for r in csv.DictReader(fh, delimiter="\t")}
    with open(args.judged, newline="", encoding="utf-8") as fh:
        marks = {pair_of[r["n"]]: r for r in csv.DictReader(fh, delimiter="\t")}
    session = ReviewSession(load_manifest(args.dataset), args.n, args.seed, args.reviewer)
    server, url = make_server(session)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    entered = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']")
            while True:
                pair = page.locator("body").get_attribute("data-pair")
                if not pair or pair not in marks:
                    break
                row = marks[pair]
                usable = row["meaning_kept"].strip() == "1" and row["fluent"].strip() == "1"
                if not usable:
                    for name in filter(None, (c.strip() for c in row["errors"].split(","))):
                        page.keyboard.press(KEY_OF_CLASS.get(name, "o"))
                    if row["note"].strip():
                        page.keyboard.press("t")
                        page.keyboard.type(row["note"].strip()[:200])
                        page.keyboard.press("Escape")
                page.keyboard.press("u" if usable else "n")
                page.wait_for_function(f"document.body.getAttribute('data-pair') !== {pair!r}")
                entered += 1
            page.screenshot(path="review-done.png")
            browser.close()
    finally:
        server.shutdown()
    print(f"entered {entered} marks through the review page")


if __name__ == "__main__":
    main()
