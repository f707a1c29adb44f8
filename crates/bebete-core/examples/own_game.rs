//! A game the engine does not know, evolved by the engine: Hexapawn.
//!
//! Martin Gardner's Hexapawn (1962): three pawns a side on a 3×3 board,
//! a second-player win with perfect play. Its rules (`Game`) are in
//! `shared/hexapawn.rs`; this file adds a lookup-table encoder
//! (`TableGame`). The tournament, ranking, breeding
//! and the seeded streams come from `bebete-core` unchanged.
//!
//! ```sh
//! cargo run --release --example own_game
//! ```

use bebete_core::encoding::{GeneLookup, IllegalPolicy, TableGame};
use bebete_core::evolve::breeding::{BreedPlan, breed_with};
use bebete_core::evolve::tournament::{rank, round_robin};
use bebete_core::evolve::{Crossover, Mutation, Population, Selection};
use bebete_core::games::walk::{DEFAULT_NODE_LIMIT, reachable};
use bebete_core::games::{Game, Outcome, Side};
use rand::{Rng, RngExt};

#[path = "shared/hexapawn.rs"]
mod hexapawn;
use hexapawn::{Board, Hexapawn, MOVES, Move};

impl Board {
    /// The board in base 3 (cell k weighs 3^k), then the side to move.
    fn gene_index(&self) -> usize {
        let base3 = self.cells.iter().rev().fold(0, |n, &c| n * 3 + c as usize);
        base3 + self.second_to_move as usize * 3usize.pow(9)
    }
}

/// The encoder: one gene per (board in base 3, side to move); a gene names
/// a move code, repaired upward to the first legal one.
impl TableGame for Hexapawn {
    type Reason = GeneLookup<Move>;
    fn gene_count(&self) -> usize {
        2 * 3usize.pow(9)
    }
    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random_range(0..MOVES)
    }
    fn decide(&self, genes: &[u8], pos: &Board, policy: IllegalPolicy) -> Option<Move> {
        self.explain(genes, pos, policy).chosen
    }
    fn explain(&self, genes: &[u8], pos: &Board, policy: IllegalPolicy) -> GeneLookup<Move> {
        let index = pos.gene_index();
        let gene = genes[index] % MOVES;
        let legal = |mv: &u8| self.is_legal(pos, *mv);
        let chosen = match policy {
            _ if legal(&gene) => Some(gene),
            IllegalPolicy::Repair => (1..MOVES).map(|k| (gene + k) % MOVES).find(legal),
            IllegalPolicy::Forfeit => None,
        };
        GeneLookup {
            index,
            gene,
            chosen,
            repaired: chosen.is_some_and(|m| m != gene),
            names: None,
            symmetric: false,
        }
    }
}

