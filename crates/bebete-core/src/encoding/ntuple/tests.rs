//! The value genome: shapes, cell states, learning, search, mutation.

use super::genes::cell_set;
use super::*;
use crate::encoding::{IllegalPolicy, Learns, TableGame};
use crate::games::{Checkers, Connect4, Pair, TicTacToe, ValueGenome};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

const SMALL: NTuple = NTuple {
    tuples: 12,
    length: 6,
};

fn c4(shape: NTuple) -> Pair<Connect4, ValueGenome> {
    Connect4::value_genome(shape)
}

fn c4_position(moves: &str) -> <Connect4 as Game>::Position {
    let game = c4(SMALL);
    moves
        .bytes()
        .fold(game.start(), |pos, c| game.play(&pos, c - b'1'))
}

/// The position after `moves`, each skipped when illegal or when it would
/// end the game.
fn unfinished_after(
    game: &Pair<Connect4, ValueGenome>,
    moves: &[u8],
) -> <Connect4 as Game>::Position {
    moves.iter().fold(game.start(), |pos, &m| {
        match game.is_legal(&pos, m) && game.outcome(&game.play(&pos, m)).is_none() {
            true => game.play(&pos, m),
            false => pos,
        }
    })
}

fn fresh<G: TableGame>(game: &G, seed: u64) -> Vec<u8> {
    let mut genes = vec![0; game.gene_count()];
    game.fill_random(&mut genes, &mut Pcg64Mcg::seed_from_u64(seed));
    genes
}

/// Fresh genes after `games` self-play games, both from `seed`: weights
/// that differ from one another.
fn learnt<G: TableGame + Learns<G>>(game: &G, seed: u64, games: u32) -> Vec<u8> {
    let mut genes = fresh(game, seed);
    game.learn(&mut genes, games, Pcg64Mcg::seed_from_u64(seed));
    genes
}

#[test]
fn the_layout_is_tuples_then_settings() {
    let shape = Connect4::NTUPLE;
    assert_eq!(shape.states_in(4), 65_536);
    assert_eq!(shape.block_in(4), 8 + 4 * 65_536);
    assert_eq!(shape.gene_count_in(4), 70 * 262_152 + 8);
    let genes = fresh(&c4(SMALL), 1);
    let p = Params::read(&genes);
    assert!((p.alpha - 0.004).abs() < 0.0002, "{p:?}");
    assert!((p.lambda - 0.5).abs() < 0.01 && (p.epsilon - 0.1).abs() < 1e-6);
    assert_eq!(p.games, 0);
    assert_eq!(problem::<Connect4>(SMALL, &genes), None);
}

/// The worked example: after 4 4 3 (columns, 1-based) X holds the bottom
/// of columns 4 and 3, O the cell above X's first stone.
#[test]
fn connect4_cells_read_stones_and_playable_cells() {
    let mut states = vec![9; 42];
    Connect4.cell_states(&c4_position(""), &mut states);
    assert_eq!(&states[..7], &[EMPTY_NOW; 7]);
    assert!(states[7..].iter().all(|&s| s == EMPTY_LATER));
    Connect4.cell_states(&c4_position("443"), &mut states);
    assert_eq!(states[3], FIRST);
    assert_eq!(states[2], FIRST);
    assert_eq!(states[7 + 3], SECOND);
    assert_eq!(states[14 + 3], EMPTY_NOW);
    assert_eq!(states[7 + 2], EMPTY_NOW);
    assert_eq!(states[14 + 2], EMPTY_LATER);
    assert_eq!(states[0], EMPTY_NOW);
}

