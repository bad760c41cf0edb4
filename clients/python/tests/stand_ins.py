"""Stand-ins for the objects of ultralytics and supervision, with the attributes their documentation gives, so that
the builders are tested without either library (or numpy) installed."""

from typing import Any, Dict, List, Optional, Sequence


class Array:
    """Like a numpy array or a torch tensor, as far as the builders look: readable only through `.tolist()`."""

    def __init__(self, values: Sequence[Any]) -> None:
        self._values = list(values)

    def tolist(self) -> List[Any]:
        return list(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self):  # pragma: no cover - the builders must not iterate an array directly
        raise AssertionError("an array is read through .tolist()")


class Boxes:
    """ultralytics.engine.results.Boxes: xyxy (N×4 pixels), id (N, float, None when untracked), conf, cls (float)."""

    def __init__(self, xyxy, id=None, conf=None, cls=None) -> None:  # noqa: A002 - the library's attribute name
        self.xyxy = xyxy
        self.id = id
        self.conf = conf
        self.cls = cls


class Results:
    """ultralytics.engine.results.Results: boxes, names (class id → name), orig_shape (height, width)."""

    def __init__(self, boxes: Optional[Boxes], names: Dict[int, str], orig_shape=(500, 1000)) -> None:
        self.boxes = boxes
        self.names = names
        self.orig_shape = orig_shape


class Detections:
    """supervision.Detections: xyxy, confidence, class_id, tracker_id (None before tracking), data."""

    def __init__(self, xyxy, confidence=None, class_id=None, tracker_id=None, data=None) -> None:
        self.xyxy = xyxy
        self.confidence = confidence
        self.class_id = class_id
        self.tracker_id = tracker_id
        self.data = data if data is not None else {}
