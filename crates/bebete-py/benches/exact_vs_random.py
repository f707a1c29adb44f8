"""How well any player can score against uniform random moves, computed
exactly on a small OpenSpiel game of two players (every position visited
once: tic_tac_toe, dots_and_boxes at its default 2×2 boxes).

    python crates/bebete-py/benches/exact_vs_random.py GAME [GENOME]

Prints, for each seat, the game's value with perfect play, the score
(a win 1, a draw ½) that the best reply to random moves expects
(expectimax: its own positions take the best child, the random player's
the mean of all), and the score a minimax-perfect player expects (it
plays the first of its moves that keep the game's value, as a player
that learned the game's values by self-play would), and the best such a
player can expect (of the moves that keep the value, the one that
scores best against random moves); with GENOME, the
score the genome's one-ply player expects, exactly, where strength.py
samples it.
"""

import sys

import pyspiel

import bebete


def children(state):
    out = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        out.append(child)
    return out


def key(state):
    return str(state), state.current_player()


class Exact:
    def __init__(self, game):
        self.game = game
        self.values = {}

    def value(self, state) -> float:
        """The first player's result with perfect play from `state`."""
        if state.is_terminal():
            return state.returns()[0]
        k = key(state)
        if k not in self.values:
            found = [self.value(c) for c in children(state)]
            self.values[k] = max(found) if state.current_player() == 0 else min(found)
        return self.values[k]

    def expect(self, state, seat, choose, memo) -> float:
        """The score `seat` expects playing `choose` against random moves."""
        if state.is_terminal():
            return (state.returns()[seat] + 1) / 2
        k = key(state)
        if k not in memo:
            if state.current_player() == seat:
                memo[k] = self.expect(choose(state, seat, memo), seat, choose, memo)
            else:
                found = [self.expect(c, seat, choose, memo) for c in children(state)]
                memo[k] = sum(found) / len(found)
        return memo[k]

    def best_reply(self, state, seat, memo):
        return max(children(state), key=lambda c: self.expect(c, seat, self.best_reply, memo))

    def keeping(self, state, seat):
        """The children that keep the game's value for `seat`."""
        sign = 1 if seat == 0 else -1
        found = children(state)
        values = [sign * self.value(c) for c in found]
        return [c for c, v in zip(found, values) if v == max(values)]

    def perfect(self, state, seat, memo):
        return self.keeping(state, seat)[0]

    def best_perfect(self, state, seat, memo):
        return max(
            self.keeping(state, seat),
            key=lambda c: self.expect(c, seat, self.best_perfect, memo),
        )


def main() -> None:
    game = pyspiel.load_game(sys.argv[1])
    exact = Exact(game)
    start = game.new_initial_state()
    print(f"{sys.argv[1]}: the first player's value with perfect play {exact.value(start):+.0f}")
    genome = bebete.load(sys.argv[2]) if len(sys.argv) > 2 else None

    def one_ply(state, seat, memo):
        child = state.clone()
        child.apply_action(genome.action(game, state))
        return child

    for seat in range(2):
        best = exact.expect(start, seat, exact.best_reply, {})
        perfect = exact.expect(start, seat, exact.perfect, {})
        best_perfect = exact.expect(start, seat, exact.best_perfect, {})
        line = (
            f"seat {seat}: best reply to random moves {best:.4f}, minimax-perfect"
            f" {perfect:.4f} (the best of them {best_perfect:.4f})"
        )
        if genome is not None:
            line += f", the genome {exact.expect(start, seat, one_ply, {}):.4f}"
        print(line)


if __name__ == "__main__":
    main()
