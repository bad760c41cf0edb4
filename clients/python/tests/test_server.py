"""The client against a running server: the test in the repository's test/clients/ starts one, seeds an
organisation, a user, a recording and a storage account, and passes them in the environment. Without
SIGHTLINE_TEST_URL these tests are skipped."""

import json
import os
import tempfile
import unittest
import urllib.request
from unittest import mock

from sightline_client import Client, SightlineError, transport

URL = os.environ.get("SIGHTLINE_TEST_URL")
ENV = os.environ
URLOPEN = urllib.request.urlopen


def box(frame, x=0.1, y=0.1, w=0.2, h=0.2):
    return {"frame": frame, "x": x, "y": y, "w": w, "h": h}


def run_of(run_id, tracks, **extra):
    return {
        "mediaKey": ENV["SIGHTLINE_TEST_MEDIA_KEY"],
        "schemaVersion": "1.0",
        "source": {"kind": "model", "name": "unittest", "runId": run_id},
        "coordinateSpace": "normalized",
        "tracks": tracks,
        **extra,
    }


class Recorder:
    """Wraps urlopen to record each request's method, path, Content-Encoding, and the answer's status and
    Content-Encoding."""

    def __init__(self):
        self.calls = []

    def __call__(self, request, timeout=None):
        sent = (request.get_method(), request.selector, request.get_header("Content-encoding"))
        try:
            response = URLOPEN(request, timeout=timeout)
        except Exception as err:
            self.calls.append((*sent, getattr(err, "code", None), None))
            raise
        self.calls.append((*sent, response.status, response.headers.get("Content-Encoding")))
        return response


