"""The Python API against the command line: same answers, same runs, same
refusals."""

import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import bebete

from conftest import ROOT

# Columns that hold times: they differ between any two runs.
TIMES = {"tournament_s", "breeding_s", "io_s"}


def rows_without_times(path: Path):
    with open(path / "stats.csv", newline="") as f:
        return [{k: v for k, v in row.items() if k not in TIMES} for row in csv.DictReader(f)]


def test_version_is_the_crates():
    cargo = (ROOT / "Cargo.toml").read_text()
    assert f'version = "{bebete.__version__}"' in cargo


def test_games_are_the_registered_ones(cli):
    code, out, err = cli("evolve", "--game", "nosuchgame")
    assert code == 2
    for name in bebete.games():
        assert name in err
    assert bebete.games()[:3] == ["tictactoe", "matchsticks", "connect4"]


@pytest.mark.parametrize(
    "genome,positions",
    [
        ("tictactoe.genome", ["", "5", "51", "519"]),
        ("connect4.genome", ["", "44", "4453"]),
        ("othello-ntuple.genome", ["", "f5", "f5d6", "f5 d6 c3"]),
        ("checkers-ntuple.genome", ["", "11-15", "11-15 23-19"]),
        ("matchsticks.genome", [""]),
    ],
)
def test_a_genome_moves_as_the_command_line_does(cli, scratch, genome, positions):
    loaded = bebete.load(Path("genomes") / genome)
    for position in positions:
        code, out, err = cli("move", f"genomes/{genome}", "--position", position, cwd=scratch)
        assert code == 0, err
        assert loaded.move(position) == out.strip(), position


def test_explain_is_the_command_lines_json(cli, scratch):
    genome = bebete.load("genomes/connect4.genome")
    code, out, _ = cli("explain", "genomes/connect4.genome", "--position", "44", "--json", cwd=scratch)
    assert code == 0
    assert genome.explain("44") == json.loads(out)
    assert genome.game == "connect4"


def test_a_bad_position_or_file_is_a_clear_error(scratch):
    genome = bebete.load("genomes/tictactoe.genome")
    with pytest.raises(ValueError, match="position '55'"):
        genome.move("55")
    with pytest.raises(FileNotFoundError, match="nothere.genome"):
        bebete.load("nothere.genome")


def test_evolve_is_the_command_lines_run_row_for_row(cli, scratch):
    Path("cli").mkdir()
    Path("py").mkdir()
    code, _, err = cli(
        "evolve", "--game", "c4", "--encoder", "subgrid", "--seed", "3", "--generations", "4", "--population", "12",
        "--run", "cli/run", "--quiet", "--threads", "2", cwd=scratch,
    )
    assert code == 0, err
    seen = []
    run = bebete.evolve(
        "c4", encoder="subgrid", seed=3, generations=4, population=12, run="py/run", threads=1, each=seen.append
    )
    assert run.path == Path("py/run")
    assert rows_without_times(run.path) == rows_without_times(scratch / "cli/run")
    # The champion byte for byte (the file names its run's folder: "run").
    assert (run.path / "best.genome").read_bytes() == (scratch / "cli/run/best.genome").read_bytes()
    # Each generation reported once, in order, with the row's numbers.
    assert [r["generation"] for r in seen] == [0, 1, 2, 3]
    assert [r["best"] for r in seen] == [row["best"] for row in run.stats]
    assert isinstance(run.stats[0]["mean"], float)
    assert run.best.game == "connect4"


def test_resume_goes_on_as_the_command_line_does(cli, scratch):
    Path("b").mkdir()
    bebete.evolve("ttt", seed=5, generations=20, run="runs/a", checkpoint_every=5)
    resumed = bebete.resume("runs/a", 10)
    assert len(resumed.stats) == 30
    code, _, err = cli(
        "evolve", "--game", "ttt", "--seed", "5", "--generations", "30", "--run", "b/a",
        "--checkpoint-every", "5", "--quiet", cwd=scratch,
    )
    assert code == 0, err
    assert rows_without_times(Path("runs/a")) == rows_without_times(Path("b/a"))
    assert Path("runs/a/best.genome").read_bytes() == Path("b/a/best.genome").read_bytes()


