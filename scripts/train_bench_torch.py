#!/usr/bin/env python3
"""The PyTorch twin of `fanorona train --bench STEPS`: training samples per second of the same
value network, batch and optimiser, so that the two can be compared side by side on one machine.

What is timed, as in the Rust benchmark (train/src/throughput.rs):
  * a pool of 4096 encoded positions (0/1 stone planes, 90 inputs: the side to move's 45 points
    then the opponent's; stone counts spread as in random play from the start);
  * every step draws a batch of random pool rows on the host (numpy), copies it into a fresh
    tensor (the "host batch copied in every step"), runs forward, MSE loss against +-0.5,
    backward, and an AdamW step (lr 1e-3, weight decay 1e-4, burn's defaults), then reads the
    loss back as a float; with clipped ReLU the weights are clipped after the step, as
    `fanorona train` does;
  * 3 untimed warm-up steps, then STEPS timed ones.

Usage (PyTorch is an optional dependency: `pip install torch numpy`):
    python3 scripts/train_bench_torch.py --steps 80                          # 90-256-1, crelu
    python3 scripts/train_bench_torch.py --steps 80 --hidden 128,32 --threads 1,2
    python3 scripts/train_bench_torch.py --json ...                          # one JSON object a line

The Rust side: `fanorona train --bench 80 [--hidden 128,32]` (burn's flex backend uses every
core through rayon, so compare with --threads at the machine's core count as well as 1).
"""

import argparse
import json
import sys
import time

try:
    import numpy as np
    import torch
except ImportError:
    sys.exit("this benchmark needs PyTorch and numpy: pip install torch numpy")

INPUTS = 90
POINTS = 45
POOL = 4096


def weight_limits(k, layers):
    """fanorona_nn::weight_limits: the clipping `fanorona train` applies after each step."""
    if k == 0 and layers > 1:
        return 1.4, 2.0
    if k + 1 == layers:
        return 63.0, 1000.0
    return 1.98, 1000.0


def pool(rng):
    """4096 positions: for each, a stone count per side as random play from the start leaves it
    (22 each at first, fewer later), stones on distinct points, encoded as two planes."""
    x = np.zeros((POOL, INPUTS), dtype=np.float32)
    y = np.zeros(POOL, dtype=np.float32)
    for i in range(POOL):
        us = int(rng.integers(1, 23))
        them = int(rng.integers(1, 23))
        points = rng.permutation(POINTS)
        x[i, points[:us]] = 1.0
        x[i, POINTS + points[us:us + them]] = 1.0
        y[i] = 0.5 if us >= them else -0.5
    return x, y


class ValueNet(torch.nn.Module):
    def __init__(self, hidden, activation):
        super().__init__()
        sizes = [INPUTS, *hidden, 1]
        self.layers = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))
        self.activation = activation

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = layer(x)
            x = torch.clamp(x, 0.0, 1.0) if self.activation == "crelu" else torch.relu(x)
        return torch.tanh(self.layers[-1](x))

    @torch.no_grad()
    def clip(self):
        if self.activation != "crelu":
            return
        for k, layer in enumerate(self.layers):
            w, b = weight_limits(k, len(self.layers))
            layer.weight.clamp_(-w, w)
            layer.bias.clamp_(-b, b)


def measure(hidden, activation, batch, steps, threads, seed):
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    xs, ys = pool(rng)
    model = ValueNet(hidden, activation)
    optim = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    mse = torch.nn.MSELoss()
    start = None
    for s in range(steps + 3):
        if s == 3:
            start = time.perf_counter()
        rows = rng.integers(0, POOL, size=batch)
        x = torch.from_numpy(xs[rows])  # fancy indexing copies the rows: a fresh host batch
        y = torch.from_numpy(ys[rows]).unsqueeze(1)
        loss = mse(model(x), y)
        optim.zero_grad(set_to_none=True)
        loss.backward()
        optim.step()
        model.clip()
        loss.detach().item()
    secs = max(time.perf_counter() - start, 1e-9)
    arch = "-".join(str(n) for n in [INPUTS, *hidden, 1])
    return {
        "backend": "torch",
        "torch": torch.__version__,
        "threads": threads,
        "arch": arch,
        "activation": activation,
        "batch_size": batch,
        "steps": steps,
        "samples_per_second": steps * batch / secs,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=80, help="timed steps (after 3 warm-up steps)")
    p.add_argument("--hidden", default="256", help="hidden layer sizes, e.g. 128,32 (default 256)")
    p.add_argument("--activation", choices=["crelu", "relu"], default="crelu")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--threads", default="1", help="thread counts to measure, e.g. 1,2")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object per measurement")
    a = p.parse_args()
    hidden = [int(h) for h in a.hidden.split(",") if h]
    for threads in (int(t) for t in a.threads.split(",")):
        r = measure(hidden, a.activation, a.batch_size, max(a.steps, 1), threads, a.seed)
        if a.json:
            print(json.dumps(r))
        else:
            print(
                f"training throughput: {r['samples_per_second']:.0f} samples/s (torch {r['torch']}, "
                f"{threads} thread(s), {r['arch']} {activation_name(a.activation)}, batch {a.batch_size}, "
                f"{a.steps} steps)"
            )


def activation_name(a):
    return "clipped ReLU" if a == "crelu" else "ReLU"


if __name__ == "__main__":
    main()
