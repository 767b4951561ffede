"""What a location is before any store is reached: whether it is a URL (and a well-formed one), and text with its
credentials removed. Below both `pipeline.base.storage` (which reaches the stores) and `pipeline.base.ownership`
(which refuses a URL where only a local file is written), so that neither imports the other for these."""

from __future__ import annotations

import os
import re
from typing import Any

from bsl_pipeline.pipeline.base.errors import InputError

_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
#: Environment variables whose values never appear in a message.
SECRET_ENV = ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECURITY_TOKEN",
              "GOOGLE_APPLICATION_CREDENTIALS", "HF_TOKEN")


def is_url(location: Any) -> bool:
    """A string `<scheme>://...` with a scheme other than `file`; a Path is always local. Every command asks this
    of each location it is given before it reads or writes anything, so a malformed URL is refused here (InputError
    naming it, `url_problem`): a store would take `s3://bucket//x` for keys starting with "/", which every later
    listing of the URL misses."""
    if not isinstance(location, str):
        return False
    match = _URL.match(location)
    if match is None or match.group(1).lower() == "file":
        return False
    problem = url_problem(location)
    if problem:
        raise InputError(f"{redact(location)}: not a usable URL: {problem}")
    return True


def url_problem(url: str) -> str | None:
    """What is wrong with a `<scheme>://bucket/key/...` URL (None: nothing): no bucket, an empty path segment (`//`
    inside it or at its end), or a `.` or `..` segment. One trailing `/` is allowed."""
    rest = url.split("://", 1)[1]
    if rest.endswith("/"):
        rest = rest[:-1]
    segments = rest.split("/")
    if not segments[0]:
        return "no bucket (or host) after the scheme"
    if "" in segments:
        return "an empty path segment ('//'); write one '/' between names"
    if "." in segments or ".." in segments:
        return "a '.' or '..' path segment; write the full path"
    return None


def redact(text: str) -> str:
    """`text` without credentials: user:password in URLs, and the values of credential variables."""
    text = re.sub(r"(://)[^/@\s]+@", r"\1***@", str(text))
    for name in SECRET_ENV:
        value = os.environ.get(name)
        if value and len(value) >= 4:
            text = text.replace(value, "***")
    return text
