"""Fanorona from Python: positions and whole games under the project's rules (with a fixed
action numbering for policies and environments), record files, training samples as numpy
arrays (the schema of ``fanorona data export --format npz``), the engine's value networks and
its search, in-process.

>>> import fanorona
>>> p = fanorona.Position.start()
>>> len(p.legal_moves())
5
>>> fanorona.Game().legal_actions()
[292, 313, 358, 511, 512]

``fanorona.env`` has the PettingZoo and Gymnasium environments (``pip install pettingzoo``);
``fanorona.torch`` a PyTorch dataset of the samples (``pip install torch``).
"""

from ._fanorona import (
    ACTIONS,
    INPUTS,
    STONE_INPUTS,
    STOP,
    Engine,
    Game,
    GameReader,
    Network,
    Position,
    RecordedGame,
    SampleBatches,
    __version__,
    action_masks,
    action_name,
    read_games,
    samples,
    weight_limits,
)

__all__ = [
    "ACTIONS",
    "INPUTS",
    "STONE_INPUTS",
    "STOP",
    "Engine",
    "Game",
    "GameReader",
    "Network",
    "Position",
    "RecordedGame",
    "SampleBatches",
    "__version__",
    "action_masks",
    "action_name",
    "read_games",
    "samples",
    "weight_limits",
]
