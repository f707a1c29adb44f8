//! The tactical shell (`--lookahead D`): a short exact search around the
//! genome, for the tactics a table of local patterns cannot learn.
//!
//! With D ≥ 1 the shell plays a win at once when there is one and never
//! leaves the opponent a win at once; with D ≥ 2 a search of D plies after
//! the move (won/lost positions only, no evaluation) takes a move that wins
//! by force and removes moves that lose by force. The genome chooses among
//! the moves that are left (a Connect-Four genome: the heaviest vote among
//! them). D = 0 is the pure genome.
//!
//! The search is plain negamax over won/lost outcomes that stops at the
//! first refutation, so D = 4 costs at most 7⁵ positions per Connect-Four
//! decision and usually far fewer.

use super::{IllegalPolicy, TableGame};
use crate::games::{Game, Notation, Outcome};

/// The deepest shell: D plies of search after each candidate move.
pub const MAX_LOOKAHEAD: u8 = 6;

/// The deepest search of a value genome (`--encoder ntuple`), which plays
/// by alpha-beta over its own values instead of the shell: about 6 ms a
/// Connect-Four move at 9 plies, 13 ms at 10 (docs/performance.md).
pub(crate) const MAX_SEARCH: u8 = 12;

/// The most plies a genome of `game` may look ahead: the shell's limit, or
/// a value genome's search limit.
pub fn max_lookahead(game: crate::games::GameSpec) -> u8 {
    crate::games::with_pair!(game, g => lookahead_limit(&g))
}

/// [`max_lookahead`] of a game type: a genome that learns is a value
/// genome, which searches; any other plays inside the shell.
pub(crate) fn lookahead_limit<G: TableGame>(game: &G) -> u8 {
    if game.as_learner().is_some() {
        MAX_SEARCH
    } else {
        MAX_LOOKAHEAD
    }
}

/// What the search proved about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// It wins at once.
    WinsNow,
    /// It wins whatever the opponent does, within the search.
    WinsByForce,
    /// The opponent can then win at once.
    LosesNow,
    /// The opponent can then force a win within the search.
    LosesByForce,
    /// Neither.
    Open,
}

impl Verdict {
    pub(crate) fn wins(self) -> bool {
        matches!(self, Verdict::WinsNow | Verdict::WinsByForce)
    }

    pub(crate) fn loses(self) -> bool {
        matches!(self, Verdict::LosesNow | Verdict::LosesByForce)
    }
}

/// Whether the side to move at `pos` can force a win within `plies` plies
/// (`Some(true)`), whether the opponent can whatever it does (`Some(false)`),
/// or neither is proved.
fn forced<G: Game>(game: &G, pos: &G::Position, plies: u8) -> Option<bool> {
    if plies == 0 || (plies >= 2 && crate::budget::spent()) {
        return None;
    }
    let mover = game.turn(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let mut all_lose = !moves.is_empty();
    for &mv in &moves {
        let next = game.play(pos, mv);
        match game.outcome(&next) {
            Some(Outcome::Win(side)) if side == mover => return Some(true),
            Some(_) => all_lose = false,
            None => match forced(game, &next, plies - 1) {
                Some(false) => return Some(true),
                Some(true) => {}
                None => all_lose = false,
            },
        }
    }
    all_lose.then_some(false)
}

/// The verdict on each legal move of the unfinished `pos` with a search of
/// `depth` plies after it, in the order of `legal_moves`.
pub(crate) fn verdicts<G: Game>(game: &G, pos: &G::Position, depth: u8) -> Vec<(G::Move, Verdict)> {
    let mover = game.turn(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let next = game.play(pos, mv);
            let verdict = match game.outcome(&next) {
                Some(Outcome::Win(side)) if side == mover => Verdict::WinsNow,
                Some(_) => Verdict::Open,
                // The one-ply look first: the deeper search is only needed
                // when the opponent has no win at once.
                None if forced(game, &next, 1) == Some(true) => Verdict::LosesNow,
                None if depth < 2 => Verdict::Open,
                None => match forced(game, &next, depth) {
                    Some(false) => Verdict::WinsByForce,
                    Some(true) => Verdict::LosesByForce,
                    None => Verdict::Open,
                },
            };
            (mv, verdict)
        })
        .collect()
}

/// How a genome plays: what an illegal gene does, and its shell's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayStyle {
    /// What an illegal gene does.
    pub policy: IllegalPolicy,
    /// Plies of the tactical shell (0: the pure genome).
    pub lookahead: u8,
}

