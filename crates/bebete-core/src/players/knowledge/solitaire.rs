//! What the player of peg solitaire knows: the fewest pegs each jump can
//! still end with, and the puzzle solved whole.

use super::{Exact, ExactSolver, Knowledge, NotAPuzzle, Puzzle, PuzzleVisitor, score_moves};
use crate::encoding::{IllegalPolicy, TableGame};
use crate::games::PegBits;
use crate::games::{Game, Kind, KindOf, Pair, Solitaire, SolitairePosition};
use crate::puzzle::PuzzleError;
use crate::puzzle::solitaire::{
    MAX_POSITIONS, SOLVED_BOARDS, SoloAudit, SoloMoves, SoloReport, SoloTable, too_large,
};
use crate::solve::Score;
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};

/// Peg solitaire: one player, so no preferences, threats or opponents; its
/// exact solver reads the fewest pegs each jump can still end with from a
/// table of every reachable position (`SoloTable`).
impl Knowledge for Solitaire {
    const RULES_PLAYER: &'static str = "a random jump";
    const SOLVABLE: bool = false;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        Vec::new()
    }

    fn opponent_wins_by(&self, _pos: &SolitairePosition, _mv: u8) -> bool {
        false
    }

    fn heuristic(&self, pos: &SolitairePosition) -> i32 {
        -(pos.pegs_left() as i32)
    }

    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        Some(Arc::new(SoloExact::default()))
    }

    fn too_large_to_read(&self) -> Option<&'static str> {
        too_large(self).then_some(SOLVED_BOARDS)
    }

    fn puzzle_of<K: KindOf<Solitaire>, V: PuzzleVisitor>(
        game: &Pair<Solitaire, K>,
        visitor: V,
    ) -> Result<V::Output, NotAPuzzle> {
        match game.kind.of() {
            Kind::Votes(bits) => Ok(visitor.visit(&Pair::new(game.rules, bits))),
            Kind::Value(none) => match none {},
        }
    }
}

/// Exact play of the puzzle: the table of every reachable position, built
/// on first use (`None` when the board is too large to solve), shared.
#[derive(Default)]
struct SoloExact(OnceLock<Arc<Option<SoloTable>>>);

impl Exact<Solitaire> for SoloExact {
    fn solver(&self, game: &Solitaire) -> Box<dyn ExactSolver<Solitaire>> {
        let table = self
            .0
            .get_or_init(|| Arc::new(SoloTable::build(game, MAX_POSITIONS).ok()));
        Box::new(SoloSolver(table.clone()))
    }
}

/// Scores a jump by the fewest pegs it can still end with: fewer is higher.
struct SoloSolver(Arc<Option<SoloTable>>);

impl ExactSolver<Solitaire> for SoloSolver {
    fn move_scores(&mut self, game: &Solitaire, pos: &SolitairePosition) -> Vec<(u8, Score)> {
        score_moves(game, pos, |next| {
            let best = (*self.0)
                .as_ref()
                .and_then(|t| t.get(next))
                .map_or(next.pegs_left() as i32, |e| e.best as i32);
            Score::raw(-best)
        })
    }
}

impl Puzzle for Pair<Solitaire, PegBits> {
    type Survey = SoloReport;
    type Moves = SoloMoves;
    type Audit = SoloAudit;

    fn survey(&self) -> Result<SoloReport, PuzzleError> {
        Ok(SoloTable::build(&self.rules, MAX_POSITIONS)?.report(&self.rules))
    }

    fn moves(&self, pos: &SolitairePosition) -> Result<SoloMoves, PuzzleError> {
        let table = SoloTable::build(&self.rules, MAX_POSITIONS)?;
        if !self.rules.has_jump(pos.pegs) {
            return Err(PuzzleError::Over("no jump left"));
        }
        Ok(SoloMoves::new(&self.rules, &table, pos))
    }

    fn audit(&self, genes: &[u8], policy: IllegalPolicy) -> Result<SoloAudit, PuzzleError> {
        let table = SoloTable::build(&self.rules, MAX_POSITIONS)?;
        Ok(audit(self, &table, genes, policy))
    }

    fn best_from_start(&self) -> Option<u32> {
        // 5 rows: 2^15 positions, solved at once.
        SoloTable::build(&self.rules, 1 << 20)
            .ok()
            .map(|t| u32::from(t.start().best))
    }
}

/// Audits `genes` on `table`, the solved board of `game`.
fn audit(
    game: &Pair<Solitaire, PegBits>,
    table: &SoloTable,
    genes: &[u8],
    policy: IllegalPolicy,
) -> SoloAudit {
    // Where the genome's game from each position ends (None: a forfeit).
    let mut ends: FxHashMap<u32, Option<u32>> = FxHashMap::default();
    fn end(
        game: &Pair<Solitaire, PegBits>,
        genes: &[u8],
        policy: IllegalPolicy,
        pos: SolitairePosition,
        ends: &mut FxHashMap<u32, Option<u32>>,
    ) -> Option<u32> {
        if let Some(&e) = ends.get(&pos.pegs) {
            return e;
        }
        let e = if game.outcome(&pos).is_some() {
            Some(pos.pegs_left())
        } else {
            match game.decide(genes, &pos, policy) {
                Some(m) if game.is_legal(&pos, m) => {
                    end(game, genes, policy, game.play(&pos, m), ends)
                }
                _ => None,
            }
        };
        ends.insert(pos.pegs, e);
        e
    }
    let mut report = SoloAudit {
        pegs_from_start: end(game, genes, policy, game.start(), &mut ends),
        best_pegs: table.start().best,
        positions: 0,
        keeps_best: 0,
        finishes_best: 0,
    };
    for (pos, entry) in table.iter() {
        if game.outcome(&pos).is_some() {
            continue;
        }
        report.positions += 1;
        let keeps = game
            .decide(genes, &pos, policy)
            .filter(|&m| game.is_legal(&pos, m))
            .and_then(|m| table.get(&game.play(&pos, m)))
            .is_some_and(|next| next.best == entry.best);
        report.keeps_best += u64::from(keeps);
        let finishes = end(game, genes, policy, pos, &mut ends) == Some(entry.best.into());
        report.finishes_best += u64::from(finishes);
    }
    report
}
