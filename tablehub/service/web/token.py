"""The control token: what a person must show to undo, correct or press "next" from the web.

It is made at the first start, 32 random bytes (URL-safe base64), in ``<data_dir>/web-token``
with mode 0600 so only the service's user can read it; ``tablehub run`` prints it once, when
it is made, and ``tablehub token`` shows it (``--new`` replaces it).  The server reads the
file for every control request, so a new token takes effect without a restart.
Comparison is constant-time (``hmac.compare_digest``).
"""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import stat
from pathlib import Path

TOKEN_FILE = "web-token"
MIN_LENGTH = 32


class TokenError(Exception):
    """The token file cannot be read or written, or is damaged (the message says which)."""


def token_path(data_dir: Path) -> Path:
    return data_dir / TOKEN_FILE


def read_token(path: Path) -> str | None:
    """The token in ``path``; None when there is none yet."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as err:
        raise TokenError(f"{path}: cannot read the control token: {err}") from err
    if len(text) < MIN_LENGTH or not all(c.isalnum() or c in "-_" for c in text):
        raise TokenError(
            f"{path}: the control token is damaged; make a new one with 'tablehub token --new'"
        )
    _tighten(path)
    return text


def ensure_token(data_dir: Path) -> tuple[str, bool]:
    """The token, made now if there is none: (token, made)."""
    path = token_path(data_dir)
    existing = read_token(path)
    if existing is not None:
        return existing, False
    return write_new_token(data_dir), True


def write_new_token(data_dir: Path) -> str:
    """Make a new token (replacing any old one atomically) and return it."""
    path = token_path(data_dir)
    token = secrets.token_urlsafe(32)
    temp = path.with_name(f".{TOKEN_FILE}.{os.getpid()}.tmp")
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)  # whatever the umask said
            os.write(fd, (token + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise TokenError(f"{path}: cannot write the control token: {err}") from err
    return token


def authorized(header: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``token`` (``Bearer <token>``)."""
    if not header:
        return False
    scheme, _, given = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode("utf-8"), token.encode("utf-8"))


def _tighten(path: Path) -> None:
    """A token file others can read is made private again (0600)."""
    with contextlib.suppress(OSError):
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(0o600)
