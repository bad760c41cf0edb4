"""Runs built from the outputs of the two libraries detector pipelines use, ultralytics and supervision.

Both are duck-typed: nothing here imports either library (nor numpy). An array attribute is read through its
`.tolist()` when it has one (numpy arrays, torch tensors), else taken as a plain sequence.
"""

import warnings
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

SCHEMA_VERSION = "1.0"


def as_list(value: Any) -> List[Any]:
    """An array attribute as a Python list: through `.tolist()` when the value has one, else the sequence itself."""
    if value is None:
        return []
    if hasattr(value, "tolist"):
        return list(value.tolist())
    return list(value)


def track_id_of(value: Any) -> Optional[str]:
    """A tracker's id as the API's track id: ultralytics gives floats (7.0), supervision integers; None is none."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# Pixel coordinates are written to 1/100 of a pixel by default: far finer than any detector's boxes, and a largest
# run (5000 tracks of 50 boxes) from float32 tensors is then about 22 MiB of JSON instead of 33, under the API's
# 32 MiB limit.
DEFAULT_DECIMALS = 2


class RunBuilder:
    """Collects boxes by track, in order of first appearance, and writes the run POST /detections takes."""

    def __init__(self, decimals: Optional[int] = DEFAULT_DECIMALS) -> None:
        self.tracks: Dict[str, Dict[str, Any]] = {}
        self.untracked = 0
        self.decimals = decimals

    def add(
        self,
        frame: int,
        track_id: Any,
        xyxy: Sequence[float],
        confidence: Optional[float],
        class_id: Optional[int],
        label: Optional[str],
    ) -> None:
        tid = track_id_of(track_id)
        if tid is None:
            self.untracked += 1
            return
        x1, y1, x2, y2 = (float(v) if self.decimals is None else round(float(v), self.decimals) for v in xyxy)
        box: Dict[str, Any] = {"frame": int(frame), "x1": x1, "y1": y1, "x2": x2, "y2": y2}
        if confidence is not None:
            box["confidence"] = float(confidence)
        track = self.tracks.get(tid)
        if track is None:
            # The track's class is its first box's; a box of another class (a tracker may relabel) says its own.
            track = {"id": tid, "boxes": []}
            if label is not None:
                track["label"] = label
            if class_id is not None:
                track["classId"] = class_id
            self.tracks[tid] = track
        if label is not None and track.get("label") != label:
            box["label"] = label
        if class_id is not None and track.get("classId") != class_id:
            box["classId"] = class_id
        track["boxes"].append(box)

    def run(
        self,
        *,
        media_key: str,
        source_name: str,
        width: float,
        height: float,
        source_version: Optional[str],
        run_id: Optional[str],
        name: Optional[str],
        fps: Optional[float],
        library: str,
    ) -> Dict[str, Any]:
        if self.untracked:
            # Nothing is dropped silently: a box without a tracker id belongs to no track, so it cannot be stored.
            warnings.warn(
                f"{self.untracked} box(es) without a track id left out of the run (run the {library} tracker first)",
                stacklevel=3,
            )
        source: Dict[str, Any] = {"kind": "model", "name": source_name}
        if source_version is not None:
            source["version"] = source_version
        if run_id is not None:
            source["runId"] = run_id
        media: Dict[str, Any] = {"width": width, "height": height}
        if fps is not None:
            media["fps"] = fps
        run: Dict[str, Any] = {
            "mediaKey": media_key,
            "schemaVersion": SCHEMA_VERSION,
            "source": source,
            "coordinateSpace": "pixel",
            "media": media,
            "tracks": list(self.tracks.values()),
        }
        if name is not None:
            run["name"] = name
        return run


def _names_lookup(names: Any) -> Mapping[Any, str]:
    if names is None:
        return {}
    if isinstance(names, Mapping):
        return names
    return dict(enumerate(names))


def from_ultralytics(
    results: Iterable[Any],
    media_key: str,
    source_name: str = "ultralytics",
    *,
    source_version: Optional[str] = None,
    run_id: Optional[str] = None,
    name: Optional[str] = None,
    frames: Optional[Iterable[int]] = None,
    fps: Optional[float] = None,
    decimals: Optional[int] = DEFAULT_DECIMALS,
) -> Dict[str, Any]:
    """A run from ultralytics `Results`, as `model.track(..., stream=True)` yields them, one per frame.

    Reads each result's `boxes.xyxy` (pixels), `boxes.id` (the tracker's ids), `boxes.conf`, `boxes.cls`,
    `names` (class id → name) and `orig_shape` (height, width). A result's frame is its position in `results`
    unless `frames` gives the frame of each. Boxes without a track id (`boxes.id` is None before the tracker has
    confirmed a track, or for `predict`) are left out with a warning that counts them. Coordinates are rounded to
    `decimals` places of a pixel (None keeps every digit).
    """
    builder = RunBuilder(decimals)
    frame_of = iter(frames) if frames is not None else None
    size: Optional[Tuple[float, float]] = None
    for position, result in enumerate(results):
        frame = next(frame_of, None) if frame_of is not None else position
        if frame is None:
            raise ValueError(f"frames ends at {position} frames, before the results do")
        height, width = (float(v) for v in as_list(result.orig_shape)[:2])
        if size is None:
            size = (width, height)
        elif size != (width, height):
            raise ValueError(f"frame {frame} is {width:g}x{height:g}, the frames before it {size[0]:g}x{size[1]:g}")
        boxes = result.boxes
        if boxes is None:
            continue
        xyxy = as_list(boxes.xyxy)
        ids = as_list(boxes.id) if boxes.id is not None else [None] * len(xyxy)
        confs = as_list(boxes.conf) if boxes.conf is not None else [None] * len(xyxy)
        classes = as_list(boxes.cls) if boxes.cls is not None else [None] * len(xyxy)
        names = _names_lookup(getattr(result, "names", None))
        for corners, tid, conf, cls in zip(xyxy, ids, confs, classes):
            class_id = int(cls) if cls is not None else None
            builder.add(frame, tid, corners, conf, class_id, names.get(class_id) if class_id is not None else None)
    if size is None:
        raise ValueError("no results: a run needs at least one frame")
    return builder.run(
        media_key=media_key,
        source_name=source_name,
        width=size[0],
        height=size[1],
        source_version=source_version,
        run_id=run_id,
        name=name,
        fps=fps,
        library="ultralytics",
    )


def from_supervision(
    frames: Iterable[Tuple[int, Any]],
    media_key: str,
    source_name: str = "supervision",
    *,
    width: float,
    height: float,
    source_version: Optional[str] = None,
    run_id: Optional[str] = None,
    name: Optional[str] = None,
    names: Any = None,
    fps: Optional[float] = None,
    decimals: Optional[int] = DEFAULT_DECIMALS,
) -> Dict[str, Any]:
    """A run from `(frame_index, Detections)` pairs, as a supervision tracking loop makes them (ByteTrack's
    `update_with_detections`).

    Reads each `Detections`' `xyxy` (pixels of a `width` x `height` frame, e.g. `VideoInfo.resolution_wh`),
    `tracker_id`, `confidence`, `class_id` and `data["class_name"]`; `names` (class id → name, a dict or a list,
    e.g. `model.names`) labels the boxes that have no class name. Detections without a tracker id are left out
    with a warning that counts them. Coordinates are rounded to `decimals` places of a pixel (None keeps every digit).
    """
    builder = RunBuilder(decimals)
    lookup = _names_lookup(names)
    for frame, detections in frames:
        xyxy = as_list(detections.xyxy)
        count = len(xyxy)
        ids = as_list(detections.tracker_id) if detections.tracker_id is not None else [None] * count
        confs = as_list(detections.confidence) if detections.confidence is not None else [None] * count
        classes = as_list(detections.class_id) if detections.class_id is not None else [None] * count
        data = getattr(detections, "data", None) or {}
        class_names = as_list(data["class_name"]) if "class_name" in data else [None] * count
        for corners, tid, conf, cls, class_name in zip(xyxy, ids, confs, classes, class_names):
            class_id = int(cls) if cls is not None else None
            label = str(class_name) if class_name is not None else lookup.get(class_id) if class_id is not None else None
            builder.add(int(frame), tid, corners, conf, class_id, label)
    return builder.run(
        media_key=media_key,
        source_name=source_name,
        width=float(width),
        height=float(height),
        source_version=source_version,
        run_id=run_id,
        name=name,
        fps=fps,
        library="supervision",
    )
