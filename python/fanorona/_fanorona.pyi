"""Type stubs of the native module (re-exported by ``fanorona``)."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

StrPath = Union[str, "PathLike[str]"]

INPUTS: int
__version__: str

class Position:
    """A Fanorona position: the stones of both sides and the side to move (immutable)."""

    def __init__(self, text: str) -> None:
        """Reads a position string (``start`` for the start); raises ValueError naming what
        is wrong."""
    @staticmethod
    def start() -> "Position":
        """The start position, White to move."""
    def legal_moves(self) -> List[str]:
        """Every legal turn in notation (a capture's whole chain, ``d3e3+,e3f4-``)."""
    def play(self, turn: str) -> "Position":
        """The position after ``turn``; raises ValueError naming the rule it breaks."""
    def is_game_over(self) -> bool:
        """Whether the side to move has no stones or no legal turn."""
    def encode(self) -> npt.NDArray[np.uint8]:
        """The network input, ``uint8 [90]``: the engine's stone planes, side to move's view."""
    def mirror(self) -> "Position":
        """The position mirrored left-right, same side to move."""
    @property
    def turn(self) -> str:
        """``"white"`` or ``"black"``."""
    def diagram(self) -> str:
        """The board as text."""
    def __str__(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """One recorded game."""

    @property
    def header(self) -> Dict[str, Any]:
        """The file's header: file, program, kind, config, seed, shard, shard_count, shards,
        format_version."""
    @property
    def number(self) -> int:
        """The game's number in its file, from 0."""
    @property
    def index(self) -> int:
        """The game's index in its run."""
    @property
    def white(self) -> str: ...
    @property
    def black(self) -> str: ...
    @property
    def start(self) -> Position: ...
    @property
    def turns(self) -> List[str]:
        """The turns in notation."""
    @property
    def scores(self) -> List[Optional[int]]:
        """Search score of every turn (centi-stones, mover's view), None where none."""
    @property
    def depths(self) -> List[Optional[int]]: ...
    @property
    def exploration(self) -> List[bool]: ...
    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def termination(self) -> str: ...
    def positions(self) -> List[Position]:
        """The position before every turn."""
    def final_position(self) -> Position: ...
    def __len__(self) -> int: ...

class GameReader(Iterator[Game]):
    """The games of one record file."""

    @property
    def header(self) -> Dict[str, Any]: ...
    def __iter__(self) -> "GameReader": ...
    def __next__(self) -> Game: ...

def read_games(path: StrPath) -> GameReader:
    """The games of a record file, one at a time (ValueError for a damaged file, OSError for
    one that cannot be read)."""

SampleBatch = Dict[str, npt.NDArray[Any]]

class SampleBatches(Iterator[SampleBatch]):
    def __iter__(self) -> "SampleBatches": ...
    def __next__(self) -> SampleBatch: ...

def samples(
    paths: Union[StrPath, Sequence[StrPath]],
    batch_size: int = 1024,
    shuffle_buffer: int = 0,
    seed: int = 1,
    *,
    target: str = "blend",
    score_weight: float = 0.5,
    score_scale: float = 400.0,
    skip_plies: int = 0,
    dedup: bool = False,
    mirror: bool = False,
    quiet_only: bool = False,
    max_score: int = 0,
) -> SampleBatches:
    """Batches of training samples: dicts with ``inputs`` (uint8 [n, 90]), ``result`` (int8),
    ``score`` (int32), ``has_score`` (bool), ``target`` (float32), ``ply`` (uint32), ``game``
    (uint64), ``stm`` (uint8), ``mirrored`` (bool). Game then ply order without a shuffle
    buffer. The sample options are those of ``fanorona train``."""

class Network:
    """The engine's value network: ``y = x @ W + b`` layers, crelu/relu hidden, tanh output."""

    @staticmethod
    def load(path: StrPath) -> "Network":
        """Reads a ``.fnet`` file (OSError: unreadable; ValueError: not a valid network)."""
    @staticmethod
    def from_layers(
        layers: Sequence[Tuple[npt.ArrayLike, npt.ArrayLike]],
        description: str = "",
        activation: str = "crelu",
    ) -> "Network":
        """From ``[(W, b), ...]``, ``W`` shaped ``[inputs, outputs]``; the first layer takes
        90 inputs, the last gives 1 output. ValueError for wrong shapes or NaN weights."""
    def save(self, path: StrPath) -> None:
        """Writes the ``.fnet`` file (temporary, then renamed)."""
    def layers(self) -> List[Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]: ...
    def evaluate(self, position: Position) -> float:
        """Value in [-1, 1] for the side to move (float network)."""
    def score(self, position: Position) -> int:
        """Centi-stones for the side to move, as the search gets it (``fanorona net eval``)."""
    def forward(self, inputs: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Float values of a batch ``[n, 90]``."""
    @property
    def architecture(self) -> str: ...
    @property
    def activation(self) -> str: ...
    @property
    def hidden(self) -> List[int]: ...
    @property
    def buckets(self) -> int:
        """Output buckets: 1, or one output per bucket of stone counts (the last layer's width)."""
    @property
    def description(self) -> str: ...
    @property
    def parameter_count(self) -> int: ...
    @property
    def checksum(self) -> int: ...

def weight_limits(k: int, layers: int) -> Tuple[float, float]:
    """The magnitudes ``(weights, biases)`` to clip layer ``k`` of ``layers`` to, so that the
    engine runs a clipped-ReLU network in integers."""
