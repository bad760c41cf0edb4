"""Splitting a run past the 5000-track limit into sibling runs (no server)."""

import unittest

from sightline_client import MAX_TRACKS_PER_RUN, split_run


def run_of(tracks, run_id="big", name=None):
    run = {
        "mediaKey": "k",
        "schemaVersion": "1.0",
        "source": {"name": "det", "runId": run_id},
        "coordinateSpace": "normalized",
        "tracks": [{"id": str(i), "boxes": [{"frame": 0, "x": 0.1, "y": 0.1, "w": 0.1, "h": 0.1}]} for i in range(tracks)],
    }
    if name is not None:
        run["name"] = name
    return run


class SplitRun(unittest.TestCase):
    def test_a_run_that_fits_is_left_as_it_is(self):
        run = run_of(MAX_TRACKS_PER_RUN)
        self.assertEqual(split_run(run), [run])

    def test_parts_keep_the_source_and_take_numbered_run_ids(self):
        run = run_of(2 * MAX_TRACKS_PER_RUN + 1, name="night")
        parts = split_run(run)
        self.assertEqual([p["source"]["runId"] for p in parts], ["big", "big-part-2", "big-part-3"])
        self.assertEqual([len(p["tracks"]) for p in parts], [5000, 5000, 1])
        self.assertEqual([p["name"] for p in parts], ["night (part 1/3)", "night (part 2/3)", "night (part 3/3)"])
        self.assertTrue(all(p["source"]["name"] == "det" and p["mediaKey"] == "k" for p in parts))
        self.assertEqual([t["id"] for p in parts for t in p["tracks"]], [t["id"] for t in run["tracks"]])
        # The run itself is not changed.
        self.assertEqual(run["source"]["runId"], "big")

    def test_refuses_what_the_api_would_refuse_before_anything_is_sent(self):
        with self.assertRaisesRegex(ValueError, "longer than 128 bytes"):
            split_run(run_of(MAX_TRACKS_PER_RUN + 1, run_id="r" * 122))
        with self.assertRaisesRegex(ValueError, "longer than 128 bytes"):
            split_run(run_of(MAX_TRACKS_PER_RUN + 1, name="n" * 118))
        with self.assertRaisesRegex(ValueError, "source.runId"):
            split_run(run_of(MAX_TRACKS_PER_RUN + 1, run_id=None))

    def test_a_small_limit_splits_evenly(self):
        parts = split_run(run_of(5, run_id="r"), max_tracks=2)
        self.assertEqual([len(p["tracks"]) for p in parts], [2, 2, 1])


if __name__ == "__main__":
    unittest.main()