/// Against every opponent at once: the opponent lines (every reply of the
/// opponent, walked against the genome's fixed moves) that `genes`,
/// playing `side`, wins, and all the lines: (won, total).
fn lines(genes: &[u8], side: Side, pos: Board) -> (u32, u32) {
    let game = Hexapawn;
    if let Some(outcome) = game.outcome(&pos) {
        return (u32::from(outcome == Outcome::Win(side)), 1);
    }
    if game.turn(&pos) == side {
        let mv = game
            .decide(genes, &pos, IllegalPolicy::Repair)
            .expect("repair finds a move");
        return lines(genes, side, game.play(&pos, mv));
    }
    let mut replies = Vec::new();
    game.legal_moves(&pos, &mut replies);
    replies
        .iter()
        .map(|&mv| lines(genes, side, game.play(&pos, mv)))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Whether `genes`, playing `side`, wins against every opponent at all.
fn unbeatable(genes: &[u8], side: Side, pos: Board) -> bool {
    let (won, total) = lines(genes, side, pos);
    won == total
}

/// Evolves `generations` generations from `seed`; returns the champion and
/// the generation where it first won as the second player against everyone.
fn evolve(seed: u64, generations: u64) -> (Vec<u8>, Option<u64>) {
    let game = Hexapawn;
    let plan = BreedPlan {
        elite: 10,
        parents: 2,
        selection: Selection::Elite,
        crossover: Crossover::Uniform,
        mutation: Mutation::fixed(0.1),
    };
    // Mutation redraws only genes that play can consult: those of the
    // unfinished positions the core's walk reaches.
    let positions = reachable(&game, DEFAULT_NODE_LIMIT).expect("a small game");
    let mut active: Vec<u32> = positions
        .iter()
        .filter(|pos| game.outcome(pos).is_none())
        .map(|pos| pos.gene_index() as u32)
        .collect();
    active.sort_unstable();
    println!(
        "Hexapawn: {} positions reachable, {} unfinished",
        positions.len(),
        active.len()
    );
    let mut pop = Population::random(&game, 60, seed);
    let mut next = Population::zeroed(60, game.gene_count());
    let mut solved_at = None;
    for generation in 0..generations {
        // The core's round-robin, plus a term of our own: the share of
        // the opponent lines each genome wins as the second player (up to
        // as many points as the round-robin gives).
        let mut points = round_robin(&game, &pop, IllegalPolicy::Repair);
        for (i, p) in points.iter_mut().enumerate() {
            let (won, total) = lines(pop.genome(i), Side::Second, game.start());
            *p += 4 * 59 * won / total;
        }
        let ranking = rank(&points);
        let champion = pop.genome(ranking[0]);
        if solved_at.is_none() && unbeatable(champion, Side::Second, game.start()) {
            solved_at = Some(generation);
        }
        if generation % 10 == 0 {
            let (won, total) = lines(champion, Side::Second, game.start());
            let best = points[ranking[0]];
            println!(
                "generation {generation:3}: best {best} points, wins {won} of {total} opponent lines as second"
            );
        }
        let scope = Some(active.as_slice());
        breed_with(
            &game,
            &plan,
            &pop,
            &ranking,
            generation,
            seed,
            scope,
            &mut next,
            |_, _, _| {},
        );
        std::mem::swap(&mut pop, &mut next);
    }
    let points = round_robin(&game, &pop, IllegalPolicy::Repair);
    (pop.genome(rank(&points)[0]).to_vec(), solved_at)
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let (seed, generations) = match (args.next(), args.next()) {
        (None, None) => (1, 60),
        (Some(Ok(seed)), None) => (seed, 60),
        (Some(Ok(seed)), Some(Ok(generations))) => (seed, generations),
        _ => {
            eprintln!("usage: own_game [SEED] [GENERATIONS]  (whole numbers; default 1 60)");
            std::process::exit(2);
        }
    };
    let (champion, solved_at) = evolve(seed, generations);
    let (won, total) = lines(&champion, Side::Second, Hexapawn.start());
    println!("the champion, moving second, wins {won} of the {total} lines any opponent can play");
    match solved_at {
        Some(g) => println!("first champion that no opponent beats: generation {g}"),
        None => {
            println!("no champion was unbeatable as second player in {generations} generations")
        }
    }
    let (won, total) = lines(&champion, Side::First, Hexapawn.start());
    println!("moving first (a lost game against best play) it wins {won} of {total} lines");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Negamax value for the side to move: does it win?
    fn wins(pos: Board) -> bool {
        let game = Hexapawn;
        if let Some(Outcome::Win(side)) = game.outcome(&pos) {
            return side == game.turn(&pos);
        }
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        moves.iter().any(|&mv| !wins(game.play(&pos, mv)))
    }

    #[test]
    fn the_rules_notation_and_the_known_value() {
        let game = Hexapawn;
        let pos = game.parse_position("8-5,1-4").unwrap();
        assert_eq!(game.format_line(&[7 * 9 + 4, 3]), "8-5,1-4");
        assert_eq!(game.render(&pos), ".BB\nBW.\nW.W\n");
        // A step onto a pawn, a capture of nothing, a backward step: refused.
        assert!(game.parse_position("8-5,2-5").is_err());
        assert!(game.parse_position("8-4").is_err());
        assert!(game.parse_position("8-5,1-4,5-8").is_err());
        // Gardner: the second player wins Hexapawn with best play.
        assert!(!wins(game.start()));
    }

    #[test]
    fn evolution_finds_a_second_player_that_nobody_beats() {
        let (champion, solved_at) = evolve(1, 60);
        assert!(
            solved_at.is_some(),
            "no unbeatable second player in 60 generations"
        );
        assert!(unbeatable(&champion, Side::Second, Hexapawn.start()));
    }
}
