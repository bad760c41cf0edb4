# Runs pycocotools' COCOeval (bbox, default parameters) on an instances file and a results file and prints the 12
# stats as JSON, named as `sightline eval --json` names them. Used by bench/evaluation.bench.ts.
import contextlib
import io
import json
import sys

from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

NAMES = ['AP', 'AP50', 'AP75', 'APs', 'APm', 'APl', 'AR1', 'AR10', 'AR100', 'ARs', 'ARm', 'ARl']
with contextlib.redirect_stdout(io.StringIO()):
    gt = COCO(sys.argv[1])
    dt = gt.loadRes(sys.argv[2])
    ev = COCOeval(gt, dt, iouType='bbox')
    ev.evaluate()
    ev.accumulate()
    ev.summarize()
print(json.dumps({'combined': {n: float(v) for n, v in zip(NAMES, ev.stats)}}))
