"""Errors the CLI reports as one clear line (no traceback)."""


class BSLError(Exception):
    """A user-facing error: bad input, a missing file, a failed check. The message names the file/line/row."""


class InputError(BSLError):
    """Malformed input data (corpus line, Parquet shard, manifest)."""


class VerificationError(BSLError):
    """A checksum or row count does not match what the manifest recorded."""
