"""Type stubs of the native module (re-exported by ``fanorona``)."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

StrPath = Union[str, "PathLike[str]"]

INPUTS: int
"""Inputs of the default encoding (threats): 180."""
STONE_INPUTS: int
"""Inputs of the stone planes: 90."""
ACTIONS: int
"""Actions of the numbering (``Game.step``, the npz's ``action``): 1080 steps and ``STOP``."""
STOP: int
"""The action that ends a capture chain that could go on: 1080."""
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
    def encode(self, encoding: str = "threats") -> npt.NDArray[np.uint8]:
        """The network input, side to move's view: ``uint8 [180]`` (``"threats"``, the
        trainer's default) or ``[90]`` (``"stones"``)."""
    @staticmethod
    def from_inputs(inputs: npt.ArrayLike, turn: str = "white") -> "Position":
        """The position of an input row (90 or 180 values) with ``turn`` to move; ValueError for
        a row no position encodes."""
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
    """A whole game under the rules (draw rules included), played by turns (``play``) or by
    actions (``step``)."""

    def __init__(self, start: Union[None, str, Position] = None, max_quiet_plies: int = 50,
                 max_plies: int = 300) -> None: ...
    @property
    def position(self) -> Position:
        """The position before the turn to be played (before a chain in progress)."""
    @property
    def board(self) -> Position:
        """The board after the steps of the turn in progress, the same side to move."""
    @property
    def start(self) -> Position: ...
    @property
    def turn(self) -> str:
        """``"white"`` or ``"black"``."""
    def legal_moves(self) -> List[str]:
        """Legal turns in notation; none once the game is over."""
    def play(self, turn: str) -> None:
        """Plays a whole turn; ValueError naming the rule it breaks, or when the game is over."""
    def undo(self) -> bool:
        """Takes back the chain in progress, else the last turn; False when there is none."""
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> Optional[str]:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or None while the game goes on."""
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def termination(self) -> Optional[str]:
        """Why the game ended, e.g. ``"threefold repetition"``; None while it goes on."""
    @property
    def history(self) -> List[str]:
        """The turns played, in notation."""
    def positions(self) -> List[Position]:
        """Every position, the start first."""
    @property
    def ply(self) -> int: ...
    @property
    def quiet_plies(self) -> int: ...
    @property
    def repetitions(self) -> int: ...
    @property
    def rules(self) -> Tuple[int, int]:
        """``(max_quiet_plies, max_plies)``."""
    def legal_actions(self) -> List[int]:
        """The legal actions now, ascending."""
    def action_mask(self) -> npt.NDArray[np.uint8]:
        """``uint8 [ACTIONS]``, 1 where legal."""
    def step(self, action: int) -> Optional[str]:
        """Plays one action; the turn in notation when it is complete, else None. ValueError
        for an action out of range or not legal."""
    def turn_actions(self, turn: str) -> List[int]:
        """The actions of ``turn``: its steps, then ``STOP`` when a longer chain was legal."""
    def observation(self, encoding: str = "threats", view: Optional[str] = None) -> npt.NDArray[np.uint8]:
        """``board``'s input from ``view``'s side, then the capturing stone and the points it
        has stood on this turn (45 each)."""
    def copy(self) -> "Game": ...

def action_masks(items: Sequence[Union[Game, Position]]) -> npt.NDArray[np.uint8]:
    """``uint8 [n, ACTIONS]``: each game's or position's legal actions."""

def action_name(action: int, turn: str = "white") -> str:
    """A step in notation as ``turn`` plays it (``'d3e3+'``), or ``'stop'``."""

class Engine:
    """A player of the engine from a spec as the command line takes it."""

    def __init__(self, spec: str, network: Optional["Network"] = None, seed: int = 0) -> None:
        """ValueError with the command line's message for a bad spec; ``network`` replaces
        the spec's ``eval=`` (an alphabeta spec)."""
    @property
    def name(self) -> str: ...
    def search(self, game: Union[Game, Position], *, depth: Optional[int] = None, nodes: Optional[int] = None,
               movetime: Optional[int] = None) -> Dict[str, Any]:
        """Searches (releasing the GIL): ``best``, ``score``, ``depth``, ``nodes``, ``pv``,
        ``seconds``. ValueError when the game is over."""
    def new_game(self) -> None: ...

class RecordedGame:
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
    def replay(self, max_quiet_plies: int = 50, max_plies: int = 300) -> Game:
        """The game as a ``Game`` under these draw rules."""
    def __len__(self) -> int: ...

class GameReader(Iterator[RecordedGame]):
    """The games of one record file."""

    @property
    def header(self) -> Dict[str, Any]: ...
    def __iter__(self) -> "GameReader": ...
    def __next__(self) -> RecordedGame: ...

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
    encoding: str = "threats",
    target: str = "blend",
    score_weight: float = 0.5,
    score_scale: float = 400.0,
    skip_plies: int = 0,
    dedup: bool = False,
    mirror: bool = False,
    quiet_only: bool = False,
    max_score: int = 0,
    split: str = "all",
    val_fraction: float = 0.1,
    worker: Optional[Tuple[int, int]] = None,
) -> SampleBatches:
    """Batches of training samples: dicts with ``inputs`` (uint8 [n, 180], [n, 90] for
    ``encoding="stones"``), ``result`` (int8), ``score`` (int32), ``has_score`` (bool),
    ``target`` (float32), ``ply`` (uint32), ``game`` (uint64), ``stm`` (uint8), ``mirrored``
    (bool), ``action`` (uint16), ``depth`` (uint16), ``exploration`` (bool), ``plies_left``
    (uint32). Game then ply order without a shuffle buffer. The sample options are those of
    ``fanorona train``; ``split`` ("train", "validation") its split of games; ``worker=(i, n)``
    one of ``n`` disjoint shares of the games."""

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
        encoding: Optional[str] = None,
    ) -> "Network":
        """From ``[(W, b), ...]``, ``W`` shaped ``[inputs, outputs]``; the first layer takes
        180 inputs (threats) or 90 (stones): the encoding is the one of its width unless
        given; the last gives 1 output per bucket. ValueError for wrong shapes or NaN weights."""
    def save(self, path: StrPath) -> None:
        """Writes the ``.fnet`` file (temporary, then renamed); ValueError naming the layer and
        the limit for a network the engine would refuse."""
    @property
    def engine_error(self) -> Optional[str]:
        """None when the engine loads the network, else why it would refuse it."""
    @property
    def encoding(self) -> str:
        """``"threats"`` (180 inputs) or ``"stones"`` (90)."""
    def layers(self) -> List[Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]: ...
    def evaluate(self, position: Position) -> float:
        """Value in [-1, 1] for the side to move (float network)."""
    def score(self, position: Position) -> int:
        """Centi-stones for the side to move, as the search gets it (``fanorona net eval``)."""
    def forward(self, inputs: npt.ArrayLike) -> Union[float, npt.NDArray[np.float32]]:
        """Float values of a batch ``[n, inputs]`` (float32 ``[n]``) or of one row (a float)."""
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

def weight_limits(k: int, layers: int, encoding: str = "threats") -> Tuple[float, float]:
    """The magnitudes ``(weights, biases)`` to clip layer ``k`` of ``layers`` to, so that the
    engine runs a clipped-ReLU network over ``encoding`` in integers."""
