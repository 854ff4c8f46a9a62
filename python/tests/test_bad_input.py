"""Bad input of every kind raises a Python exception (ValueError, TypeError, OSError,
OverflowError), never a Rust panic across the FFI boundary (pyo3's PanicException, which is a
BaseException and would pass `except Exception`)."""

import numpy as np
import pytest

import fanorona

OK = (ValueError, TypeError, OSError, OverflowError)
JUNK = [None, -1, 2**70, 1.5, float("nan"), "", "zz", "x" * 10_000, b"\xff", [], [1, 2], {}, np.zeros((3, 3)),
        np.full(180, 2.0), np.zeros(180, dtype=np.complex64), object()]


def call(f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except OK:
        pass
    except BaseException as e:  # noqa: BLE001  (a panic must fail the test, whatever it is)
        pytest.fail(f"{getattr(f, '__name__', f)}{args!r:.200}: {type(e).__name__}: {e}")


def test_junk_arguments_never_panic(tmp_path):
    g = fanorona.Game()
    net = fanorona.Network.from_layers([(np.zeros((180, 4)), np.zeros(4)), (np.zeros((4, 1)), np.zeros(1))])
    engine = fanorona.Engine("alphabeta:depth=1")
    for j in JUNK:
        for f in (fanorona.Position, fanorona.Game, fanorona.Engine, fanorona.Network.load, fanorona.read_games,
                  fanorona.samples, fanorona.Position.from_inputs, fanorona.action_name, fanorona.action_masks,
                  g.step, g.play, g.turn_actions, g.observation, fanorona.Position.start().play,
                  fanorona.Position.start().encode, net.forward, engine.search, fanorona.weight_limits):
            call(f, j)
        call(fanorona.Network.from_layers, [(j, j)])
        call(fanorona.Network.from_layers, j)
        call(fanorona.Position.from_inputs, fanorona.Position.start().encode(), j)
        call(fanorona.samples, str(tmp_path / "none.bin"), batch_size=j)
        call(engine.search, g, depth=j)
        call(fanorona.Engine, "alphabeta:depth=1", network=j)
        call(fanorona.weight_limits, 0, 2, j)


def test_random_actions_and_rows_never_panic():
    rng = np.random.default_rng(9)
    g = fanorona.Game()
    for _ in range(3000):
        call(g.step, int(rng.integers(-5, 1100)))
        if g.is_over:
            g = fanorona.Game()
    for _ in range(500):
        call(fanorona.Position.from_inputs, rng.integers(0, 2, 180).astype(np.uint8), "white")
        call(fanorona.Position.from_inputs, (rng.random(90) < 0.2).astype(np.float32), "black")


def test_damaged_files_never_panic(tmp_path, games):
    rng = np.random.default_rng(1)
    net = tmp_path / "n.fnet"
    fanorona.Network.from_layers([(np.zeros((180, 4)), np.zeros(4)), (np.zeros((4, 1)), np.zeros(1))]).save(net)
    for source in (net, games):
        data = source.read_bytes()
        for k in range(60):
            damaged = bytearray(data[: int(rng.integers(0, len(data) + 1))] if k % 3 == 0 else data)
            for _ in range(int(rng.integers(1, 4))):
                if damaged:
                    damaged[int(rng.integers(len(damaged)))] ^= int(rng.integers(1, 256))
            path = tmp_path / f"d{k}"
            path.write_bytes(bytes(damaged))
            call(fanorona.Network.load, path)
            call(lambda p: [r.replay() for r in fanorona.read_games(p)], path)
            call(lambda p: list(fanorona.samples(p, mirror=True)), path)
