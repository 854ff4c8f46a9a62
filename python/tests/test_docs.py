"""The Python recipes of docs/guide/python.md run as written: every ```python block, in order,
in one namespace, in a folder holding the files they name (sp.bin: self-play games; best.fnet:
the shipped network). The command lines of its ```sh blocks are checked by tests/docs.rs."""

import os
import pathlib
import re
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide" / "python.md"


def blocks(text: str):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_python_guides_recipes_run(games, tmp_path):
    if os.environ.get("FANORONA_REQUIRE_PETTINGZOO") != "1":
        pytest.importorskip("pettingzoo", reason="the guide's environment recipe needs pettingzoo")
    code = blocks(GUIDE.read_text())
    assert len(code) >= 4, "no python blocks found: is the parser broken?"
    shutil.copy(games, tmp_path / "sp.bin")
    shutil.copy(ROOT / "nn" / "nets" / "bench.fnet", tmp_path / "best.fnet")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        namespace: dict = {}
        for k, block in enumerate(code):
            exec(compile(block, f"{GUIDE.name} python block {k + 1}", "exec"), namespace)
    finally:
        os.chdir(here)
    assert (tmp_path / "mine.fnet").exists()
