"""A stand-in for the ultralytics package, as far as the pipeline in docs/clients.md uses it: YOLO(weights),
model.track(stream=True) yielding one Results per frame, model(frame) answering a list of Results."""

from stand_ins import Array, Boxes, Results

__version__ = "8.1.0"
FRAMES = 5


def result_of(frame):
    boxes = Boxes(Array([[10.0 + frame, 20.0, 110.0 + frame, 220.0]]), id=Array([1.0]), conf=Array([0.9]), cls=Array([0.0]))
    return Results(boxes, {0: "person"}, orig_shape=(480, 640))


class YOLO:
    def __init__(self, weights):
        self.names = {0: "person"}

    def track(self, source, stream=False, persist=False, tracker=None, verbose=True):
        return (result_of(frame) for frame in range(FRAMES))

    def __call__(self, frame, verbose=True):
        return [result_of(frame)]
