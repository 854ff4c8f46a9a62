"""fanorona.torch and python/examples/train_torch.py, where PyTorch is installed (the package
needs numpy only): the tests skip, saying so, unless FANORONA_REQUIRE_TORCH=1."""

import os
import pathlib
import subprocess
import sys

import pytest

if os.environ.get("FANORONA_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch", reason="pip install torch (or set FANORONA_REQUIRE_TORCH=1)")

import fanorona
from conftest import run_json
from fanorona.torch import SampleDataset

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "train_torch.py"


@pytest.mark.parametrize("workers", [0, 1, 2])
def test_every_sample_comes_once_whatever_the_workers(games, games2, workers):
    files = [games, games2]
    expected = sum(len(b["result"]) for b in fanorona.samples(files))
    ds = SampleDataset(files, batch_size=64, shuffle_buffer=100, columns=("inputs", "target", "ply", "plies_left"))
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=workers)
    batches = list(loader)
    assert sum(len(b["target"]) for b in batches) == expected
    assert batches[0]["inputs"].dtype == torch.float32 and batches[0]["inputs"].shape[1] == 180
    rows = sorted((int(p), int(l)) for b in batches for p, l in zip(b["ply"], b["plies_left"]))
    every = sorted((int(p), int(l)) for b in fanorona.samples(files) for p, l in zip(b["ply"], b["plies_left"]))
    assert rows == every


def test_the_torch_example_trains_a_network_the_engine_plays(games, tmp_path):
    out = tmp_path / "torch.fnet"
    p = subprocess.run(
        [sys.executable, str(EXAMPLE), str(games), "-o", str(out), "--epochs", "2", "--hidden", "32", "--workers", "2"],
        capture_output=True, text=True,
    )
    assert p.returncode == 0, p.stderr
    assert "epoch 2: loss" in p.stdout and "validation loss" in p.stdout and "engine-ready" in p.stdout
    info = run_json("net", "info", str(out))
    assert info["architecture"] == "threats:180-32-1" and info["integer_inference"] and info["engine_loads"]
    best = run_json("analyse", "--eval", f"net:{out}", "--depth", "2")["best"]
    assert best in fanorona.Position.start().legal_moves()
    # Going on from the shipped network keeps its architecture.
    bench = pathlib.Path(__file__).resolve().parents[2] / "nn" / "nets" / "bench.fnet"
    p = subprocess.run([sys.executable, str(EXAMPLE), str(games), "-o", str(out), "--epochs", "1", "--init", str(bench)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert run_json("net", "info", str(out))["architecture"] == "threats:180-256-1"
