"""Train the engine's default value network in PyTorch and save it for the engine.

The network is the one ``fanorona train`` builds by default: 90 stone-plane inputs, one
hidden layer of 256 with clipped ReLU (``clamp(x, 0, 1)``), one tanh output, trained on the
blended target (the same samples as ``fanorona train``, through ``fanorona.samples``), with
the weights clipped after every step to the ranges the engine's integer inference needs.

    pip install ./python torch       # PyTorch is only needed for this example
    # (CPU-only wheels: pip install torch --index-url https://download.pytorch.org/whl/cpu)
    fanorona selfplay -n 2000 -o sp.bin
    python python/examples/train_torch.py sp.bin -o torch.fnet --epochs 3
    fanorona net info torch.fnet
    fanorona eval -e alphabeta:depth=4,eval=net:torch.fnet -e alphabeta:depth=4,eval=handcrafted -n 100
"""

import argparse
import sys

import numpy as np

import fanorona

try:
    import torch
except ImportError:
    sys.exit("this example needs PyTorch: pip install torch")


class ValueNet(torch.nn.Module):
    """Linear layers, clipped ReLU between them, tanh at the end (the engine's network)."""

    def __init__(self, hidden):
        super().__init__()
        sizes = [fanorona.INPUTS, *hidden, 1]
        self.layers = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.clamp(layer(x), 0.0, 1.0)
        return torch.tanh(self.layers[-1](x)).squeeze(-1)

    @torch.no_grad()
    def clip(self):
        """Keeps every weight where the engine's integer inference can hold it."""
        n = len(self.layers)
        for k, layer in enumerate(self.layers):
            w, b = fanorona.weight_limits(k, n)
            layer.weight.clamp_(-w, w)
            layer.bias.clamp_(-b, b)

    def to_network(self, description):
        """The engine's network: ``W`` is ``[inputs, outputs]``, the transpose of torch's."""
        layers = [(l.weight.detach().cpu().numpy().T, l.bias.detach().cpu().numpy()) for l in self.layers]
        return fanorona.Network.from_layers(layers, description=description, activation="crelu")


class Samples(torch.utils.data.IterableDataset):
    """Batches of ``fanorona.samples`` as tensors (``DataLoader(..., batch_size=None)``)."""

    def __init__(self, files, batch_size, shuffle_buffer, seed, **options):
        self.files, self.batch_size, self.shuffle_buffer, self.seed = files, batch_size, shuffle_buffer, seed
        self.options = options

    def __iter__(self):
        for b in fanorona.samples(self.files, self.batch_size, self.shuffle_buffer, self.seed, **self.options):
            yield torch.from_numpy(b["inputs"].astype(np.float32)), torch.from_numpy(b["target"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="record files")
    ap.add_argument("-o", "--out", required=True, help="network file to write (.fnet)")
    ap.add_argument("--hidden", default="256", help="hidden layer sizes, comma-separated (default 256)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--shuffle-buffer", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", default="blend", choices=["blend", "result", "score"])
    ap.add_argument("--score-weight", type=float, default=0.5)
    ap.add_argument("--skip-plies", type=int, default=0)
    ap.add_argument("--mirror", action="store_true", help="also train on every position mirrored")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    hidden = [int(h) for h in args.hidden.split(",") if h]
    model = ValueNet(hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    options = dict(target=args.target, score_weight=args.score_weight, skip_plies=args.skip_plies, mirror=args.mirror)
    for epoch in range(args.epochs):
        data = Samples(args.files, args.batch_size, args.shuffle_buffer, args.seed + epoch, **options)
        total, n = 0.0, 0
        for x, y in torch.utils.data.DataLoader(data, batch_size=None):
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clip()
            total += loss.item() * len(y)
            n += len(y)
        print(f"epoch {epoch + 1}: loss {total / max(n, 1):.5f} over {n} samples", flush=True)
    net = model.to_network(f"train_torch.py: {args.epochs} epochs, {','.join(args.files)}, target {args.target}")
    net.save(args.out)
    start = fanorona.Position.start()
    print(f"wrote {args.out}: {net.architecture}, start position {net.score(start)} centi-stones")


if __name__ == "__main__":
    main()
