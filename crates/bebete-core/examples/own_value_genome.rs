//! The engine's value genome on a game it does not know: Hexapawn (rules
//! in `shared/hexapawn.rs`), learning by self-play through public API only.
//!
//! A game gives the value genome its board view (`CellBoard`: the grid,
//! each cell's state, a thread's evaluators); `Pair<Hexapawn, ValueGenome>`
//! is then a `TableGame` like any built-in game's: it decides, learns,
//! breeds and is measured by the same code. The program learns from self-play and plays 1,000 games against
//! random moves on each side, before and after.
//!
//! ```sh
//! cargo run --release --example own_value_genome
//! ```

use bebete_core::encoding::ntuple::CellBoard;
use bebete_core::encoding::{IllegalPolicy, Learns, TableGame};
use bebete_core::games::{Game, NTuple, Outcome, Pair, Side, ValueGenome};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

#[path = "shared/hexapawn.rs"]
mod hexapawn;
use hexapawn::{Board, Hexapawn};

/// The value genome's view: 9 cells, each empty or a pawn of either side,
/// read left to right as well (the rules are the same in the mirror).
impl CellBoard for Hexapawn {
    const WIDTH: usize = 3;
    const HEIGHT: usize = 3;
    const STATES: u32 = 3;
    /// Hexapawn is short: learning settles within a few thousand games.
    const HORIZON: u32 = 5_000;
    fn cell_states(&self, pos: &Board, states: &mut [u8]) {
        states.copy_from_slice(&pos.cells);
    }
    fn cell_name(cell: usize) -> String {
        (cell + 1).to_string()
    }
    bebete_core::evaluator_pool!(Hexapawn);
}

/// Eight tuples of three cells.
const GAME: Pair<Hexapawn, ValueGenome> = Pair::new(
    Hexapawn,
    ValueGenome::drawn(NTuple {
        tuples: 8,
        length: 3,
    }),
);

/// The share of `games` games against random moves that `genes` wins
/// playing `side` (Hexapawn has no draws).
fn against_random(genes: &[u8], side: Side, games: u32, seed: u64) -> f64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut wins = 0;
    for _ in 0..games {
        let mut pos = GAME.start();
        let outcome = loop {
            if let Some(outcome) = GAME.outcome(&pos) {
                break outcome;
            }
            let mv = if GAME.turn(&pos) == side {
                GAME.decide(genes, &pos, IllegalPolicy::Repair)
                    .expect("a move where the game goes on")
            } else {
                GAME.legal_moves(&pos, &mut moves);
                *moves.choose(&mut rng).expect("a legal move")
            };
            pos = GAME.play(&pos, mv);
        };
        wins += u32::from(outcome == Outcome::Win(side));
    }
    f64::from(wins) / f64::from(games)
}

/// A fresh genome (`seed`; its weights are zero, so it plays the first
/// legal move), then `games` self-play games: the genes, and the share
/// of 1,000 games against random moves it wins on each side, before and
/// after.
fn learn(seed: u64, games: u32) -> (Vec<u8>, [[f64; 2]; 2]) {
    let measure =
        |genes: &[u8]| [Side::First, Side::Second].map(|side| against_random(genes, side, 1000, 7));
    let mut genes = vec![0; GAME.gene_count()];
    GAME.fill_random(&mut genes, &mut Pcg64Mcg::seed_from_u64(seed));
    let before = measure(&genes);
    GAME.learn(&mut genes, games, Pcg64Mcg::seed_from_u64(seed + 1));
    let after = measure(&genes);
    (genes, [before, after])
}

fn main() {
    let games = 2_000;
    let (genes, [before, after]) = learn(1, games);
    let schedule = GAME.learning(&genes);
    println!(
        "Hexapawn, a value genome of 8 tuples of 3 cells ({} genes), learning by self-play",
        genes.len()
    );
    println!(
        "won of 1,000 games against random moves, playing first / second (the side that wins with perfect play):"
    );
    println!(
        "  before learning:      {:.3} / {:.3}",
        before[0], before[1]
    );
    println!(
        "  after {} games: {:.3} / {:.3} (α now {:.5}, ε now {:.3})",
        schedule.params.games, after[0], after[1], schedule.alpha_now, schedule.epsilon_now
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Self-play teaches the second player, who wins with perfect play,
    /// to beat random moves, on the same seed always the same genes.
    #[test]
    fn self_play_learns_to_win_as_the_second_player() {
        let (genes, [before, after]) = learn(1, 2_000);
        assert!(after[1] >= 0.95, "{before:?} -> {after:?}");
        assert!(after[1] > before[1] + 0.4, "{before:?} -> {after:?}");
        assert_eq!(learn(1, 2_000).0, genes);
        assert_eq!(GAME.learning(&genes).params.games, 2_000);
    }
}
