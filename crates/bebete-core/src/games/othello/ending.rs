//! The exact ending search: every move of a position with a few empty
//! squares left, scored by the final disc difference with best play.

#[cfg(test)]
use super::{Game, Othello};
use super::{OthelloPosition, PASS, flips, moves_of};

/// The final disc difference (the side to move's discs minus the
/// opponent's, empty squares counting for no one, as the game is scored)
/// with best play by both sides from `pos`, exactly: [`ending`] from the
/// start of a search.
#[cfg(test)]
pub(super) fn ending_score(
    pos: &OthelloPosition,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
    max_nodes: u64,
) -> Option<i32> {
    let (me, them) = pos.sides();
    ending(me, them, alpha, beta, false, nodes, max_nodes)
}

/// Empty squares at most for [`ending_moves`]: every move of a position
/// with 12 empty squares is searched in about 21 ms, with 10 in about 1 ms
/// (criterion, `othello/exact ending`, on the development machine; each
/// more square multiplies it by about four).
pub(crate) const ENDING_EMPTIES: u32 = 12;

/// Positions an ending search may visit before it gives up.
const ENDING_NODES: u64 = 20_000_000;

/// Every legal move of the unfinished `pos` (a pass when it is the only
/// one) with its exact final disc difference for the side that plays it,
/// when `pos` has at most [`ENDING_EMPTIES`] empty squares; the moves that
/// are not the best may carry a bound below the best instead of their
/// exact value, so the best ones are exactly those with the highest
/// score. `None` with more empty squares, or when the search gives up
/// (past its node limit, or this thread's budget spent).
pub(crate) fn ending_moves(pos: &OthelloPosition) -> Option<Vec<(u8, i32)>> {
    if pos.empty().count_ones() > ENDING_EMPTIES {
        return None;
    }
    let (me, them) = pos.sides();
    let mut squares = moves_of(me, them);
    if squares == 0 && moves_of(them, me) == 0 {
        return None;
    }
    let mut nodes = 0;
    if squares == 0 {
        let score = -ending(them, me, -65, 65, true, &mut nodes, ENDING_NODES)?;
        return Some(vec![(PASS, score)]);
    }
    let mut scored = Vec::with_capacity(squares.count_ones() as usize);
    let mut best = -65;
    while squares != 0 {
        let square = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let flipped = flips(me, them, square);
        // Exact from one below the best so far up: a move that fails
        // lower cannot tie with the best.
        let score = -ending(
            them & !flipped,
            me | flipped | (1 << square),
            -65,
            -(best - 1),
            false,
            &mut nodes,
            ENDING_NODES,
        )?;
        best = best.max(score);
        scored.push((square, score));
    }
    Some(scored)
}

/// The final disc difference for the side owning `me` to move (`passed`:
/// the other side just passed) with best play by both, exactly: alpha-beta
/// over the bitboards within `alpha..beta` (a fail-soft bound outside it).
/// Meant for the last few empty squares: its cost grows about fivefold
/// with each one more. `nodes` counts the positions visited; the search
/// gives up, returning `None`, past `max_nodes` or when this thread's
/// budget is spent.
fn ending(
    me: u64,
    them: u64,
    mut alpha: i32,
    beta: i32,
    passed: bool,
    nodes: &mut u64,
    max_nodes: u64,
) -> Option<i32> {
    *nodes += 1;
    if *nodes > max_nodes || (nodes.is_multiple_of(4096) && crate::budget::spent()) {
        return None;
    }
    let mut moves = moves_of(me, them);
    if moves == 0 {
        if passed {
            return Some(me.count_ones() as i32 - them.count_ones() as i32);
        }
        return ending(them, me, -beta, -alpha, true, nodes, max_nodes).map(|v| -v);
    }
    let mut best = -65;
    while moves != 0 {
        let square = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let flipped = flips(me, them, square);
        let score = -ending(
            them & !flipped,
            me | flipped | (1 << square),
            -beta,
            -alpha,
            false,
            nodes,
            max_nodes,
        )?;
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    Some(best)
}

/// The final disc difference for the side to move with best play, by
/// plain minimax over the rules (no pruning, no bitboard search): what the
/// tests check the ending search against.
#[cfg(test)]
pub(crate) fn ending_by_minimax(pos: &OthelloPosition) -> i32 {
    let game = Othello;
    if game.outcome(pos).is_some() {
        let (me, them) = pos.sides();
        return me.count_ones() as i32 - them.count_ones() as i32;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .iter()
        .map(|&m| -ending_by_minimax(&game.play(pos, m)))
        .max()
        .unwrap_or(0)
}
