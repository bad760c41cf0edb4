"""HTTP for the client over urllib: request bodies (JSON, compressed past a threshold), answers (JSON, gzip
decoded), and error answers turned into SightlineError."""

import gzip
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import IO, Any, Dict, Mapping, Optional

from .errors import SightlineError

# Bodies past this are sent gzip-compressed: detection JSON shrinks about three times, and the server's 32 MiB
# limit counts the decoded bytes, so compression saves upload time without changing what fits.
COMPRESS_FROM_BYTES = 1024 * 1024

USER_AGENT = "sightline-client-python/0.1.0"

Query = Mapping[str, Any]


def query_string(params: Optional[Query]) -> str:
    """The query of a URL: members whose value is None are left out, booleans written as the API reads them."""
    if not params:
        return ""
    pairs = []
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((key, str(value)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def path_segment(value: str) -> str:
    """One path segment: a runId may hold any character but '/', so every reserved one is escaped."""
    return urllib.parse.quote(value, safe="")


def encode_body(data: bytes, headers: Dict[str, str], compress_from: int = COMPRESS_FROM_BYTES) -> bytes:
    """The body as sent: gzip-compressed (and marked so) when it is larger than `compress_from` bytes."""
    if len(data) > compress_from:
        headers["Content-Encoding"] = "gzip"
        # Level 1: on run JSON a quarter of level 6's CPU time for a body about 15 % larger (docs/clients.md).
        return gzip.compress(data, compresslevel=1)
    return data


class Answer:
    """A successful answer: its status, headers and (for JSON) its decoded body."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: Mapping[str, str], body: Any) -> None:
        self.status = status
        self.headers = headers
        self.body = body


def decoded_stream(response: Any) -> IO[bytes]:
    """The answer's bytes as a stream, decompressed when the server sent them gzip-coded."""
    if response.headers.get("Content-Encoding", "").lower() == "gzip":
        return gzip.GzipFile(fileobj=response)  # type: ignore[return-value]
    return response  # type: ignore[no-any-return]


def error_from(err: urllib.error.HTTPError) -> SightlineError:
    """An error answer as SightlineError, with the problem+json body when there is one."""
    raw = err.read()
    if err.headers.get("Content-Encoding", "").lower() == "gzip":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", "replace")
    problem = None
    if "json" in err.headers.get("Content-Type", ""):
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            problem = parsed
    return SightlineError(err.code, problem, text.strip() or (err.reason if isinstance(err.reason, str) else ""))


class Transport:
    """Sends requests to one base URL with a timeout, optional bearer token and the client's headers."""

    def __init__(self, base_url: str, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.token: Optional[str] = None

    def open(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
        authenticated: bool = True,
    ) -> Any:
        """The open response of a successful request (the caller reads and closes it); SightlineError otherwise."""
        sent: Dict[str, str] = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
        if authenticated and self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        if headers:
            sent.update(headers)
        if body is not None:
            body = encode_body(body, sent)
            sent["Content-Type"] = content_type or "application/json"
        request = urllib.request.Request(self.base_url + path + query_string(query), data=body, method=method)
        for name, value in sent.items():
            request.add_header(name, value)
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as err:
            with err:
                raise error_from(err) from None

    def json(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        payload: Any = None,
        raw_body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
        authenticated: bool = True,
    ) -> Answer:
        """A request whose answer is JSON; `payload` is sent as JSON, `raw_body` as it is."""
        body = raw_body
        if payload is not None:
            body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
        with self.open(
            method,
            path,
            query=query,
            body=body,
            content_type=content_type,
            headers=headers,
            authenticated=authenticated,
        ) as response:
            data = decoded_stream(response).read()
            status, answer_headers = response.status, response.headers
        return Answer(status, answer_headers, json.loads(data) if data else None)