#[test]
fn tuples_are_walks_of_distinct_neighbouring_cells() {
    let genes = fresh(&c4(Connect4::NTUPLE), 7);
    let shape = Connect4::NTUPLE;
    let mut sets = Vec::new();
    for t in 0..shape.tuples as usize {
        let cells = &genes[t * shape.block_in(4)..t * shape.block_in(4) + 8];
        for pair in cells.windows(2) {
            let (a, b) = (pair[0] as i32, pair[1] as i32);
            assert!((a / 7 - b / 7).abs() <= 1 && (a % 7 - b % 7).abs() <= 1);
        }
        sets.push(cell_set(cells));
    }
    sets.sort();
    sets.dedup();
    assert_eq!(sets.len(), 70, "the tuples are distinct cell sets");
}

#[test]
fn a_damaged_genome_is_named_as_such() {
    let mut genes = fresh(&c4(SMALL), 2);
    genes[3] = 42;
    assert_eq!(
        problem::<Connect4>(SMALL, &genes).as_deref(),
        Some("tuple 0 names cell 42, off the 42-cell board")
    );
    genes[3] = genes[2];
    assert_eq!(
        problem::<Connect4>(SMALL, &genes).as_deref(),
        Some("tuple 0 names a cell twice")
    );
    assert!(problem::<Connect4>(SMALL, &genes[1..]).is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// The afterstate values read incrementally (only the slots a move
    /// changes) equal the values read from scratch, after learning has
    /// made the weights differ.
    #[test]
    fn incremental_values_equal_values_from_scratch(
        seed in any::<u64>(),
        moves in proptest::collection::vec(0u8..7, 0..20),
    ) {
        let game = c4(SMALL);
        let genes = learnt(&game, seed, 30);
        let pos = unfinished_after(&game, &moves);
        let mut eval = Evaluator::<Connect4>::new(SMALL, &genes);
        let mover = game.turn(&pos);
        let sign = sign(mover);
        for (mv, value) in eval.move_values(&game.rules, &genes, &pos) {
            let next = game.play(&pos, mv);
            let mut scratch = Evaluator::<Connect4>::new(SMALL, &genes);
            let fresh = sign * scratch.value(&game.rules, &genes, &next, mover);
            prop_assert!((value - fresh).abs() < 1e-6, "move {}: {} vs {}", mv, value, fresh);
        }
    }
}

#[test]
fn learning_is_reproducible_and_changes_the_weights() {
    let game = c4(SMALL);
    let start = fresh(&game, 3);
    let trained = |seed| {
        let mut genes = start.clone();
        game.learn(&mut genes, 50, Pcg64Mcg::seed_from_u64(seed));
        genes
    };
    let (a, b, c) = (trained(1), trained(1), trained(2));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_ne!(a, start);
    assert_eq!(Params::read(&a).games, 50);
    assert_eq!(problem::<Connect4>(SMALL, &a), None, "shapes untouched");
}

#[test]
fn a_winning_move_is_always_taken() {
    let game = c4(SMALL);
    let genes = fresh(&game, 4);
    // X has three in column 1 and is to move.
    let pos = c4_position("121212");
    assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(0));
}

#[test]
fn mutation_redraws_whole_tuples_and_keeps_the_genome_sound() {
    let game = c4(SMALL);
    let mut genes = learnt(&game, 5, 20);
    let before = genes.clone();
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let redrawn = game
        .mutate_own(&mut genes, 0.5, &mut rng)
        .expect("its own mutation");
    assert!(redrawn > 0);
    assert_eq!(problem::<Connect4>(SMALL, &genes), None);
    let block = SMALL.block_in(4);
    for t in 0..SMALL.tuples as usize {
        let (old, new) = (
            &before[t * block..(t + 1) * block],
            &genes[t * block..(t + 1) * block],
        );
        if old[..8] != new[..8] {
            assert!(
                new[8..].iter().all(|&w| w == 0),
                "tuple {t}: a new shape starts empty"
            );
        }
    }
}

