//! The rules against the published counts, the notation, captures,
//! crowning and the draw rules.

use super::*;
use crate::games::walk::perft;

/// The legal moves of `pos`, and each as the notation writes it.
fn moves_of(game: &Checkers, pos: &CheckersPosition) -> (Vec<CheckersMove>, Vec<String>) {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let text = moves.iter().map(|&m| game.format_move(m)).collect();
    (moves, text)
}

/// The published move-path counts from the start (perft), depths
/// 1-10 (depth 10 is about a second optimised).
#[test]
fn perft_matches_the_published_counts() {
    let game = Checkers;
    let start = game.start();
    let expected = [
        7u64, 49, 302, 1469, 7361, 36768, 179_740, 845_931, 3_963_680, 18_391_564,
    ];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(
            perft(&game, &start, depth as u32 + 1),
            count,
            "depth {}",
            depth + 1
        );
    }
}

#[test]
fn the_board_geometry_is_the_standard_one() {
    let game = Checkers;
    let (_, text) = moves_of(&game, &game.start());
    assert_eq!(
        text,
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    assert_eq!(STEP[0], [OFF, OFF, 4, 5], "1 touches 5 and 6");
    assert_eq!(STEP[4][1], 0, "5 touches 1");
    assert_eq!(STEP[4][0], OFF, "5 is on the left edge");
}

#[test]
fn notation_and_fen_round_trip() {
    let game = Checkers;
    let pos = game.parse_position("1. 11-15 23-19 2. 8-11 22-17").unwrap();
    let fen = game.fen(&pos);
    assert_eq!(
        fen,
        "B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15"
    );
    let back = game.parse_fen(&fen).unwrap();
    assert_eq!(game.fen(&back), fen);
    let start = game.parse_position("B:W21-32:B1-12").unwrap();
    assert_eq!(start, game.start());
    let kings = game.parse_fen("W:W18,24,27,K28:B12,16,20,K22").unwrap();
    assert_eq!(kings.to_move, Side::Second);
    assert_eq!(kings.piece_char(27), 'W');
    assert_eq!(kings.piece_char(21), 'B');
    for bad in ["X:W1:B2", "B:W33:B1", "B:W1,1:B2", "B:Q1", "B"] {
        assert!(game.parse_position(bad).is_err(), "{bad}");
    }
}

#[test]
fn captures_are_compulsory_and_multi_jumps_complete() {
    let game = Checkers;
    // Black man on 15 faces White men on 19 and 27: the only move is
    // 15x24x31, which takes both and crowns on 31.
    let pos = game.parse_fen("B:W19,27:B15,1").unwrap();
    let (moves, text) = moves_of(&game, &pos);
    assert_eq!(text, ["15x24x31"]);
    let after = game.play(&pos, moves[0]);
    assert_eq!(after.white, 0);
    assert_eq!(game.outcome(&after), Some(Outcome::Win(Side::First)));
    // A step is refused while a capture exists, and says why; so is a
    // step onto a piece, backwards or to a square that is not next.
    let start = game.start();
    for (text, why) in [
        ("1-5", "square 5 is taken"),
        ("9-5", "moves forward only"),
        ("9-18", "not neighbours"),
    ] {
        let mv = game.parse_move(text).unwrap();
        let said = game.try_play(&start, mv).unwrap_err().to_string();
        assert!(said.contains(why), "{text}: {said}");
    }
    let step = game.parse_move("1-5").unwrap();
    assert!(
        game.try_play(&pos, step)
            .unwrap_err()
            .to_string()
            .contains("compulsory")
    );
    let short = game.parse_move("15x24").unwrap();
    assert!(
        game.try_play(&pos, short)
            .unwrap_err()
            .to_string()
            .contains("must go on")
    );
}

#[test]
fn a_man_is_crowned_and_its_move_ends_there() {
    let game = Checkers;
    // Black man on 22 jumps 26 to land on 31, the crowning row; a
    // White man on 27 could be jumped next by a king, but not now.
    let pos = game.parse_fen("B:W26,27,K1:B22").unwrap();
    let (moves, text) = moves_of(&game, &pos);
    assert_eq!(text, ["22x31"]);
    let after = game.play(&pos, moves[0]);
    assert_eq!(after.piece_char(30), 'B');
}

#[test]
fn quiet_king_moves_draw_by_the_40_move_rule_and_by_repetition() {
    let game = Checkers;
    let pos = game.parse_fen("B:WK32:BK1").unwrap();
    // Both kings shuffle: the third occurrence of the start is a draw.
    let line = "1-5 32-28 5-1 28-32 1-5 32-28 5-1 28-32";
    let fen = game.fen(&pos);
    let mut p = pos;
    for (i, mv) in line.split(' ').enumerate() {
        assert_eq!(game.outcome(&p), None, "{fen} after {i} plies");
        p = game.try_play(&p, game.parse_move(mv).unwrap()).unwrap();
    }
    assert_eq!(game.outcome(&p), Some(Outcome::Draw));
    // Without repetition, 80 quiet plies draw.
    let mut q = pos;
    q.quiet = QUIET_PLIES;
    assert_eq!(game.outcome(&q), Some(Outcome::Draw));
}
