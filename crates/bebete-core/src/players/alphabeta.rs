//! The `alphabeta:D` player: negamax with alpha-beta pruning to depth D.

use super::Player;
use super::knowledge::Knowledge;
use crate::games::Outcome;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The score of a won position, less the plies it takes (quicker is better).
const WIN: i32 = 1_000_000;

/// Searches D plies with alpha-beta and scores the leaves with the game's
/// open-lines heuristic; every root move gets an exact score, and ties are
/// broken at random. Where the game searches the rest exactly
/// ([`Game::exact_ending`](crate::games::Game::exact_ending): Othello's last 12 empty squares), it plays
/// the best final result instead.
pub struct AlphaBetaPlayer {
    depth: u32,
    rng: Pcg64Mcg,
}

impl AlphaBetaPlayer {
    /// A search `depth` plies deep, breaking ties with a stream seeded by `seed`.
    pub fn new(depth: u32, seed: u64) -> Self {
        AlphaBetaPlayer {
            depth,
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

/// Negamax value of `pos` for the side to move.
fn negamax<G: Knowledge>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
) -> i32 {
    match game.outcome(pos) {
        Some(Outcome::Draw) => return 0,
        // Usually the side that just moved won; not always (Othello counts
        // discs, and a matchsticks game may be lost by its last take).
        Some(Outcome::Win(side)) if side == game.turn(pos) => return WIN - ply,
        Some(Outcome::Win(_)) => return -(WIN - ply),
        None => {}
    }
    if depth == 0 {
        return game.heuristic(pos);
    }
    // Out of budget (the server's time limit or a cancel): any score will
    // do, the caller drops the move.
    if depth >= 2 && crate::budget::spent() {
        return 0;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let mut best = i32::MIN + 1;
    for mv in moves {
        let score = -negamax(game, &game.play(pos, mv), depth - 1, -beta, -alpha, ply + 1);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

impl<G: Knowledge> Player<G> for AlphaBetaPlayer {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        // An ending the game searches exactly (Othello's last empty
        // squares) is played exactly: the best final result.
        if let Some(scored) = game.exact_ending(pos) {
            return super::best_at_random(&scored, &mut self.rng);
        }
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        let scored: Vec<(G::Move, i32)> = moves
            .iter()
            .map(|&m| {
                let child = game.play(pos, m);
                (
                    m,
                    -negamax(
                        game,
                        &child,
                        self.depth.saturating_sub(1),
                        -WIN - 1,
                        WIN + 1,
                        1,
                    ),
                )
            })
            .collect();
        super::best_at_random(&scored, &mut self.rng)
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}
