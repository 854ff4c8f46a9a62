"""fanorona.env: the PettingZoo AEC environment and the Gymnasium one against an engine,
checked by their libraries' own tests (pettingzoo is installed by .ci/run; elsewhere the
tests skip, saying so, unless FANORONA_REQUIRE_PETTINGZOO=1)."""

import os

import numpy as np
import pytest

if os.environ.get("FANORONA_REQUIRE_PETTINGZOO") == "1":
    import pettingzoo  # noqa: F401  (fails the run when missing)
else:
    pytest.importorskip("pettingzoo", reason="pip install pettingzoo (or set FANORONA_REQUIRE_PETTINGZOO=1)")

import fanorona
from fanorona.env import FanoronaEnv, SingleAgentEnv


def test_pettingzoos_api_test_passes():
    from pettingzoo.test import api_test
    for encoding in ("threats", "stones"):
        api_test(FanoronaEnv(encoding=encoding), num_cycles=400)


def test_gymnasiums_checker_passes():
    from gymnasium.utils.env_checker import check_env
    check_env(SingleAgentEnv(opponent="alphabeta:depth=1,eval=material", illegal="lose"), skip_render_check=True)


def play_out(env, rng):
    env.reset(seed=1)
    turns = 0
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        turns += "turn" in env.infos[agent]
    return turns


def test_a_random_game_ends_by_the_rules_with_opposite_rewards():
    env = FanoronaEnv(max_plies=120)
    rng = np.random.default_rng(3)
    for _ in range(5):
        play_out(env, rng)
        assert env.game.is_over and env.agents == []
        assert sum(env._cumulative_rewards.values()) == 0
    # A capture chain is several steps of one agent: the same agent is selected again.
    env = FanoronaEnv()
    env.reset()
    g = fanorona.Game()
    while True:
        chains = [t for t in g.legal_moves() if len(g.turn_actions(t)) > 1]
        if chains:
            break
        t = g.legal_moves()[0]
        for a in g.turn_actions(t):
            env.step(a)
        g.play(t)
    mover = env.agent_selection
    env.step(g.turn_actions(chains[0])[0])
    assert env.agent_selection == mover
    with pytest.raises(ValueError, match="not legal"):
        env.step(0)


def test_the_single_agent_env_plays_black_against_an_engine():
    env = SingleAgentEnv(opponent=fanorona.Engine("greedy", seed=2), color="black", max_plies=100)
    obs, info = env.reset(seed=0)
    assert info["opponent"] is not None and env.game.turn == "black"
    rng = np.random.default_rng(0)
    done, reward = False, 0.0
    while not done:
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = term or trunc
    assert reward in (-1.0, 0.0, 1.0) and info["result"] == env.game.result
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="color"):
        SingleAgentEnv(color="red")
