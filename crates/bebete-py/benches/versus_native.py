"""The same method through two doors: an OpenSpiel game's champion
(evolved from Python through the observation tensor) against bebete's
native Connect-Four value genome, both at one ply, in OpenSpiel's
connect_four. Both decide deterministically, so each game starts from 2
random moves (seeded by the game's number), sides alternating.

    python crates/bebete-py/benches/versus_native.py CHAMPION [GAMES [PLIES]]

CHAMPION is the observed genome (a run's best.genome, or one kept by
benches/strength.py), searching PLIES deep (1 unless given); the native
genome is genomes/connect4-ntuple.genome, at its one ply.
Prints the champion's tally.
"""

import random
import sys
from pathlib import Path

import pyspiel

import bebete
from bebete.openspiel import Bot

ROOT = Path(__file__).resolve().parents[3]


def main() -> None:
    champion = bebete.load(sys.argv[1])
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    plies = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    game = pyspiel.load_game("connect_four")
    native = Bot(bebete.load(ROOT / "genomes" / "connect4-ntuple.genome"), game)
    tally = {"games": games, "plies": plies, "wins": 0, "draws": 0, "losses": 0}
    for i in range(games):
        rng = random.Random(i // 2)  # the same opening for both sides
        seat = i % 2
        state = game.new_initial_state()
        for _ in range(2):
            state.apply_action(rng.choice(state.legal_actions()))
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(champion.action(game, state, plies=plies))
            else:
                state.apply_action(native.step(state))
        mine = state.returns()[seat]
        tally["wins" if mine > 0 else "losses" if mine < 0 else "draws"] += 1
    tally["score"] = (tally["wins"] + tally["draws"] / 2) / games
    print(tally)


if __name__ == "__main__":
    main()
