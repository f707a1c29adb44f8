use super::ending::{ending_moves, ending_score};
use super::registration::{PATTERNS, straight_count};
use super::*;
use crate::games::check_moves;
use crate::games::walk::perft;

#[test]
fn the_start_and_blacks_four_first_moves() {
    let game = Othello;
    let start = game.start();
    let view = game.view(&start);
    let BoardView::Grid { cells, .. } = view else {
        panic!("a grid")
    };
    // Row 4: d4 white, e4 black; row 5: d5 black, e5 white.
    assert_eq!(&cells[24..32], "...OX...");
    assert_eq!(&cells[32..40], "...XO...");
    let mut moves = Vec::new();
    game.legal_moves(&start, &mut moves);
    let mut names: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
    names.sort();
    assert_eq!(names, ["c4", "d3", "e6", "f5"]);
}

/// The endgame search gives what a plain minimax over the rules gives,
/// on positions of random games with up to 9 empty squares, in a full
/// window and in null windows around every score; a node limit or a
/// spent budget gives up instead of answering wrong.
#[test]
fn the_endgame_search_is_exact() {
    use rand::{RngExt, SeedableRng};
    let minimax = |_: &Othello, pos: &OthelloPosition| ending_by_minimax(pos);
    let game = Othello;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    let mut checked = 0;
    for round in 0..60 {
        let target = 1 + round % 9;
        let mut pos = game.start();
        let mut moves = Vec::new();
        while game.outcome(&pos).is_none() && pos.empty().count_ones() > target {
            game.legal_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
        }
        let exact = minimax(&game, &pos);
        let mut nodes = 0;
        assert_eq!(
            ending_score(&pos, -65, 65, &mut nodes, u64::MAX),
            Some(exact),
            "{}",
            game.render(&pos)
        );
        // Every move's value: the best moves are the ones with the
        // highest score, and it is the position's.
        if let Some(scored) = ending_moves(&pos) {
            let top = scored.iter().map(|&(_, v)| v).max().unwrap();
            assert_eq!(top, exact);
            for &(mv, v) in &scored {
                let own = -minimax(&game, &game.play(&pos, mv));
                assert_eq!(v == top, own == exact, "{}", game.format_move(mv));
                assert!(v <= own.max(top - 1));
            }
        }
        for edge in [exact - 1, exact, exact + 1] {
            let mut nodes = 0;
            let v = ending_score(&pos, edge - 1, edge, &mut nodes, u64::MAX).unwrap();
            // Fail-soft: the bound's side is right.
            assert_eq!(v >= edge, exact >= edge);
        }
        checked += 1;
    }
    assert_eq!(checked, 60);
    let pos = game.start();
    let mut nodes = 0;
    assert_eq!(ending_score(&pos, -65, 65, &mut nodes, 1000), None);
    assert!(nodes <= 1001);
}

/// The published move-path counts from the start (a pass counts as a
/// ply; none occurs before ply 9).
#[test]
fn perft_matches_the_published_counts_to_depth_8() {
    let game = Othello;
    let counts = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216];
    for (depth, &count) in (1..).zip(counts.iter()) {
        assert_eq!(perft(&game, &game.start(), depth), count, "depth {depth}");
    }
}

/// The bitboard count agrees with the generic walk, and with the
/// published counts once their convention for finished games is
/// allowed for.
#[test]
fn the_bitboard_perft_agrees_and_reaches_depth_10() {
    let game = Othello;
    let start = game.start();
    for depth in 1..=8 {
        assert_eq!(perft_bitboards(&start, depth), perft(&game, &start, depth));
    }
    assert_eq!(perft_bitboards(&start, 9), 3_005_288);
    // The published 24,571,284 for depth 10 also lets each game that is
    // over at ply 9 pass once more: it is ours plus those 228 games.
    let (me, them) = start.sides();
    let over = games_over_at(me, them, 9);
    assert_eq!(over, 228);
    assert_eq!(perft_bitboards(&start, 10) + over, 24_571_284);
    // A position with a pass in it: the walk and the count agree there too.
    let pos = OthelloPosition {
        black: 1 | (1 << 8),
        white: 1 << 1,
        to_move: Side::Second,
    };
    for depth in 1..=3 {
        assert_eq!(
            perft_bitboards(&pos, depth),
            perft(&game, &pos, depth),
            "depth {depth}"
        );
    }
}

