"""The pipeline examples of docs/clients.md run as written, over stand-ins of ultralytics and supervision and a
client that records what it would post instead of posting it (no server)."""

import os
import re
import sys
import unittest
from unittest import mock

from sightline_client import Client, PostResult

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "clients.md")
FAKES = os.path.join(os.path.dirname(__file__), "fake_libraries")


def pipeline_examples():
    with open(DOC, encoding="utf-8") as file:
        blocks = re.findall(r"```python\n(.*?)```", file.read(), re.S)
    return [block for block in blocks if "from_ultralytics(\n" in block or "from_supervision(\n" in block]


@unittest.skipUnless(os.path.exists(DOC), "docs/clients.md is not beside this package")
class DocsExamples(unittest.TestCase):
    def setUp(self):
        sys.path.insert(0, FAKES)
        self.addCleanup(sys.path.remove, FAKES)
        for name in ("ultralytics", "supervision"):
            self.addCleanup(sys.modules.pop, name, None)
        self.posted = []

        def post_run(client, run, split=False):
            self.posted.append(run)
            result = PostResult(201, {"runId": run["source"]["runId"], "tracksStored": 1, "boxesStored": 1, "rejected": [], "warnings": []})
            return [result] if split else result

        for name, replacement in (("post_run", post_run), ("login", lambda client, username, password: None)):
            patcher = mock.patch.object(Client, name, replacement)
            patcher.start()
            self.addCleanup(patcher.stop)

    def test_each_builder_has_a_pipeline_that_runs(self):
        examples = pipeline_examples()
        self.assertEqual(len(examples), 2)
        for example in examples:
            with mock.patch("builtins.print"):
                exec(compile(example, DOC, "exec"), {"__name__": "docs_example"})
        ultralytics_run, supervision_run = self.posted
        self.assertEqual(ultralytics_run["source"], {"kind": "model", "name": "yolov8n", "version": "8.1.0", "runId": "yolov8n-bytetrack"})
        self.assertEqual(ultralytics_run["media"], {"width": 640.0, "height": 480.0})
        self.assertEqual([b["frame"] for b in ultralytics_run["tracks"][0]["boxes"]], [0, 1, 2, 3, 4])
        self.assertEqual(supervision_run["source"]["runId"], "sv-bytetrack")
        self.assertEqual(supervision_run["media"], {"width": 640.0, "height": 480.0, "fps": 25})
        self.assertEqual(supervision_run["tracks"][0]["label"], "person")
        self.assertEqual([b["frame"] for b in supervision_run["tracks"][0]["boxes"]], [0, 1, 2, 3])


if __name__ == "__main__":
    unittest.main()
