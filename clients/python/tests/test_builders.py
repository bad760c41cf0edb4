"""The builders over stand-ins of ultralytics' Results and supervision's Detections (no server)."""

import unittest
import warnings

from sightline_client import from_supervision, from_ultralytics
from stand_ins import Array, Boxes, Detections, Results

NAMES = {0: "person", 2: "car"}


def ultralytics_frames():
    # Three frames of model.track(stream=True): tensors (Array) of floats, as ultralytics gives them.
    return [
        Results(
            Boxes(
                Array([[100.0, 50.0, 300.0, 250.0], [10.0, 20.0, 30.0, 40.0]]),
                id=Array([1.0, 2.0]),
                conf=Array([0.9, 0.5]),
                cls=Array([0.0, 2.0]),
            ),
            NAMES,
        ),
        Results(
            Boxes(Array([[110.0, 50.0, 310.0, 250.0]]), id=Array([1.0]), conf=Array([0.8]), cls=Array([2.0])),
            NAMES,
        ),
        Results(Boxes(Array([]), id=None, conf=Array([]), cls=Array([])), NAMES),
    ]


class FromUltralytics(unittest.TestCase):
    def test_builds_a_pixel_run_with_tracks_in_order_of_first_appearance(self):
        run = from_ultralytics(ultralytics_frames(), "cam/1.mp4", "yolov8n", source_version="8.1.0", run_id="r1")
        self.assertEqual(run["mediaKey"], "cam/1.mp4")
        self.assertEqual(run["schemaVersion"], "1.0")
        self.assertEqual(run["coordinateSpace"], "pixel")
        self.assertEqual(run["media"], {"width": 1000.0, "height": 500.0})
        self.assertEqual(run["source"], {"kind": "model", "name": "yolov8n", "version": "8.1.0", "runId": "r1"})
        self.assertEqual([t["id"] for t in run["tracks"]], ["1", "2"])
        first, second = run["tracks"]
        self.assertEqual(first["label"], "person")
        self.assertEqual(first["classId"], 0)
        self.assertEqual(
            first["boxes"],
            [
                {"frame": 0, "x1": 100.0, "y1": 50.0, "x2": 300.0, "y2": 250.0, "confidence": 0.9},
                # The tracker relabelled the object: the box says its own class.
                {
                    "frame": 1,
                    "x1": 110.0,
                    "y1": 50.0,
                    "x2": 310.0,
                    "y2": 250.0,
                    "confidence": 0.8,
                    "label": "car",
                    "classId": 2,
                },
            ],
        )
        self.assertEqual(second["label"], "car")
        self.assertEqual(second["boxes"][0]["frame"], 0)

    def test_takes_the_frames_given_and_plain_lists(self):
        results = [
            Results(Boxes([[0, 0, 10, 10]], id=[7], conf=[0.5], cls=[0]), NAMES, orig_shape=[480, 640]),
            Results(Boxes([[0, 0, 10, 10]], id=[7], conf=[0.5], cls=[0]), NAMES, orig_shape=[480, 640]),
        ]
        run = from_ultralytics(results, "k", frames=[10, 20], name="night", fps=25)
        self.assertEqual([b["frame"] for b in run["tracks"][0]["boxes"]], [10, 20])
        self.assertEqual(run["media"], {"width": 640.0, "height": 480.0, "fps": 25})
        self.assertEqual(run["name"], "night")
        self.assertEqual(run["source"]["name"], "ultralytics")

    def test_rounds_coordinates_to_a_hundredth_of_a_pixel_unless_told(self):
        results = [Results(Boxes(Array([[100.123456, 50.005001, 300.5, 250.0]]), id=Array([1.0]), conf=Array([0.123456789]), cls=Array([0.0])), NAMES)]
        box = from_ultralytics(results, "k")["tracks"][0]["boxes"][0]
        self.assertEqual((box["x1"], box["y1"], box["x2"], box["confidence"]), (100.12, 50.01, 300.5, 0.123456789))
        box = from_ultralytics(results, "k", decimals=None)["tracks"][0]["boxes"][0]
        self.assertEqual((box["x1"], box["y1"]), (100.123456, 50.005001))
        frames = [(0, Detections([[1.23456, 2, 3, 4]], tracker_id=[1]))]
        self.assertEqual(from_supervision(frames, "k", width=9, height=9, decimals=1)["tracks"][0]["boxes"][0]["x1"], 1.2)

    def test_counts_boxes_without_a_track_id_in_a_warning(self):
        results = ultralytics_frames()
        results[1].boxes.id = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = from_ultralytics(results, "k")
        self.assertEqual(len(caught), 1)
        self.assertIn("1 box(es) without a track id", str(caught[0].message))
        self.assertEqual(sum(len(t["boxes"]) for t in run["tracks"]), 2)

    def test_refuses_frames_of_different_sizes_and_no_frames(self):
        results = ultralytics_frames()
        results[2].orig_shape = (720, 1280)
        with self.assertRaisesRegex(ValueError, "frame 2 is 1280x720"):
            from_ultralytics(results, "k")
        with self.assertRaises(ValueError):
            from_ultralytics([], "k")
        with self.assertRaisesRegex(ValueError, "frames ends"):
            from_ultralytics(ultralytics_frames(), "k", frames=[0])


class FromSupervision(unittest.TestCase):
    def test_builds_a_run_from_frame_and_detections_pairs(self):
        frames = [
            (
                0,
                Detections(
                    Array([[100, 50, 300, 250], [1, 2, 3, 4]]),
                    confidence=Array([0.75, 0.5]),
                    class_id=Array([2, 0]),
                    tracker_id=Array([4, 9]),
                    data={"class_name": Array(["car", "person"])},
                ),
            ),
            (5, Detections(Array([[120, 50, 320, 250]]), Array([0.7]), Array([2]), Array([4]), {"class_name": Array(["car"])})),
        ]
        run = from_supervision(frames, "cam/2.mp4", "yolov8+bytetrack", width=1000, height=500, run_id="sv")
        self.assertEqual(run["media"], {"width": 1000.0, "height": 500.0})
        self.assertEqual(run["source"], {"kind": "model", "name": "yolov8+bytetrack", "runId": "sv"})
        car, person = run["tracks"]
        self.assertEqual((car["id"], car["label"], car["classId"]), ("4", "car", 2))
        self.assertEqual([b["frame"] for b in car["boxes"]], [0, 5])
        self.assertEqual(car["boxes"][1], {"frame": 5, "x1": 120.0, "y1": 50.0, "x2": 320.0, "y2": 250.0, "confidence": 0.7})
        self.assertEqual((person["id"], person["label"]), ("9", "person"))

    def test_labels_from_names_without_class_name_and_leaves_untracked_out(self):
        frames = [
            (0, Detections([[0, 0, 5, 5]], confidence=None, class_id=[1], tracker_id=[3])),
            (1, Detections([[0, 0, 5, 5]], confidence=[0.4], class_id=[1], tracker_id=None)),
        ]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = from_supervision(frames, "k", width=10, height=10, names=["person", "bicycle"])
        self.assertEqual(run["tracks"], [{"id": "3", "label": "bicycle", "classId": 1, "boxes": [
            {"frame": 0, "x1": 0.0, "y1": 0.0, "x2": 5.0, "y2": 5.0}
        ]}])
        self.assertEqual(len(caught), 1)
        self.assertIn("1 box(es)", str(caught[0].message))


if __name__ == "__main__":
    unittest.main()
