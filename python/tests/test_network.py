"""fanorona.Network: numpy arrays to the engine's network file and back."""

import json
import struct

import numpy as np
import pytest

import fanorona
from conftest import run, run_json

POSITIONS = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b",
    "9/9/4B4/9/4W4 w",
    "BB1BBBBBB/BBBB1BBBB/BWBWBBWBW/WWW1WWWWW/W1WWWWWWW b",
]


def random_layers(seed: int, hidden=(32,), outputs=1):
    rng = np.random.default_rng(seed)
    sizes = [90, *hidden, outputs]
    return [
        (rng.uniform(-0.3, 0.3, (a, b)).astype(np.float32), rng.uniform(-0.1, 0.1, b).astype(np.float32))
        for a, b in zip(sizes, sizes[1:])
    ]


def numpy_forward(layers, x, activation="crelu"):
    h = x.astype(np.float64)
    for k, (w, b) in enumerate(layers):
        h = h @ w.astype(np.float64) + b
        if k + 1 < len(layers):
            h = np.clip(h, 0, 1) if activation == "crelu" else np.maximum(h, 0)
    return np.tanh(h[..., 0])


@pytest.mark.parametrize("activation", ["crelu", "relu"])
def test_a_network_saved_from_numpy_evaluates_as_the_engine(tmp_path, activation):
    layers = random_layers(3)
    net = fanorona.Network.from_layers(layers, description="from numpy", activation=activation)
    path = tmp_path / "n.fnet"
    net.save(path)
    info = run_json("net", "info", str(path))
    assert info["architecture"].startswith("stones:90-32-1")
    assert info["parameters"] == net.parameter_count == 90 * 32 + 32 + 33
    assert info["checksum"] == f"{net.checksum:08x}"
    assert info["description"] == "from numpy"
    loaded = fanorona.Network.load(path)
    for (w, b), (w2, b2) in zip(layers, loaded.layers()):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    for text in POSITIONS:
        p = fanorona.Position(text)
        cli = run_json("net", "eval", str(path), "--position", text)
        assert abs(loaded.evaluate(p) - cli["value"]) < 1e-6
        assert loaded.score(p) == cli["score"]
        assert abs(loaded.evaluate(p) - numpy_forward(layers, p.encode("stones"), activation)) < 1e-5
    x = np.stack([fanorona.Position(t).encode("stones") for t in POSITIONS])
    assert np.allclose(loaded.forward(x), numpy_forward(layers, x, activation), atol=1e-5)


