"""bebete from Python: evolve game-playing genomes, resume and measure them,
and play them as OpenSpiel bots (``bebete.openspiel``).

A run's settings are the engine's, by the names ``run.toml`` writes
(``population=50``, ``self_play=2000``, ``keep=5``,
``bench_against=["random", "alphabeta:2"]``; ``bebete.run_settings()`` lists
them), read and checked by the engine itself; the game's options and the
run's own (``encoder``, ``tuples``, ``preset``, ``threads``…) are the
command line's flags, with underscores for dashes. A keyword that is
neither raises ``TypeError``, a bad value ``ValueError`` with the engine's
message. A run is the command line's run, row for row, for the same seed
and settings; it works without the GIL, and Ctrl-C stops it after the
generation under way, its checkpoint written, then raises
``KeyboardInterrupt`` (``bebete.resume`` goes on from there); SIGTERM
stops it alike, then exits with status 143.

    import bebete
    run = bebete.evolve("tictactoe", seed=1, generations=20, run="runs/py-ttt")
    print(run.stats[-1]["best"], run.best.move("5"))
"""

from __future__ import annotations

import contextlib
import csv
import difflib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, Optional, Union

from . import _bebete

__version__: str = _bebete.__version__

__all__ = [
    "__version__",
    "games",
    "run_settings",
    "legal_moves",
    "load",
    "evolve",
    "resume",
    "eval",
    "Genome",
    "ObservedGenome",
    "Run",
]

PathLike = Union[str, "os.PathLike[str]"]


def run_settings() -> list:
    """The names of a run's settings, as ``run.toml`` writes them and
    ``evolve`` takes them as keywords."""
    return _bebete.run_settings()


def games() -> list:
    """The registered games' names, as ``game=`` and ``--game`` take them."""
    return _bebete.games()


def legal_moves(game: str, position: str = "") -> list:
    """The legal moves of ``game`` after ``position`` (the moves so far, in
    the game's notation), in the notation; empty when the game is over."""
    return _bebete.legal_moves(game, position)


class Genome:
    """A genome file, loaded once to answer positions.

    ``position`` is always the moves so far in the game's notation, as the
    command line's ``--position`` takes it (``"5"`` or ``"519"`` for
    tic-tac-toe, ``"4453"`` for Connect-Four, ``"f5 d6"`` for Othello,
    ``"11-15 23-19"`` for checkers).
    """

    def __init__(self, path: PathLike):
        self.path = Path(os.fspath(path))
        self._mover = _bebete.load(os.fspath(self.path))
        #: The genome's game, as ``--game`` names it.
        self.game: str = self._mover.game

    def move(self, position: str = "") -> str:
        """The genome's move after ``position``: ``bebete move`` 's answer."""
        return self._mover.answer(position)

    def explain(self, position: str = "") -> dict:
        """Why it plays that move: ``bebete explain --json`` as a dict."""
        return json.loads(_bebete.explain_json(os.fspath(self.path), position))

    def __repr__(self) -> str:
        return f"bebete.Genome({str(self.path)!r}, game={self.game!r})"


class ObservedGenome:
    """The champion of a run over an OpenSpiel game (any game bebete was
    not built for, ``bebete.evolve(pyspiel_game)``): a value genome over
    the game's observation tensor. ``action(game, state)`` is its move;
    ``bebete.openspiel.Bot`` plays it in ``pyspiel.evaluate_bots``."""

    def __init__(self, path: PathLike):
        self.path = Path(os.fspath(path))
        self._genome = _bebete.ObservedGenome(os.fspath(self.path))
        #: Its game, as the run named it (``openspiel:connect_four``).
        self.game: str = self._genome.game

    def action(self, game, state, plies: int = 1) -> int:
        """Its action in ``state`` (a state of ``game``, the
        ``pyspiel.Game`` it was evolved on): the legal action whose child
        it values best for the player to move; with ``plies`` 2 to 6, the
        best by a minimax search that deep (alpha-beta), the genome valuing
        the positions at its horizon."""
        place = self._genome.choose(game, state, plies)
        if place is None:
            raise ValueError("the state is over: no action to choose")
        return state.legal_actions()[place]

    def describe(self) -> str:
        """Its game, how it reads the tensor, its tuples, how it learned."""
        return self._genome.describe()

    @property
    def games(self) -> int:
        """The self-play games it learned from."""
        return self._genome.games

    def __repr__(self) -> str:
        return f"bebete.ObservedGenome({str(self.path)!r}, game={self.game!r})"


