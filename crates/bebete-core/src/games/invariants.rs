//! The rules' invariants, as a check that property tests and the fuzz
//! targets run on any position they reach.

use super::Notation;
use std::sync::OnceLock;

/// A rules invariant that does not hold, in words, with the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BrokenInvariant(pub String);

/// The move texts tried in every position: every number 0-256 (a cell, a
/// column, a count of sticks) and every pair of squares or holes 1-32
/// joined by `-` or `x` (a jump or a capture), so that moves a game writes
/// otherwise than its legal list says are tried too.
fn candidate_texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let numbers = (0..=256).map(|n: u32| n.to_string());
        let pairs = (1..=32).flat_map(|a: u32| {
            (1..=32).flat_map(move |b: u32| [format!("{a}-{b}"), format!("{a}x{b}")])
        });
        numbers.chain(pairs).collect()
    })
}

/// Checks, in any game: every legal move is written and read back as
/// itself; for every move of `candidate_texts` and every listed move,
/// `legal_moves` lists exactly the moves `is_legal` accepts, each once and
/// nothing else; a finished position has none and an unfinished one has
/// some; a legal move changes the position and `try_play` agrees with
/// `is_legal`.
pub fn check_moves<G: Notation>(game: &G, pos: &G::Position) -> Result<(), BrokenInvariant> {
    let fail = |what: String| Err(BrokenInvariant(format!("{pos:?}: {what}")));
    let mut listed = Vec::new();
    game.legal_moves(pos, &mut listed);
    let finished = game.outcome(pos).is_some();
    if finished != listed.is_empty() {
        return fail(format!(
            "finished {finished} but {} legal moves",
            listed.len()
        ));
    }
    for &m in &listed {
        let text = game.format_move(m);
        if game.parse_move(&text) != Ok(m) {
            return fail(format!(
                "legal move {m:?} is written '{text}', which reads otherwise"
            ));
        }
    }
    let candidates: Vec<G::Move> = candidate_texts()
        .iter()
        .filter_map(|text| game.parse_move(text).ok())
        .chain(listed.iter().copied())
        .collect();
    for &mv in &candidates {
        let count = listed.iter().filter(|&&m| m == mv).count();
        let legal = game.is_legal(pos, mv);
        if count > 1 || legal != (count == 1) {
            return fail(format!(
                "move {mv:?}: is_legal {legal}, listed {count} times"
            ));
        }
        match (legal, game.try_play(pos, mv)) {
            (true, Ok(next)) if next != *pos => {}
            (false, Err(_)) => {}
            (legal, result) => {
                return fail(format!(
                    "move {mv:?}: is_legal {legal}, try_play {result:?}"
                ));
            }
        }
    }
    Ok(())
}
