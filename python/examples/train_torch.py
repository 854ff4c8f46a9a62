"""Train the engine's default value network in PyTorch and save it for the engine.

The network is the one ``fanorona train`` builds by default (``threats:180-256-1``): the 180
inputs of the threat encoding, one hidden layer of 256 with clipped ReLU (``clamp(x, 0, 1)``),
one tanh output, trained on the blended target (the same samples as ``fanorona train``,
through ``fanorona.samples``) with the trainer's split: 10 % of the games, chosen by their
identity, are held out, and every epoch reports the loss on them. The weights are clipped after
every step to the ranges the engine's integer inference needs, so the saved network is one the
engine loads (``Network.save`` refuses one it would not). ``--init FILE.fnet`` goes on training
a network file (a shipped or trained one), of its own architecture.

    pip install ./python torch       # PyTorch is only needed for this example (docs/guide/python.md)
    fanorona selfplay -n 400 -o sp.bin --white alphabeta:depth=2,eval=handcrafted --black alphabeta:depth=2,eval=handcrafted
    python python/examples/train_torch.py sp.bin -o torch.fnet --epochs 4 --shuffle-buffer 30000
    fanorona net info torch.fnet
    fanorona eval -e alphabeta:depth=3,eval=net:torch.fnet -e alphabeta:depth=3,eval=material -n 200 -c 2
"""

import argparse
import sys

import fanorona

try:
    import torch
    from fanorona.torch import SampleDataset
except ImportError:
    sys.exit("this example needs PyTorch: pip install torch")


class ValueNet(torch.nn.Module):
    """Linear layers, clipped ReLU between them, tanh at the end (the engine's network)."""

    def __init__(self, sizes, encoding):
        super().__init__()
        self.encoding = encoding
        self.layers = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    @staticmethod
    def from_network(net):
        """The network of a ``.fnet`` file, to train further."""
        layers = net.layers()
        model = ValueNet([layers[0][0].shape[0], *(w.shape[1] for w, _ in layers)], net.encoding)
        with torch.no_grad():
            for layer, (w, b) in zip(model.layers, layers):
                layer.weight.copy_(torch.from_numpy(w.T))
                layer.bias.copy_(torch.from_numpy(b))
        return model

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.clamp(layer(x), 0.0, 1.0)
        return torch.tanh(self.layers[-1](x)).squeeze(-1)

    @torch.no_grad()
    def clip(self):
        """Keeps every weight where the engine's integer inference can hold it."""
        n = len(self.layers)
        for k, layer in enumerate(self.layers):
            w, b = fanorona.weight_limits(k, n, self.encoding)
            layer.weight.clamp_(-w, w)
            layer.bias.clamp_(-b, b)

    def to_network(self, description):
        """The engine's network: ``W`` is ``[inputs, outputs]``, the transpose of torch's."""
        layers = [(l.weight.detach().cpu().numpy().T, l.bias.detach().cpu().numpy()) for l in self.layers]
        return fanorona.Network.from_layers(layers, description=description, encoding=self.encoding)


def mean_loss(model, loader, opt=None):
    """The mean squared error over one pass of `loader`, training when `opt` is given."""
    total, n = 0.0, 0
    for batch in loader:
        x, y = batch["inputs"], batch["target"]
        with torch.set_grad_enabled(opt is not None):
            loss = torch.nn.functional.mse_loss(model(x), y)
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clip()
        total += loss.item() * len(y)
        n += len(y)
    return total / max(n, 1), n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="record files")
    ap.add_argument("-o", "--out", required=True, help="network file to write (.fnet)")
    ap.add_argument("--init", help="network file to go on training (its architecture)")
    ap.add_argument("--encoding", default="threats", choices=["threats", "stones"])
    ap.add_argument("--hidden", default="256", help="hidden layer sizes, comma-separated (default 256)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--shuffle-buffer", type=int, default=200_000)
    ap.add_argument("--val-fraction", type=float, default=0.1, help="games held out, as the trainer's data.val_fraction")
    ap.add_argument("--workers", type=int, default=0, help="DataLoader worker processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", default="blend", choices=["blend", "result", "score"])
    ap.add_argument("--score-weight", type=float, default=0.5)
    ap.add_argument("--skip-plies", type=int, default=0)
    ap.add_argument("--mirror", action="store_true", help="also train on every position mirrored")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    if args.init:
        model = ValueNet.from_network(fanorona.Network.load(args.init))
    else:
        width = len(fanorona.Position.start().encode(args.encoding))
        model = ValueNet([width, *(int(h) for h in args.hidden.split(",") if h), 1], args.encoding)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    options = dict(encoding=model.encoding, target=args.target, score_weight=args.score_weight,
                   skip_plies=args.skip_plies, val_fraction=args.val_fraction)
    train = SampleDataset(args.files, args.batch_size, args.shuffle_buffer, args.seed, split="train",
                          mirror=args.mirror, **options)
    val = SampleDataset(args.files, 4096, split="validation", **options)
    loader = lambda ds: torch.utils.data.DataLoader(ds, batch_size=None, num_workers=args.workers)
    for epoch in range(args.epochs):
        train.set_epoch(epoch)
        loss, n = mean_loss(model, loader(train), opt)
        val_loss, m = mean_loss(model, loader(val))
        print(f"epoch {epoch + 1}: loss {loss:.5f} over {n} samples, validation loss {val_loss:.5f} over {m}",
              flush=True)
    net = model.to_network(f"train_torch.py: {args.epochs} epochs, {','.join(args.files)}, target {args.target}")
    net.save(args.out)
    start = fanorona.Position.start()
    print(f"wrote {args.out}: {net.architecture}, engine-ready, start position {net.score(start)} centi-stones")


if __name__ == "__main__":
    main()