#: The tag an observed game's genome file starts with.
_OBSERVED_MAGIC = b"BBTOBSG\0"


def load(path: PathLike) -> Union[Genome, ObservedGenome]:
    """Loads a genome file (a run's ``best.genome``, a shipped champion…):
    a ``Genome`` of a built-in game, or an ``ObservedGenome`` of an
    OpenSpiel game."""
    try:
        with open(os.fspath(path), "rb") as f:
            observed = f.read(8) == _OBSERVED_MAGIC
    except OSError:
        observed = False  # the engine names what is wrong with the file
    return ObservedGenome(path) if observed else Genome(path)


def _number(text: str):
    """A column's value: a whole number, a float, or None where the column
    was not measured that generation (an empty field)."""
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


class Run:
    """A run directory written by ``evolve`` or ``resume``."""

    def __init__(self, path: PathLike, stopped: bool = False):
        #: The run's directory.
        self.path = Path(os.fspath(path))
        #: Whether Ctrl-C (or an exception from ``each``) stopped it early.
        self.stopped = stopped

    @property
    def stats(self) -> list:
        """The rows of ``stats.csv``, each a dict of numbers by column (None
        where a column was not measured that generation, as a benchmark
        between its generations)."""
        with open(self.path / "stats.csv", newline="") as f:
            return [
                {name: _number(value) for name, value in row.items()}
                for row in csv.DictReader(f)
            ]

    @property
    def best(self) -> Union[Genome, ObservedGenome]:
        """The run's champion (``best.genome``)."""
        return load(self.path / "best.genome")

    def __repr__(self) -> str:
        return f"bebete.Run({str(self.path)!r})"


def _check_keywords(command: str, settings: dict) -> None:
    """A keyword that is no setting of ``command`` is a ``TypeError``, as
    Python raises for any function, with the nearest setting named."""
    known = set(_bebete.settings(command)) - {"set"}
    if command == "evolve":
        known |= set(_bebete.run_settings())
    for name in settings:
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise TypeError(f"{command}() got an unexpected keyword argument {name!r}{hint}")


def _words(settings: dict) -> list:
    """Keyword arguments as the command line's flags."""
    words = []
    for name, value in settings.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            words += [flag, ",".join(str(v) for v in value)]
        else:
            words += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return words


Each = Optional[Callable[[dict], object]]

#: Seconds between two progress lines.
PROGRESS_EVERY = 5.0


