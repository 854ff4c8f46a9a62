"""PyTorch over ``fanorona.samples`` (``pip install torch``): ``SampleDataset``, an iterable
dataset whose workers each read their own share of the games, so that
``DataLoader(SampleDataset(...), batch_size=None, num_workers=N)`` gives every sample once an
epoch whatever ``N``."""

from typing import Any, Dict, Iterator, Sequence

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from . import samples


class SampleDataset(IterableDataset):
    """Batches of ``fanorona.samples(files, ...)`` as dicts of tensors: ``inputs`` as float32
    ``[n, 180]`` (``[n, 90]`` with ``encoding="stones"``), the other ``columns`` with their
    numpy types. Each ``DataLoader`` worker reads every ``num_workers``-th game
    (``samples(worker=(id, num_workers))``) and shuffles with its own seed; ``set_epoch``
    changes the seeds from one epoch to the next. ``options`` are ``samples``'s (``split``,
    ``val_fraction``, ``target``, ``encoding``, ...)."""

    def __init__(self, files: Sequence[str], batch_size: int = 1024, shuffle_buffer: int = 0, seed: int = 1,
                 columns: Sequence[str] = ("inputs", "target"), **options: Any):
        super().__init__()
        self.files, self.batch_size, self.shuffle_buffer = list(map(str, files)), batch_size, shuffle_buffer
        self.seed, self.columns, self.options, self.epoch = seed, tuple(columns), options, 0

    def set_epoch(self, epoch: int) -> None:
        """Seeds the next pass with ``epoch`` (another shuffle each epoch)."""
        self.epoch = epoch

    def __iter__(self) -> Iterator[Dict[str, torch.Tensor]]:
        info = get_worker_info()
        worker = None if info is None else (info.id, info.num_workers)
        seed = self.seed + 7919 * self.epoch + (0 if info is None else info.id)
        for b in samples(self.files, self.batch_size, self.shuffle_buffer, seed, worker=worker, **self.options):
            yield {k: torch.from_numpy(b[k].astype(np.float32) if k == "inputs" else b[k]) for k in self.columns}
