"""Python client of the Sightline API, for detector pipelines. The standard library only."""

from .builders import from_supervision, from_ultralytics
from .client import Client
from .errors import SightlineError
from .results import PostResult
from .split import MAX_TRACKS_PER_RUN, split_run

__all__ = [
    "Client",
    "MAX_TRACKS_PER_RUN",
    "PostResult",
    "SightlineError",
    "from_supervision",
    "from_ultralytics",
    "split_run",
]

__version__ = "0.1.0"
