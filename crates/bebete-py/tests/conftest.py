"""Shared fixtures: the command line to compare with, and a scratch folder."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GENOMES = ROOT / "genomes"


def bebete_binary() -> Path:
    """The command line built from this checkout (`cargo build --release`),
    or the one BEBETE_BIN names."""
    named = os.environ.get("BEBETE_BIN")
    path = Path(named) if named else ROOT / "target" / "release" / "bebete"
    if not path.is_file():
        raise RuntimeError(f"{path}: no bebete binary; run `cargo build --release` first")
    return path


@pytest.fixture
def cli():
    """Runs the command line; returns (exit code, stdout, stderr)."""
    binary = bebete_binary()

    def run(*words, cwd=None, timeout=120):
        done = subprocess.run(
            [str(binary), *map(str, words)],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A scratch folder as the working directory, holding the shipped
    genomes under genomes/."""
    shutil.copytree(GENOMES, tmp_path / "genomes")
    monkeypatch.chdir(tmp_path)
    return tmp_path
