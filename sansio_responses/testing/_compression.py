"""Undo the ``Content-Encoding`` of a recorded response body: ``gzip``, ``deflate`` and ``br``.

RFC 9110 section 8.4: the encodings are listed in the order they were applied, so they are undone
from last to first. ``gzip`` is RFC 1952, ``deflate`` the zlib format of RFC 1950 (some servers send
raw RFC 1951 deflate instead, which is accepted too), ``br`` RFC 7932 (Brotli), decoded only when a
Brotli module (``brotli`` or ``brotlicffi``) is importable. Every output is bounded by *limit*.
"""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Callable
from typing import Any

__all__ = ["CompressionError", "brotli_module", "decode_body"]

_GZIP_MAGIC = b"\x1f\x8b"


class CompressionError(ValueError):
    """A body could not be decoded as its ``Content-Encoding`` says (the message says why)."""


def brotli_module() -> Any | None:
    """The importable Brotli module (``brotli``, else ``brotlicffi``), or ``None``."""
    for name in ("brotli", "brotlicffi"):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    return None


def encodings(header: str | None) -> list[str]:
    """The codings of a ``Content-Encoding`` value, lower-cased, ``identity`` left out."""
    if not header:
        return []
    return [
        c.strip().lower() for c in header.split(",") if c.strip().lower() not in ("", "identity")
    ]


def looks_encoded(body: bytes, coding: str) -> bool:
    """Whether *body* looks like *coding*'s output rather than the decoded body.

    Some recorders store the body their HTTP client already decoded next to the original
    ``Content-Encoding`` header (vcrpy with requests and urllib3 2, vcrpy's aiohttp stub, the old
    httpx ``content`` form); such a body must be kept as it is. gzip output starts with its magic
    bytes (RFC 1952 section 2.3.1), zlib output with a checked header (RFC 1950 section 2.2); Brotli
    has no signature, so a body that is UTF-8 text (an event stream, JSON) is taken as decoded.
    """
    if coding in ("gzip", "x-gzip"):
        return body.startswith(_GZIP_MAGIC)
    if coding == "deflate":
        if _zlib_header(body):
            return True
        return _raw_deflate_ok(body)
    if coding == "br":
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return True
        return False
    return True  # an unknown coding: decode_body says it is not supported


def _zlib_header(body: bytes) -> bool:
    # CM = 8 (deflate) in the low nibble of CMF, and CMF * 256 + FLG a multiple of 31.
    return len(body) >= 2 and body[0] & 0x0F == 8 and (body[0] << 8 | body[1]) % 31 == 0


def _raw_deflate_ok(body: bytes) -> bool:
    try:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        inflater.decompress(body, 1 << 16)
    except zlib.error:
        return False
    return bool(body)


def decode_body(body: bytes, content_encoding: str | None, *, limit: int) -> bytes:
    """*body* with the codings of *content_encoding* undone, last applied first.

    A coding other than ``gzip``, ``x-gzip``, ``deflate``, ``br`` and ``identity`` raises
    :class:`CompressionError`, and so do a corrupt body, a result over *limit* bytes, and ``br``
    without a Brotli module.
    """
    for coding in reversed(encodings(content_encoding)):
        body = _decoder(coding)(body, limit)
    return body


def _decoder(coding: str) -> Callable[[bytes, int], bytes]:
    if coding in ("gzip", "x-gzip"):
        return lambda body, limit: _zlib(body, limit, 16 + zlib.MAX_WBITS, coding)
    if coding == "deflate":
        return _deflate
    if coding == "br":
        return _brotli
    raise CompressionError(
        f"unsupported Content-Encoding {coding!r} (supported: gzip, deflate, br, identity)"
    )


def _zlib(body: bytes, limit: int, wbits: int, coding: str) -> bytes:
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error as exc:
        raise CompressionError(f"the body is not valid {coding} data: {exc}") from None
    if len(out) > limit:
        raise CompressionError(
            f"the {coding}-decoded body is larger than the limit ({limit} bytes)"
        )
    if not inflater.eof:
        raise CompressionError(f"the {coding} data is truncated (the body ends inside the stream)")
    return out


def _deflate(body: bytes, limit: int) -> bytes:
    # "deflate" means the zlib format (RFC 9110 section 8.4.1.2), but servers have long sent raw
    # deflate under that name too; the zlib header tells which.
    wbits = zlib.MAX_WBITS if _zlib_header(body) else -zlib.MAX_WBITS
    return _zlib(body, limit, wbits, "deflate")


def _brotli(body: bytes, limit: int) -> bytes:
    module = brotli_module()
    if module is None:
        raise CompressionError(
            "the body is Brotli-compressed (Content-Encoding: br) and no Brotli module is "
            "installed: pip install brotli (or brotlicffi)"
        )
    decompressor = module.Decompressor()
    try:
        try:
            out: bytes = decompressor.process(body, output_buffer_limit=limit + 1)
        except TypeError:  # brotlicffi and brotli < 1.2: no output limit, checked after
            out = decompressor.process(body)
        finished = decompressor.is_finished()
    except module.error as exc:
        raise CompressionError(f"the body is not valid br data: {exc}") from None
    if len(out) > limit:
        raise CompressionError(f"the br-decoded body is larger than the limit ({limit} bytes)")
    if not finished:
        raise CompressionError("the br data is truncated (the body ends inside the stream)")
    return out
