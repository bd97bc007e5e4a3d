"""Recorded HTTP exchanges read from the cassettes users already keep, and written by ``record``.

Formats read by :func:`load_cassette` (detected from the content, not the file name):

* vcrpy cassettes (VCR.py, pytest-recording, pytest-vcr), YAML or vcrpy's JSON serializer:
  ``interactions[].response.body.string`` as text or ``!!binary``, the old httpx form
  (``status_code`` and ``content``), the aiohttp stub's request body (a mapping), and pydantic-ai's
  ``parsed_body`` (a JSON body stored parsed);
* Ruby VCR cassettes (``http_interactions``, ``body.string`` or ``body.base64_string``);
* HAR 1.2 (``log.entries[].response.content.text``, plain or ``encoding: "base64"``);
* the cassettes :func:`save_cassette` and ``sansio-responses record`` write: vcrpy's JSON layout plus
  the chunks as they arrived (``response.chunks``: sizes and arrival times).

vcrpy (with httpx) and Ruby VCR keep the body as it came off the wire, so a body whose
``Content-Encoding`` is ``gzip``, ``deflate`` or ``br`` is decompressed; HAR 1.2 stores the decoded
body (its ``content.text``), the old httpx form the decoded ``content``, and vcrpy through urllib3 2
or aiohttp what the client decoded, so those are kept as they are (see ``_decoded``). YAML needs PyYAML (the
``testing`` extra); JSON needs nothing.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from .._install import install_hint
from ._compression import CompressionError, decode_body, encodings, looks_encoded
from ._recorded import RecordedExchange

__all__ = ["CASSETTE_BODY_LIMIT", "CassetteError", "load_cassette", "save_cassette"]

CASSETTE_BODY_LIMIT = 64 << 20
"""Default largest decoded response body :func:`load_cassette` accepts (64 MiB); a bigger one (a
decompression bomb, say) raises :class:`CassetteError`. Pass ``max_body_size`` to change it."""

# Request headers that carry credentials: never written by save_cassette (so never by `record`).
SENSITIVE_HEADERS = frozenset(
    {"authorization", "api-key", "x-api-key", "openai-api-key", "proxy-authorization", "cookie"}
)


class CassetteError(ValueError):
    """A cassette could not be read: the message names the file, the interaction and what is wrong."""


# --- reading ------------------------------------------------------------------------------------


def load_cassette(
    path: str | os.PathLike[str], *, max_body_size: int = CASSETTE_BODY_LIMIT
) -> list[RecordedExchange]:
    """Read the exchanges of the cassette at *path*, in recorded order.

    Reads vcrpy YAML and JSON cassettes (every body form vcrpy writes), Ruby VCR cassettes, HAR 1.2
    files and the cassettes of :func:`save_cassette`; see the module documentation. Raises
    :class:`CassetteError` naming the file and the interaction when the file is none of these or an
    entry is malformed, a compressed body is corrupt, or a decoded body is over *max_body_size*
    bytes. A ``br`` body needs a Brotli module (``brotli`` or ``brotlicffi``).
    """
    where = os.fspath(path)
    raw = _read(where)
    data = _parse(raw, where)
    log = _key(data, "log")
    if isinstance(log, dict):
        entries = _list(_key(log, "entries"), f"{where}: log.entries")
        return [
            _har_entry(entry, f"{where}: log.entries[{i}]", max_body_size)
            for i, entry in enumerate(entries)
        ]
    if isinstance(data, dict) and "interactions" in data:
        items = _list(data["interactions"], f"{where}: interactions")
        return [
            _vcr_interaction(item, f"{where}: interactions[{i}]", max_body_size)
            for i, item in enumerate(items)
        ]
    if isinstance(data, dict) and "http_interactions" in data:
        items = _list(data["http_interactions"], f"{where}: http_interactions")
        return [
            _ruby_interaction(item, f"{where}: http_interactions[{i}]", max_body_size)
            for i, item in enumerate(items)
        ]
    if isinstance(data, list) and data and isinstance(data[0], dict) and "request" in data[0]:
        raise CassetteError(
            f"{where}: a vcrpy cassette of the format before VCR.py 1.0 (a bare list); "
            "migrate it with python -m vcr.migration, or record it again"
        )
    raise CassetteError(
        f"{where}: not a cassette: expected a vcrpy cassette (interactions), a Ruby VCR cassette "
        "(http_interactions) or a HAR file (log.entries)"
    )


def _read(where: str) -> bytes:
    with open(where, "rb") as file:
        return file.read()


def _parse(raw: bytes, where: str) -> Any:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CassetteError(f"{where}: not UTF-8 text ({exc})") from None
    if text.lstrip()[:1] in ("{", "["):  # JSON (HAR, vcrpy's JSON serializer, save_cassette)
        try:
            return json.loads(text)
        except ValueError as exc:
            raise CassetteError(f"{where}: invalid JSON: {exc}") from None
        except RecursionError:
            raise CassetteError(f"{where}: invalid JSON: nested too deeply to decode") from None
    try:
        import yaml
    except ModuleNotFoundError as exc:
        if exc.name != "yaml":
            raise
        raise ModuleNotFoundError(
            f"reading the YAML cassette {where} needs PyYAML, which is not installed: "
            f"{install_hint('testing')}",
            name="yaml",
        ) from exc
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when built: much faster
    try:
        return yaml.load(text, Loader=loader)  # a safe loader: no Python tags
    except yaml.YAMLError as exc:
        raise CassetteError(f"{where}: invalid YAML: {exc}") from None


def _key(value: Any, key: str) -> Any:
    """``value[key]`` when *value* is a mapping holding it, else ``None``."""
    return _dict(value, "").get(key) if isinstance(value, dict) else None


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise CassetteError(f"{where}: expected a list, got {type(value).__name__}")
    return value  # pyright: ignore[reportUnknownVariableType]


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CassetteError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value  # pyright: ignore[reportUnknownVariableType]


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise CassetteError(f"{where}: expected an HTTP status code, got {value!r}")
    try:
        status = int(value)
    except ValueError:
        raise CassetteError(f"{where}: expected an HTTP status code, got {value!r}") from None
    if not 0 <= status <= 999:  # three digits (RFC 9110 section 15); HAR writes 0 for none
        raise CassetteError(f"{where}: expected an HTTP status code, got {value!r}")
    return status


def _text_bytes(value: Any, where: str) -> bytes:
    """A recorded body value: str (UTF-8 text), bytes (YAML ``!!binary``) or none."""
    if value is None:
        return b""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        # surrogateescape: Ruby and old recorders may keep undecodable bytes as lone surrogates
        # (U+DC80-U+DCFF); any other lone surrogate (a JSON "\\ud800") stands for no byte.
        try:
            return value.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError as exc:
            raise CassetteError(
                f"{where}: a lone surrogate {value[exc.start]!r} at character {exc.start}, "
                "which no byte was recorded as"
            ) from None
    raise CassetteError(f"{where}: expected a string or binary body, got {type(value).__name__}")


def _b64(value: Any, where: str) -> bytes:
    if not isinstance(value, str):
        raise CassetteError(f"{where}: expected base64 text, got {type(value).__name__}")
    # Line breaks and spaces are the writers' (Ruby's Base64.encode64 wraps at 60 columns,
    # Python's encodebytes at 76); any other character that is not base64 is an error, not
    # skipped (non-validating decoding turned "@@@" into an empty body).
    try:
        return base64.b64decode("".join(value.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise CassetteError(f"{where}: invalid base64: {exc}") from None


def _header_map(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """vcrpy / Ruby VCR headers: ``{name: [values]}`` (or ``{name: value}``)."""
    if value is None:
        return ()
    out: list[tuple[str, str]] = []
    for name, values in _dict(value, where).items():
        items: list[Any] = values if isinstance(values, list) else [values]  # pyright: ignore[reportUnknownVariableType]
        out.extend((str(name), str(item)) for item in items)
    return tuple(out)


def _header_list(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """HAR headers: ``[{"name": ..., "value": ...}]``."""
    out: list[tuple[str, str]] = []
    for i, item in enumerate(_list(value if value is not None else [], where)):
        entry = _dict(item, f"{where}[{i}]")
        out.append((str(entry.get("name", "")), str(entry.get("value", ""))))
    return tuple(out)


def _first(headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    return next((v for k, v in headers if k.lower() == name), None)


def _decoded(
    body: bytes, headers: tuple[tuple[str, str], ...], where: str, limit: int, *, wire: bool
) -> bytes:
    """*body* decompressed when the format kept wire bytes (*wire*) and the headers name a coding.

    A recorder may also have stored the body its client already decoded beside the original
    header (vcrpy's aiohttp stub does): a gzip or deflate body without its format's signature is
    such a body, and is kept.
    """
    coding = _first(headers, "content-encoding")
    if coding is not None and wire:
        codings = encodings(coding)
        if codings and looks_encoded(body, codings[-1]):
            try:
                body = decode_body(body, coding, limit=limit)
            except CompressionError as exc:
                raise CassetteError(f"{where}: Content-Encoding {coding}: {exc}") from None
    elif coding is not None and body.startswith(b"\x1f\x8b") and "gzip" in coding.lower():
        # HAR stores decoded text, but some writers put the wire bytes there: a gzip signature
        # cannot begin an event stream or a JSON body.
        try:
            body = decode_body(body, coding, limit=limit)
        except CompressionError as exc:
            raise CassetteError(f"{where}: Content-Encoding {coding}: {exc}") from None
    if len(body) > limit:
        raise CassetteError(f"{where}: the body is larger than the limit ({limit} bytes)")
    return body


def _vcr_interaction(item: Any, where: str, limit: int) -> RecordedExchange:
    interaction = _dict(item, where)
    request = _dict(interaction.get("request"), f"{where}.request")
    response = _dict(interaction.get("response"), f"{where}.response")
    headers = _header_map(response.get("headers"), f"{where}.response.headers")
    wire = True
    if "status_code" in response and "status" not in response:
        # vcrpy's httpx stub before 4.x: the decoded text of the body under "content".
        status = _int(response["status_code"], f"{where}.response.status_code")
        body = _text_bytes(response.get("content"), f"{where}.response.content")
        wire = False
    else:
        status_field = response.get("status")
        status_value = (
            _dict(status_field, f"{where}.response.status").get("code")
            if isinstance(status_field, dict)
            else status_field
        )
        status = _int(status_value, f"{where}.response.status.code")
        if "parsed_body" in response and "body" not in response:
            # pydantic-ai's serializer stores a JSON body parsed; its bytes are lost, so it is
            # written back the way that serializer reads it (json.dumps).
            body = json.dumps(response["parsed_body"]).encode()
            wire = False
        else:
            body = _vcr_body(response.get("body"), f"{where}.response.body")
    sizes, arrival = _chunks(response.get("chunks"), f"{where}.response.chunks")
    body = _decoded(body, headers, f"{where}.response.body", limit, wire=wire)
    chunks = _split(body, sizes, f"{where}.response.chunks") if sizes else ()
    request_body: Any = request.get("body")
    if "parsed_body" in request and request_body is None:
        request_body = json.dumps(request["parsed_body"])
    if isinstance(request_body, dict) and request_body.keys() <= {"string", "base64_string"}:
        request_body = _vcr_body(request_body, f"{where}.request.body")
    elif isinstance(request_body, (dict, list)):
        # vcrpy's aiohttp stub stores the json= argument itself, as a mapping or a list.
        request_body = json.dumps(request_body)
    return RecordedExchange(
        method=str(request.get("method", "GET")).upper(),
        url=str(request.get("uri", request.get("url", ""))),
        status=status,
        headers=headers,
        body=body,
        request_headers=_header_map(request.get("headers"), f"{where}.request.headers"),
        request_body=_text_bytes(request_body, f"{where}.request.body"),
        chunks=chunks,
        arrival=arrival,
    )


def _vcr_body(value: Any, where: str) -> bytes:
    if value is None or isinstance(value, (str, bytes)):
        return _text_bytes(value, where)
    body = _dict(value, where)
    if "base64_string" in body:  # save_cassette's form for a body that is not UTF-8
        return _b64(body["base64_string"], f"{where}.base64_string")
    return _text_bytes(body.get("string"), f"{where}.string")


def _chunks(value: Any, where: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """save_cassette's ``chunks``: ``[{"size": n, "at": seconds}]``."""
    if value is None:
        return (), ()
    sizes: list[int] = []
    times: list[float] = []
    for i, item in enumerate(_list(value, where)):
        entry = _dict(item, f"{where}[{i}]")
        size, at = entry.get("size"), entry.get("at")
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise CassetteError(f"{where}[{i}].size: expected a byte count, got {size!r}")
        # (an int past a float's range, such as 10**400, is as unusable as an infinity)
        seconds = (
            float(at) if isinstance(at, float) or (isinstance(at, int) and at < 2**53) else -1.0
        )
        if isinstance(at, bool) or not 0 <= seconds < math.inf:
            raise CassetteError(f"{where}[{i}].at: expected seconds, got {at!r}")
        sizes.append(size)
        times.append(seconds)
    return tuple(sizes), tuple(times)


def _split(body: bytes, sizes: tuple[int, ...], where: str) -> tuple[bytes, ...]:
    if sum(sizes) != len(body):
        raise CassetteError(
            f"{where}: the chunk sizes add up to {sum(sizes)} bytes, the body has {len(body)}"
        )
    out: list[bytes] = []
    start = 0
    for size in sizes:
        out.append(body[start : start + size])
        start += size
    return tuple(out)


def _ruby_interaction(item: Any, where: str, limit: int) -> RecordedExchange:
    interaction = _dict(item, where)
    request = _dict(interaction.get("request"), f"{where}.request")
    response = _dict(interaction.get("response"), f"{where}.response")
    headers = _header_map(response.get("headers"), f"{where}.response.headers")
    status_field = response.get("status")
    status_value = (
        _dict(status_field, f"{where}.response.status").get("code")
        if isinstance(status_field, dict)
        else status_field
    )
    body = _decoded(
        _vcr_body(response.get("body"), f"{where}.response.body"),
        headers,
        f"{where}.response.body",
        limit,
        wire=True,
    )
    return RecordedExchange(
        method=str(request.get("method", "get")).upper(),
        url=str(request.get("uri", "")),
        status=_int(status_value, f"{where}.response.status.code"),
        headers=headers,
        body=body,
        request_headers=_header_map(request.get("headers"), f"{where}.request.headers"),
        request_body=_vcr_body(request.get("body"), f"{where}.request.body"),
    )


def _har_entry(item: Any, where: str, limit: int) -> RecordedExchange:
    entry = _dict(item, where)
    request = _dict(entry.get("request"), f"{where}.request")
    response = _dict(entry.get("response"), f"{where}.response")
    headers = _header_list(response.get("headers"), f"{where}.response.headers")
    content = _dict(response.get("content", {}), f"{where}.response.content")
    text = content.get("text")
    if content.get("encoding") == "base64":
        body = _b64(text if text is not None else "", f"{where}.response.content.text")
    else:
        body = _text_bytes(text, f"{where}.response.content.text")
    body = _decoded(body, headers, f"{where}.response.content", limit, wire=False)
    post = request.get("postData")
    request_body = b""
    if post is not None:
        post_data = _dict(post, f"{where}.request.postData")
        post_text = post_data.get("text")
        if post_data.get("encoding") == "base64":
            request_body = _b64(post_text or "", f"{where}.request.postData.text")
        else:
            request_body = _text_bytes(post_text, f"{where}.request.postData.text")
    return RecordedExchange(
        method=str(request.get("method", "GET")).upper(),
        url=str(request.get("url", "")),
        status=_int(response.get("status"), f"{where}.response.status"),
        headers=headers,
        body=body,
        request_headers=_header_list(request.get("headers"), f"{where}.request.headers"),
        request_body=request_body,
    )


# --- writing ------------------------------------------------------------------------------------


def save_cassette(
    path: str | os.PathLike[str],
    exchanges: Sequence[RecordedExchange],
    *,
    recorded_with: str = "sansio-responses",
) -> None:
    """Write *exchanges* to *path* as a cassette :func:`load_cassette` reads back byte for byte,
    chunks and arrival times included.

    The layout is vcrpy's JSON cassette (``version: 1``, ``interactions``), which vcrpy itself can
    replay with ``serializer="json"``; a body that is not UTF-8 is written as ``base64_string``, and
    the chunks as ``response.chunks``: ``[{"size": bytes, "at": seconds}]``. Request headers that
    carry credentials (``Authorization``, ``api-key``, ``Cookie``, ...) are never written.
    """
    interactions = [_interaction(exchange) for exchange in exchanges]
    document = {"interactions": interactions, "version": 1, "recorded_with": recorded_with}
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    with open(os.fspath(path), "w", encoding="utf-8") as file:
        file.write(text)


def _grouped(headers: Sequence[tuple[str, str]], drop: frozenset[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in headers:
        if name.lower() not in drop:
            out.setdefault(name, []).append(value)
    return out


def _body_field(body: bytes) -> Mapping[str, str]:
    try:
        return {"string": body.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64_string": base64.b64encode(body).decode("ascii")}


def _interaction(exchange: RecordedExchange) -> dict[str, Any]:
    response: dict[str, Any] = {
        "status": {"code": exchange.status, "message": _reason(exchange.status)},
        # The body is stored decoded: its Content-Encoding and length no longer describe it.
        "headers": _grouped(exchange.headers, frozenset({"content-encoding", "content-length"})),
        "body": _body_field(exchange.body),
    }
    if exchange.chunks:
        response["chunks"] = [
            {"size": len(chunk), "at": round(at, 6)}
            for chunk, at in zip(exchange.chunks, exchange.arrival, strict=True)
        ]
    request_body = _body_field(exchange.request_body)
    return {
        "request": {
            "method": exchange.method,
            "uri": exchange.url,
            "headers": _grouped(exchange.request_headers, SENSITIVE_HEADERS),
            "body": request_body.get("string", request_body),
        },
        "response": response,
    }


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
