"""fanorona.Game: whole games under the rules, the action numbering and its masks."""

import numpy as np
import pytest

import fanorona

SHUFFLE = ["i1i2", "a5a4", "i2i1", "a4a5"]


def test_threefold_repetition_is_a_draw_with_undo():
    g = fanorona.Game("B8/9/9/9/8W w", max_quiet_plies=0, max_plies=0)
    for turn in SHUFFLE + SHUFFLE[:3]:
        g.play(turn)
    assert not g.is_over and g.repetitions == 2
    g.play("a4a5")
    assert (g.is_over, g.result, g.winner, g.termination) == (True, "1/2-1/2", None, "threefold repetition")
    assert g.legal_moves() == [] and g.legal_actions() == []
    with pytest.raises(ValueError, match="the game is over"):
        g.play("i1i2")
    assert g.undo() and not g.is_over and g.ply == 7
    assert g.history == SHUFFLE + SHUFFLE[:3]
    assert len(g.positions()) == 8 and g.positions()[0] == g.start


def test_no_capture_for_too_long_and_the_turn_cap():
    g = fanorona.Game("B8/9/9/9/8W w", max_quiet_plies=3, max_plies=0)
    for turn in ["i1i2", "a5a4", "i2i3"]:
        g.play(turn)
    assert g.termination == "no capture for too long" and g.quiet_plies == 3
    g = fanorona.Game("B8/9/9/9/8W w", max_quiet_plies=0, max_plies=2)
    g.play("i1i2")
    g.play("a5a4")
    assert g.termination == "maximum game length" and g.rules == (0, 2)
    # The command line's defaults.
    assert fanorona.Game().rules == (50, 300)


def test_a_win_by_capture_and_by_no_moves():
    g = fanorona.Game("9/9/9/9/W1B6 w")
    g.play("a1b1+")
    assert (g.result, g.winner, g.termination) == ("1-0", "white", "all stones captured")
    assert fanorona.Game("9/9/9/9/9 w").is_over


def test_illegal_turns_name_the_rule():
    g = fanorona.Game("9/9/4B4/9/4W4 w")
    with pytest.raises(ValueError, match="capturing is compulsory"):
        g.play("e1d1")
    with pytest.raises(ValueError, match="invalid position"):
        fanorona.Game("nonsense")


def perft_by_actions(g: fanorona.Game, depth: int) -> int:
    """Turns counted by walking the action tree: a turn ends when step() returns it, and a
    chain in progress is the same depth again."""
    if depth == 0:
        return 1
    total = 0
    for a in g.legal_actions():
        h = g.copy()
        total += perft_by_actions(h, depth - (h.step(a) is not None))
    return total


def test_actions_reach_exactly_the_legal_turns():
    # RULES.md's perft: 5, 39, 724 through actions as through turns.
    assert [perft_by_actions(fanorona.Game(), d) for d in (1, 2, 3)] == [5, 39, 724]
    # Every turn's actions, played by step(), give that turn; its actions are its own.
    rng = np.random.default_rng(2)
    g = fanorona.Game()
    seen = 0
    while not g.is_over and g.ply < 60:
        turns = g.legal_moves()
        actions = [tuple(g.turn_actions(t)) for t in turns]
        assert len(set(actions)) == len(turns)
        pick = int(rng.integers(len(turns)))
        h = g.copy()
        played = [h.step(a) for a in actions[pick]]
        assert played[-1] == turns[pick] and all(p is None for p in played[:-1])
        seen += len(actions[pick]) > 1
        g.play(turns[pick])
        assert h.positions() == g.positions()
    assert seen > 0, "no capture chain in 60 plies"


def test_masks_and_the_chain_in_progress():
    g = fanorona.Game()
    mask = g.action_mask()
    assert mask.shape == (fanorona.ACTIONS,) == (1081,) and mask.dtype == np.uint8
    assert np.flatnonzero(mask).tolist() == g.legal_actions() == [292, 313, 358, 511, 512]
    assert [fanorona.action_name(a) for a in g.legal_actions()] == ["d2e3+", "e2e3+", "f2e3+", "d3e3+", "d3e3-"]
    # A chain: find a turn of several steps, play its first step only.
    rng = np.random.default_rng(5)
    while True:
        chains = [t for t in g.legal_moves() if len(g.turn_actions(t)) > 1]
        if chains:
            break
        g.play(g.legal_moves()[int(rng.integers(len(g.legal_moves())))])
    first = g.turn_actions(chains[0])[0]
    before = g.position
    assert g.step(first) is None
    assert g.position == before and g.board != before and g.board.turn == before.turn
    obs = g.observation()
    assert obs.shape == (180 + 90,) and obs[180:225].sum() == 1 and obs[225:].sum() == 2
    with pytest.raises(ValueError, match="a turn is in progress"):
        g.play(chains[0])
    masks = fanorona.action_masks([g, before, fanorona.Position.start()])
    assert masks.shape == (3, 1081)
    assert np.array_equal(masks[0], g.action_mask()) and np.array_equal(masks[2], fanorona.Game().action_mask())
    assert g.undo() and g.board == before


def test_bad_actions_raise_value_error():
    g = fanorona.Game()
    for bad in (-1, 1081, 10**20):
        with pytest.raises((ValueError, OverflowError)):
            g.step(bad)
    with pytest.raises(ValueError, match=r"action 0 \(a1a2\) is not legal here"):
        g.step(0)
    with pytest.raises(ValueError, match="is not legal here"):
        g.step(fanorona.STOP)
    with pytest.raises(ValueError, match="not in 0..1081"):
        fanorona.action_name(5000)
    assert fanorona.action_name(fanorona.STOP) == "stop"
    # Black sees the board turned: White's d3e3+ is Black's f3e3+.
    assert fanorona.action_name(511, "black") == "f3e3+"


def test_recorded_games_replay_as_games(games):
    for r in fanorona.read_games(games):
        g = r.replay(max_quiet_plies=50, max_plies=300)
        assert g.history == r.turns and g.positions()[:-1] == r.positions()
        if r.termination in ("all stones captured", "no legal turn", "threefold repetition"):
            assert (g.result, g.termination) == (r.result, r.termination)