@pytest.mark.parametrize(
    "settings,message,flag",
    [
        ({"population": 0}, "population=0: must be 1-100000", "--set population=0: must be 1-100000"),
        ({"fitness": "nonsense"}, "fitness=nonsense: expected round-robin", "--set fitness=nonsense"),
        ({"keep": 0}, "keep=0: must be at least 1", "--set keep=0: must be at least 1"),
        ({"selection": "tournament:0"}, "selection=tournament:0", "--set selection=tournament:0"),
    ],
)
def test_bad_settings_are_the_engines_refusals(cli, scratch, settings, message, flag):
    with pytest.raises(ValueError) as raised:
        bebete.evolve("ttt", seed=1, run="runs/bad", **settings)
    assert message in str(raised.value)
    words = []
    for name, value in settings.items():
        words += ["--set", f"{name}={value}"]
    _, _, err = cli("evolve", "--seed", "1", "--run", "runs/bad2", *words, cwd=scratch)
    assert flag in err
    assert not Path("runs/bad").exists()


@pytest.mark.parametrize(
    "game,options,message,flag",
    [
        ("othello", {"encoder": "votes"}, "encoder=votes: othello encoders are", "--encoder votes: othello encoders are"),
        ("ttt", {"empty": 3}, "rows and empty apply only to game=solitaire, not tictactoe", "--rows and --empty apply only to --game solitaire, not tictactoe"),
        ("ttt", {"tuples": "8x4"}, "tuples applies only to encoder=ntuple", "--tuples applies only to --encoder ntuple"),
    ],
)
def test_a_games_options_are_refused_in_each_doors_words(cli, scratch, game, options, message, flag):
    # The engine names the option; Python says it as a keyword, the
    # command line as a flag.
    with pytest.raises(ValueError) as raised:
        bebete.evolve(game, seed=1, run="runs/bad", **options)
    assert message in str(raised.value)
    assert "--" not in str(raised.value)
    words = []
    for name, value in options.items():
        words += ["--" + name, str(value)]
    _, _, err = cli("evolve", "--game", game, "--seed", "1", "--run", "runs/bad2", *words, cwd=scratch)
    assert flag in err


def test_every_setting_of_a_run_is_a_keyword_read_by_the_engine(scratch):
    names = bebete.run_settings()
    assert {"population", "keep", "selection", "bench_games", "migrants", "patience"} <= set(names)
    run = bebete.evolve(
        "ttt", seed=3, generations=2, run="runs/kw", progress=False,
        keep=1, selection="tournament:3", bench_against=["random", "alphabeta:1"],
        bench_games=4, mutation=0.02, patience=None, target="score:random:0.99",
    )
    written = (run.path / "run.toml").read_text()
    for line in ['keep = 1', 'selection = "tournament:3"', 'bench_against = ["random", "alphabeta:1"]',
                 'bench_games = 4', 'mutation = 0.02', 'target = "score:random:0.99"']:
        assert line in written, written


def test_an_unknown_keyword_is_a_type_error_naming_the_nearest(scratch):
    with pytest.raises(TypeError, match=r"evolve\(\) got an unexpected keyword argument 'popul' \(did you mean 'population'\?\)"):
        bebete.evolve("ttt", seed=1, run="runs/bad", popul=3)
    with pytest.raises(TypeError, match="'nonsense'"):
        bebete.resume("runs/bad", nonsense=1)
    with pytest.raises(TypeError, match="eval"):
        bebete.eval("genomes/tictactoe.genome", populaton=2)
    assert not Path("runs/bad").exists()
    # Every setting of a run and every flag of the command is a keyword.
    assert {"population", "self_play", "bench_against", "checkpoint_every"} <= set(
        bebete.run_settings()
    )
    assert {"encoder", "tuples", "preset", "threads"} <= set(bebete._bebete.settings("evolve"))


def test_an_exception_in_each_stops_the_run_at_a_checkpoint(scratch):
    def each(row):
        if row["generation"] == 2:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        bebete.evolve("c4", encoder="subgrid", seed=1, generations=50, population=10, run="runs/x", each=each)
    # Stopped after its generation, with a checkpoint to go on from.
    assert len(list(Path("runs/x/checkpoints").glob("gen-*.ckpt"))) >= 1
    resumed = bebete.resume("runs/x", 2)
    assert len(resumed.stats) >= 4


def test_the_gil_is_released_while_a_run_works(scratch):
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        bebete.evolve("c4", encoder="subgrid", seed=2, generations=6, population=16, run="runs/gil", threads=1)
    finally:
        done.set()
        ticker.join()
    # Python ran beside the run: many ticks, none blocked for long.
    assert len(ticks) > 20
    assert max(b - a for a, b in zip(ticks, ticks[1:])) < 0.5


