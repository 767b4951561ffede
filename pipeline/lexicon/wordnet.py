"""Find WordNet for nltk, or set up the operating system's WordNet so that nltk can read it, with no download.

Where WordNet comes from, in order:

1. an explicitly configured WordNet database directory (a config field such as `method_params.synonyms.wordnet_dir`):
   the user named it, so it wins, and a wrong path is an error rather than a silent fallback;
2. `corpora/wordnet` (or `wordnet.zip`) on nltk's data path, e.g. after `nltk.download("wordnet")`;
3. the `WNSEARCHDIR` environment variable (WordNet's own variable for its database directory);
4. `/usr/share/wordnet` (Debian/Ubuntu `apt-get install wordnet-base wordnet-sense-index`).

nltk 3.10 only reads corpora inside a directory on `nltk.data.path` (symlinks pointing outside are refused too), and
the Debian package lacks the `lexnames` file that nltk's reader needs. So a system database (cases 1, 3, 4) is copied
once into `<cache>/corpora/wordnet/`, `lexnames` is generated from the package's man page `lexnames.5WN.gz` (or, when
man pages were not installed, from the fixed WordNet 3.0 table below), and `<cache>` is added to `nltk.data.path`.
The copy is built in a temporary directory and renamed into place, so a concurrent process never sees half of it; a
marker records the source files' sizes and times, and the copy is rebuilt when they change (a package upgrade).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bsl_pipeline.pipeline.base.errors import BSLError
from bsl_pipeline.pipeline.base.publish import publish_directory
from bsl_pipeline.pipeline.base.user_cache import user_cache_root

POS_SUFFIXES = ("noun", "verb", "adj", "adv")
DATA_FILES = tuple(f"data.{p}" for p in POS_SUFFIXES)
INDEX_FILES = tuple(f"index.{p}" for p in POS_SUFFIXES)
EXCEPTION_FILES = tuple(f"{p}.exc" for p in POS_SUFFIXES)
# nltk opens these when the reader is built; without any of them it fails with a bare IOError.
REQUIRED_FILES = DATA_FILES + INDEX_FILES + EXCEPTION_FILES
# Used lazily by nltk (sense keys, lemma counts); copied when the system has them.
OPTIONAL_FILES = ("index.sense", "cntlist.rev", "lexnames")
# What synonym output depends on: synsets/lemmas (data.*), lemma lookup (index.*) and irregular forms (*.exc).
IDENTITY_FILES = DATA_FILES + INDEX_FILES + EXCEPTION_FILES

DEFAULT_SYSTEM_DIR = "/usr/share/wordnet"
ENV_VAR = "WNSEARCHDIR"
INSTALL_HINT = "apt-get install wordnet-base wordnet-sense-index"
LEXNAMES_MAN_PAGES = (
    "/usr/share/man/man5/lexnames.5WN.gz",
    "/usr/share/man/man5/lexnames.5WN",
    "/usr/local/share/man/man5/lexnames.5WN.gz",
)
_MARKER = ".bsl_wordnet_source.json"

# WordNet 3.0's lexicographer files, numbered as in every 3.0 database (lexnames(5WN)). Only used when the man page
# is not installed (container images often drop /usr/share/man); the syntactic category is derived from the prefix.
_WORDNET30_LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body noun.cognition "
    "noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object "
    "noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape "
    "noun.state noun.substance noun.time verb.body verb.change verb.cognition verb.communication verb.competition "
    "verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession "
    "verb.social verb.stative verb.weather adj.ppl"
).split()
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

_lock = threading.Lock()
_readers: dict[str, Any] = {}
_lemma_tables: dict[str, Any] = {}


@dataclass(frozen=True)
class WordNetLocation:
    """A WordNet that nltk can read: `root` is the corpus directory (or zip entry) holding data.noun etc."""

    root: Any  # nltk PathPointer (FileSystemPathPointer or ZipFilePathPointer)
    origin: str  # human-readable: where it came from (for messages and manifests)

    @property
    def key(self) -> str:
        return str(getattr(self.root, "path", self.root)) + "::" + str(getattr(self.root, "entry", ""))


def default_cache_dir() -> Path:
    return user_cache_root() / "bsl-pipeline" / "nltk_data"


def missing_files(directory: Path) -> list[str]:
    return [name for name in REQUIRED_FILES if not (directory / name).is_file()]


def lexnames_text(man_pages: tuple[str, ...] = LEXNAMES_MAN_PAGES) -> tuple[str, str]:
    """The `lexnames` file nltk needs (`NN<TAB>name<TAB>category` per line) and where it came from."""
    for page in man_pages:
        p = Path(page)
        if not p.is_file():
            continue
        try:
            raw = gzip.open(p, "rt", encoding="utf-8").read() if p.suffix == ".gz" else p.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        names = lexnames_from_man_page(raw)
        if names:
            return _format_lexnames(names), str(p)
    return _format_lexnames(_WORDNET30_LEXNAMES), "built-in WordNet 3.0 table"


def lexnames_from_man_page(text: str) -> list[str]:
    """The lexicographer file names, in file-number order, from the roff table of lexnames(5WN); [] if the page
    does not hold a complete, consecutively numbered table."""
    rows = [m.groups() for m in re.finditer(r"^(\d{2})\t(\S+)", text, re.MULTILINE)]
    names = [name for _, name in rows]
    if not rows or [int(n) for n, _ in rows] != list(range(len(rows))):
        return []
    if any(name.split(".")[0] not in _CATEGORY for name in names):
        return []
    return names


def _format_lexnames(names: list[str]) -> str:
    return "".join(f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(names))


def _source_stamp(source: Path) -> dict[str, Any]:
    files = {}
    for name in REQUIRED_FILES + OPTIONAL_FILES:
        p = source / name
        if p.is_file():
            st = p.stat()
            files[name] = [st.st_size, st.st_mtime_ns]
    return {"source": str(source.resolve()), "files": files}


def _copy_is_current(target: Path, stamp: dict[str, Any]) -> bool:
    marker = target / _MARKER
    try:
        recorded = json.loads(marker.read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return recorded.get("stamp") == stamp and not missing_files(target) and (target / "lexnames").is_file()


def set_up_system_wordnet(source: str | Path, cache_dir: str | Path) -> Path:
    """Copy a WordNet database dir into `<cache_dir>/corpora/wordnet/` (with `lexnames`), once; return the
    corpus dir. The caller has checked that `source` holds the required files."""
    source = Path(source)
    cache_dir = Path(cache_dir)
    target = cache_dir / "corpora" / "wordnet"
    stamp = _source_stamp(source)
    if _copy_is_current(target, stamp):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".wordnet.", suffix=".tmp", dir=target.parent))
    try:
        for name in REQUIRED_FILES + OPTIONAL_FILES:
            if (source / name).is_file():
                shutil.copyfile(source / name, tmp / name)
        lexnames_origin = str(source / "lexnames")
        if not (tmp / "lexnames").is_file():
            text, lexnames_origin = lexnames_text()
            (tmp / "lexnames").write_text(text, encoding="utf-8")
        (tmp / _MARKER).write_text(json.dumps({"stamp": stamp, "lexnames": lexnames_origin}, indent=2),
                                   encoding="utf-8")
        os.chmod(tmp, 0o755)
        _swap_into_place(tmp, target, stamp)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _swap_into_place(tmp: Path, target: Path, stamp: dict[str, Any]) -> None:
    """Publish `tmp` as `target`, unless `target` is already a current copy (another process finished first)."""
    publish_directory(tmp, target, keep_existing=lambda existing: _copy_is_current(existing, stamp))


def _add_to_nltk_path(directory: Path) -> None:
    import nltk

    d = str(directory)
    if d not in [str(p) for p in nltk.data.path]:
        nltk.data.path.append(d)


def _find_on_nltk_path() -> Any | None:
    import nltk

    for resource in ("corpora/wordnet.zip/wordnet/", "corpora/wordnet"):
        try:
            return nltk.data.find(resource)
        except LookupError:
            continue
    return None


def _system_dir_error(directory: Path, how: str, missing: list[str], config_key: str) -> BSLError:
    what = "does not exist" if not directory.is_dir() else f"lacks {', '.join(missing)}"
    return BSLError(
        f"WordNet database directory {directory} ({how}) {what}. Install WordNet with `{INSTALL_HINT}` "
        f"(it goes to {DEFAULT_SYSTEM_DIR}), or set {config_key} / the {ENV_VAR} environment variable to a "
        f"WordNet 3.0 database directory (the one holding data.noun, index.noun, noun.exc)."
    )


def locate_wordnet(wordnet_dir: str | Path | None = None, cache_dir: str | Path | None = None,
                   config_key: str = "wordnet_dir") -> WordNetLocation:
    """Find a WordNet nltk can read (order in the module docstring), setting up a system copy when needed.

    `config_key` is the name of the setting the caller exposes for `wordnet_dir`, used in error messages.
    """
    with _lock:
        cache = Path(cache_dir) if cache_dir else default_cache_dir()
        if wordnet_dir:
            return _from_named_dir(wordnet_dir, f"set by {config_key}", cache, config_key)

        found = _find_on_nltk_path()
        if found is not None:
            return WordNetLocation(found, f"nltk data path: {found}")

        env = os.environ.get(ENV_VAR)
        if env:
            return _from_named_dir(env, f"from ${ENV_VAR}", cache, config_key)

        source = Path(DEFAULT_SYSTEM_DIR)
        missing = missing_files(source)
        if source.is_dir() and not missing:
            return _from_system(source, cache, str(source))

        import nltk

        raise BSLError(
            f"WordNet not found: nltk has no corpora/wordnet on its data path ({', '.join(map(str, nltk.data.path))}), "
            f"{config_key} and ${ENV_VAR} are not set, and {DEFAULT_SYSTEM_DIR} "
            f"{'does not exist' if not source.is_dir() else 'lacks ' + ', '.join(missing)}. "
            f"Install it with `{INSTALL_HINT}`, or set {config_key} (or ${ENV_VAR}) to a WordNet 3.0 database "
            f"directory. Nothing is downloaded at run time."
        )


def _from_named_dir(directory: str | Path, how: str, cache: Path, config_key: str) -> WordNetLocation:
    """A database directory the user named (`how`: by the setting or the environment variable): unlike the default
    system directory, one that is missing or incomplete is an error, not a reason to look elsewhere."""
    source = Path(directory).expanduser()
    missing = missing_files(source)
    if missing or not source.is_dir():
        raise _system_dir_error(source, how, missing, config_key)
    return _from_system(source, cache, f"{source} ({how})")


def _from_system(source: Path, cache: Path, origin: str) -> WordNetLocation:
    from nltk.data import FileSystemPathPointer

    try:
        corpus_dir = set_up_system_wordnet(source, cache)
    except OSError as exc:
        raise BSLError(f"cannot set up WordNet from {source} in the cache dir {cache}: {exc}") from None
    _add_to_nltk_path(cache)
    return WordNetLocation(FileSystemPathPointer(str(corpus_dir)), f"{origin}, set up in {corpus_dir}")


def load_wordnet(location: WordNetLocation):
    """An nltk WordNetCorpusReader for `location`, built once per process (loading the indexes takes seconds)."""
    with _lock:
        reader = _readers.get(location.key)
        if reader is not None:
            return reader
        from nltk.corpus.reader import CorpusReader
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
        from nltk.corpus.util import LazyCorpusLoader

        # The same (lazy, never loaded for English) multilingual companion as nltk.corpus.wordnet: passing None
        # would warn on every construction.
        omw = LazyCorpusLoader("omw-2.0", CorpusReader, r".*/wn-data-.*\.tab", encoding="utf8")
        try:
            reader = WordNetCorpusReader(location.root, omw)
        except (OSError, ValueError, AssertionError) as exc:
            raise BSLError(f"cannot read WordNet at {location.origin}: {exc}. Reinstall it with `{INSTALL_HINT}` "
                           f"or remove a broken copy from nltk's data path.") from None
        _readers[location.key] = reader
        return reader


class SynsetLemmas:
    """Lemma names of a synset, read straight from the data files held in memory (~20 MB for WordNet 3.0).

    nltk builds a whole Synset (pointers, frames, gloss) to answer `lemma_names()`, ~150 us per synset; a synonym
    lookup needs only the words at the start of the data line. Same names as nltk's, syntactic markers such as
    "(a)" removed (tests compare the two).
    """

    _SYNTACTIC_MARKER = re.compile(r"(.*?)(\(.*\))?$")

    def __init__(self, location: WordNetLocation):
        self.origin = location.origin
        self._data: dict[str, bytes] = {}
        for pos, suffix in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
            with location.root.join(f"data.{suffix}").open() as fh:
                self._data[pos] = fh.read()
        self._data["s"] = self._data["a"]  # adjective satellites live in data.adj

    def __call__(self, pos: str, offset: int) -> list[str]:
        data = self._data[pos]
        end = data.find(b"\n", offset)
        line = data[offset:end if end >= 0 else len(data)]
        head = line.split(b" ", 4)
        if len(head) < 5 or not head[0].isdigit() or int(head[0]) != offset:
            raise BSLError(f"WordNet data file for pos {pos!r} ({self.origin}) has no synset at offset {offset}; "
                           f"the database is damaged or its index does not match it")
        count = int(head[3], 16)
        fields = line.split(b" ", 4 + 2 * count)
        return [self._SYNTACTIC_MARKER.match(word.decode("utf-8")).group(1) for word in fields[4:4 + 2 * count:2]]


    def verb_frames(self, offset: int, lemma: str) -> frozenset[int]:
        """WordNet's sentence frames (1-35, wninput(5WN)) of a verb synset that apply to `lemma` (lower case,
        underscores): the synset's own frames and those marked for that lemma only."""
        data = self._data["v"]
        end = data.find(b"\n", offset)
        fields = data[offset:end if end >= 0 else len(data)].split(b" | ", 1)[0].split(b" ")
        count = int(fields[3], 16)
        words = [self._SYNTACTIC_MARKER.match(w.decode("utf-8")).group(1).lower() for w in fields[4:4 + 2 * count:2]]
        at = 4 + 2 * count
        at += 1 + 4 * int(fields[at])  # the pointers
        found = set()
        for k in range(int(fields[at]) if at < len(fields) else 0):
            frame, word = int(fields[at + 2 + 3 * k]), int(fields[at + 3 + 3 * k], 16)
            if word == 0 or (word <= len(words) and words[word - 1] == lemma):
                found.add(frame)
        return frozenset(found)


def load_synset_lemmas(location: WordNetLocation) -> SynsetLemmas:
    """A `SynsetLemmas` for `location`, built once per process."""
    with _lock:
        table = _lemma_tables.get(location.key)
        if table is None:
            table = _lemma_tables[location.key] = SynsetLemmas(location)
        return table


def wordnet_identities(location: WordNetLocation) -> dict[str, str]:
    """'wordnet/<file>' -> sha256 for the database files synonym output depends on."""
    import hashlib

    from bsl_pipeline.pipeline.base.provenance import sha256_file_cached

    out = {}
    for name in IDENTITY_FILES:
        pointer = location.root.join(name)
        path = getattr(pointer, "path", None)
        if path and os.path.isfile(path):
            out[f"wordnet/{name}"] = sha256_file_cached(path)
            continue
        h = hashlib.sha256()  # inside a zip: hash the member's bytes
        with pointer.open() as fh:
            while block := fh.read(1 << 20):
                h.update(block)
        out[f"wordnet/{name}"] = h.hexdigest()
    return out
