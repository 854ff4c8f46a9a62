"""The Python package's figures (docs/guide/python.md): samples per second from
``fanorona.samples`` (alone, and through PyTorch's DataLoader with 1 and 2 workers when torch is
installed), environment steps per second (PettingZoo and Gymnasium, uniform legal actions), and
in-process search nodes per second against the command-line engine's (``fanorona analyse``, the
same positions and depth, interleaved, as a ratio).

    fanorona selfplay -n 1000 -o sp.bin --white alphabeta:depth=2,eval=handcrafted --black alphabeta:depth=2,eval=handcrafted
    python python/examples/throughput.py sp.bin --bin target/release/fanorona
"""

import argparse
import json
import subprocess
import time

import numpy as np

import fanorona


def samples_per_second(files, workers=None, repeat=2):
    """Samples a second into batches of 1024 (threats encoding, shuffle buffer 100,000)."""
    best = 0.0
    for _ in range(repeat):
        t, n = time.perf_counter(), 0
        if workers is None:
            for b in fanorona.samples(files, 1024, 100_000):
                n += len(b["target"])
        else:
            import torch
            from fanorona.torch import SampleDataset
            ds = SampleDataset(files, 1024, 100_000)
            for b in torch.utils.data.DataLoader(ds, batch_size=None, num_workers=workers):
                n += len(b["target"])
        best = max(best, n / (time.perf_counter() - t))
    return best


def env_steps_per_second(steps=20_000):
    from fanorona.env import FanoronaEnv, SingleAgentEnv
    rng = np.random.default_rng(1)
    env = FanoronaEnv()
    env.reset(seed=1)
    t, n = time.perf_counter(), 0
    while n < steps:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    aec = n / (time.perf_counter() - t)
    single = SingleAgentEnv(opponent="random")
    obs, _ = single.reset(seed=1)
    t, n = time.perf_counter(), 0
    while n < steps:
        obs, _, term, trunc, _ = single.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
        if term or trunc:
            obs, _ = single.reset()
    return aec, n / (time.perf_counter() - t)


def positions(count=12, seed=5):
    """Positions of a game of random turns (after the opening)."""
    rng = np.random.default_rng(seed)
    g, out = fanorona.Game(), []
    while len(out) < count and not g.is_over:
        g.play(g.legal_moves()[int(rng.integers(len(g.legal_moves())))])
        if g.ply >= 6 and not g.is_over:
            out.append(str(g.position))
    return out


def search_ratio(binary, depth, rounds=3):
    """Nodes per second in-process and from `fanorona analyse`, alternated per position."""
    py_nodes = py_time = cli_nodes = cli_time = 0.0
    engine = fanorona.Engine(f"alphabeta:depth={depth},eval=handcrafted")
    for _ in range(rounds):
        for p in positions():
            engine.new_game()
            r = engine.search(fanorona.Position(p))
            py_nodes, py_time = py_nodes + r["nodes"], py_time + r["seconds"]
            out = json.loads(subprocess.run([binary, "analyse", "-p", p, "--depth", str(depth), "--json"],
                                            capture_output=True, text=True, check=True).stdout)
            assert out["nodes"] == r["nodes"] and out["best"] == r["best"]
            cli_nodes, cli_time = cli_nodes + out["nodes"], cli_time + out["time_ms"] / 1000
    return py_nodes / py_time, cli_nodes / cli_time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="record files")
    ap.add_argument("--bin", default="fanorona", help="the command-line tool")
    ap.add_argument("--depth", type=int, default=5)
    args = ap.parse_args()
    out = {"samples_per_second": samples_per_second(args.files)}
    try:
        import torch  # noqa: F401
        out["dataloader_1_worker"] = samples_per_second(args.files, 1)
        out["dataloader_2_workers"] = samples_per_second(args.files, 2)
    except ImportError:
        pass
    try:
        out["aec_steps_per_second"], out["gymnasium_steps_per_second"] = env_steps_per_second()
    except ImportError:
        pass
    py, cli = search_ratio(args.bin, args.depth)
    out.update(python_nodes_per_second=py, cli_nodes_per_second=cli, ratio=py / cli)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
