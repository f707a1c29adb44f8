"""Any OpenSpiel game from Python: every registered sequential,
deterministic game of perfect information with an observation tensor
evolves, checkpoints, resumes exactly and plays whole games as a Bot; the
games that do not fit are refused with what they lack."""

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import bebete  # noqa: E402
from bebete import openspiel  # noqa: E402


def fitting_games() -> list:
    """OpenSpiel's games bebete can read: sequential, deterministic, of
    perfect information, for one or two players, with an observation
    tensor (32 in open_spiel 1.6)."""
    kinds = pyspiel.GameType
    names = []
    for t in pyspiel.registered_games():
        if (
            t.dynamics == kinds.Dynamics.SEQUENTIAL
            and t.chance_mode == kinds.ChanceMode.DETERMINISTIC
            and t.information == kinds.Information.PERFECT_INFORMATION
            and t.provides_observation_tensor
            and t.default_loadable
            and t.max_num_players >= 1
            and t.min_num_players <= 2
        ):
            names.append(t.short_name)
    return sorted(names)


GAMES = fitting_games()

#: The shipped genomes.
GENOMES = Path(__file__).resolve().parents[3] / "genomes"

#: A small run: 2 genomes, one self-play game each, games cut at 20 moves.
SMALL = dict(population=2, elite=1, parents=1, self_play=1, max_moves=20, tuples=8, progress=False)


def figures(run) -> list:
    """The rows of stats.csv without the clock's columns."""
    return [
        {k: v for k, v in row.items() if not k.endswith("_s")} for row in run.stats
    ]


def test_the_installed_openspiel_has_the_games_named():
    assert len(GAMES) >= 32, GAMES
    for name in ("connect_four", "othello", "breakthrough", "chess", "go", "nim", "cliff_walking"):
        assert name in GAMES


@pytest.mark.parametrize("name", GAMES)
def test_every_game_evolves_resumes_exactly_and_its_champion_plays(name, tmp_path):
    game = pyspiel.load_game(name)
    whole = bebete.evolve(game, seed=3, generations=3, run=tmp_path / "whole", **SMALL)
    parts = bebete.evolve(game, seed=3, generations=2, run=tmp_path / "parts", **SMALL)
    parts = bebete.resume(parts, generations=3, progress=False)
    assert figures(parts) == figures(whole)
    assert len(whole.stats) == 3
    assert (parts.path / "best.genome").read_bytes() == (whole.path / "best.genome").read_bytes()
    assert (whole.path / f"{whole.path.name}.png").is_file()
    champion = whole.best
    assert isinstance(champion, bebete.ObservedGenome)
    assert champion.game == f"openspiel:{name}"
    # A whole game as a Bot, against OpenSpiel's random bot, each side
    # once where there are two (bounded: the longest games are cut by
    # their own rules).
    bot = openspiel.Bot(champion, game)
    for seat in range(game.num_players()):
        bots = [bot] * game.num_players()
        if game.num_players() == 2:
            bots[1 - seat] = pyspiel.make_uniform_random_bot(1 - seat, 5)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < 2000:
            state.apply_action(bots[state.current_player()].step(state))
            moves += 1
        assert moves > 0


@pytest.mark.parametrize("name", GAMES)
def test_every_games_observer_gives_the_tensor_observation_tensor_gives(name):
    # bebete reads a tensor through the game's observer, after checking it
    # against `observation_tensor(0)` on the first state alone: along a
    # random game they agree on every state.
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name)
    seen = make_observation(game)
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(60):
        if state.is_terminal():
            break
        seen.set_from(state, 0)
        assert list(seen.tensor) == state.observation_tensor(0)
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_game_without_an_observer_runs_the_same_from_its_lists(tmp_path, monkeypatch):
    # Without an observer each tensor is read as `observation_tensor(0)`'s
    # list: the same cells, so the same run.
    from open_spiel.python import observation

    game = pyspiel.load_game("breakthrough")
    fast = bebete.evolve(game, seed=5, generations=2, run=tmp_path / "fast", **SMALL)
    asked = []
    monkeypatch.setattr(observation, "make_observation", lambda *_: asked.append(1))
    plain = bebete.evolve(game, seed=5, generations=2, run=tmp_path / "plain", **SMALL)
    assert asked, "bebete did not ask for the game's observer"
    assert figures(plain) == figures(fast)
    assert (plain.path / "best.genome").read_bytes() == (fast.path / "best.genome").read_bytes()


@pytest.mark.parametrize(
    "name,lacks",
    [
        ("backgammon", "it has chance"),
        ("goofspiel", "simultaneous moves"),
        ("dark_hex", "imperfect information"),
        ("kuhn_poker", "it has chance"),
    ],
)
def test_a_game_that_does_not_fit_is_refused_with_what_it_lacks(name, lacks, tmp_path):
    with pytest.raises(ValueError, match=lacks):
        bebete.evolve(pyspiel.load_game(name), seed=1, run=tmp_path / "r", progress=False)
    assert not (tmp_path / "r").exists()


