//! What the fixed opponents know of checkers: a material count and three
//! rules of thumb. There is no exact solver.

use super::Knowledge;
use crate::games::{Checkers, CheckersMove, CheckersPosition, Game};

/// The material evaluator of `alphabeta:D`: a man is worth 2, a king 3
/// (the usual 1 : 1.5), and nothing else counts.
pub(crate) const MAN: i32 = 200;
pub(crate) const KING: i32 = 300;

impl Knowledge for Checkers {
    const RULES_PLAYER: &'static str = "win at once, take the most, crown, leave nothing to take";
    const SOLVABLE: bool = false;

    fn preference_classes(&self) -> Vec<Vec<CheckersMove>> {
        Vec::new()
    }

    fn opponent_wins_by(&self, _pos: &CheckersPosition, _mv: CheckersMove) -> bool {
        false
    }

    /// Men and kings of the side to move, minus the opponent's.
    fn heuristic(&self, pos: &CheckersPosition) -> i32 {
        let me = pos.pieces(pos.to_move);
        let them = pos.pieces(pos.to_move.other());
        let worth = |pieces: u32| {
            let kings = (pieces & pos.kings).count_ones() as i32;
            let men = (pieces & !pos.kings).count_ones() as i32;
            MAN * men + KING * kings
        };
        worth(me) - worth(them)
    }

    /// The `rules` player: the moves that take the most, crown, and leave
    /// the opponent the fewest pieces to take back, scored in that order
    /// of weight (a piece taken or lost counts 4, a crowning 3).
    fn rule_moves(
        &self,
        pos: &CheckersPosition,
        moves: &[CheckersMove],
    ) -> Option<Vec<CheckersMove>> {
        let mut replies = Vec::new();
        let scored: Vec<(i32, CheckersMove)> = moves
            .iter()
            .map(|&mv| {
                let taken = mv.captured.count_ones() as i32;
                let man = pos.kings & (1 << mv.from) == 0;
                let after = self.play(pos, mv);
                let crowned = man && after.kings & (1 << mv.to()) != 0;
                self.legal_moves(&after, &mut replies);
                let lost = replies
                    .iter()
                    .map(|r| r.captured.count_ones() as i32)
                    .max()
                    .unwrap_or(0);
                (4 * taken + 3 * crowned as i32 - 4 * lost, mv)
            })
            .collect();
        let best = scored.iter().map(|&(s, _)| s).max()?;
        Some(
            scored
                .into_iter()
                .filter(|&(s, _)| s == best)
                .map(|(_, m)| m)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Notation;
    use crate::players::{Player, RulesPlayer};

    #[test]
    fn material_counts_men_two_and_kings_three() {
        let game = Checkers::SUBGRID;
        assert_eq!(game.heuristic(&game.start()), 0);
        let pos = game.parse_position("B:W10,K20:B1,2,3").unwrap();
        assert_eq!(game.heuristic(&pos), 3 * MAN - MAN - KING);
    }

    #[test]
    fn rules_takes_the_most_and_does_not_hang_a_piece() {
        let game = Checkers::SUBGRID;
        // Black can take one piece (15x22) or two (14x23x32, 15x24x31):
        // rules takes two.
        let pos = game.parse_position("B:W18,19,27:B14,15").unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        let mut rules = RulesPlayer::new(1);
        let mv = rules.choose(&game, &pos).unwrap();
        let most = moves.iter().map(|m| m.captured.count_ones()).max().unwrap();
        assert_eq!(mv.captured.count_ones(), most, "{}", game.format_move(mv));
        // No capture: 27-23 and 27-24 each give Black's man on 19 a
        // capture, 32-28 does not; rules plays 32-28.
        let pos = game.parse_position("W:W27,32:B19,K1").unwrap();
        for seed in 0..10 {
            let mut rules = RulesPlayer::new(seed);
            let mv = rules.choose(&game, &pos).unwrap();
            assert_eq!(game.format_move(mv), "32-28");
        }
    }
}