/// Move paths of `depth` plies after which the game is over.
fn games_over_at(me: u64, them: u64, depth: u32) -> u64 {
    let over = moves_of(me, them) == 0 && moves_of(them, me) == 0;
    if depth == 0 || over {
        return u64::from(depth == 0 && over);
    }
    let mut moves = moves_of(me, them);
    if moves == 0 {
        return games_over_at(them, me, depth - 1);
    }
    let mut total = 0;
    while moves != 0 {
        let square = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let flipped = flips(me, them, square);
        total += games_over_at(them & !flipped, me | flipped | (1 << square), depth - 1);
    }
    total
}

#[test]
fn a_move_flips_every_line_it_closes() {
    let game = Othello;
    let pos = game.parse_position("f5").unwrap();
    // f5 closes the line e5 (white) against d5: e5 turns black.
    assert_eq!(pos.black.count_ones(), 4);
    assert_eq!(pos.white.count_ones(), 1);
    assert_eq!(game.turn(&pos), Side::Second);
    let same = game.parse_position("f5 d6 c3").unwrap();
    assert_eq!(game.parse_position("f5d6c3").unwrap(), same);
    assert_eq!(game.parse_position("F5, D6, C3").unwrap(), same);
    let err = game.parse_position("f5 d6 d6").unwrap_err();
    assert_eq!(err.number, 3);
    assert_eq!(err.reason.to_string(), "d6 is taken");
    let err = game.parse_position("a1").unwrap_err();
    assert_eq!(
        err.reason.to_string(),
        "a1 flips no disc: it must end a line of the other side's discs"
    );
    assert!(game.parse_position("i9").is_err());
    assert!(game.parse_position("pass").is_err(), "Black has moves");
}

#[test]
fn a_side_without_a_move_passes_and_the_game_ends_when_neither_can_move() {
    let game = Othello;
    // Black on a1 and a2, White on b1, White to move: White closes no
    // line, while Black's c1 would close a1-b1.
    let pos = OthelloPosition {
        black: 1 | (1 << 8),
        white: 1 << 1,
        to_move: Side::Second,
    };
    let mut moves = Vec::new();
    game.legal_moves(&pos, &mut moves);
    assert_eq!(moves, [PASS], "White has no move, Black has c1");
    assert_eq!(game.outcome(&pos), None);
    let passed = game.play(&pos, PASS);
    assert_eq!(game.turn(&passed), Side::First);
    assert!(game.is_legal(&passed, 2), "c1");
    let end = game.play(&passed, 2);
    // All discs black: nobody can move, Black wins.
    assert_eq!(end.white, 0);
    assert_eq!(game.outcome(&end), Some(Outcome::Win(Side::First)));
    game.legal_moves(&end, &mut moves);
    assert!(moves.is_empty());
    // Equal counts with no move left draw.
    let even = OthelloPosition {
        black: 1,
        white: 1 << 63,
        to_move: Side::First,
    };
    assert_eq!(game.outcome(&even), Some(Outcome::Draw));
}

#[test]
fn random_games_keep_the_rules_invariants() {
    use rand::{RngExt, SeedableRng};
    let game = Othello;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    let mut moves = Vec::new();
    let mut ends = 0;
    for _ in 0..200 {
        let mut pos = game.start();
        for _ in 0..130 {
            check_moves(&game, &pos).unwrap();
            game.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                ends += 1;
                break;
            }
            pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
            assert_eq!(pos.black & pos.white, 0);
        }
    }
    assert_eq!(ends, 200, "every game ends within 130 plies");
}

