"""fanorona.read_games and fanorona.samples against the command line's exports."""

import json

import numpy as np
import pytest

import fanorona
from conftest import run, run_json

COLUMNS = ["inputs", "result", "score", "has_score", "target", "ply", "game", "stm", "mirrored",
           "action", "depth", "exploration", "plies_left"]
DTYPES = {
    "inputs": np.uint8, "result": np.int8, "score": np.int32, "has_score": np.bool_,
    "target": np.float32, "ply": np.uint32, "game": np.uint64, "stm": np.uint8,
    "mirrored": np.bool_, "action": np.uint16, "depth": np.uint16, "exploration": np.bool_,
    "plies_left": np.uint32,
}


def concat(batches):
    batches = list(batches)
    return {k: np.concatenate([b[k] for b in batches]) for k in COLUMNS}


def export_npz(tmp_path, files, *options):
    out = tmp_path / "s.npz"
    run("data", "export", "--format", "npz", "-o", str(out), "--force", *options, *map(str, files))
    with np.load(out) as z:
        return {k: z[k] for k in z.files}


def test_read_games_gives_turns_scores_and_header_as_the_jsonl_export(games):
    lines = run("data", "export", "--format", "jsonl", "--positions", str(games)).stdout.splitlines()
    got = list(fanorona.read_games(games))
    assert len(got) == len(lines) == 12
    for g, line in zip(got, lines):
        j = json.loads(line)
        assert g.turns == j["turns"] and len(g) == len(j["turns"])
        assert g.scores == j["scores"] and g.depths == j["depths"]
        assert g.exploration == j["exploration"]
        assert (g.result, g.termination) == (j["result"], j["termination"])
        assert str(g.start) == j["start"]
        assert [str(p) for p in g.positions()] == j["positions"]
    assert any(s is not None for g in got for s in g.scores)
    assert any(got[0].exploration)
    assert got[0].header["seed"] == 7 and got[0].header["kind"]
    assert [g.number for g in got] == list(range(12))


def test_samples_yield_exactly_the_positions_of_the_games(games, games2):
    s = concat(fanorona.samples([games, games2], batch_size=100))
    expected = []
    for number, path in enumerate([games, games2]):
        for g in fanorona.read_games(path):
            for ply, p in enumerate(g.positions()):
                expected.append((p, ply))
    assert len(s["result"]) == len(expected)
    assert np.array_equal(s["inputs"], np.stack([p.encode() for p, _ in expected]))
    assert s["ply"].tolist() == [ply for _, ply in expected]
    assert s["stm"].tolist() == [0 if p.turn == "white" else 1 for p, _ in expected]
    # Games are numbered across the files: 12 in the first, 3 in the second.
    assert sorted(set(s["game"].tolist())) == list(range(15))
    for k in COLUMNS:
        assert s[k].dtype == DTYPES[k], k


def test_samples_equal_the_npz_export_row_for_row(games, games2, tmp_path):
    for options in [[], ["--skip-plies", "4", "--mirror", "--target", "score"], ["--dedup", "--score-weight", "0.25"],
                    ["--max-score", "300"], ["--encoding", "stones"]]:
        npz = export_npz(tmp_path, [games, games2], *options)
        kwargs = {}
        for flag, value in zip(options, options[1:] + [""]):
            if flag == "--skip-plies":
                kwargs["skip_plies"] = int(value)
            if flag == "--target":
                kwargs["target"] = value
            if flag == "--score-weight":
                kwargs["score_weight"] = float(value)
            if flag == "--max-score":
                kwargs["max_score"] = int(value)
            if flag == "--encoding":
                kwargs["encoding"] = value
            if flag in ("--mirror", "--dedup"):
                kwargs[flag[2:]] = True
        s = concat(fanorona.samples([games, games2], batch_size=333, **kwargs))
        assert set(npz) == set(COLUMNS)
        for k in COLUMNS:
            assert npz[k].dtype == DTYPES[k], k
            assert np.array_equal(npz[k], s[k]), (options, k)
        # The encoding of every row is Position.encode of that position.
        first = next(fanorona.read_games(games))
        rows = [i for i in range(len(s["game"])) if s["game"][i] == 0 and not s["mirrored"][i]]
        positions = first.positions()
        encoding = kwargs.get("encoding", "threats")
        assert npz["inputs"].shape[1] == {"threats": 180, "stones": 90}[encoding]
        assert [np.array_equal(npz["inputs"][i], positions[s["ply"][i]].encode(encoding)) for i in rows] == [True] * len(rows)
    mirrored = export_npz(tmp_path, [games], "--mirror")
    assert mirrored["mirrored"].sum() * 2 == len(mirrored["mirrored"])


def test_targets_are_the_trainers_blend(games):
    s = concat(fanorona.samples(games, score_weight=0.5, score_scale=400.0))
    scored = s["has_score"]
    assert scored.any() and not scored.all()
    blend = 0.5 * np.tanh(s["score"].astype(np.float64) / 400.0) + 0.5 * s["result"]
    assert np.allclose(s["target"][scored], blend[scored], atol=1e-6)
    assert np.array_equal(s["target"][~scored], s["result"][~scored].astype(np.float32))
    r = concat(fanorona.samples(games, target="result"))
    assert np.array_equal(r["target"], r["result"].astype(np.float32))


