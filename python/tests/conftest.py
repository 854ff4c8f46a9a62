"""Fixtures: the fanorona command-line tool and a small record file made with it."""

import functools
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=None)
def fanorona_bin() -> str:
    """The command-line tool: $FANORONA_BIN, else the workspace's release build, built here
    (``cargo build --release --bin fanorona``) when a fresh clone has none yet."""
    path = os.environ.get("FANORONA_BIN")
    if path:
        if not os.path.exists(path):
            pytest.fail(f"FANORONA_BIN={path} does not exist")
        return path
    built = ROOT / "target" / "release" / "fanorona"
    if not built.exists():
        p = subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "fanorona"], cwd=ROOT,
                           capture_output=True, text=True)
        if p.returncode != 0:
            pytest.fail(f"cargo build --release --bin fanorona failed:\n{p.stderr[-3000:]}")
    return str(built)


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Runs the tool; fails the test on an unexpected exit code."""
    p = subprocess.run([fanorona_bin(), *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        pytest.fail(f"fanorona {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def run_json(*args: str):
    return json.loads(run(*args, "--json").stdout)


@pytest.fixture(scope="session")
def games(tmp_path_factory) -> pathlib.Path:
    """12 self-play games of two depth-1 searchers (scores, depths and random openings)."""
    d = tmp_path_factory.mktemp("games")
    out = d / "games.bin"
    run(
        "selfplay", "-n", "12", "-o", str(out), "--seed", "7", "-t", "1",
        "--white", "alphabeta:depth=1,eval=handcrafted",
        "--black", "alphabeta:depth=1,eval=handcrafted",
    )
    return out


@pytest.fixture(scope="session")
def games2(tmp_path_factory) -> pathlib.Path:
    """A second file (3 games) to check game numbering across files."""
    d = tmp_path_factory.mktemp("games2")
    out = d / "more.bin"
    run("selfplay", "-n", "3", "-o", str(out), "--seed", "11", "-t", "1",
        "--white", "alphabeta:depth=1,eval=material", "--black", "random")
    return out
