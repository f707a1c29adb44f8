//! Any text (arbitrary UTF-8) is a position of every registered game or an
//! error naming a move; every position reached satisfies the rules'
//! invariants (`check_moves`), and the moves before the one named in an
//! error parse on their own. The same text read as one move, and each of
//! its tokens as a move of a list, is a move or an error, never a panic.
#![no_main]

use bebete_core::encoding::{TableGame, TableGameVisitor, visit_table_game};
use bebete_core::games::{BuiltIn, GameSpec, check_moves};
use libfuzzer_sys::fuzz_target;

/// Reads the text as a position of one game.
struct Check<'a>(&'a str);

impl TableGameVisitor for Check<'_> {
    type Output = ();

    fn visit<G: TableGame + BuiltIn>(self, game: G) {
        let text = self.0;
        let _ = game.parse_move(text);
        for token in game.split_notation(text) {
            let _ = game.parse_move(token);
        }
        match game.parse_position(text) {
            Ok(pos) => {
                if let Err(broken) = check_moves(&game, &pos) {
                    panic!("{}, '{text}': {broken}", game.spec());
                }
            }
            Err(e) => {
                assert!(e.number >= 1, "'{text}': {e}");
                let tokens = game.split_notation(text.trim());
                // A board written otherwise than as moves (a checkers FEN)
                // names its first fault as move 1.
                if e.number > 1 {
                    let before = tokens[..e.number - 1].join(game.notation_separator());
                    assert!(game.parse_position(&before).is_ok(), "'{text}': {e}");
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for spec in GameSpec::registered() {
        visit_table_game(spec, Check(text));
    }
});