/// A pure genome under `policy`.
impl From<IllegalPolicy> for PlayStyle {
    fn from(policy: IllegalPolicy) -> Self {
        PlayStyle {
            policy,
            lookahead: 0,
        }
    }
}

impl PlayStyle {
    /// The move of `genes` in `pos` (which is not finished); `None` forfeits.
    #[inline]
    pub fn decide<G: TableGame>(
        self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
    ) -> Option<G::Move> {
        match self.lookahead {
            0 => game.decide(genes, pos, self.policy),
            d => match game.as_learner() {
                Some(learner) => learner.search(genes, pos, d),
                None => decide(game, genes, pos, self.policy, d).chosen,
            },
        }
    }
}

/// A shelled decision and what the shell did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellDecision<M> {
    /// The move played; `None` only when the pure genome forfeits and the
    /// shell had nothing to say.
    pub chosen: Option<M>,
    /// Every legal move with its verdict (empty for D = 0).
    pub(crate) verdicts: Vec<(M, Verdict)>,
    /// Whether the shell overrode the pure genome's move.
    pub(crate) overrode: bool,
}

/// Whether the shell lets the genome play `mv`, given every legal move's
/// verdict: the winning moves when there are any, else the moves that do not
/// lose by force; when every move loses by force, those that do not lose at
/// once (a weaker opponent may still miss the win).
pub(crate) fn allows<M: Copy + PartialEq>(verdicts: &[(M, Verdict)], mv: M) -> bool {
    let any = |keep: fn(Verdict) -> bool| verdicts.iter().any(|(_, v)| keep(*v));
    let v = verdicts
        .iter()
        .find(|(m, _)| *m == mv)
        .map_or(Verdict::Open, |(_, v)| *v);
    if any(Verdict::wins) {
        v.wins()
    } else if any(|v| !v.loses()) {
        !v.loses()
    } else {
        !any(|v| v != Verdict::LosesNow) || v != Verdict::LosesNow
    }
}

/// The legal moves of the unfinished `pos` that a shell of `depth` plies
/// leaves to the genome (all of them for depth 0). They do not depend on
/// the genes, so code that scores many genomes on one position computes
/// them once.
pub(crate) fn allowed_moves<G: Game>(game: &G, pos: &G::Position, depth: u8) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if depth == 0 {
        return moves;
    }
    let verdicts = verdicts(game, pos, depth);
    moves.retain(|&mv| allows(&verdicts, mv));
    moves
}

/// The genome's move among the moves `allowed` accepts, given its own move
/// `pure`: that one when allowed, else the genome's choice among the
/// allowed ones ([`TableGame::decide_among`]).
pub(crate) fn choose_among<G: TableGame>(
    game: &G,
    genes: &[u8],
    pos: &G::Position,
    policy: IllegalPolicy,
    pure: Option<G::Move>,
    allowed: &dyn Fn(G::Move) -> bool,
) -> Option<G::Move> {
    match pure {
        Some(mv) if allowed(mv) => Some(mv),
        _ => game.decide_among(genes, pos, policy, allowed),
    }
}

/// The move of `genes` in `pos` inside a shell of `depth` plies: winning
/// moves if any, else the moves that do not lose by force (if every move
/// does, those that do not lose at once), chosen among by the genome.
pub fn decide<G: TableGame>(
    game: &G,
    genes: &[u8],
    pos: &G::Position,
    policy: IllegalPolicy,
    depth: u8,
) -> ShellDecision<G::Move> {
    let pure = game.decide(genes, pos, policy);
    if depth == 0 {
        return ShellDecision {
            chosen: pure,
            verdicts: Vec::new(),
            overrode: false,
        };
    }
    let verdicts = verdicts(game, pos, depth);
    let chosen = choose_among(game, genes, pos, policy, pure, &|mv| allows(&verdicts, mv));
    ShellDecision {
        overrode: chosen != pure,
        chosen,
        verdicts,
    }
}

impl Verdict {
    /// In words, for `explain` and `play`.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Verdict::WinsNow => "wins now",
            Verdict::WinsByForce => "wins by force",
            Verdict::LosesNow => "lets the opponent win at once",
            Verdict::LosesByForce => "loses by force",
            Verdict::Open => "open",
        }
    }
}