/// Plain TD (no evolution) on tic-tac-toe: the exact audit follows it.
#[test]
fn tictactoe_self_play_learns_most_positions() {
    let game = Pair::new(TicTacToe, ValueGenome::drawn(TicTacToe::NTUPLE));
    let mut genes = fresh(&game, 1);
    let before = crate::audit::audit(&game, &genes, IllegalPolicy::Repair).optimal_rate();
    game.learn(&mut genes, 5_000, Pcg64Mcg::seed_from_u64(1));
    let after = crate::audit::audit(&game, &genes, IllegalPolicy::Repair).optimal_rate();
    assert!(after > 0.95 && after > before, "{before} -> {after}");
}

/// A move's score by plain minimax over `depth` plies: every move
/// searched, nothing remembered, each leaf valued from scratch; scored as
/// the search scores (wins above every value, the sooner the higher).
fn minimax<G: CellBoard>(
    game: &G,
    shape: NTuple,
    genes: &[u8],
    pos: &G::Position,
    mv: G::Move,
    depth: u8,
) -> f32 {
    let mover = game.turn(pos);
    let next = game.play(pos, mv);
    match game.outcome(&next) {
        Some(outcome) => match sign(mover) * exact(outcome) {
            v if v > 0.5 => 2.0 + depth as f32 * 0.01,
            v if v < -0.5 => -(2.0 + depth as f32 * 0.01),
            v => v,
        },
        None if depth <= 1 => {
            let mut scratch = Evaluator::<G>::new(shape, genes);
            sign(mover) * scratch.value(game, genes, &next, mover)
        }
        None => {
            let mut replies = Vec::new();
            game.legal_moves(&next, &mut replies);
            let best = replies
                .into_iter()
                .map(|reply| minimax(game, shape, genes, &next, reply, depth - 1))
                .fold(f32::NEG_INFINITY, f32::max);
            -best
        }
    }
}

/// The search's pruning and its table of positions met before change no
/// score: every move's exact score equals plain minimax's, and the move it
/// plays is one of the best.
fn search_equals_minimax<G: CellBoard>(
    game: &G,
    shape: NTuple,
    genes: &[u8],
    pos: &G::Position,
    depth: u8,
) -> Result<(), TestCaseError> {
    let mut eval = Evaluator::<G>::new(shape, genes);
    let scored = eval.searched(game, genes, pos, depth, true);
    for &(mv, score) in &scored {
        let plain = minimax(game, shape, genes, pos, mv, depth);
        prop_assert!(
            (score - plain).abs() < 1e-6,
            "{:?}: {} vs {}",
            mv,
            score,
            plain
        );
    }
    let best = scored.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
    prop_assert_eq!(scored[0].1, best);
    let chosen = search(game, shape, genes, pos, depth).expect("a move");
    let of_chosen = scored
        .iter()
        .find(|s| s.0 == chosen)
        .expect("a legal move")
        .1;
    prop_assert_eq!(of_chosen, best);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn connect4_search_scores_equal_plain_minimax(
        seed in any::<u64>(),
        moves in proptest::collection::vec(0u8..7, 0..16),
    ) {
        let game = c4(SMALL);
        let genes = learnt(&game, seed, 40);
        let pos = unfinished_after(&game, &moves);
        search_equals_minimax(&game.rules, SMALL, &genes, &pos, 5)?;
    }

    /// Checkers too, whose positions carry their history (a table entry
    /// is one position reached one way) and whose tuples read a square
    /// twice (no mirror image).
    #[test]
    fn checkers_search_scores_equal_plain_minimax(
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u8>(), 0..30),
    ) {
        let game = Checkers::value_genome(SMALL);
        let genes = learnt(&game, seed, 20);
        let mut pos = game.start();
        let mut moves = Vec::new();
        for pick in picks {
            game.legal_moves(&pos, &mut moves);
            let next = game.play(&pos, moves[pick as usize % moves.len()]);
            if game.outcome(&next).is_some() {
                break;
            }
            pos = next;
        }
        search_equals_minimax(&game.rules, SMALL, &genes, &pos, 4)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Connect-Four's two changed cells are exactly the cells whose states
    /// differ when both boards are read whole.
    #[test]
    fn connect4_names_the_cells_a_move_changes(
        moves in proptest::collection::vec(0u8..7, 0..30),
        last in 0u8..7,
    ) {
        let game = c4(SMALL);
        let pos = unfinished_after(&game, &moves);
        prop_assume!(game.is_legal(&pos, last));
        let next = game.play(&pos, last);
        let (mut before, mut after) = (vec![0; 42], vec![0; 42]);
        game.rules.cell_states(&pos, &mut before);
        game.rules.cell_states(&next, &mut after);
        let read_whole: Vec<(usize, u8)> = (0..42)
            .filter(|&c| before[c] != after[c])
            .map(|c| (c, after[c]))
            .collect();
        let mut named = Vec::new();
        game.rules.changed_cells(&pos, &before, &next, &mut [0; 42], &mut named);
        named.sort();
        prop_assert_eq!(named, read_whole);
    }
}