def test_a_mirrored_genome_reads_both_images_where_the_board_has_columns(tmp_path):
    game = pyspiel.load_game("connect_four")
    run = bebete.evolve(game, seed=1, generations=1, run=tmp_path / "c4", mirror=True, **SMALL)
    assert "each read in both mirror images" in run.best.describe()
    assert "mirror = true" in (run.path / "run.toml").read_text()
    plain = bebete.evolve(game, seed=1, generations=1, run=tmp_path / "plain", **SMALL)
    assert "mirror" not in plain.best.describe()
    with pytest.raises(ValueError, match="mirror=True: its tensor \\[39\\] is one line of values"):
        bebete.evolve(pyspiel.load_game("nim"), seed=1, mirror=True, run=tmp_path / "nim", progress=False)
    with pytest.raises(TypeError, match="mirror"):
        bebete.evolve(game, seed=1, mirror="yes", run=tmp_path / "x", progress=False)


def test_settings_are_the_engines_with_its_checks(tmp_path):
    game = pyspiel.load_game("tic_tac_toe")
    with pytest.raises(TypeError, match="'populaton'.*'population'"):
        bebete.evolve(game, seed=1, populaton=4, run=tmp_path / "a")
    with pytest.raises(ValueError, match="^population=0: must be 1-100000"):
        bebete.evolve(game, seed=1, population=0, run=tmp_path / "b")
    with pytest.raises(ValueError, match="^islands=2: an observed game evolves one population"):
        bebete.evolve(game, seed=1, islands=2, population=4, elite=2, run=tmp_path / "c", progress=False)
    with pytest.raises(ValueError, match="shorter tuples"):
        bebete.evolve(pyspiel.load_game("chess"), seed=1, tuple_length=6, run=tmp_path / "d", progress=False)
    run = bebete.evolve(game, seed=1, generations=1, run=tmp_path / "e", progress=False, **{"keep": 1})
    text = (run.path / "run.toml").read_text()
    assert 'game = "openspiel:tic_tac_toe"' in text and "keep = 1" in text
    assert "[observed]" in text
    with pytest.raises(FileExistsError, match="overwrite=True"):
        bebete.evolve(game, seed=1, generations=1, run=tmp_path / "e", progress=False)
    # A refused setting loses nothing, overwrite or not.
    with pytest.raises(ValueError, match="^population=0"):
        bebete.evolve(game, seed=1, population=0, run=tmp_path / "e", overwrite=True, progress=False)
    assert len(bebete.Run(tmp_path / "e").stats) == 1
    again = bebete.evolve(game, seed=1, generations=2, run=tmp_path / "e", overwrite=True, progress=False)
    assert len(again.stats) == 2


def test_an_exception_in_each_stops_the_run_at_its_last_checkpoint(tmp_path):
    game = pyspiel.load_game("tic_tac_toe")

    def each(row):
        if row["generation"] == 1:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        bebete.evolve(game, seed=2, generations=5, run=tmp_path / "r", each=each, progress=False)
    run = bebete.resume(tmp_path / "r", progress=False)
    assert [row["generation"] for row in run.stats] == [0, 1, 2, 3, 4]


def test_a_run_stopped_in_its_first_generation_resumes(tmp_path):
    game = pyspiel.load_game("tic_tac_toe")

    def each(row):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bebete.evolve(game, seed=2, generations=2, checkpoint_every=5, run=tmp_path / "r", each=each, progress=False)
    # Its checkpoints: generation 0 as drawn, and the plan's end was not
    # reached; it goes on from generation 0.
    run = bebete.resume(tmp_path / "r", progress=False)
    assert [row["generation"] for row in run.stats] == [0, 1]


def test_a_genome_of_another_game_is_refused(tmp_path):
    run = bebete.evolve(pyspiel.load_game("tic_tac_toe"), seed=1, generations=1, run=tmp_path / "r", progress=False)
    with pytest.raises(ValueError, match="not of OpenSpiel's connect_four"):
        openspiel.Bot(run.best, pyspiel.load_game("connect_four"))


def test_self_play_learns_tic_tac_toe(tmp_path):
    """A hundred generations of eight learners (two seconds): the champion
    beats random moves in most games, and the benchmark column says so
    (measured: docs/python.md)."""
    game = pyspiel.load_game("tic_tac_toe")
    run = bebete.evolve(game, seed=1, generations=100, run=tmp_path / "r", progress=False)
    tally = openspiel.match(
        run.best, lambda seat, seed: pyspiel.make_uniform_random_bot(seat, seed), game, games=100
    )
    assert tally["score"] >= 0.8, tally
    assert sum(tally[k] for k in ("wins", "draws", "losses")) == 100
    measured = [row["vs_random"] for row in run.stats if row["vs_random"] is not None]
    assert len(measured) == 10 and measured[-1] >= 0.7, measured


