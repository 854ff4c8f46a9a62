"""Fanorona as reinforcement-learning environments: ``FanoronaEnv``, a two-player PettingZoo
AEC environment, and ``SingleAgentEnv``, a Gymnasium environment against an engine of the
project (``fanorona.Engine``). Needs ``pip install pettingzoo`` (which brings gymnasium).

Actions (``fanorona.ACTIONS`` = 1081, ``Discrete``): one step of a turn, numbered as the side
to move sees the board (``(square * 8 + direction) * 3 + kind``: the origin 0..45 with a1 = 0
for White and the board turned 180 degrees for Black, the direction 0..8 clockwise from north
in that view, kind 0 paika, 1 approach, 2 withdrawal), or ``fanorona.STOP`` (1080) to end a
capture chain that could go on. A capture chain is several actions of the same agent in a row
(``agent_selection`` stays); a turn ends by itself when no capture can follow. Illegal actions
raise ValueError: mask them with ``observation["action_mask"]`` (int8, 1 where legal).

Observations: ``{"observation": uint8 [inputs + 90], "action_mask": int8 [1081]}``, the network
input of the board now (``encoding``: ``"threats"``, 180, the trainer's default, or
``"stones"``, 90) from the observing agent's view, then the stone that is capturing and the
points it has stood on this turn (45 each). Rewards +1 win, -1 loss, 0 draw, at the end. The
rules' draws by repetition and by no capture for too long are terminations; the turn cap
(``max_plies``) is a truncation.
"""

from typing import Any, Dict, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import ACTIONS, Engine, Game, Position

AGENTS = ["white", "black"]
CAP = "maximum game length"


def _spaces(encoding: str):
    width = len(Game().observation(encoding))
    observation = spaces.Dict(
        {
            "observation": spaces.Box(low=0, high=1, shape=(width,), dtype=np.uint8),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTIONS,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(ACTIONS)


def _observe(game: Game, encoding: str, agent: str) -> Dict[str, np.ndarray]:
    mask = np.zeros(ACTIONS, dtype=np.int8)
    if agent == game.turn and not game.is_over:
        mask[game.legal_actions()] = 1
    return {"observation": game.observation(encoding, agent), "action_mask": mask}


class FanoronaEnv(AECEnv):
    """Two agents, ``"white"`` and ``"black"``, playing one game per ``reset`` from ``start``
    (default the start position) under the draw rules (``max_quiet_plies``, ``max_plies``)."""

    metadata = {"name": "fanorona_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, encoding: str = "threats", start: Optional[str] = None, max_quiet_plies: int = 50,
                 max_plies: int = 300, render_mode: Optional[str] = None):
        super().__init__()
        self.encoding, self.start, self.render_mode = encoding, start, render_mode
        self.rules = (max_quiet_plies, max_plies)
        self.possible_agents = list(AGENTS)
        observation, action = _spaces(encoding)
        self.observation_spaces = {a: observation for a in AGENTS}
        self.action_spaces = {a: action for a in AGENTS}
        self.game = Game(start, *self.rules)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.game = Game(self.start, *self.rules)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.turn

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        return _observe(self.game, self.encoding, agent)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        turn = self.game.step(int(action))
        if turn is not None:
            self.infos[agent] = {"turn": turn}
        if self.game.is_over:
            winner = self.game.winner
            for a in self.agents:
                self.rewards[a] = 0 if winner is None else (1 if a == winner else -1)
                self.infos[a] = {**self.infos[a], "result": self.game.result, "termination": self.game.termination}
            ended = self.truncations if self.game.termination == CAP else self.terminations
            for a in self.agents:
                ended[a] = True
        self.agent_selection = self.game.turn
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode")
            return None
        return f"{self.game.board.diagram()}\n{self.game!r}"

    def close(self) -> None:
        pass


class SingleAgentEnv(gymnasium.Env):
    """One side (``color``) against ``opponent`` (a ``fanorona.Engine`` or a spec string such
    as ``"alphabeta:depth=2,eval=handcrafted"``), which answers each of the agent's turns with
    a whole turn of its own. Observations and actions as ``FanoronaEnv``'s; ``info`` has the
    ``action_mask`` too, and the opponent's turn as ``"opponent"``. An illegal action raises
    ValueError (``illegal="raise"``) or loses the game (``illegal="lose"``: reward -1,
    terminated, ``info["illegal"]``; for agents that do not mask, and Gymnasium's checker)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponent: Any = "alphabeta:depth=2,eval=handcrafted", color: str = "white",
                 encoding: str = "threats", start: Optional[str] = None, max_quiet_plies: int = 50,
                 max_plies: int = 300, render_mode: Optional[str] = None, illegal: str = "raise"):
        if color not in AGENTS:
            raise ValueError(f"color: {color!r} is not 'white' or 'black'")
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal: {illegal!r} is not 'raise' or 'lose'")
        self.illegal = illegal
        self.opponent = opponent if isinstance(opponent, Engine) else Engine(opponent)
        self.color, self.encoding, self.start, self.render_mode = color, encoding, start, render_mode
        self.rules = (max_quiet_plies, max_plies)
        self.observation_space, self.action_space = _spaces(encoding)
        self.game = Game(start, *self.rules)
        self.lost = False

    def _answer(self) -> Optional[str]:
        """The opponent plays while it is to move; its last turn."""
        played = None
        while not self.game.is_over and self.game.turn != self.color:
            played = self.opponent.search(self.game)["best"]
            self.game.play(played)
        return played

    def _obs_info(self, opponent: Optional[str]):
        obs = _observe(self.game, self.encoding, self.color)
        info = {"action_mask": obs["action_mask"], "opponent": opponent}
        if self.game.is_over:
            info.update(result=self.game.result, termination=self.game.termination)
        return obs, info

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.game = Game(self.start, *self.rules)
        self.lost = False
        self.opponent.new_game()
        return self._obs_info(self._answer())

    def step(self, action):
        if self.game.is_over or self.lost:
            raise ValueError(f"the game is over ({self.game.result}): call reset()")
        opponent = None
        if self.illegal == "lose" and int(action) not in self.game.legal_actions():
            obs, info = self._obs_info(None)
            self.lost = True
            return obs, -1.0, True, False, {**info, "illegal": int(action)}
        if self.game.step(int(action)) is not None:
            opponent = self._answer()
        obs, info = self._obs_info(opponent)
        reward, terminated, truncated = 0.0, False, False
        if self.game.is_over:
            winner = self.game.winner
            reward = 0.0 if winner is None else (1.0 if winner == self.color else -1.0)
            truncated = self.game.termination == CAP
            terminated = not truncated
        return obs, reward, terminated, truncated, info

    def render(self) -> Optional[str]:
        return f"{self.game.board.diagram()}\n{self.game!r}"


def env(**kwargs) -> FanoronaEnv:
    """``FanoronaEnv(**kwargs)`` (PettingZoo's naming)."""
    return FanoronaEnv(**kwargs)


__all__ = ["FanoronaEnv", "SingleAgentEnv", "env", "Position"]