#[test]
fn a_board_string_is_a_position_and_its_faults_are_named() {
    let game = Othello;
    let start = "......../......../......../...OX.../...XO.../......../......../........ X";
    assert_eq!(game.parse_position(start).unwrap(), game.start());
    let flat = start.replace('/', "");
    assert_eq!(game.parse_position(&flat).unwrap(), game.start());
    let white = start.replace(" X", " O");
    assert_eq!(
        game.turn(&game.parse_position(&white).unwrap()),
        Side::Second
    );
    let no_side = game.parse_position(&start.replace(" X", "")).unwrap_err();
    assert!(
        no_side.to_string().contains("the side to move, X or O"),
        "{no_side}"
    );
    let short = game
        .parse_position(&start.replacen("........", ".......", 1))
        .unwrap_err();
    assert!(short.to_string().contains("only 63 squares"), "{short}");
    let bad = game
        .parse_position(&start.replacen('.', "b", 1))
        .unwrap_err();
    assert!(bad.to_string().contains("'b' is not a square"), "{bad}");
    assert_eq!(bad.number, 1);
}

#[test]
fn the_board_is_drawn_with_its_legal_squares() {
    let game = Othello;
    let text = game.render(&game.start());
    assert_eq!(
        text,
        "   a b c d e f g h\n\
         1  . . . . . . . .\n\
         2  . . . . . . . .\n\
         3  . . . * . . . .\n\
         4  . . * O X . . .\n\
         5  . . . X O * . .\n\
         6  . . . . * . . .\n\
         7  . . . . . . . .\n\
         8  . . . . . . . .\n   X (black) 2, O (white) 2; * a legal square\n"
    );
}

#[test]
fn the_eight_symmetries_are_the_squares_group() {
    let images: Vec<Vec<usize>> = (0..8)
        .map(|s| (0..64).map(|q| symmetric_square(s, q)).collect())
        .collect();
    for image in &images {
        let mut sorted = image.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..64).collect::<Vec<_>>(), "a permutation");
    }
    let mut distinct = images.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 8);
    // a1 goes to every corner; d4 to the four centre squares.
    let a1: std::collections::BTreeSet<usize> = images.iter().map(|i| i[0]).collect();
    assert_eq!(a1, [0, 7, 56, 63].into());
    // The start is symmetric under the half turn.
    let game = Othello;
    let start = game.start();
    let turned = |discs: u64| {
        (0..64).fold(0u64, |m, q| {
            m | (((discs >> q) & 1) << symmetric_square(3, q))
        })
    };
    assert_eq!(turned(start.black), start.black);
    assert_eq!(turned(start.white), start.white);
}

#[test]
fn straight_tuples_are_one_line_per_class() {
    for length in 2..=8u8 {
        let lines = straight_tuples(length);
        assert_eq!(
            lines.len(),
            straight_count(length) as usize,
            "length {length}"
        );
        for line in &lines {
            assert_eq!(line.len(), length as usize);
            // Consecutive squares one step apart along one direction.
            let step = line[1] as i32 - line[0] as i32;
            assert!([1, 8, 9, 7].contains(&step), "{line:?}");
            assert!(line.windows(2).all(|w| w[1] as i32 - w[0] as i32 == step));
        }
    }
    // Jaśkowski's network of every straight pair: 288 weights, 9 per
    // tuple (here twice, one table for each side that left the board).
    assert_eq!(straight_count(2) as usize * 9, 288);
    assert_eq!(straight_count(1), 0);
    assert_eq!(straight_count(9), 0);
}

#[test]
fn patterns_are_distinct_classes_of_eight_squares_covering_the_board() {
    let patterns = pattern_tuples();
    assert_eq!(patterns.len(), PATTERNS as usize);
    let images = |tuple: &[u8]| -> Vec<u64> {
        (0..8)
            .map(|s| {
                tuple
                    .iter()
                    .fold(0u64, |m, &q| m | 1 << symmetric_square(s, q as usize))
            })
            .collect()
    };
    let mut covered = 0u64;
    for (i, tuple) in patterns.iter().enumerate() {
        let set = tuple.iter().fold(0u64, |m, &q| m | 1 << q);
        assert_eq!(set.count_ones(), 8, "pattern {i}: {tuple:?}");
        // No pattern is an image of another: each is its own class.
        for other in &patterns[i + 1..] {
            let other = other.iter().fold(0u64, |m, &q| m | 1 << q);
            assert!(!images(tuple).contains(&other), "pattern {i}: {tuple:?}");
        }
        covered |= images(tuple).iter().fold(0, |m, s| m | s);
    }
    // Read in their 8 images, the patterns see every square.
    assert_eq!(covered, u64::MAX);
    // Four read a corner, the square that decides most Othello games.
    let corner = patterns.iter().filter(|t| t.contains(&0)).count();
    assert_eq!(
        corner, 4,
        "the long diagonal, the edge and the two corner blocks"
    );
}

