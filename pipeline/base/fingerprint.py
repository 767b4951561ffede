"""One rule for "a short, stable name for this configuration": sha256 of its canonical JSON.

Canonical JSON sorts keys, keeps non-ASCII text as is and writes any non-JSON value (a Path) as its string, so the
same settings give the same fingerprint in every process and on every machine. Checksums of whole files or
manifests keep the full digest; fingerprints (cache keys, directory names) take the first `length` hex digits.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

FINGERPRINT_LENGTH = 16  # 64 bits: collisions among one user's settings are not a practical concern


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")


def digest(value: Any) -> str:
    """Full sha256 hex digest of the canonical JSON of `value`."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def fingerprint(value: Any, length: int = FINGERPRINT_LENGTH) -> str:
    """The first `length` hex digits of `digest(value)`."""
    if not 1 <= length <= 64:
        raise ValueError(f"fingerprint length must be 1..64, got {length}")
    return digest(value)[:length]


def keyed_digest(value: Any, key: str) -> str:
    """HMAC-SHA256 under `key` of the canonical JSON of `value`: a digest only holders of `key` can produce."""
    import hmac

    return hmac.new(key.encode("utf-8"), canonical_json(value), hashlib.sha256).hexdigest()