/// Learning against a fixed opponent (here one that plays at random): the
/// same streams give the same weights, the clock counts the games, and the
/// genome comes to beat that opponent far more often than it did.
#[test]
fn learning_against_a_fixed_opponent_learns_to_beat_it() {
    use rand::seq::IndexedRandom;
    let game = Pair::new(TicTacToe, ValueGenome::drawn(TicTacToe::NTUPLE));
    let start = fresh(&game, 2);
    let trained = |seed| {
        let mut genes = start.clone();
        let mut rng = Pcg64Mcg::seed_from_u64(seed + 100);
        let mut moves = Vec::new();
        let mut random = |pos: &<TicTacToe as Game>::Position| {
            game.legal_moves(pos, &mut moves);
            moves.choose(&mut rng).copied()
        };
        let played = game.learn_against(
            &mut genes,
            3_000,
            Pcg64Mcg::seed_from_u64(seed),
            &mut random,
        );
        assert!(played >= 3_000 * 5, "{played} moves");
        genes
    };
    let (a, b, c) = (trained(1), trained(1), trained(2));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(Params::read(&a).games, 3_000);
    // 400 games, sides alternating: the genome's own moves against
    // uniformly random ones; a win 1, a draw ½.
    let against_random = |genes: &[u8]| {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut moves = Vec::new();
        let mut points = 0.0;
        for g in 0..400 {
            let genome_side = if g % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut pos = game.start();
            let outcome = loop {
                if let Some(outcome) = game.outcome(&pos) {
                    break outcome;
                }
                let mv = if game.turn(&pos) == genome_side {
                    game.decide(genes, &pos, IllegalPolicy::Repair)
                } else {
                    game.legal_moves(&pos, &mut moves);
                    moves.choose(&mut rng).copied()
                };
                pos = game.play(&pos, mv.expect("an unfinished game has a move"));
            };
            points += match outcome {
                Outcome::Win(side) if side == genome_side => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Win(_) => 0.0,
            };
        }
        points / 400.0
    };
    let (before, after) = (against_random(&start), against_random(&a));
    assert!(after > 0.9 && after > before + 0.1, "{before} -> {after}");
}

/// Othello's patterns in 16 game stages (about four discs a stage): the
/// tables a position reads change every few moves.
const STAGED: NTuple = NTuple {
    tuples: 7 * 16,
    length: 8,
};

fn staged() -> Pair<crate::games::Othello, ValueGenome> {
    crate::games::Othello::patterns_in_stages(16)
}

/// An Othello position after up to `plies` moves picked by `picks`,
/// stopping before the game ends.
fn othello_after(picks: &[u8]) -> <crate::games::Othello as Game>::Position {
    let game = crate::games::Othello;
    let mut pos = game.start();
    let mut moves = Vec::new();
    for &pick in picks {
        game.legal_moves(&pos, &mut moves);
        let next = game.play(&pos, moves[pick as usize % moves.len()]);
        if game.outcome(&next).is_some() {
            break;
        }
        pos = next;
    }
    pos
}

