"""Standard output and error as solo uses them: plain text where the terminal is not UTF-8, and an
output that cannot be written (a closed pipe, a full disk) ending solo quietly, never in a traceback.

:func:`prepare` runs once, before any command. It gives both streams the error handler
``solo-plain``, which writes what the stream's encoding cannot hold as plain ASCII (``…`` as
``...``, ``é`` as ``e``, a box-drawing line as ``-``, anything else as ``?``); a lone
surrogate (a byte a terminal could not decode, kept in a save) becomes U+FFFD on a UTF-8
stream. An ASCII stream is reopened as ``solo_ascii``, the same ASCII under another codec
name, because click would otherwise replace a stream it sees as ASCII with a UTF-8 one
whose bytes an ASCII terminal shows as garbage; rich, seeing an encoding that is not UTF,
draws its boxes in ASCII. Standard input that is not UTF-8 keeps undecodable bytes (as
surrogates that :func:`solo.decisions.clean_typed` turns into U+FFFD).

Writes to standard output go through :class:`Guarded`, which turns the ``OSError`` of a
closed pipe or a full disk into :class:`solo.errors.OutputGone`: a game saves and stops on
it (not as an internal error), and the command line ends with the statuses docs/limits.md
gives: 141 without a word for a closed pipe (``solo play … | head``), as a program killed by
SIGPIPE would, else 2 with one line on standard error. A standard error that cannot be
written is given up on silently.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from typing import Any, TextIO

from ..errors import OutputGone

#: The exit status of a command whose output was closed under it (128 + SIGPIPE).
CLOSED_PIPE_STATUS = 141
HANDLER = "solo-plain"
ASCII_CODEC = "solo_ascii"

# What solo's own text uses beyond ASCII, as a plain-text terminal should show it.
_PLAIN = {
    "…": "...", "—": "--", "–": "-", "‒": "-", "−": "-", "‘": "'", "’": "'", "‚": ",", "“": '"', "”": '"',
    "„": '"', "«": '"', "»": '"', "·": "-", "•": "*", "×": "x", "÷": "/", "→": "->", "←": "<-", "↔": "<->",
    "⇒": "=>", "≈": "~", "±": "+/-", "≤": "<=", "≥": ">=", "≠": "!=", "°": " deg", "█": "#", "▓": "#",
    "▒": ":", "░": ".", "▏": "|", "▌": "|", "▐": "|", "✓": "v", "✗": "x", "ø": "o", "Ø": "O", "æ": "ae",
    "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ð": "d", "þ": "th", "ł": "l", "Ł": "L", "\u00a0": " ",
    "\u2009": " ", "\u202f": " ", "\ufffd": "?",
}


def plain(ch: str) -> str:
    """One character as plain ASCII: solo's punctuation by the table above, a letter without its accents,
    a line of a box as ``-``, ``|`` or ``+``, anything else as ``?``."""
    import unicodedata

    if ch in _PLAIN:
        return _PLAIN[ch]
    if 0xD800 <= ord(ch) <= 0xDFFF:  # a lone surrogate: no character at all
        return "?"
    bare = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if bare and bare.isascii():
        return bare
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        return "-" if "HORIZONTAL" in name and "VERTICAL" not in name else "|" if "VERTICAL" in name and \
            "HORIZONTAL" not in name and "AND" not in name else "+"
    return "?"


def _handler(exc: UnicodeError) -> tuple[str | bytes, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    if exc.encoding.replace("-", "").replace("_", "").lower() in ("utf8", "utf8sig"):  # only surrogates fail
        return "\ufffd".encode() * len(text), exc.end  # the encoder takes its own bytes, or ASCII text
    return "".join(plain(ch) for ch in text), exc.end


class _AsciiEncoder(codecs.IncrementalEncoder):
    def encode(self, text: str, final: bool = False) -> bytes:
        return codecs.ascii_encode(text, HANDLER)[0]


class _AsciiDecoder(codecs.IncrementalDecoder):
    def decode(self, data: bytes, final: bool = False) -> str:  # type: ignore[override]
        return codecs.ascii_decode(data, self.errors)[0]


def _search(name: str) -> codecs.CodecInfo | None:
    if name != ASCII_CODEC:
        return None
    return codecs.CodecInfo(
        name=ASCII_CODEC,
        encode=lambda text, errors="strict": codecs.ascii_encode(text, HANDLER),
        decode=lambda data, errors="strict": codecs.ascii_decode(data, errors),
        incrementalencoder=_AsciiEncoder, incrementaldecoder=_AsciiDecoder,
    )


_registered = False


def register() -> None:
    """The ``solo-plain`` error handler and the ``solo_ascii`` codec (once per process)."""
    global _registered
    if not _registered:
        codecs.register_error(HANDLER, _handler)
        codecs.register(_search)
        _registered = True


def _is_ascii(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "ascii").name == "ascii"
    except LookupError:
        return True


class Guarded(io.TextIOBase):
    """Standard output, whose failures (a closed pipe, a full disk, a lost terminal) are :class:`OutputGone`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputGone(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputGone(exc) from None

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self._stream.errors

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:  # line_buffering, reconfigure …; never the binary buffer
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self._stream, name)


class Quiet(Guarded):
    """Standard error: a message that cannot be written there is dropped, since there is nowhere else."""

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass


def _reconfigure(stream: Any, *, reading: bool = False) -> None:
    if not hasattr(stream, "reconfigure"):
        return
    try:
        if reading:
            if (stream.errors or "strict") == "strict":
                stream.reconfigure(errors="surrogateescape")
        elif _is_ascii(stream.encoding):
            stream.reconfigure(encoding=ASCII_CODEC, errors=HANDLER)
        else:
            stream.reconfigure(errors=HANDLER)
    except (OSError, ValueError, LookupError):
        pass


def prepare() -> None:
    """Make standard output and error safe to print anything to, before any command runs."""
    register()
    if sys.stdin is not None:
        _reconfigure(sys.stdin, reading=True)
    if sys.stdout is not None and not isinstance(sys.stdout, Guarded):
        _reconfigure(sys.stdout)
        sys.stdout = Guarded(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, Guarded):
        _reconfigure(sys.stderr)
        sys.stderr = Quiet(sys.stderr)


def closed_pipe(exc: OutputGone) -> bool:
    return exc.errno in (errno.EPIPE, errno.ECONNRESET)


def silence_stdout() -> None:
    """After the output failed: send what is left (Python's own flush at exit) nowhere, so it cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
