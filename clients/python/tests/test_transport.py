"""The client's HTTP pieces that need no server: query strings, path segments, compression, error answers."""

import gzip
import io
import unittest
import urllib.error
from email.message import Message

from sightline_client import SightlineError
from sightline_client.client import camel, camel_keys
from sightline_client.transport import encode_body, error_from, path_segment, query_string


def http_error(status, content_type, body):
    headers = Message()
    headers["Content-Type"] = content_type
    return urllib.error.HTTPError("http://x/", status, "Reason", headers, io.BytesIO(body))


class Transport(unittest.TestCase):
    def test_query_strings_leave_out_none_and_spell_booleans_as_the_api(self):
        self.assertEqual(query_string({"mediaKey": "a/b c", "revision": None, "interpolate": True}), "?mediaKey=a%2Fb+c&interpolate=true")
        self.assertEqual(query_string({"revision": None}), "")
        self.assertEqual(path_segment("a/b?c#d e"), "a%2Fb%3Fc%23d%20e")

    def test_bodies_past_the_threshold_are_gzip_compressed(self):
        headers = {}
        self.assertEqual(encode_body(b"x" * 10, headers, compress_from=10), b"x" * 10)
        self.assertEqual(headers, {})
        sent = encode_body(b"x" * 11, headers, compress_from=10)
        self.assertEqual(headers, {"Content-Encoding": "gzip"})
        self.assertEqual(gzip.decompress(sent), b"x" * 11)

    def test_a_problem_answer_becomes_a_sightline_error(self):
        body = b'{"type":"about:blank","title":"Not Found","status":404,"detail":"No run \\"x\\"","code":"run_not_found"}'
        error = error_from(http_error(404, "application/problem+json; charset=utf-8", body))
        self.assertIsInstance(error, SightlineError)
        self.assertEqual((error.status, error.code, error.detail), (404, "run_not_found", 'No run "x"'))
        self.assertEqual(error.problem["title"], "Not Found")
        self.assertIn("run_not_found", str(error))

    def test_an_answer_that_is_not_a_problem_keeps_its_text(self):
        error = error_from(http_error(502, "text/html", b"<html>Bad gateway</html>"))
        self.assertEqual((error.status, error.code, error.detail, error.problem), (502, None, "<html>Bad gateway</html>", {}))

    def test_keywords_in_python_spelling_become_the_api_members(self):
        self.assertEqual(camel("source_name"), "sourceName")
        self.assertEqual(camel("runId"), "runId")
        self.assertEqual(
            camel_keys({"ground_truth": {"source_name": "gt"}, "recordings": {"media_keys": ["a_b"]}}),
            {"groundTruth": {"sourceName": "gt"}, "recordings": {"mediaKeys": ["a_b"]}},
        )


if __name__ == "__main__":
    unittest.main()
