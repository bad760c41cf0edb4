"""The one exception the client raises for an answer of the API that is not a success."""

from typing import TYPE_CHECKING, Any, Dict, List, Optional

if TYPE_CHECKING:
    from .results import PostResult


class SightlineError(Exception):
    """An error answer of the API: its HTTP status and, from its problem+json body, ``code`` and ``detail``.

    ``problem`` is the whole body (extensions such as ``rejected``, ``currentRevision`` or ``mediaKeys``
    included); an answer that was not problem+json (a proxy's HTML page) leaves ``code`` None and keeps its text
    in ``detail``. ``stored_parts`` holds, for a split run (``post_run(run, split=True)``), the results of the
    parts stored before the one that failed.
    """

    def __init__(self, status: int, problem: Optional[Dict[str, Any]], text: str = "") -> None:
        self.status = status
        self.problem: Dict[str, Any] = problem if problem is not None else {}
        code = self.problem.get("code")
        self.code: Optional[str] = code if isinstance(code, str) else None
        detail = self.problem.get("detail")
        self.detail: str = detail if isinstance(detail, str) else text
        self.stored_parts: List["PostResult"] = []
        super().__init__(f"{status} {self.code or 'error'}: {self.detail}")
