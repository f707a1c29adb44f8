//! Any text is a position of each game or an error naming a move.
#![no_main]

use bebete::games::{Connect4, Game, Matchsticks, MatchsticksRules, TakeRule, TicTacToe};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = TicTacToe::BASE3.parse_position(text);
    let _ = Connect4::SUBGRID.parse_position(text);
    let _ = Matchsticks::new(MatchsticksRules::default()).parse_position(text);
    let _ = Matchsticks::new(MatchsticksRules { sticks: 100, rule: TakeRule::Double }).parse_position(text);
});