def numpy_bucket(x, buckets):
    """The output bucket of each encoded position: its stone count cut into equal parts."""
    stones = x.reshape(-1, 90).sum(axis=1).astype(int)
    return np.minimum(np.maximum(stones - 1, 0) * buckets // 44, buckets - 1)


def test_output_buckets_pick_the_output_of_the_stone_count(tmp_path):
    layers = random_layers(5, outputs=4)
    net = fanorona.Network.from_layers(layers)
    assert net.buckets == 4
    path = tmp_path / "b.fnet"
    net.save(path)
    info = run_json("net", "info", str(path))
    assert info["architecture"] == "stones:90-32-1:buckets=4" and info["buckets"] == 4
    x = np.stack([fanorona.Position(t).encode("stones") for t in POSITIONS])
    h = np.clip(x.astype(np.float64) @ layers[0][0] + layers[0][1], 0, 1) @ layers[1][0] + layers[1][1]
    expected = np.tanh(h[np.arange(len(x)), numpy_bucket(x, 4)])
    assert set(numpy_bucket(x, 4)) == {0, 3}
    assert np.allclose(net.forward(x), expected, atol=1e-5)
    for text, want in zip(POSITIONS, expected):
        cli = run_json("net", "eval", str(path), "--position", text)
        assert abs(cli["value"] - want) < 1e-5


def test_the_engine_plays_with_a_network_from_numpy(tmp_path):
    path = tmp_path / "n.fnet"
    fanorona.Network.from_layers(random_layers(4)).save(path)
    out = run_json("analyse", "--eval", f"net:{path}", "--depth", "2")
    assert out["best"] in fanorona.Position.start().legal_moves()


def test_wrong_shapes_and_nan_weights_raise_value_error():
    good = random_layers(1)
    with pytest.raises(ValueError, match="layer 0"):
        fanorona.Network.from_layers([(np.zeros((91, 8)), np.zeros(8)), (np.zeros((8, 1)), np.zeros(1))])
    with pytest.raises(ValueError, match="layer 1"):
        fanorona.Network.from_layers([good[0], (np.zeros((31, 1)), np.zeros(1))])
    with pytest.raises(ValueError, match="1 output"):
        fanorona.Network.from_layers([(np.zeros((90, 9)), np.zeros(9))])
    bad = [(good[0][0].copy(), good[0][1]), good[1]]
    bad[0][0][5, 3] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        fanorona.Network.from_layers(bad)
    with pytest.raises(ValueError, match="activation"):
        fanorona.Network.from_layers(good, activation="tanh")


def test_a_threat_plane_network_takes_180_inputs(tmp_path):
    rng = np.random.default_rng(3)
    layers = [(rng.uniform(-0.1, 0.1, (180, 8)), np.zeros(8)), (rng.uniform(-1, 1, (8, 1)), np.zeros(1))]
    net = fanorona.Network.from_layers(layers, encoding="threats")
    assert net.encoding == "threats"
    assert net.architecture == "threats:180-8-1"
    path = tmp_path / "t.fnet"
    net.save(path)
    loaded = fanorona.Network.load(path)
    assert loaded.encoding == "threats"
    assert -1.0 <= loaded.evaluate(fanorona.Position.start()) <= 1.0
    x = fanorona.Position.start().encode("threats")
    assert x.shape == (180,) and x[90:].sum() == 10
    assert abs(loaded.forward(x[None, :])[0] - loaded.evaluate(fanorona.Position.start())) < 1e-6
    # A threat network refuses the 90 stone planes.
    with pytest.raises(ValueError, match="180"):
        loaded.forward(np.zeros((2, 90)))
    with pytest.raises(ValueError, match="encoding"):
        fanorona.Network.from_layers(layers, encoding="pieces")
    with pytest.raises(ValueError, match="layer 0"):
        fanorona.Network.from_layers(layers, encoding="stones")
    # Without an encoding, the first layer's width says which.
    assert fanorona.Network.from_layers(layers).encoding == "threats"
    with pytest.raises(ValueError, match="layer 0: W has 91 inputs"):
        fanorona.Network.from_layers([(np.zeros((91, 8)), np.zeros(8)), (np.zeros((8, 1)), np.zeros(1))])


def test_bad_network_files(tmp_path):
    with pytest.raises(OSError):
        fanorona.Network.load(tmp_path / "missing.fnet")
    junk = tmp_path / "junk.fnet"
    junk.write_bytes(b"FANORNET" + b"\0" * 20)
    with pytest.raises(ValueError) as err:
        fanorona.Network.load(junk)
    cli = run("net", "info", str(junk), check=False)
    assert cli.returncode == 2 and str(err.value) in cli.stderr
    path = tmp_path / "n.fnet"
    fanorona.Network.from_layers(random_layers(2)).save(path)
    data = bytearray(path.read_bytes())
    data[200] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        fanorona.Network.load(path)


def test_safetensors_round_trip_through_the_command_line(tmp_path):
    layers = random_layers(5, hidden=(16, 8))
    src = tmp_path / "a.fnet"
    fanorona.Network.from_layers(layers, description="st").save(src)
    st = tmp_path / "a.safetensors"
    run("net", "export", str(src), "--format", "safetensors", "-o", str(st))
    # Read the safetensors file by hand: PyTorch's Linear layout, [outputs, inputs].
    raw = st.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    assert header["__metadata__"]["description"] == "st"
    for k, (w, b) in enumerate(layers):
        t = header[f"layers.{k}.weight"]
        assert t["dtype"] == "F32" and t["shape"] == [w.shape[1], w.shape[0]]
        a, z = t["data_offsets"]
        got = np.frombuffer(raw[8 + n + a:8 + n + z], dtype="<f4").reshape(t["shape"])
        assert np.array_equal(got, w.T)
    back = tmp_path / "b.fnet"
    run("net", "import", str(st), "-o", str(back))
    assert back.read_bytes() == src.read_bytes()
    refused = run("net", "import", str(st), "-o", str(back), check=False)
    assert refused.returncode == 2 and "exists" in refused.stderr


def test_a_network_the_engine_would_refuse_is_refused_when_saved_or_imported(tmp_path):
    layers = random_layers(6)
    layers[0][0][3, 5] = 80.0
    net = fanorona.Network.from_layers(layers)
    assert "layer 0 weight" in net.engine_error and "at most" in net.engine_error
    path = tmp_path / "big.fnet"
    with pytest.raises(ValueError, match=r"big.fnet: layer 0 weight 3\*32\+5|big.fnet: layer 0 weight 101 is 80"):
        net.save(path)
    assert not path.exists()
    # The same weights through safetensors: `net import` refuses them too, naming the limit.
    good = tmp_path / "good.fnet"
    fanorona.Network.from_layers(random_layers(6)).save(good)
    st = tmp_path / "good.safetensors"
    run("net", "export", str(good), "-o", str(st))
    raw = bytearray(st.read_bytes())
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    start = 8 + n + header["layers.0.weight"]["data_offsets"][0]
    # layers.0.weight is [outputs, inputs]: element (out 5, in 3).
    offset = start + 4 * (5 * 90 + 3)
    raw[offset:offset + 4] = struct.pack("<f", 80.0)
    st.write_bytes(bytes(raw))
    refused = run("net", "import", str(st), "-o", str(tmp_path / "b.fnet"), check=False)
    assert refused.returncode == 2 and "layer 0 weight 101 is 80" in refused.stderr and "at most" in refused.stderr
    assert not (tmp_path / "b.fnet").exists()
    # A ReLU network runs in floats: the engine loads it whatever its weights.
    relu = fanorona.Network.from_layers(layers, activation="relu")
    assert relu.engine_error is None
    relu.save(tmp_path / "relu.fnet")
    info = run_json("net", "info", str(tmp_path / "relu.fnet"))
    assert info["engine_loads"] and not info["integer_inference"]


def test_a_pytorch_file_without_metadata_imports_with_its_encoding(tmp_path):
    """safetensors written as PyTorch writes them (no metadata): 180 inputs are threats."""
    rng = np.random.default_rng(2)
    tensors = {"fc1.weight": rng.uniform(-0.1, 0.1, (8, 180)).astype("<f4"), "fc1.bias": np.zeros(8, "<f4"),
               "fc2.weight": rng.uniform(-1, 1, (1, 8)).astype("<f4"), "fc2.bias": np.zeros(1, "<f4")}
    header, blobs, at = {}, [], 0
    for name, t in tensors.items():
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [at, at + t.nbytes]}
        blobs.append(t.tobytes())
        at += t.nbytes
    text = json.dumps(header).encode()
    path = tmp_path / "torch.safetensors"
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))
    run("net", "import", str(path), "-o", str(tmp_path / "t.fnet"))
    net = fanorona.Network.load(tmp_path / "t.fnet")
    assert net.architecture == "threats:180-8-1"
    assert np.allclose(net.layers()[0][0], tensors["fc1.weight"].T)


def test_forward_takes_a_single_row_and_refuses_wrong_shapes():
    net = fanorona.Network.from_layers(random_layers(1))
    x = fanorona.Position.start().encode("stones")
    assert isinstance(net.forward(x), float)
    assert abs(net.forward(x) - net.forward(x[None, :])[0]) < 1e-7
    for bad in (np.zeros(91), np.zeros((2, 3, 90)), np.zeros((0,)), "text"):
        with pytest.raises((ValueError, TypeError)):
            net.forward(bad)