def test_shuffling_is_a_permutation(games):
    plain = concat(fanorona.samples(games))
    shuffled = concat(fanorona.samples(games, batch_size=64, shuffle_buffer=200, seed=5))
    again = concat(fanorona.samples(games, batch_size=64, shuffle_buffer=200, seed=5))
    key = lambda d: sorted(zip(d["game"].tolist(), d["ply"].tolist()))
    assert key(plain) == key(shuffled)
    assert shuffled["game"].tolist() != plain["game"].tolist() or shuffled["ply"].tolist() != plain["ply"].tolist()
    assert np.array_equal(shuffled["inputs"], again["inputs"])


def test_batches_have_the_requested_size(games):
    sizes = [len(b["result"]) for b in fanorona.samples(games, batch_size=50)]
    assert all(n == 50 for n in sizes[:-1]) and 0 < sizes[-1] <= 50


def test_bad_input_raises_python_exceptions(games, tmp_path):
    with pytest.raises(OSError):
        fanorona.read_games(tmp_path / "missing.bin")
    with pytest.raises(OSError):
        fanorona.samples([tmp_path / "missing.bin"])
    not_records = tmp_path / "text.bin"
    not_records.write_text("hello")
    with pytest.raises(ValueError, match="not a fanorona record file"):
        fanorona.read_games(not_records)
    with pytest.raises(ValueError):
        fanorona.samples(games, target="nonsense")
    with pytest.raises(ValueError):
        fanorona.samples(games, score_weight=2.0)
    with pytest.raises(ValueError):
        fanorona.samples(games, batch_size=0)
    # A damaged record: the same message as the command line's.
    data = bytearray(games.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError) as err:
        list(fanorona.read_games(damaged))
    cli = run("data", "validate", str(damaged), check=False)
    assert cli.returncode != 0
    assert str(err.value) in cli.stdout + cli.stderr
    with pytest.raises(ValueError):
        for _ in fanorona.samples(damaged):
            pass


def test_policy_columns_are_the_turns_played(games):
    """action, depth, exploration and plies_left against the games themselves."""
    s = concat(fanorona.samples(games, batch_size=97))
    rows = 0
    for g in fanorona.read_games(games):
        replay = fanorona.Game()
        for ply, (turn, depth, explore) in enumerate(zip(g.turns, g.depths, g.exploration)):
            i = rows + ply
            assert s["ply"][i] == ply and s["plies_left"][i] == len(g) - ply
            assert s["action"][i] == replay.turn_actions(turn)[0]
            assert s["depth"][i] == (depth or 0) and s["exploration"][i] == explore
            replay.play(turn)
        rows += len(g)
    assert rows == len(s["action"])
    assert s["exploration"].any() and (s["depth"] > 0).any()
    # Mirrored rows carry the mirrored turn: the same first step seen in the mirrored position.
    m = concat(fanorona.samples(games, mirror=True))
    for i in np.flatnonzero(m["mirrored"])[:200]:
        p = fanorona.Position.from_inputs(m["inputs"][i], "black" if m["stm"][i] else "white")
        assert m["action"][i] in fanorona.Game(p).legal_actions()


def test_the_split_is_the_trainers(games, tmp_path):
    train = concat(fanorona.samples(games, split="train"))
    val = concat(fanorona.samples(games, split="validation", val_fraction=0.1))
    every = concat(fanorona.samples(games))
    assert len(train["result"]) + len(val["result"]) == len(every["result"])
    report = run_json("train", str(games), "-o", str(tmp_path / "t"), "--epochs", "1", "--hidden", "8")
    assert report["data"]["train_samples"] == len(train["result"])
    assert report["data"]["val_samples"] == len(val["result"])
    assert report["data"]["val_games"] == len(set(val["game"].tolist())) > 0


def test_workers_share_the_games_between_them(games, games2):
    """samples(worker=(i, n)) for every i gives every sample of samples() once."""
    key = lambda d: sorted(map(tuple, np.column_stack([d["ply"], d["plies_left"], d["action"],
                                                       d["inputs"].sum(axis=1)]).tolist()))
    every = concat(fanorona.samples([games, games2]))
    for n in (1, 2, 3):
        parts = [concat(fanorona.samples([games, games2], worker=(i, n))) for i in range(n)]
        assert all(len(p["result"]) > 0 for p in parts)
        assert sum(len(p["result"]) for p in parts) == len(every["result"])
        assert key({k: np.concatenate([p[k] for p in parts]) for k in COLUMNS}) == key(every)
    for bad in [(2, 2), (0, 0), (-1, 2)]:
        with pytest.raises((ValueError, OverflowError)):
            fanorona.samples(games, worker=bad)
    with pytest.raises(ValueError, match="split"):
        fanorona.samples(games, split="test")
    with pytest.raises(ValueError, match="val_fraction"):
        fanorona.samples(games, val_fraction=1.5)
    with pytest.raises(ValueError, match="not an input encoding"):
        fanorona.samples(games, encoding="pieces")