def test_a_puzzle_is_learned_whole(tmp_path):
    """cliff_walking, OpenSpiel's one-player walk round a cliff: after 100
    generations (20,000 games, a few seconds) the champion walks the
    shortest way round, 9 steps, where fresh values of a draw walked it
    off the cliff (docs/python.md)."""
    game = pyspiel.load_game("cliff_walking")
    run = bebete.evolve(game, seed=1, generations=100, run=tmp_path / "r", progress=False)
    bot = openspiel.Bot(run.best, game)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns() == [-9.0]


def test_a_lone_learners_progress_says_how_it_plays_against_random(tmp_path, capfd):
    # One learner plays no round-robin: its line shows its score against
    # random moves, not points nobody scored.
    game = pyspiel.load_game("tic_tac_toe")
    bebete.evolve(game, seed=1, generations=2, self_play=5, bench_games=4, run=tmp_path / "r")
    err = capfd.readouterr().err
    assert "generation 0: vs random " in err, err
    assert "best" not in err, err
    assert (tmp_path / "r" / "r.png").exists()


def test_a_search_at_play_time_sees_the_reply_that_loses(tmp_path):
    # Two plies block a threat whatever the genome learned: every other
    # move lets the opponent win at once.
    game = pyspiel.load_game("tic_tac_toe")
    run = bebete.evolve(game, seed=1, generations=1, self_play=2, bench_games=2, run=tmp_path / "r", progress=False)
    state = game.new_initial_state()
    for action in (0, 4, 8, 2):  # X 0, O 4, X 8, O 2: O threatens 6
        state.apply_action(action)
    assert run.best.action(game, state, plies=2) == 6
    assert run.best.action(game, state, plies=6) == 6
    with pytest.raises(ValueError, match="plies=0: must be 1-6"):
        run.best.action(game, state, plies=0)
    # A Bot that searches plays whole games.
    tally = openspiel.match(openspiel.Bot(run.best, game, plies=3), lambda seat, seed: pyspiel.make_uniform_random_bot(seat, seed), game, games=4)
    assert tally["games"] == 4
    with pytest.raises(ValueError, match="plies is for an OpenSpiel game's genome"):
        openspiel.Bot(GENOMES / "tictactoe.genome", game, plies=2)


def test_a_long_generation_says_how_far_its_self_play_has_gone(tmp_path, capfd, monkeypatch):
    # A large board's generation takes minutes: a line says how many of
    # its self-play games are done (every game here, with no wait).
    monkeypatch.setattr(bebete, "PROGRESS_EVERY", 0.0)
    game = pyspiel.load_game("tic_tac_toe")
    bebete.evolve(game, seed=1, generations=1, self_play=5, bench_games=2, run=tmp_path / "r")
    err = capfd.readouterr().err
    assert "generation 0: 1 of 5 self-play games" in err, err
    assert "generation 0: 5 of 5 self-play games" in err, err
    bebete.evolve(game, seed=1, generations=1, self_play=5, bench_games=2, run=tmp_path / "q", progress=False)
    assert "self-play games" not in capfd.readouterr().err


def test_the_exact_score_against_random_moves_orders_its_players():
    """benches/exact_vs_random.py on tic_tac_toe: a draw with perfect play
    (the published value), and for each seat the best reply to random
    moves scores at least the best value-keeping player, which scores at
    least the first value-keeping one."""
    import re
    import subprocess
    import sys

    from conftest import ROOT

    script = ROOT / "crates" / "bebete-py" / "benches" / "exact_vs_random.py"
    out = subprocess.run(
        [sys.executable, str(script), "tic_tac_toe"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    lines = out.splitlines()
    assert lines[0] == "tic_tac_toe: the first player's value with perfect play +0", out
    for seat, line in enumerate(lines[1:3]):
        best, perfect, best_perfect = map(float, re.findall(r"\d\.\d{4}", line))
        assert line.startswith(f"seat {seat}:"), out
        assert 1 >= best >= best_perfect >= perfect > 0.5, out


def test_a_learner_may_learn_against_random_moves(tmp_path):
    """learn_against="random": the learner's games are against random
    moves, it resumes exactly, and its champion says how it learned; any
    other player there is a ValueError naming the setting."""
    game = pyspiel.load_game("tic_tac_toe")
    settings = dict(learn_against="random", self_play=20, progress=False)
    whole = bebete.evolve(game, seed=2, generations=4, run=tmp_path / "whole", **settings)
    parts = bebete.evolve(game, seed=2, generations=2, run=tmp_path / "parts", **settings)
    parts = bebete.resume(parts, generations=4, progress=False)
    assert figures(parts) == figures(whole)
    assert (parts.path / "best.genome").read_bytes() == (whole.path / "best.genome").read_bytes()
    assert "learned by TD: generation 4 (seed 2), 80 games against random moves" in whole.best.describe()
    with pytest.raises(ValueError, match="learn_against=rules"):
        bebete.evolve(game, seed=2, run=tmp_path / "rules", learn_against="rules", progress=False)
