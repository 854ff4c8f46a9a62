"""fanorona.Engine: the project's search in-process, as the command line's."""

import threading
import time

import numpy as np
import pytest

import fanorona
from conftest import run, run_json

POSITION = "BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b"


@pytest.mark.parametrize("evaluator", ["handcrafted", "material", "embedded"])
def test_a_search_is_the_command_lines(evaluator):
    cli = run_json("analyse", "--position", POSITION, "--depth", "4", "--eval", evaluator)
    got = fanorona.Engine(f"alphabeta:depth=4,eval={evaluator}").search(fanorona.Position(POSITION))
    assert (got["best"], got["score"], got["depth"], got["nodes"]) == (cli["best"], cli["score"], cli["depth"], cli["nodes"])
    assert got["pv"][0] == got["best"] and got["pv"] == cli["pv"]


def test_a_network_in_memory_searches_as_its_file(tmp_path):
    rng = np.random.default_rng(8)
    layers = [(rng.uniform(-0.3, 0.3, (180, 16)), rng.uniform(-0.1, 0.1, 16)), (rng.uniform(-2, 2, (16, 1)), np.zeros(1))]
    net = fanorona.Network.from_layers(layers)
    path = tmp_path / "n.fnet"
    net.save(path)
    from_file = fanorona.Engine(f"alphabeta:depth=3,eval=net:{path}").search(fanorona.Game())
    in_memory = fanorona.Engine("alphabeta:depth=3", network=net).search(fanorona.Game())
    for k in ("best", "score", "nodes", "pv"):
        assert from_file[k] == in_memory[k], k
    assert "threats:180-16-1" in fanorona.Engine("alphabeta:depth=1", network=net).name


def test_a_game_plays_to_its_end_and_history_counts():
    engines = {"white": fanorona.Engine("alphabeta:depth=1,eval=material"), "black": fanorona.Engine("greedy", seed=3)}
    g = fanorona.Game(max_plies=80)
    while not g.is_over:
        g.play(engines[g.turn].search(g)["best"])
    assert g.result in ("1-0", "0-1", "1/2-1/2")
    with pytest.raises(ValueError, match="the game is over"):
        engines["white"].search(g)
    assert fanorona.Engine("random", seed=1).search(fanorona.Game())["score"] is None


def test_the_search_releases_the_gil():
    engine = fanorona.Engine("alphabeta:movetime=400,eval=handcrafted")
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    start = time.perf_counter()
    engine.search(fanorona.Game())
    end = time.perf_counter()
    done.set()
    t.join()
    # The other thread ran all along the search, not only before and after it.
    inside = [x for x in ticks if start < x < end]
    assert len(inside) > 20, len(inside)


def test_bad_specs_raise_the_command_lines_messages(tmp_path):
    cli = run("analyse", "--eval", "net:/nonexistent.fnet", check=False)
    with pytest.raises(ValueError) as err:
        fanorona.Engine("alphabeta:depth=2,eval=net:/nonexistent.fnet")
    assert cli.returncode == 2 and "/nonexistent.fnet" in str(err.value)
    with pytest.raises(ValueError, match="unknown|not"):
        fanorona.Engine("alphabeta:depht=2")
    with pytest.raises(ValueError, match="network= needs an alphabeta spec"):
        fanorona.Engine("random", network=fanorona.Network.load(_bench()))
    with pytest.raises(ValueError, match="depth"):
        fanorona.Engine("alphabeta:depth=2").search(fanorona.Game(), depth=0)
    with pytest.raises(TypeError):
        fanorona.Engine("alphabeta:depth=2").search("start")


def _bench():
    import pathlib
    return pathlib.Path(__file__).resolve().parents[2] / "nn" / "nets" / "bench.fnet"


def test_a_shipped_network_from_python_end_to_end(tmp_path):
    """Load, forward (a single row too), score, search with it, save again."""
    net = fanorona.Network.load(_bench())
    assert net.encoding == "threats" and net.engine_error is None
    p = fanorona.Position(POSITION)
    x = p.encode()
    assert abs(net.forward(x) - net.evaluate(p)) < 1e-6
    assert net.forward(np.stack([x, x])).shape == (2,)
    cli = run_json("net", "eval", str(_bench()), "--position", POSITION)
    assert net.score(p) == cli["score"]
    embedded = fanorona.Engine("alphabeta:depth=3,eval=embedded").search(p)
    mine = fanorona.Engine("alphabeta:depth=3", network=net).search(p)
    assert (mine["best"], mine["score"], mine["nodes"]) == (embedded["best"], embedded["score"], embedded["nodes"])
    again = fanorona.Network.from_layers(net.layers(), description=net.description)
    again.save(tmp_path / "again.fnet")
    assert (tmp_path / "again.fnet").read_bytes() == _bench().read_bytes()
