//! Any text is a position of each game or an error naming a move; every
//! position reached satisfies the rules' invariants (`check_moves`), and
//! the moves before the one named in an error parse on their own.
#![no_main]

use bebete_core::games::{
    Connect4, Game, Matchsticks, MatchsticksRules, TakeRule, TicTacToe, check_moves,
};
use libfuzzer_sys::fuzz_target;

fn check<G: Game>(game: &G, text: &str) {
    match game.parse_position(text) {
        Ok(pos) => {
            if let Err(broken) = check_moves(game, &pos) {
                panic!("'{text}': {broken}");
            }
        }
        Err(e) => {
            assert!(e.number >= 1, "'{text}': {e}");
            let tokens = game.split_notation(text.trim());
            let before = tokens[..e.number - 1].join(game.notation_separator());
            assert!(game.parse_position(&before).is_ok(), "'{text}': {e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(&TicTacToe::BASE3, text);
    check(&Connect4::SUBGRID, text);
    check(&Matchsticks::new(MatchsticksRules::default()), text);
    check(
        &Matchsticks::new(MatchsticksRules {
            sticks: 100,
            rule: TakeRule::Double,
        }),
        text,
    );
});
