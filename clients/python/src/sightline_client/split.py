"""Splitting a run of more than 5000 tracks into sibling runs, as the API asks for runs past its track limit.

The API takes at most 5000 tracks a run and does no chunking itself: a larger run is several runs of the same
recording that share `source.name`, which the editor shows as sibling layers. The first part keeps the run's own
runId (so a run that fits is posted unchanged and stays addressable by it); part k > 1 is `<runId>-part-k`. With a
`name`, every part's name says which part it is: `<name> (part k/n)`.
"""

import copy
from typing import Any, Dict, List

MAX_TRACKS_PER_RUN = 5000
# The API's limits on a runId and a run's name, in UTF-8 bytes.
MAX_RUN_ID_BYTES = 128
MAX_NAME_BYTES = 128


def part_run_id(run_id: str, part: int) -> str:
    """The runId of part `part` (1-based) of a split run."""
    return run_id if part == 1 else f"{run_id}-part-{part}"


def part_name(name: str, part: int, parts: int) -> str:
    return f"{name} (part {part}/{parts})"


def split_run(run: Dict[str, Any], max_tracks: int = MAX_TRACKS_PER_RUN) -> List[Dict[str, Any]]:
    """The run as sibling runs of at most `max_tracks` tracks each, in track order; the run itself when it fits.

    The run needs `source.runId` to be split (the caller asks the server for one first when it has none); a part's
    runId or name that the API would refuse as too long is a ValueError before anything is sent.
    """
    tracks = run.get("tracks")
    if not isinstance(tracks, list) or len(tracks) <= max_tracks:
        return [run]
    source = run.get("source")
    run_id = source.get("runId") if isinstance(source, dict) else None
    if not isinstance(run_id, str) or not run_id:
        raise ValueError("a run is split only with a source.runId (its parts are named after it)")
    parts = (len(tracks) + max_tracks - 1) // max_tracks
    last_id = part_run_id(run_id, parts)
    if len(last_id.encode("utf-8")) > MAX_RUN_ID_BYTES:
        raise ValueError(f"the runId of part {parts}, {last_id!r}, is longer than {MAX_RUN_ID_BYTES} bytes")
    name = run.get("name")
    if isinstance(name, str) and len(part_name(name, parts, parts).encode("utf-8")) > MAX_NAME_BYTES:
        raise ValueError(f"the name of a part, {part_name(name, parts, parts)!r}, is longer than {MAX_NAME_BYTES} bytes")
    # Everything but the tracks is shared by the parts; copied so that no part's change reaches another.
    shell = {key: value for key, value in run.items() if key != "tracks"}
    out = []
    for index in range(parts):
        part = copy.deepcopy(shell)
        part["source"]["runId"] = part_run_id(run_id, index + 1)
        if isinstance(name, str):
            part["name"] = part_name(name, index + 1, parts)
        part["tracks"] = tracks[index * max_tracks : (index + 1) * max_tracks]
        out.append(part)
    return out