#[test]
fn options_choose_the_encoders_and_refuse_what_does_not_fit() {
    let options = |encoder: &str, tuples: Option<u16>, length: Option<u8>| GameOptions {
        encoder: Some(encoder.to_string()),
        tuples,
        tuple_length: length,
        ..GameOptions::default()
    };
    assert_eq!(
        GenomeGame::<Othello>::from_options(&GameOptions::default()),
        Ok(Othello::PATTERNS.registered())
    );
    let four = GenomeGame::<Othello>::from_options(&options("straight", None, Some(4))).unwrap();
    assert_eq!(
        four.value_genome().unwrap(),
        NTuple {
            tuples: 21,
            length: 4
        }
    );
    let err = GenomeGame::<Othello>::from_options(&options("straight", Some(5), None)).unwrap_err();
    assert_eq!(
        (&err.options[..], err.value.as_deref()),
        (&["tuples"][..], Some("5"))
    );
    let err = err.to_string();
    assert!(
        err.starts_with(
            "tuples 5: the straight encoder has every straight line of 4 squares, 21 tuples"
        ),
        "{err}"
    );
    let snakes =
        GenomeGame::<Othello>::from_options(&options("ntuple", Some(20), Some(5))).unwrap();
    assert_eq!(
        snakes,
        GenomeGame::value(
            Othello,
            ValueGenome::drawn(NTuple {
                tuples: 20,
                length: 5
            })
        )
    );
    assert_eq!(
        GenomeGame::<Othello>::from_options(&options("patterns", None, None)),
        Ok(Othello::PATTERNS.registered())
    );
    assert_eq!(
        Othello::PATTERNS.registered().value_genome(),
        Some(Othello::PATTERN_SHAPE)
    );
    // A set of the patterns for each game stage: 42 tuples, 6 stages.
    let staged = GenomeGame::<Othello>::from_options(&options("patterns", Some(42), None)).unwrap();
    assert_eq!(
        staged.value_genome(),
        Some(NTuple {
            tuples: 42,
            length: 8
        })
    );
    assert_eq!(staged.validate(), Ok(()));
    assert_eq!(
        staged.describe(),
        "othello (value genome, 42×8 patterns: 6 game stages)"
    );
    for (tuples, length, flag, says) in [
        (
            Some(5),
            None,
            "tuples",
            "tuples 5: the patterns encoder has 7 tuples of 8 squares for each game stage: 7 (one stage) up to 112, a multiple of 7",
        ),
        (
            Some(119),
            None,
            "tuples",
            "tuples 119: the patterns encoder has 7 tuples",
        ),
        (
            None,
            Some(6),
            "tuples",
            "tuples x6: the patterns encoder's tuples are 8 squares",
        ),
    ] {
        let err =
            GenomeGame::<Othello>::from_options(&options("patterns", tuples, length)).unwrap_err();
        assert_eq!(err.options, [flag]);
        assert!(err.to_string().starts_with(says), "{err}");
    }
    let err = GenomeGame::<Othello>::from_options(&options("subgrid", None, None)).unwrap_err();
    assert_eq!(err.options, ["encoder"]);
    let err = err.to_string();
    assert!(
        err.contains("othello encoders are patterns, straight and ntuple"),
        "{err}"
    );
    // A stored genome whose count is not its placement's is refused: the
    // straight lines', or a set of the patterns per stage.
    for (wrong, tuples, length) in [
        (ValueGenome::straight as fn(NTuple) -> ValueGenome, 5, 2),
        (ValueGenome::patterns, 10, 8),
    ] {
        let genome = GenomeGame::value(Othello, wrong(NTuple { tuples, length }));
        assert!(genome.validate().is_err(), "{tuples}×{length}");
    }
}