@unittest.skipUnless(URL, "no server: set SIGHTLINE_TEST_URL")
class AgainstServer(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL, token=ENV["SIGHTLINE_TEST_TOKEN"])
        self.media_key = ENV["SIGHTLINE_TEST_MEDIA_KEY"]

    def record(self):
        recorder = Recorder()
        patcher = mock.patch.object(transport.urllib.request, "urlopen", recorder)
        patcher.start()
        self.addCleanup(patcher.stop)
        return recorder

    def test_login_keeps_the_session_token(self):
        client = Client(URL)
        with self.assertRaises(SightlineError) as caught:
            client.list_runs(self.media_key)
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "unauthorized"))
        session = client.login(ENV["SIGHTLINE_TEST_USERNAME"], ENV["SIGHTLINE_TEST_PASSWORD"])
        self.assertEqual(client.token, session["token"])
        self.assertEqual(session["user"]["username"], ENV["SIGHTLINE_TEST_USERNAME"])
        self.assertIsInstance(client.list_runs(self.media_key), list)
        with self.assertRaises(SightlineError) as caught:
            Client(URL).login(ENV["SIGHTLINE_TEST_USERNAME"], "not the password")
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "invalid_credentials"))

    def test_post_list_read_delete_and_run_not_found(self):
        first = self.client.post_run(run_of("life", [{"id": 1, "label": "car", "boxes": [box(0), box(1)]}]))
        self.assertEqual((first.status, first.run_id, first.tracks_stored, first.boxes_stored), (201, "life", 1, 2))
        self.assertEqual((first.rejected, first.warnings), ([], []))
        again = self.client.post_run(run_of("life", [{"id": 1, "label": "car", "boxes": [box(0)]}]))
        self.assertEqual((again.status, again.boxes_stored), (200, 1))

        summaries = {s["runId"]: s for s in self.client.list_runs(self.media_key)}
        self.assertEqual(summaries["life"]["boxesStored"], 1)
        self.assertNotIn("tracks", summaries["life"])

        run = self.client.get_run("life")
        self.assertEqual((run["runId"], run["mediaKey"], run["revision"]), ("life", self.media_key, 2))
        self.assertEqual([b["frame"] for b in run["tracks"][0]["boxes"]], [0])
        older = self.client.get_run("life", media_key=self.media_key, revision=1)
        self.assertEqual([b["frame"] for b in older["tracks"][0]["boxes"]], [0, 1])

        self.assertEqual(self.client.delete_run("life"), {"runId": "life", "mediaKey": self.media_key, "deleted": True})
        with self.assertRaises(SightlineError) as caught:
            self.client.get_run("life")
        error = caught.exception
        self.assertEqual((error.status, error.code), (404, "run_not_found"))
        self.assertIn("life", error.detail)
        self.assertEqual(error.problem["status"], 404)

    def test_a_rejected_box_is_207_with_the_rejection(self):
        run = run_of("partly", [{"id": "a", "boxes": [box(0), box(3, x=2.0)]}, {"id": "b", "boxes": [box(1)]}])
        result = self.client.post_run(run)
        self.assertEqual((result.status, result.tracks_stored, result.boxes_stored), (207, 2, 2))
        self.assertEqual(result.rejected, [{"trackId": "a", "frame": 3, "reason": "box_out_of_frame"}])

    def test_a_run_id_with_reserved_characters_is_one_path_segment(self):
        self.client.post_run(run_of("a b?c#d%e", [{"id": 1, "boxes": [box(0)]}]))
        self.assertEqual(self.client.get_run("a b?c#d%e")["runId"], "a b?c#d%e")
        self.assertTrue(self.client.delete_run("a b?c#d%e")["deleted"])

    def test_a_body_over_one_mib_is_sent_gzip_compressed(self):
        boxes = [box(frame, x=0.123456789, y=0.123456789) for frame in range(20000)]
        large = run_of("large", [{"id": 1, "boxes": boxes}])
        self.assertGreater(len(json.dumps(large, separators=(",", ":"))), transport.COMPRESS_FROM_BYTES)
        recorder = self.record()
        result = self.client.post_run(large)
        self.assertEqual((result.status, result.boxes_stored), (201, 20000))
        self.assertEqual(recorder.calls[-1][2], "gzip")
        small = self.client.post_run(run_of("small", [{"id": 1, "boxes": boxes[:10]}]))
        self.assertEqual(small.status, 201)
        self.assertIsNone(recorder.calls[-1][2])
        # The large answer comes back gzip-coded, and is decoded.
        self.assertEqual(len(self.client.get_run("large")["tracks"][0]["boxes"]), 20000)
        self.assertEqual(recorder.calls[-1][4], "gzip")

    def test_split_posts_sibling_runs(self):
        tracks = [{"id": i, "boxes": [box(0)]} for i in range(5002)]
        with self.assertRaises(SightlineError) as caught:
            self.client.post_run(run_of("many", tracks))
        self.assertEqual(caught.exception.code, "too_many_tracks")
        results = self.client.post_run(run_of("many", tracks, name="many"), split=True)
        self.assertEqual([(r.status, r.run_id, r.tracks_stored) for r in results], [(201, "many", 5000), (201, "many-part-2", 2)])
        summaries = {s["runId"]: s for s in self.client.list_runs(self.media_key)}
        self.assertEqual(summaries["many-part-2"]["name"], "many (part 2/2)")
        self.assertEqual(summaries["many-part-2"]["source"]["name"], "unittest")
        # Without a runId, the parts are named after the one the server gives the first.
        unnamed = run_of(None, tracks)
        del unnamed["source"]["runId"]
        generated = self.client.post_run(unnamed, split=True)
        self.assertEqual([r.run_id for r in generated[1:]], [generated[0].run_id + "-part-2"])
        self.assertEqual(self.client.get_run(generated[1].run_id)["tracksStored"], 2)
        # A part that fails names the parts stored before it.
        broken = tracks[:5000] + [{"id": "out", "boxes": [box(0, x=5.0)]}]
        with self.assertRaises(SightlineError) as caught:
            self.client.post_run(run_of("broken", broken), split=True)
        self.assertEqual((caught.exception.status, caught.exception.code), (400, "all_boxes_rejected"))
        self.assertEqual([r.run_id for r in caught.exception.stored_parts], ["broken"])
        self.assertEqual(caught.exception.problem["rejected"], [{"trackId": "out", "frame": 0, "reason": "box_out_of_frame"}])
        # A run that fits is one part.
        self.assertEqual([r.run_id for r in self.client.post_run(run_of("few", tracks[:3]), split=True)], ["few"])

    def test_import_file_and_export_run(self):
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "results.txt")
            with open(source, "w") as file:
                file.write("1,7,100,50,200,200,0.9,-1,-1,-1\n2,7,110,50,200,200,0.8,-1,-1,-1\nnot,a,row\n")
            result = self.client.import_file(source, "mot", self.media_key, run_id="imported", source_name="tracker")
            self.assertEqual((result.status, result.run_id, result.boxes_stored), (207, "imported", 2))
            self.assertEqual(result.rejected[0]["reason"], "row_malformed")
            self.assertEqual(result.rejected[0]["line"], 3)
            self.assertEqual(self.client.get_run("imported")["source"]["name"], "tracker")

            target = os.path.join(folder, "out.txt")
            filename = self.client.export_run("imported", "mot", target)
            self.assertEqual(filename, "imported.txt")
            with open(target) as file:
                rows = file.read().splitlines()
            self.assertEqual([row.split(",")[:2] for row in rows], [["1", "7"], ["2", "7"]])

            missing = os.path.join(folder, "missing.txt")
            with self.assertRaises(SightlineError) as caught:
                self.client.export_run("no-such-run", "mot", missing)
            self.assertEqual(caught.exception.code, "run_not_found")
            self.assertFalse(os.path.exists(missing) or os.path.exists(missing + ".part"))

    def test_evaluate_waits_for_a_running_evaluation(self):
        tracks = [{"id": 1, "label": "car", "boxes": [box(f) for f in range(5)]}]
        self.client.post_run(run_of("truth", tracks))
        self.client.post_run(run_of("guess", tracks))
        recorder = self.record()
        evaluation = self.client.evaluate(
            media_key=self.media_key, ground_truth="truth", predictions=["guess"], metrics=["clear", "identity"], poll_interval=0.05
        )
        self.assertEqual(evaluation["status"], "complete")
        self.assertEqual(evaluation["results"][0]["combined"]["MOTA"], 1.0)
        self.assertEqual(evaluation["results"][0]["combined"]["IDF1"], 1.0)
        # The server answers 202 at once (EVALUATION_SYNC_MS=0), so the client polled.
        self.assertEqual((recorder.calls[0][0], recorder.calls[0][3]), ("POST", 202))
        self.assertGreater(len(recorder.calls), 1)
        self.assertTrue(all(method == "GET" for method, *_ in recorder.calls[1:]))
        with self.assertRaises(SightlineError) as caught:
            self.client.evaluate(media_key=self.media_key, ground_truth="truth", predictions=["guess"], iou_threshold=2)
        self.assertEqual(caught.exception.code, "invalid_field")

    def test_signed_urls(self):
        key, secret = ENV["SIGHTLINE_TEST_STORAGE_ACCESS_KEY"], ENV["SIGHTLINE_TEST_STORAGE_SECRET"]
        url = self.client.signed_url(key, secret, "alice/clip.mp4", expiry="30m")
        self.assertIn("/api/storage/signed?", url)
        with urllib.request.urlopen(url) as response:
            self.assertEqual(response.read(), b"clip bytes")
        urls = self.client.signed_urls(key, secret, ["alice/clip.mp4", {"filename": "bob/b.mp4", "provider": "s3"}])
        self.assertEqual(sorted(urls), ["alice/clip.mp4", "bob/b.mp4"])
        self.assertIn("X-Amz-Signature=", urls["bob/b.mp4"])
        self.assertIn("/api/storage/signed?", urls["alice/clip.mp4"])
        with self.assertRaises(SightlineError) as caught:
            self.client.signed_url(key, "wrong secret", "alice/clip.mp4")
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "invalid_credentials"))


if __name__ == "__main__":
    unittest.main()
