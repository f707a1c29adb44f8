//! Exact audit of a genome (tic-tac-toe, matchsticks).
//!
//! The genome's moves are fixed, so the whole game tree against *every*
//! opponent is small: at the genome's turns follow its one move, at the
//! opponent's turns branch over all legal moves. Walking it on each side
//! gives the positions the genome can reach, whether its move keeps the
//! game-theoretic value in each, and how many opponent lines beat it.
//! Line counts are memoised per position, so the walk is linear in the
//! reachable positions even when the number of lines is astronomical.

use crate::encoding::{IllegalPolicy, TableGame};
use crate::games::walk::{DEFAULT_NODE_LIMIT, push_successors, walk};
use crate::games::{Outcome, Side};
use crate::solve::SolvedTable;
use crate::solve::Value;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ops::ControlFlow;

/// The audit's findings.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditReport {
    /// Positions where the genome is to move, over both sides.
    pub reachable: usize,
    /// Of those, positions where its move keeps the game-theoretic value.
    pub optimal: usize,
    /// No opponent can beat it when it moves first / second.
    pub unbeatable_first: bool,
    /// No opponent can beat it when it moves second.
    pub unbeatable_second: bool,
    /// Opponent lines (move sequences) that beat it, per side and in all.
    pub losing_lines_first: u128,
    /// Losing lines when it moves second.
    pub losing_lines_second: u128,
    /// One losing line, with the genome's side, in the position notation.
    pub example: Option<(Side, String)>,
}

impl AuditReport {
    /// The share of reachable positions where its move keeps the value (1 when none is reachable).
    pub fn optimal_rate(&self) -> f64 {
        if self.reachable == 0 {
            1.0
        } else {
            self.optimal as f64 / self.reachable as f64
        }
    }

    /// Losing lines over both sides.
    pub fn losing_lines(&self) -> u128 {
        self.losing_lines_first
            .saturating_add(self.losing_lines_second)
    }
}

struct Walk<'a, G: TableGame> {
    game: &'a G,
    genes: &'a [u8],
    policy: IllegalPolicy,
    side: Side,
    table: &'a SolvedTable<G::Position>,
    lines: HashMap<G::Position, u128>,
    reachable: &'a mut HashSet<G::Position>,
    optimal: &'a mut HashSet<G::Position>,
}

impl<G: TableGame> Walk<'_, G> {
    /// The value of a reachable position (every position the walk meets is
    /// reachable from the start, so the table has it).
    fn value(&self, pos: &G::Position) -> Value {
        self.table.get(pos).unwrap_or(Value::Draw)
    }

    /// Opponent lines from `pos` that end in the genome's loss.
    fn losing_lines(&mut self, pos: &G::Position) -> u128 {
        if let Some(&n) = self.lines.get(pos) {
            return n;
        }
        let n = match self.game.outcome(pos) {
            Some(Outcome::Win(winner)) => (winner != self.side) as u128,
            Some(Outcome::Draw) => 0,
            None if self.game.turn(pos) == self.side => {
                self.reachable.insert(*pos);
                match self.game.decide(self.genes, pos, self.policy) {
                    None => 1, // a forfeit loses on the spot
                    Some(mv) => {
                        let next = self.game.play(pos, mv);
                        if self.value(&next).flip() == self.value(pos) {
                            self.optimal.insert(*pos);
                        }
                        self.losing_lines(&next)
                    }
                }
            }
            None => {
                let mut moves = Vec::new();
                self.game.legal_moves(pos, &mut moves);
                moves
                    .into_iter()
                    .map(|m| self.losing_lines(&self.game.play(pos, m)))
                    .fold(0u128, u128::saturating_add)
            }
        };
        self.lines.insert(*pos, n);
        n
    }

    /// One line from `pos` that beats the genome (which must exist).
    fn example_line(&self, mut pos: G::Position) -> String {
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while self.game.outcome(&pos).is_none() {
            let mv = if self.game.turn(&pos) == self.side {
                match self.game.decide(self.genes, &pos, self.policy) {
                    Some(mv) => mv,
                    None => break, // forfeits here
                }
            } else {
                self.game.legal_moves(&pos, &mut moves);
                let losing = moves.iter().copied().find(|&m| {
                    self.lines
                        .get(&self.game.play(&pos, m))
                        .is_some_and(|&n| n > 0)
                });
                match losing {
                    Some(m) => m,
                    None => break,
                }
            };
            line.push(mv);
            pos = self.game.play(&pos, mv);
        }
        self.game.format_line(&line)
    }
}

/// Whether `genes` keep the game's value in every position they can reach,
/// on both sides: the audit's `optimal == reachable`, but stopping at the
/// first position that fails (fast for the many genomes that are not there).
pub(crate) fn keeps_value_everywhere<G: TableGame>(
    game: &G,
    genes: &[u8],
    policy: IllegalPolicy,
    table: &SolvedTable<G::Position>,
) -> bool {
    let value = |pos: &G::Position| table.get(pos).unwrap_or(Value::Draw);
    let mut moves = Vec::new();
    // Per side: a position is the genome's turn in one walk and the
    // opponent's in the other. A move that gives the value away stops it.
    [Side::First, Side::Second].into_iter().all(|side| {
        walk(game.start(), DEFAULT_NODE_LIMIT, |pos, next| {
            if game.outcome(pos).is_some() {
                return ControlFlow::Continue(());
            }
            if game.turn(pos) != side {
                push_successors(game, pos, &mut moves, next);
                return ControlFlow::Continue(());
            }
            match game.decide(genes, pos, policy) {
                Some(mv) if value(&game.play(pos, mv)).flip() == value(pos) => {
                    next.push(game.play(pos, mv));
                    ControlFlow::Continue(())
                }
                _ => ControlFlow::Break(()),
            }
        })
        .is_ok()
    })
}

