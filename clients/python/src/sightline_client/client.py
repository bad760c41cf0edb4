"""The client: one object per server, holding its base URL, timeout and bearer token."""

import json
import os
import re
import time
from typing import Any, Dict, Iterable, List, Literal, Mapping, Optional, Union, overload

from .errors import SightlineError
from .results import PostResult
from .split import part_run_id, split_run
from .transport import Transport, decoded_stream, path_segment

# The content type each import format's file is sent as (the server takes these, and refuses others with 415).
IMPORT_CONTENT_TYPES = {
    "mot": "text/plain",
    "cvat-video": "application/xml",
    "coco": "application/json",
    "yolo": "application/zip",
    "supervision-csv": "text/csv",
    "kitti": "text/plain",
    "sightline": "application/json",
}

_SNAKE = re.compile(r"_([a-z0-9])")


def camel(name: str) -> str:
    """A Python keyword's name as the API spells it: `source_name` → `sourceName`; camelCase stays as it is."""
    return _SNAKE.sub(lambda m: m.group(1).upper(), name)


def camel_keys(value: Any) -> Any:
    """`value` with every dict key in camelCase, at every depth (the API's members are all camelCase)."""
    if isinstance(value, dict):
        return {camel(key) if isinstance(key, str) else key: camel_keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [camel_keys(item) for item in value]
    return value


def storage_headers(access_key: str, secret_access_key: str) -> Dict[str, str]:
    return {"X-Service-Storage-AccessKey": access_key, "X-Service-Storage-SecretAccessKey": secret_access_key}


class Client:
    """A Sightline server at `base_url`, with a bearer `token` (an access token, or a session from `login`).

    Every method raises SightlineError for an error answer; a network failure is urllib's URLError, or
    socket.timeout when the server sends nothing for `timeout` seconds.
    """

    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 60) -> None:
        self._http = Transport(base_url, timeout)
        self._http.token = token

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def token(self) -> Optional[str]:
        return self._http.token

    @token.setter
    def token(self, value: Optional[str]) -> None:
        self._http.token = value

    @property
    def timeout(self) -> float:
        return self._http.timeout

    # Authentication

    def login(self, username: str, password: str) -> Dict[str, Any]:
        """Opens a session and keeps its token for the following calls; answers the session (`token`, `expiresAt`,
        `user`)."""
        answer = self._http.json(
            "POST", "/login", payload={"username": username, "password": password}, authenticated=False
        )
        session: Dict[str, Any] = answer.body["data"]
        self._http.token = session["token"]
        return session

    # Runs

    @overload
    def post_run(self, run: Mapping[str, Any], split: Literal[False] = False) -> PostResult: ...

    @overload
    def post_run(self, run: Mapping[str, Any], split: Literal[True]) -> List[PostResult]: ...

    def post_run(self, run: Mapping[str, Any], split: bool = False) -> Union[PostResult, List[PostResult]]:
        """Posts a run (a dict as POST /detections takes it, e.g. from `from_ultralytics`) and answers its
        PostResult. A body over 1 MiB is sent gzip-compressed.

        With `split=True`, a run of more than 5000 tracks is posted as sibling runs (see `split_run`: the first part
        keeps the runId, part k is `<runId>-part-k`) and the answer is the list of their PostResults, in order (a
        list of one for a run that fits). A part that fails raises its SightlineError with `stored_parts`, the
        results of the parts posted before it; posting the same run again is safe, as every part replaces its own.
        """
        if not split:
            return self._post_one(run)
        run_id = _source_run_id(run)
        # The parts are named after the runId: without one, the first part takes the id the server gives it and
        # the others are named after that.
        source = dict(run.get("source") or {})
        parts = split_run({**run, "source": {**source, "runId": run_id or "-"}})
        if run_id is None:
            del parts[0]["source"]["runId"]
        done: List[PostResult] = []
        for index, part in enumerate(parts):
            if run_id is None and index > 0:
                part["source"]["runId"] = part_run_id(done[0].run_id, index + 1)
            try:
                done.append(self._post_one(part))
            except SightlineError as err:
                err.stored_parts = list(done)
                raise
        return done

    def _post_one(self, run: Mapping[str, Any]) -> PostResult:
        answer = self._http.json("POST", "/detections", payload=run)
        return PostResult(answer.status, answer.body)

    def import_file(self, path: Union[str, "os.PathLike[str]"], format: str, media_key: str, **params: Any) -> PostResult:
        """Imports a file of another tool (`format`: mot, cvat-video, coco, yolo, supervision-csv, kitti,
        sightline) as a run of the recording `media_key`. `params` are the route's optional parameters, in either
        spelling: `run_id` / `runId`, `source_name`, `source_version`, `source_kind`, `name`, `width`, `height`,
        `interpolate`, `flavor`."""
        if format not in IMPORT_CONTENT_TYPES:
            raise ValueError(f"unknown format {format!r}; the formats are {', '.join(IMPORT_CONTENT_TYPES)}")
        with open(path, "rb") as file:
            data = file.read()
        query = {"format": format, "mediaKey": media_key, **{camel(k): v for k, v in params.items()}}
        answer = self._http.json(
            "POST", "/detections/import", query=query, raw_body=data, content_type=IMPORT_CONTENT_TYPES[format]
        )
        return PostResult(answer.status, answer.body)

    def get_run(self, run_id: str, media_key: Optional[str] = None, revision: Optional[int] = None) -> Dict[str, Any]:
        """The stored run with its tracks (or its revision `revision`); `media_key` picks the recording when the
        runId is on several (else 409 ambiguous_run_id)."""
        answer = self._http.json(
            "GET", f"/detections/{path_segment(run_id)}", query={"mediaKey": media_key, "revision": revision}
        )
        run: Dict[str, Any] = answer.body["data"]
        return run

    def list_runs(self, media_key: str) -> List[Dict[str, Any]]:
        """The summaries (runs without tracks) of a recording's runs, oldest first."""
        answer = self._http.json("GET", "/detections", query={"mediaKey": media_key})
        runs: List[Dict[str, Any]] = answer.body["data"]["runs"]
        return runs

    def delete_run(self, run_id: str, media_key: Optional[str] = None) -> Dict[str, Any]:
        """Deletes a run; answers `{runId, mediaKey, deleted: True}`."""
        answer = self._http.json("DELETE", f"/detections/{path_segment(run_id)}", query={"mediaKey": media_key})
        deleted: Dict[str, Any] = answer.body["data"]
        return deleted

    def export_run(
        self, run_id: str, format: str, path: Union[str, "os.PathLike[str]"], **params: Any
    ) -> str:
        """Writes the run as a file of `format` to `path`, streamed as it arrives, and answers the file name the
        server gave it (Content-Disposition). `params`: `media_key`, `interpolate`, `flavor`. The file appears
        whole or not at all: it is written beside `path` and moved there at the end."""
        query = {"format": format, **{camel(k): v for k, v in params.items()}}
        target = os.fspath(path)
        partial = f"{target}.part"
        with self._http.open("GET", f"/detections/{path_segment(run_id)}/export", query=query) as response:
            disposition = response.headers.get("Content-Disposition", "")
            try:
                with open(partial, "wb") as out:
                    source = decoded_stream(response)
                    while True:
                        chunk = source.read(64 * 1024)
                        if not chunk:
                            break
                        out.write(chunk)
                os.replace(partial, target)
            except BaseException:
                if os.path.exists(partial):
                    os.remove(partial)
                raise
        found = re.search(r'filename="([^"]*)"', disposition)
        return found.group(1) if found else os.path.basename(target)

    # Evaluation

    def evaluate(self, *, poll_interval: float = 0.5, max_wait: float = 600, **request: Any) -> Dict[str, Any]:
        """Scores prediction runs against a ground-truth run (POST /evaluations) and answers the finished
        evaluation (`status` "complete" or "failed", `results`). `request` is the route's body, in either spelling:
        `media_key=`, `ground_truth=`, `predictions=`, `metrics=`, `iou_threshold=`, `class_agnostic=`,
        `recordings=`. When the server answers 202 (still running) the evaluation is polled every `poll_interval`
        seconds, for at most `max_wait` seconds (then TimeoutError)."""
        answer = self._http.json("POST", "/evaluations", payload=camel_keys(request))
        evaluation: Dict[str, Any] = answer.body["data"]
        deadline = time.monotonic() + max_wait
        while evaluation.get("status") == "running":
            if time.monotonic() >= deadline:
                raise TimeoutError(f"evaluation {evaluation['id']} still running after {max_wait} s")
            time.sleep(poll_interval)
            evaluation = self._http.json("GET", f"/evaluations/{path_segment(evaluation['id'])}").body["data"]
        return evaluation

    # Storage

    def signed_url(
        self,
        access_key: str,
        secret_access_key: str,
        filename: str,
        provider: Optional[str] = None,
        expiry: Union[int, str, None] = None,
    ) -> str:
        """A signed URL for one object of a storage account (its default provider unless `provider`); `expiry` in
        seconds or as a duration such as "30m" (the server's default when None)."""
        headers = storage_headers(access_key, secret_access_key)
        headers["X-Service-Storage-FileName"] = filename
        if provider is not None:
            headers["X-Service-Storage-Provider"] = provider
        if expiry is not None:
            headers["X-Service-Storage-UriExpiryTime"] = str(expiry)
        url: str = self._http.json("GET", "/api/storage", headers=headers, authenticated=False).body["data"]
        return url

    def signed_urls(
        self,
        access_key: str,
        secret_access_key: str,
        files: Iterable[Union[str, Mapping[str, Any]]],
        provider: Optional[str] = None,
        expiry: Union[int, str, None] = None,
    ) -> Dict[str, str]:
        """Signed URLs for many objects in one call (at most 1000): `files` are filenames, or dicts `{filename,
        provider?, uriExpiryTime?}`; `provider` and `expiry` apply to the ones that name none. Answers the map
        filename → URL, decoded from the JSON text the route answers."""
        items = []
        for entry in files:
            item: Dict[str, Any] = {"filename": entry} if isinstance(entry, str) else camel_keys(dict(entry))
            if provider is not None:
                item.setdefault("provider", provider)
            if expiry is not None:
                item.setdefault("uriExpiryTime", expiry)
            items.append(item)
        answer = self._http.json(
            "POST",
            "/api/storage/bulk",
            payload=items,
            headers=storage_headers(access_key, secret_access_key),
            authenticated=False,
        )
        urls: Dict[str, str] = json.loads(answer.body["data"])
        return urls


def _source_run_id(run: Mapping[str, Any]) -> Optional[str]:
    source = run.get("source")
    run_id = source.get("runId") if isinstance(source, dict) else None
    return run_id if isinstance(run_id, str) and run_id else None
