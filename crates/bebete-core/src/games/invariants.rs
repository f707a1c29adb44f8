//! The rules' invariants, as a check that property tests and the fuzz
//! targets run on any position they reach.

use super::Game;

/// A rules invariant that does not hold, in words, with the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BrokenInvariant(pub String);

/// Checks, for every move the notation can write as a number 0-256 (every
/// move of the three games): `legal_moves` lists exactly the moves
/// `is_legal` accepts, each once and nothing else; a finished position has
/// none and an unfinished one has some; a legal move changes the position
/// and `try_play` agrees with `is_legal`.
pub fn check_moves<G: Game>(game: &G, pos: &G::Position) -> Result<(), BrokenInvariant> {
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
    let candidates: Vec<G::Move> = (0..=256)
        .filter_map(|n| game.parse_move(&n.to_string()).ok())
        .collect();
    if let Some(m) = listed.iter().find(|m| !candidates.contains(m)) {
        return fail(format!("legal move {m:?} cannot be written"));
    }
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
