"""What POST /detections and POST /detections/import answer, as an object."""

from typing import Any, Dict, List


class PostResult:
    """The answer to a posted or imported run.

    ``status`` is 201 (a new run), 200 (a run with this runId replaced) or 207 (stored, with rejected boxes);
    ``rejected`` holds one dict per rejected box (``trackId``, ``frame``, ``reason``, and for an import where in
    the file it came from); ``warnings`` one dict per kind (``code``, ``count``, ``message``).
    """

    __slots__ = ("status", "run_id", "tracks_stored", "boxes_stored", "rejected", "warnings", "body")

    def __init__(self, status: int, body: Dict[str, Any]) -> None:
        self.status = status
        self.body = body
        self.run_id: str = body["runId"]
        self.tracks_stored: int = body["tracksStored"]
        self.boxes_stored: int = body["boxesStored"]
        self.rejected: List[Dict[str, Any]] = body.get("rejected", [])
        self.warnings: List[Dict[str, Any]] = body.get("warnings", [])

    def __repr__(self) -> str:
        return (
            f"PostResult(status={self.status}, run_id={self.run_id!r}, tracks_stored={self.tracks_stored}, "
            f"boxes_stored={self.boxes_stored}, rejected={len(self.rejected)}, warnings={len(self.warnings)})"
        )
