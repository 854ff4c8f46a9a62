"""python/examples/train_torch.py, where PyTorch is installed (the package needs numpy only)."""

import pathlib
import subprocess
import sys

import pytest

import fanorona
from conftest import run_json

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "train_torch.py"


def test_the_torch_example_trains_a_network_the_engine_plays(games, tmp_path):
    pytest.importorskip("torch")
    out = tmp_path / "torch.fnet"
    p = subprocess.run(
        [sys.executable, str(EXAMPLE), str(games), "-o", str(out), "--epochs", "2", "--hidden", "32"],
        capture_output=True, text=True,
    )
    assert p.returncode == 0, p.stderr
    assert "epoch 2: loss" in p.stdout
    info = run_json("net", "info", str(out))
    assert info["architecture"] == "stones:90-32-1" and info["integer_inference"]
    best = run_json("analyse", "--eval", f"net:{out}", "--depth", "2")["best"]
    assert best in fanorona.Position.start().legal_moves()