def signalled_run(run, signum, prelude="", handled=""):
    """A Python process evolving into ``run``, sent ``signum`` once its first
    generation is reported: its exit status, stdout and stderr, and the
    newest checkpoint's generation beside the rows of ``stats.csv``."""
    script = (
        f"import bebete, signal, sys\n{prelude}"
        "def each(row):\n"
        "    print('generation', row['generation'], flush=True)\n"
        "try:\n"
        f"    bebete.evolve('c4', encoder='subgrid', seed=1, generations=100000, population=10, run='{run}', each=each)\n"
        f"{handled}"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        first = child.stdout.readline()
        assert first.startswith("generation"), child.stderr.read()
        child.send_signal(signum)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    checkpoints = sorted(Path(run, "checkpoints").glob("gen-*.ckpt"))
    assert checkpoints, f"a checkpoint was written before the end: {err}"
    newest = int(checkpoints[-1].stem.split("-")[1])
    return child.returncode, out, err, newest, len(rows_without_times(Path(run)))


def test_ctrl_c_raises_keyboard_interrupt_after_the_checkpoint(scratch):
    # A shell that starts a job in the background without job control
    # leaves SIGINT ignored, and the child would inherit that: restore
    # Python's own handler, as an interactive session has it.
    code, out, err, newest, rows = signalled_run(
        "runs/int",
        signal.SIGINT,
        prelude="signal.signal(signal.SIGINT, signal.default_int_handler)\n",
        handled="except KeyboardInterrupt:\n    print('interrupted', flush=True)\n    sys.exit(130)\n",
    )
    assert code == 130, err
    assert "interrupted" in out
    # How to go on, in Python's words.
    assert 'continue with: bebete.resume("runs/int")' in err
    assert newest == rows
    resumed = bebete.resume("runs/int", 1)
    assert len(resumed.stats) == rows + 1


def test_sigterm_stops_a_run_at_its_checkpoint_and_exits_143(scratch):
    code, _, err, newest, rows = signalled_run(
        "runs/term", signal.SIGTERM, handled="finally:\n    pass\n"
    )
    assert code == 143, err
    assert 'checkpoint written); continue with: bebete.resume("runs/term")' in err
    assert newest == rows


def test_eval_gives_the_command_lines_tally(cli, scratch):
    code, out, err = cli(
        "eval", "genomes/tictactoe.genome", "--against", "random,rules", "--games", "100",
        "--seed", "4", "--json", cwd=scratch,
    )
    assert code == 0, err
    shown = {t["against"]: t for t in json.loads(out)}
    got = bebete.eval("genomes/tictactoe.genome", against=["random", "rules"], games=100, seed=4)
    for name in ("random", "rules"):
        for key in ("games", "wins", "draws", "losses"):
            assert got[name][key] == shown[name][key]
    one = bebete.eval(bebete.load("genomes/tictactoe.genome"), against="perfect", games=20)
    assert (one["wins"], one["draws"], one["losses"], one["score"]) == (0, 20, 0, 0.5)
    with pytest.raises(ValueError, match="games"):
        bebete.eval("genomes/tictactoe.genome", against="random", games=0)


def test_legal_moves_are_the_rules(scratch):
    assert bebete.legal_moves("tictactoe") == [str(c) for c in range(1, 10)]
    assert bebete.legal_moves("othello", "f5") == ["f4", "d6", "f6"]
    assert bebete.legal_moves("ttt", "123456") == ["7", "8", "9"]
    assert bebete.legal_moves("ttt", "14253") == []


def test_a_run_started_over_and_its_files_in_its_own_folder(scratch, capfd):
    first = bebete.evolve("ttt", seed=1, generations=3, run="runs/again")
    with pytest.raises(ValueError, match="already holds a run"):
        bebete.evolve("ttt", seed=1, generations=3, run="runs/again")
    # The cell run twice: the old run goes, the new one is a whole run.
    Path("runs/again/notes.txt").write_text("mine")
    again = bebete.evolve("ttt", seed=2, generations=5, run="runs/again", overwrite=True)
    assert len(again.stats) == 5 and again.stats[0]["generation"] == 0
    assert first.path == again.path
    assert Path("runs/again/notes.txt").read_text() == "mine"
    # Every file of the run in its folder, none in the working folder.
    assert Path("runs/again/again.png").exists()
    assert not Path("plots").exists()
    assert not Path("genomes/again.genome").exists()
    # A progress line on stderr without each=, none with progress=False.
    err = capfd.readouterr().err
    assert "generation 0: best" in err
    bebete.evolve("ttt", seed=3, generations=2, run="runs/quiet", progress=False)
    assert "generation" not in capfd.readouterr().err
