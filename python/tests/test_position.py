"""fanorona.Position: the rules through the Python API."""

import numpy as np
import pytest

import fanorona


def perft(p: fanorona.Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(p.play(t), depth - 1) for t in p.legal_moves())


def test_perft_1_to_4_from_the_start():
    # RULES.md, "Counting moves" (the Rust perft test's figures).
    start = fanorona.Position.start()
    assert [perft(start, d) for d in range(1, 5)] == [5, 39, 724, 18_026]


def test_position_strings_round_trip():
    start = fanorona.Position.start()
    text = str(start)
    assert text == "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w"
    assert fanorona.Position(text) == start
    assert fanorona.Position("start") == start
    assert hash(fanorona.Position(text)) == hash(start)
    after = start.play("d3e3+")
    assert after.turn == "black"
    assert fanorona.Position(str(after)) == after
    assert after != start


def test_illegal_turns_raise_value_error_naming_the_rule():
    start = fanorona.Position.start()
    with pytest.raises(ValueError, match="not empty"):
        start.play("a1a2")
    with pytest.raises(ValueError):
        start.play("zz")
    # A paika (no capture) while a capture exists is illegal.
    with pytest.raises(ValueError, match="capturing is compulsory"):
        fanorona.Position("9/9/4B4/9/4W4 w").play("e1d1")


def test_bad_position_strings_raise_value_error():
    with pytest.raises(ValueError, match="invalid position"):
        fanorona.Position("not a position")
    with pytest.raises(ValueError, match="invalid position"):
        fanorona.Position("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW x")


def test_encode_is_the_stone_planes_of_the_side_to_move():
    start = fanorona.Position.start()
    x = start.encode("stones")
    assert x.dtype == np.uint8 and x.shape == (fanorona.STONE_INPUTS,) == (90,)
    assert start.encode().shape == (fanorona.INPUTS,) == (180,)
    assert np.array_equal(start.encode()[:90], x)
    assert int(x.sum()) == 44
    # White to move: own stones on a1 (0) and b3 (19); a3 (18) is Black's: enemy plane.
    assert x[0] == 1 and x[19] == 1 and x[18] == 0 and x[45 + 18] == 1
    # Black to move sees its own stones at the bottom: the start is symmetric that way.
    black = fanorona.Position("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b")
    assert black.encode()[0] == 1 and black.encode()[45 + 44] == 1


THREATS = [
    # (position, capture targets of the side to move, of the other side): by hand from RULES.md.
    ("9/9/4B4/9/4W4 w", ["e3"], ["e1"]),
    ("9/9/9/4B4/4W4 b", ["e1"], []),
    ("9/9/9/9/W1B6 w", ["c1"], ["a1"]),
]


def square(point: str, turn: str) -> int:
    i = (ord(point[0]) - ord("a")) + 9 * (int(point[1]) - 1)
    return i if turn == "white" else 44 - i


def test_threat_planes_are_the_first_victims_of_each_side():
    for text, mine, theirs in THREATS:
        p = fanorona.Position(text)
        x = p.encode("threats")
        assert sorted(np.flatnonzero(x[90:135]).tolist()) == sorted(square(q, p.turn) for q in mine), text
        assert sorted(np.flatnonzero(x[135:]).tolist()) == sorted(square(q, p.turn) for q in theirs), text
    # The start: each side can take five stones first (c3, f3, d4, e4, f4 for White).
    x = fanorona.Position.start().encode()
    assert np.flatnonzero(x[90:135]).tolist() == [20, 23, 30, 31, 32] and x[135:].sum() == 5


def test_input_rows_give_their_position_back():
    game = fanorona.Game()
    rng = np.random.default_rng(4)
    while not game.is_over and game.ply < 40:
        game.play(game.legal_moves()[rng.integers(len(game.legal_moves()))])
    for p in game.positions():
        for encoding in ("threats", "stones"):
            assert fanorona.Position.from_inputs(p.encode(encoding), p.turn) == p
    x = fanorona.Position.start().encode()
    with pytest.raises(ValueError, match="91 values"):
        fanorona.Position.from_inputs(np.zeros(91))
    with pytest.raises(ValueError, match="not 0 or 1"):
        fanorona.Position.from_inputs(np.full(90, 2))
    both = x.copy()
    both[45 + 0] = 1
    with pytest.raises(ValueError, match="two stones on a1"):
        fanorona.Position.from_inputs(both)
    wrong = x.copy()
    wrong[100] ^= 1
    with pytest.raises(ValueError, match="threat planes"):
        fanorona.Position.from_inputs(wrong)
    with pytest.raises(ValueError, match="turn"):
        fanorona.Position.from_inputs(x, "red")


def test_mirror_and_game_over():
    start = fanorona.Position.start()
    assert start.mirror().mirror() == start
    assert not start.is_game_over()
    lone = fanorona.Position("9/9/4B4/9/4W4 w")
    assert not lone.is_game_over()
    nothing = fanorona.Position("9/9/4B4/9/9 w")
    assert nothing.is_game_over()
    assert fanorona.Position("9/9/B8/9/1W7 w").mirror() == fanorona.Position("9/9/8B/9/7W1 w")
