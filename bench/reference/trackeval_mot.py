# Runs TrackEval (HOTA, CLEAR, Identity, Count) on a MOTChallenge folder layout and prints its figures as JSON, in
# the shape `sightline eval --json` prints them. Used by bench/evaluation.bench.ts; TrackEval itself is not ours and
# lives outside the repository (its path is argv[1]).
import contextlib
import io
import json
import sys

trackeval_root, gt_folder, trackers_folder, benchmark = sys.argv[1:5]
sys.path.insert(0, trackeval_root)
import numpy as np  # noqa: E402

# TrackEval prints its progress on stdout: keep stdout for the JSON.
quiet = contextlib.redirect_stdout(io.StringIO())
with quiet:
    import trackeval  # noqa: E402

eval_config = trackeval.Evaluator.get_default_eval_config()
eval_config.update({'USE_PARALLEL': False, 'PRINT_RESULTS': False, 'PRINT_CONFIG': False, 'TIME_PROGRESS': False,
                    'OUTPUT_SUMMARY': False, 'OUTPUT_DETAILED': False, 'PLOT_CURVES': False, 'LOG_ON_ERROR': None})
dataset_config = trackeval.datasets.MotChallenge2DBox.get_default_dataset_config()
dataset_config.update({'GT_FOLDER': gt_folder, 'TRACKERS_FOLDER': trackers_folder, 'TRACKERS_TO_EVAL': ['pred'],
                       'BENCHMARK': benchmark, 'SKIP_SPLIT_FOL': True, 'PRINT_CONFIG': False,
                       'SEQ_INFO': {s: None for s in sys.argv[5:]}})
metrics = [trackeval.metrics.HOTA(), trackeval.metrics.CLEAR({'THRESHOLD': 0.5, 'PRINT_CONFIG': False}),
           trackeval.metrics.Identity({'THRESHOLD': 0.5, 'PRINT_CONFIG': False})]  # Count is always added
with contextlib.redirect_stdout(io.StringIO()):
    evaluator = trackeval.Evaluator(eval_config)
    res, _ = evaluator.evaluate([trackeval.datasets.MotChallenge2DBox(dataset_config)], metrics)
by_seq = res['MotChallenge2DBox']['pred']

ALPHA = ['HOTA', 'DetA', 'AssA', 'DetRe', 'DetPr', 'AssRe', 'AssPr', 'LocA', 'OWTA', 'HOTA_TP', 'HOTA_FN', 'HOTA_FP']


def fields(r):
    out = {}
    for family in r.values():
        for name, value in family.items():
            if isinstance(value, np.ndarray):
                if name in ALPHA[:9]:
                    out[name] = float(np.mean(value))
            elif name not in ('MOTP_sum', 'Frames'):  # an intermediate sum and Count's frame count: not figures
                out[name] = float(value)
    out['alpha'] = {name: [float(v) for v in r['HOTA'][name]] for name in ALPHA}
    return out


print(json.dumps({
    'sequences': [{'name': s, 'combined': fields(by_seq[s]['pedestrian'])} for s in sys.argv[5:]],
    'combined': fields(by_seq['COMBINED_SEQ']['pedestrian']),
}))