/// One line saying what the shell did, the same in `play`, `explain` and
/// the page: the only legal move as such; else the winning moves, or the
/// losing moves it removed (or that every move loses, when it had to play
/// one), or that nothing is forced; and whether it overrode the pure genome.
pub(crate) fn describe<G: Notation>(game: &G, depth: u8, d: &ShellDecision<G::Move>) -> String {
    let list = |keep: fn(Verdict) -> bool| -> Vec<String> {
        d.verdicts
            .iter()
            .filter(|(_, v)| keep(*v))
            .map(|(m, v)| format!("{} ({})", game.format_move(*m), v.words()))
            .collect()
    };
    let wins = list(Verdict::wins);
    let loses = list(Verdict::loses);
    let played_loses = d
        .verdicts
        .iter()
        .any(|&(m, v)| Some(m) == d.chosen && v.loses());
    let mut parts = Vec::new();
    if let [(only, verdict)] = d.verdicts[..] {
        let why = match verdict {
            Verdict::Open => String::new(),
            v => format!(" ({})", v.words()),
        };
        parts.push(format!(
            "{} is the only legal move{why}",
            game.format_move(only)
        ));
    } else if !wins.is_empty() {
        parts.push(format!("winning: {}", wins.join(", ")));
    } else if played_loses {
        parts.push(format!("every move loses: {}", loses.join(", ")));
    } else if !loses.is_empty() {
        parts.push(format!("removed: {}", loses.join(", ")));
    } else {
        parts.push("nothing forced".to_string());
    }
    if d.overrode {
        let played = d
            .chosen
            .map_or("forfeit".to_string(), |m| game.format_move(m));
        parts.push(format!("plays {played} instead of the genome's move"));
    }
    format!("shell (lookahead {depth}): {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Connect4;

    #[test]
    fn the_shell_names_the_only_legal_move_and_a_lost_position() {
        use Verdict::{LosesByForce, LosesNow, Open};
        // Columns 0-based here, 1-based as written.
        for (chosen, verdicts, overrode, said) in [
            (
                5,
                vec![(5, LosesNow)],
                false,
                "6 is the only legal move (lets the opponent win at once)",
            ),
            (
                0,
                vec![(0, LosesByForce), (5, LosesNow)],
                true,
                "every move loses: 1 (loses by force), 6 (lets the opponent win at once); plays 1 instead of the genome's move",
            ),
            (
                2,
                vec![(0, LosesByForce), (2, Open)],
                true,
                "removed: 1 (loses by force); plays 3 instead of the genome's move",
            ),
        ] {
            let d = ShellDecision {
                chosen: Some(chosen),
                verdicts,
                overrode,
            };
            assert_eq!(
                describe(&Connect4::SUBGRID, 4, &d),
                format!("shell (lookahead 4): {said}")
            );
        }
    }

    #[test]
    fn the_shell_wins_now_and_blocks() {
        let game = Connect4::SUBGRID;
        let genes = vec![0u8; game.gene_count()];
        // X has three in column 1 and is to move: the pure genome plays the
        // centre, the shell wins.
        let pos = game.parse_position("121212").unwrap();
        assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(3));
        let d = decide(&game, &genes, &pos, IllegalPolicy::Repair, 1);
        assert_eq!(d.chosen, Some(0));
        assert!(d.overrode);
        // O to move must block column 1.
        let pos = game.parse_position("12121").unwrap();
        let d = decide(&game, &genes, &pos, IllegalPolicy::Repair, 1);
        assert_eq!(d.chosen, Some(0));
        assert!(d.verdicts.iter().filter(|(_, v)| v.loses()).count() == 6);
    }

    #[test]
    fn a_deeper_shell_sees_a_double_threat() {
        let game = Connect4::SUBGRID;
        let genes = vec![0u8; game.gene_count()];
        // X on the bottom row at columns 3 and 4 (O stacked on top): X to
        // move makes an open three with column 2 or 5, a double threat that
        // wins by force within 2 more plies.
        let pos = game.parse_position("3344").unwrap();
        let v = verdicts(&game, &pos, 2);
        let forcing: Vec<u8> = v
            .iter()
            .filter(|(_, v)| *v == Verdict::WinsByForce)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(forcing, vec![1, 4]);
        assert_eq!(
            verdicts(&game, &pos, 1)
                .iter()
                .filter(|(_, v)| v.wins())
                .count(),
            0
        );
        let d = decide(&game, &genes, &pos, IllegalPolicy::Repair, 2);
        assert!([Some(1), Some(4)].contains(&d.chosen));
    }
}
