"""Fanorona from Python: positions of the rules, record files, training samples as numpy
arrays (the schema of ``fanorona data export --format npz``) and the engine's value networks.

>>> import fanorona
>>> p = fanorona.Position.start()
>>> len(p.legal_moves())
5
"""

from ._fanorona import (
    INPUTS,
    Game,
    GameReader,
    Network,
    Position,
    SampleBatches,
    __version__,
    read_games,
    samples,
    weight_limits,
)

__all__ = [
    "INPUTS",
    "Game",
    "GameReader",
    "Network",
    "Position",
    "SampleBatches",
    "__version__",
    "read_games",
    "samples",
    "weight_limits",
]