/// Audits `genes` as first and as second player.
pub fn audit<G: TableGame>(game: &G, genes: &[u8], policy: IllegalPolicy) -> AuditReport {
    audit_with(game, genes, policy, &SolvedTable::build(game))
}

/// [`audit`] with the game's values already solved (to audit many genomes).
pub(crate) fn audit_with<G: TableGame>(
    game: &G,
    genes: &[u8],
    policy: IllegalPolicy,
    table: &SolvedTable<G::Position>,
) -> AuditReport {
    let mut reachable = HashSet::default();
    let mut optimal = HashSet::default();
    let mut lines = [0u128; 2];
    let mut example = None;
    for (i, side) in [Side::First, Side::Second].into_iter().enumerate() {
        let mut walk = Walk {
            game,
            genes,
            policy,
            side,
            table,
            lines: HashMap::default(),
            reachable: &mut reachable,
            optimal: &mut optimal,
        };
        lines[i] = walk.losing_lines(&game.start());
        if lines[i] > 0 && example.is_none() {
            example = Some((side, walk.example_line(game.start())));
        }
    }
    AuditReport {
        reachable: reachable.len(),
        optimal: optimal.len(),
        unbeatable_first: lines[0] == 0,
        unbeatable_second: lines[1] == 0,
        losing_lines_first: lines[0],
        losing_lines_second: lines[1],
        example,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::ternary_index;
    use crate::games::GameSpec;
    use crate::games::{Game, Matchsticks, MatchsticksRules, Notation, TicTacToe};
    use crate::genome::Genome;
    use crate::solve::Solver;

    /// A genome that plays the solver's first best move everywhere.
    fn perfect_tictactoe() -> Vec<u8> {
        let game = TicTacToe::BASE3;
        let mut solver = Solver::new(&game);
        let mut genes = vec![0u8; 19_683];
        let positions = crate::games::walk::reachable(&game, DEFAULT_NODE_LIMIT).unwrap();
        for pos in positions.iter().filter(|p| game.outcome(p).is_none()) {
            genes[ternary_index(pos)] = solver.best_moves(pos)[0];
        }
        genes
    }

    #[test]
    fn a_hand_built_perfect_strategy_is_unbeatable() {
        let report = audit(
            &TicTacToe::BASE3,
            &perfect_tictactoe(),
            IllegalPolicy::Forfeit,
        );
        assert!(
            report.unbeatable_first && report.unbeatable_second,
            "{report:?}"
        );
        assert_eq!(report.losing_lines(), 0);
        assert_eq!(report.optimal, report.reachable);
        assert!(report.example.is_none());
    }

    #[test]
    fn the_quick_check_agrees_with_the_full_audit() {
        let table = SolvedTable::build(&TicTacToe::BASE3);
        let perfect = perfect_tictactoe();
        assert!(keeps_value_everywhere(
            &TicTacToe::BASE3,
            &perfect,
            IllegalPolicy::Forfeit,
            &table
        ));
        // Perfect as first player, but answering a corner opening with an
        // edge as second player: a flaw only the second walk can find.
        let mut flawed = perfect.clone();
        let corner = TicTacToe::BASE3.parse_position("1").unwrap();
        flawed[ternary_index(&corner)] = 1;
        let report = audit(&TicTacToe::BASE3, &flawed, IllegalPolicy::Forfeit);
        assert!(report.unbeatable_first && !report.unbeatable_second);
        assert!(!keeps_value_everywhere(
            &TicTacToe::BASE3,
            &flawed,
            IllegalPolicy::Forfeit,
            &table
        ));
        for seed in 0..20 {
            let genome = Genome::random(GameSpec::TICTACTOE, seed);
            let report = audit(&TicTacToe::BASE3, &genome.genes, IllegalPolicy::Repair);
            let quick = keeps_value_everywhere(
                &TicTacToe::BASE3,
                &genome.genes,
                IllegalPolicy::Repair,
                &table,
            );
            assert_eq!(quick, report.optimal == report.reachable);
        }
    }

    #[test]
    fn a_random_genome_is_beaten_and_the_example_line_really_beats_it() {
        let genome = Genome::random(GameSpec::TICTACTOE, 4);
        let report = audit(&TicTacToe::BASE3, &genome.genes, IllegalPolicy::Repair);
        assert!(!report.unbeatable_first || !report.unbeatable_second);
        assert!(report.losing_lines() > 0 && report.optimal < report.reachable);
        let (side, line) = report.example.clone().unwrap();
        let end = TicTacToe::BASE3.parse_position(&line).unwrap();
        assert_eq!(
            TicTacToe::BASE3.outcome(&end),
            Some(Outcome::Win(side.other())),
            "{line}"
        );
    }

    #[test]
    fn the_misere_strategy_leave_1_mod_4_is_perfect() {
        let game = Matchsticks::state(MatchsticksRules::default());
        // Take (left - 1) mod 4 when that is 1..=3, else 1.
        let genes: Vec<u8> = (0..=21u8)
            .map(|left| match left.saturating_sub(1) % 4 {
                0 => 1,
                t => t,
            })
            .collect();
        let report = audit(&game, &genes, IllegalPolicy::Forfeit);
        assert_eq!(report.optimal, report.reachable, "{report:?}");
        // 21 is lost for the first player, so a perfect player moving first
        // is beaten by a perfect opponent, but never as second player.
        assert!(!report.unbeatable_first && report.unbeatable_second);
    }
}
