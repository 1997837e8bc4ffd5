"""Opening a file a person or an agent runtime controls: only a regular file, never blocking.

Transcripts and the files of an agent home can be replaced at any moment by something else.
`open()` on a named pipe waits for a writer — forever, for a daemon run holding its locks —
and a device may never end. So such a file is opened non-blocking and without following a
final symlink, and what was opened is checked with `fstat` (not a `stat` before the open,
which a swap can beat): anything but a regular file is refused with `NotRegular`.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a folder"),
)


class NotRegular(OSError):
    """A path that is not a regular file; `strerror` says what it is."""


def kind(mode: int) -> str:
    """What a file of this mode is, in words ("a named pipe")."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path: Path | str) -> BinaryIO:
    """`path` opened for binary reading if it is a regular file.

    Raises NotRegular (naming the file and what it is) for anything else, a symlink included
    (errno ELOOP: never followed), and any other OSError of the open. Never blocks.
    """
    # O_NONBLOCK: opening a named pipe returns at once instead of waiting for a writer; it
    # changes nothing for reads of a regular file.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegular(errno.ELOOP, "not a regular file (a symlink; not followed)", str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(errno.EINVAL, f"not a regular file ({kind(mode)})", str(path))
    except BaseException:
        os.close(fd)
        raise
    # From here the file object owns `fd`, even when fdopen fails after taking it (it closes
    # it then): closing the number again would close whatever another thread opened since.
    return os.fdopen(fd, "rb")


def read_regular(path: Path | str, limit: int = -1) -> bytes:
    """The bytes of the regular file `path` (at most `limit` if given); raises as `open_regular`."""
    with open_regular(path) as fh:
        return fh.read(limit)