/// A staged genome holds its patterns once per stage, says how many
/// stages, and a position reads its own stage's group only: with every
/// other group's weights zeroed its value is unchanged, and with its own
/// zeroed it is 0.
#[test]
fn a_staged_genome_reads_its_own_stage_s_tables() {
    use crate::games::Othello;
    let game = staged();
    let genes = learnt(&game, 4, 20);
    assert_eq!(stages(&genes), 16);
    assert_eq!(problem::<Othello>(STAGED, &genes), None);
    let block = STAGED.block_in(3);
    for t in 7..STAGED.tuples as usize {
        assert_eq!(
            genes[t * block..t * block + SHAPE_BYTES],
            genes[(t % 7) * block..(t % 7) * block + SHAPE_BYTES],
            "tuple {t} is pattern {}",
            t % 7
        );
    }
    let group = |genes: &mut [u8], stage: usize, keep: bool| {
        for t in 0..STAGED.tuples as usize {
            if (t / 7 == stage) != keep {
                genes[t * block + SHAPE_BYTES..(t + 1) * block].fill(0);
            }
        }
    };
    let mut learned_in = 0;
    for picks in (0..40u8).map(|n| (0..n).map(|i| i.wrapping_mul(37) ^ n).collect::<Vec<_>>()) {
        let pos = othello_after(&picks);
        let stage = Othello.stage(&pos, 16);
        let mover = Othello.turn(&pos).other();
        let value = |genes: &[u8]| {
            Evaluator::<Othello>::new(STAGED, genes).value(&Othello, genes, &pos, mover)
        };
        let (mut only, mut without) = (genes.clone(), genes.clone());
        group(&mut only, stage, true);
        group(&mut without, stage, false);
        assert_eq!(value(&only), value(&genes), "stage {stage}");
        assert_eq!(value(&without), 0.0, "stage {stage}");
        learned_in += (value(&genes) != 0.0) as usize;
    }
    assert!(
        learned_in > 20,
        "learning reached most stages met: {learned_in}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// Incremental afterstates equal values read whole when a move crosses
    /// into the next stage too.
    #[test]
    fn staged_incremental_values_equal_values_from_scratch(
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u8>(), 0..60),
    ) {
        use crate::games::Othello;
        let game = staged();
        let genes = learnt(&game, seed % 8, 10);
        let pos = othello_after(&picks);
        let mover = Othello.turn(&pos);
        let mut eval = Evaluator::<Othello>::new(STAGED, &genes);
        for (mv, value) in eval.move_values(&Othello, &genes, &pos) {
            let next = Othello.play(&pos, mv);
            let mut scratch = Evaluator::<Othello>::new(STAGED, &genes);
            let fresh = sign(mover) * scratch.value(&Othello, &genes, &next, mover);
            prop_assert!((value - fresh).abs() < 1e-6, "move {}: {} vs {}", mv, value, fresh);
        }
    }

    /// The search over stages: its children's indices carried across a
    /// stage's edge score as plain minimax does.
    #[test]
    fn staged_search_scores_equal_plain_minimax(
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        // (Under 40 plies: nearer the end the search plays the exact
        // ending, which plain minimax does not.)
        let genes = learnt(&staged(), seed % 8, 10);
        let pos = othello_after(&picks);
        search_equals_minimax(&crate::games::Othello, STAGED, &genes, &pos, 3)?;
    }
}

