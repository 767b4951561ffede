"""Errors the CLI reports as one clear line (no traceback)."""

import errno


class BSLError(Exception):
    """A user-facing error: bad input, a missing file, a failed check. The message names the file/line/row."""


class InputError(BSLError):
    """Malformed input data (corpus line, Parquet shard, manifest)."""


class VerificationError(BSLError):
    """A checksum or row count does not match what the manifest recorded."""


#: The write failures a user fixes outside the tool (a full disk, a quota, a read-only file system, a refused
#: permission), by errno, with the fix a one-line error names.
WRITE_ERROR_FIXES = {
    errno.ENOSPC: "free space there or write elsewhere, then rerun",
    errno.EDQUOT: "free space or raise the quota, or write elsewhere, then rerun",
    errno.EROFS: "write elsewhere, then rerun",
    errno.EACCES: "fix the permissions or write elsewhere, then rerun",
    errno.EPERM: "fix the permissions or write elsewhere, then rerun",
}
