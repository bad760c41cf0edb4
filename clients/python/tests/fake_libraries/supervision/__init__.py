"""A stand-in for the supervision package, as far as the pipeline in docs/clients.md uses it."""

from stand_ins import Array
from stand_ins import Detections as _Detections

FRAMES = 4


class Detections(_Detections):
    @classmethod
    def from_ultralytics(cls, result):
        boxes = result.boxes
        classes = [int(c) for c in boxes.cls.tolist()]
        names = [result.names[c] for c in classes]
        return cls(boxes.xyxy, boxes.conf, Array(classes), None, {"class_name": Array(names)})


class ByteTrack:
    def update_with_detections(self, detections):
        detections.tracker_id = Array([3] * len(detections.xyxy))
        return detections


class VideoInfo:
    def __init__(self):
        self.width, self.height, self.fps = 640, 480, 25

    @classmethod
    def from_video_path(cls, path):
        return cls()


def get_video_frames_generator(path):
    # The fake model takes the frame's index for the frame itself.
    return iter(range(FRAMES))