/// What learning writes after a move that crosses into the next stage:
/// the afterstate kept is read in its own stage's tables (the weights its
/// trace entry updates, the indices the next position starts from), as a
/// fresh read of it gives. And a stage count the tuples cannot be split
/// by, or a board without stages, is refused.
#[test]
fn a_kept_afterstate_is_read_in_its_own_stage_and_bad_counts_are_refused() {
    use crate::games::Othello;
    let genes = learnt(&staged(), 9, 10);
    let (mut offsets, mut indices, mut fresh_offsets) = (Vec::new(), Vec::new(), Vec::new());
    let mut crossed = 0;
    for n in 0..50u8 {
        let picks: Vec<u8> = (0..n).map(|i| i.wrapping_mul(53) ^ n).collect();
        let pos = othello_after(&picks);
        let side = Othello.turn(&pos);
        let mut moves = Vec::new();
        Othello.legal_moves(&pos, &mut moves);
        for &mv in &moves {
            let mut eval = Evaluator::<Othello>::new(STAGED, &genes);
            eval.load(&Othello, &genes, &pos, side);
            let after = eval.afterstate(&Othello, &genes, &pos, mv);
            if after.finished {
                continue;
            }
            eval.keep();
            eval.kept_offsets(&mut offsets);
            eval.kept_indices(&mut indices);
            let mut read = Evaluator::<Othello>::new(STAGED, &genes);
            read.load(&Othello, &genes, &after.pos, side);
            read.tuples
                .offsets(&read.base, read.stage, side, &mut fresh_offsets);
            assert_eq!(indices, read.base, "{n} plies, move {mv}");
            assert_eq!(offsets, fresh_offsets, "{n} plies, move {mv}");
            crossed += (read.stage != eval.stage) as usize;
        }
    }
    assert!(crossed > 10, "moves into the next stage: {crossed}");
    let mut bad = genes.clone();
    let flags = bad.len() - PARAM_BYTES + 3;
    bad[flags] = (bad[flags] & 0x0f) | stage_bits(5);
    assert_eq!(
        problem::<Othello>(STAGED, &bad).as_deref(),
        Some("5 game stages do not split 112 tuples into equal groups")
    );
    let mut c4_genes = fresh(&c4(SMALL), 1);
    let flags = c4_genes.len() - PARAM_BYTES + 3;
    c4_genes[flags] |= stage_bits(2);
    assert_eq!(
        problem::<Connect4>(SMALL, &c4_genes).as_deref(),
        Some("2 game stages: this board has at most 1")
    );
}

/// A fixed schedule: mutation leaves α, λ and ε as they were, exploration
/// holds, and α falls to a tenth over the horizon (without the flag, a
/// quarter, and ε to a tenth).
#[test]
fn a_fixed_schedule_holds_its_settings() {
    let mut genes = fresh(&c4(SMALL), 3);
    let flags = genes.len() - PARAM_BYTES + 3;
    genes[flags] |= FIXED_SCHEDULE;
    assert_eq!(problem::<Connect4>(SMALL, &genes), None);
    let codes = genes[flags - 3..flags].to_vec();
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    for _ in 0..20 {
        mutate::<Connect4, _>(SMALL, &mut genes, 1.0, true, &mut rng);
    }
    assert_eq!(genes[flags - 3..flags], codes[..], "no drift");
    let params = Params {
        games: Connect4::HORIZON,
        ..Params::read(&genes)
    };
    assert!(params.fixed_schedule);
    let (alpha, epsilon) = params.scheduled(Connect4::HORIZON);
    assert!((alpha - params.alpha / 10.0).abs() < 1e-7, "{alpha}");
    assert_eq!(epsilon, params.epsilon);
    let drifting = Params {
        fixed_schedule: false,
        ..params
    };
    let (alpha, epsilon) = drifting.scheduled(Connect4::HORIZON);
    assert!((alpha - params.alpha / 4.0).abs() < 1e-7, "{alpha}");
    assert!((epsilon - params.epsilon / 10.0).abs() < 1e-6, "{epsilon}");
    genes[flags] &= !FIXED_SCHEDULE;
    let mut moved = false;
    for _ in 0..20 {
        mutate::<Connect4, _>(SMALL, &mut genes, 1.0, true, &mut rng);
        moved |= genes[flags - 3..flags] != codes[..];
    }
    assert!(moved, "without the flag the settings drift");
}