def _with_progress(each: Each, progress: bool) -> Each:
    """``each``, and a line on stderr at the first generation and then at
    most every ``PROGRESS_EVERY`` seconds, unless ``progress`` is False."""
    if not progress:
        return each
    started = time.monotonic()
    shown = [None]
    # The champion's last score against random moves, and its generation:
    # measured every few generations, shown on every line after.
    measured = [None]

    def show(row: dict):
        now = time.monotonic()
        if row.get("vs_random") is not None:
            measured[0] = (row["generation"], row["vs_random"])
        if shown[0] is None or now - shown[0] >= PROGRESS_EVERY:
            shown[0] = now
            parts = []
            # A lone learner plays no round-robin: nobody scores points.
            if row["best"] or row["worst"] or row["mean"]:
                parts.append(f"best {row['best']}, mean {row['mean']:.1f}")
            if measured[0] is not None:
                at, score = measured[0]
                when = "" if at == row["generation"] else f" at generation {at}"
                parts.append(f"vs random {score:.2f}{when}")
            figures = ": " + ", ".join(parts) if parts else ""
            print(
                f"generation {row['generation']}{figures} ({now - started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        if each is not None:
            return each(row)

    return show


@contextlib.contextmanager
def _sigterm_stops_the_run():
    """While a run goes on in the main thread, SIGTERM stops it as Ctrl-C
    does (after the generation under way, its checkpoint written), then
    exits with status 143, as the command line does; Python's default is to
    die at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _run(
    words: list, each: Each, progress: bool, overwrite: bool = False, values: Optional[dict] = None
) -> Run:
    with _sigterm_stops_the_run():
        path, stopped = _bebete.run(words, _with_progress(each, progress), overwrite, values)
    return Run(path, stopped)


def evolve(
    game="tictactoe",
    *,
    seed: int,
    generations: Optional[int] = None,
    run: Optional[PathLike] = None,
    each: Each = None,
    progress: bool = True,
    overwrite: bool = False,
    **settings,
) -> Run:
    """Evolves genomes of ``game``: ``bebete evolve --game GAME --seed SEED
    …`` with ``settings``: a run's settings by their ``run.toml`` names
    (``run_settings()``), read by the engine, and the game's and run's
    own flags (``encoder``, ``tuples``, ``preset``, ``threads``…). ``run`` is the run's directory
    (default ``runs/GAME-SEED``, as the command line names it); every file
    of the run stays in it (its plot too: ``RUN/NAME.png``). ``each``, if
    given, is called after every generation with a dict of that
    generation's numbers (``generation``, ``best``, ``mean``, ``worst``,
    ``diversity``, ``games``, ``learned``). ``progress`` prints a line on
    stderr every few seconds. ``overwrite=True`` deletes a run already in
    ``run`` and starts over (a notebook cell run twice); without it such a
    run is refused.

    ``game`` may also be a ``pyspiel.Game``: any sequential, deterministic
    game of perfect information for one or two players with an observation
    tensor (OpenSpiel's own, or one written in Python with OpenSpiel's
    game API). Value genomes read its tensor as cells and learn by TD
    self-play between generations (docs/python.md); besides the run's
    settings, ``tuples``, ``tuple_length``, ``max_moves`` (a game that
    long is stopped and scored a draw) and ``mirror=True`` (the rules are
    the same with the board's columns reversed: each tuple also reads the
    mirror image, with the same weights) shape it. The run's directory
    defaults to ``runs/NAME-SEED``; Ctrl-C stops it at once, and
    ``bebete.resume`` goes on from its last checkpoint (every generation
    by default).
    """
    if not isinstance(game, str):
        return _evolve_observed(game, seed, generations, run, each, progress, overwrite, settings)
    _check_keywords("evolve", settings)
    if generations is not None:
        settings["generations"] = generations
    engine = set(_bebete.run_settings())
    values = {
        name: os.fspath(value) if isinstance(value, os.PathLike) else value
        for name, value in settings.items()
        if name in engine and value is not None
    }
    words = ["evolve", "--game", game, "--seed", str(seed)]
    words += _words({"run": run, **{n: v for n, v in settings.items() if n not in engine}})
    return _run(words, each, progress, overwrite, values)


def resume(
    run: Union[Run, PathLike],
    generations: Optional[int] = None,
    *,
    each: Each = None,
    progress: bool = True,
    **settings,
) -> Run:
    """Continues a run from its newest valid checkpoint: ``bebete resume
    RUN --generations N``; without ``generations``, up to its plan. A run
    over an OpenSpiel game loads its game again by the name the run
    recorded (a game written in Python must be registered first: import
    its module)."""
    path = run.path if isinstance(run, Run) else Path(os.fspath(run))
    observed = _observed_game(path)
    if observed is not None:
        if settings:
            name = next(iter(settings))
            raise TypeError(f"resume() of an OpenSpiel game's run got an unexpected keyword argument {name!r}")
        return _resume_observed(path, observed, generations, each, progress)
    _check_keywords("resume", settings)
    words = ["resume", os.fspath(path)] + _words({"generations": generations, **settings})
    return _run(words, each, progress)


def eval(
    player: Union[Genome, PathLike],
    against: Union[str, Iterable[str]] = "random,rules",
    games: int = 200,
    seed: int = 1,
    **settings,
) -> dict:
    """Scores ``player`` (a ``Genome``, a genome file or a player spec such
    as ``"rules"``) against ``against`` (one spec, a comma-separated list or
    a list): ``bebete eval``. For one opponent, a dict with ``against``,
    ``games``, ``wins``, ``draws``, ``losses`` and ``score`` (a win 1, a draw
    ½, out of 1); for several, such a dict for each, by opponent."""
    _check_keywords("eval", settings)
    if isinstance(player, Genome):
        player = player.path
    if not isinstance(against, str):
        against = ",".join(against)
    words = ["eval", os.fspath(player), "--against", against]
    words += _words({"games": games, "seed": seed, **settings})
    tallies = [
        dict(zip(("against", "games", "wins", "draws", "losses", "score"), row))
        for row in _bebete.eval(words)
    ]
    if len(tallies) == 1:
        return tallies[0]
    return {t["against"]: t for t in tallies}


#: The keywords of a run over an OpenSpiel game besides the engine's settings.
_OBSERVED_SHAPE = ("tuples", "tuple_length", "max_moves", "mirror")


def _evolve_observed(game, seed, generations, run, each, progress, overwrite, settings) -> Run:
    """``evolve`` over a ``pyspiel.Game``."""
    engine = set(_bebete.run_settings())
    known = engine | set(_OBSERVED_SHAPE)
    for name in settings:
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise TypeError(f"evolve() got an unexpected keyword argument {name!r}{hint}")
    values = {n: v for n, v in settings.items() if n in engine and v is not None}
    if generations is not None:
        values["generations"] = generations
    if run is None:
        run = Path("runs") / f"{game.get_type().short_name}-{seed}"
    shape = {n: settings[n] for n in _OBSERVED_SHAPE if settings.get(n) is not None}
    observed = _bebete.ObservedRun.start(
        game, os.fspath(run), seed, values, overwrite=overwrite, **shape
    )
    return _observed_loop(observed, game, each, progress)


def _observed_game(path: Path) -> Optional[str]:
    """The OpenSpiel game a run directory's ``run.toml`` names, or None for
    a run of a built-in game."""
    name = _bebete.run_game(os.fspath(path)) or ""
    return name[len("openspiel:"):] if name.startswith("openspiel:") else None


def _resume_observed(path: Path, name: str, generations, each, progress) -> Run:
    import pyspiel

    game = pyspiel.load_game(name)
    observed = _bebete.ObservedRun.resume(game, os.fspath(path), generations)
    return _observed_loop(observed, game, each, progress)


class _GenerationWatch:
    """Told of each self-play game of a generation: when one takes long (a
    large board's), a line on stderr once it has run ``PROGRESS_EVERY``
    seconds, then at most that often."""

    def start(self, generation: int) -> None:
        self.generation, self.shown = generation, time.monotonic()

    def __call__(self, done: int, planned: int) -> None:
        now = time.monotonic()
        if now - self.shown >= PROGRESS_EVERY:
            self.shown = now
            print(
                f"generation {self.generation}: {done} of {planned} self-play games",
                file=sys.stderr,
                flush=True,
            )


def _observed_loop(observed, game, each: Each, progress: bool) -> Run:
    """Runs ``observed`` to its plan, a generation at a time; ends it with
    its plot, and on an exception (Ctrl-C, an error of the game or of
    ``each``) gives its directory back and raises it: the last checkpoint
    stands."""
    show = _with_progress(each, progress)
    watch = _GenerationWatch() if progress else None
    path = observed.path
    try:
        with _sigterm_stops_the_run():
            while not observed.done:
                if watch is not None:
                    watch.start(observed.generation)
                row = observed.step(game, watch)
                if show is not None:
                    show(row)
    except BaseException:
        observed.finish(None)
        raise
    observed.finish(f"its plan of {observed.planned} generations is done")
    return Run(path)
