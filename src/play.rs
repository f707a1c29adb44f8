//! Playing against a bot in the terminal (or through a pipe).
//!
//! The session reads moves line by line and writes the board, the bot's
//! moves with a one-line reason, and the score. It works the same on a
//! terminal and on a pipe, so whole games can be scripted and tested; the
//! end of the input ends the session cleanly.

use crate::encoding::{IllegalPolicy, TableGame};
use crate::eval::GameRecord;
use crate::explain::Explained;
use crate::games::{BuiltIn, Outcome, Side};
use crate::players::Player;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

/// The champions this repository ships in `genomes/` (its tracked files;
/// a test holds the list to them). A run's champion copied there takes its
/// run's name and never overwrites one of these.
pub const SHIPPED_GENOMES: [&str; 12] = [
    "checkers-ntuple.genome",
    "checkers-subgrid.genome",
    "checkers.genome",
    "connect4-ntuple.genome",
    "connect4-pure.genome",
    "connect4-subgrid.genome",
    "connect4.genome",
    "matchsticks.genome",
    "othello-ntuple.genome",
    "othello.genome",
    "solitaire.genome",
    "tictactoe.genome",
];

/// The bot: a genome (whose moves can be explained) or any other player.
pub enum Bot<G: TableGame + BuiltIn> {
    Genome {
        genes: Arc<[u8]>,
        policy: IllegalPolicy,
        /// Plies of its tactical shell (0: pure).
        lookahead: u8,
    },
    Player {
        name: String,
        player: Box<dyn Player<G>>,
    },
}

/// Who moves first in the first game (then sides alternate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    Human,
    Bot,
}

/// Games won by each side and drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub human: u32,
    pub bot: u32,
    pub draws: u32,
}

impl Score {
    /// `score: you H, bebete B, draws D`.
    pub fn line(&self) -> String {
        format!(
            "score: you {}, bebete {}, draws {}",
            self.human, self.bot, self.draws
        )
    }
}

/// The bot's move and a one-line reason; `None` when it forfeits.
fn bot_move<G: TableGame + BuiltIn>(
    game: &G,
    bot: &mut Bot<G>,
    pos: &G::Position,
) -> (Option<G::Move>, String) {
    match bot {
        Bot::Player { name, player } => (player.choose(game, pos), format!("({name})")),
        Bot::Genome {
            genes,
            policy,
            lookahead,
        } => {
            let explained = Explained::new(game, genes, pos, *policy, *lookahead);
            (explained.played(), explained.summary(game))
        }
    }
}

/// Why the bot played its move from `pos`: a genome's whole explanation
/// (every move's value, what weighed most), or a fixed player's name.
fn why_bot_moved<G: TableGame + BuiltIn>(game: &G, bot: &Bot<G>, pos: &G::Position) -> String {
    match bot {
        Bot::Player { name, .. } => {
            format!("bebete plays as the fixed player {name}: it keeps no reasons beyond that")
        }
        Bot::Genome {
            genes,
            policy,
            lookahead,
        } => Explained::new(game, genes, pos, *policy, *lookahead).details(game),
    }
}

enum Turn<M> {
    Move(M),
    Quit,
    /// `?`: the bot's suggestion, asked in a one-player game.
    Hint,
    /// `?` or `why` in a two-player game: why the bot played its last move.
    Why,
}

/// Reads human moves until a legal one, `q`, or the end of the input.
fn human_move<G: TableGame + BuiltIn>(
    game: &G,
    pos: &G::Position,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Turn<G::Move>> {
    // A side whose only move is to pass (Othello) is told so, and passes
    // with Enter.
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    let only_pass = match legal.as_slice() {
        [mv] if game.is_pass(*mv) => Some(*mv),
        _ => None,
    };
    loop {
        match only_pass {
            Some(_) => write!(out, "you have no move: press Enter to pass (q to quit): ")?,
            None => write!(out, "{}", G::MOVE_PROMPT)?,
        }
        out.flush()?;
        let line = match crate::typed::read_input_line(input)? {
            None => {
                writeln!(out)?;
                return Ok(Turn::Quit);
            }
            Some(Err(why)) => {
                writeln!(out, "that is not a move: {why}")?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        let text = line.trim();
        if text.is_empty() {
            if let Some(pass) = only_pass {
                return Ok(Turn::Move(pass));
            }
            continue;
        }
        if text.eq_ignore_ascii_case("q") || text.eq_ignore_ascii_case("quit") {
            return Ok(Turn::Quit);
        }
        if G::PLAYERS == 1 && (text == "?" || text.eq_ignore_ascii_case("hint")) {
            return Ok(Turn::Hint);
        }
        if G::PLAYERS == 2 && (text == "?" || text.eq_ignore_ascii_case("why")) {
            return Ok(Turn::Why);
        }
        if text.eq_ignore_ascii_case("help") {
            let why = if G::PLAYERS == 2 {
                "? or why: why bebete played its last move (what it weighed); "
            } else {
                "? or hint: bebete's suggestion; "
            };
            writeln!(out, "type a move; {why}q: quit")?;
            continue;
        }
        match game.parse_move(text) {
            Err(reason) => writeln!(
                out,
                "'{}' is not a move: {reason}",
                crate::typed::shown(text)
            )?,
            Ok(mv) if !game.is_legal(pos, mv) => {
                writeln!(out, "not allowed: {}", game.why_illegal(pos, mv))?
            }
            Ok(mv) => return Ok(Turn::Move(mv)),
        }
    }
}

/// Plays up to `games` games, alternating who moves first; returns the
/// score, and reports it to `scored` after every game with the game
/// itself (so that whoever interrupts the session can still say the
/// score, and a record of the games is kept as they end).
pub fn play<G: TableGame + BuiltIn>(
    game: &G,
    bot: &mut Bot<G>,
    first: First,
    games: u32,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    scored: &mut dyn FnMut(Score, &GameRecord) -> io::Result<()>,
) -> io::Result<Score> {
    let mut score = Score::default();
    for n in 0..games {
        let human_side = match (first, n % 2) {
            (First::Human, 0) | (First::Bot, 1) => Side::First,
            _ => Side::Second,
        };
        let mark = if human_side == Side::First {
            format!("{}, moving first", G::SIDE_NAMES[0])
        } else {
            format!("{}, moving second", G::SIDE_NAMES[1])
        };
        writeln!(out, "\ngame {} of {games}: you are {mark}", n + 1)?;
        let mut pos = game.start();
        let mut line = Vec::new();
        // Where bebete last moved from, for `?`.
        let mut bot_moved_from: Option<G::Position> = None;
        let outcome = loop {
            if let Some(outcome) = game.outcome(&pos) {
                write!(out, "{}", game.render_play(&pos, line.last().copied()))?;
                break outcome;
            }
            let side = game.turn(&pos);
            if side == human_side {
                write!(out, "{}", game.render_play(&pos, line.last().copied()))?;
                match human_move(game, &pos, input, out)? {
                    Turn::Move(mv) => {
                        line.push(mv);
                        pos = game.play(&pos, mv);
                    }
                    Turn::Why => {
                        let why = match &bot_moved_from {
                            Some(from) => why_bot_moved(game, bot, from),
                            None => "bebete has not moved yet in this game".to_string(),
                        };
                        writeln!(out, "{}", why.trim_end())?;
                    }
                    Turn::Quit | Turn::Hint => {
                        writeln!(out, "stopped; {}", score.line())?;
                        return Ok(score);
                    }
                }
            } else {
                match bot_move(game, bot, &pos) {
                    (Some(mv), why) if game.is_legal(&pos, mv) => {
                        writeln!(out, "bebete plays {} {why}", game.format_move(mv))?;
                        bot_moved_from = Some(pos);
                        line.push(mv);
                        pos = game.play(&pos, mv);
                    }
                    (_, why) => {
                        writeln!(
                            out,
                            "bebete's gene names an illegal move and it forfeits {why}"
                        )?;
                        break Outcome::Win(human_side);
                    }
                }
            }
        };
        let played = GameRecord {
            player_first: human_side == Side::First,
            outcome,
            moves: game.format_line(&line),
        };
        let result = match outcome {
            Outcome::Draw => {
                score.draws += 1;
                "a draw"
            }
            Outcome::Win(side) if side == human_side => {
                score.human += 1;
                "you win"
            }
            Outcome::Win(_) => {
                score.bot += 1;
                "bebete wins"
            }
        };
        writeln!(out, "{result}; the moves: {}", played.moves)?;
        writeln!(out, "{}", score.line())?;
        scored(score, &played)?;
    }
    Ok(score)
}

/// What one-player sessions report: games played and the pegs each left.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SoloScore {
    pub left: Vec<u32>,
}

/// A one-player game (peg solitaire) at the terminal: the person plays
/// every move; `?` asks the bot (a genome, which says why, or a player such
/// as `perfect`) for its suggestion. Plays up to `games` games.
pub fn play_solo<G: TableGame + BuiltIn>(
    game: &G,
    advisor: &mut Bot<G>,
    games: u32,
    best: Option<u32>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<SoloScore> {
    let mut score = SoloScore::default();
    for n in 0..games {
        writeln!(
            out,
            "\ngame {} of {games}: leave as few pegs as you can (? asks bebete, q quits)",
            n + 1
        )?;
        let mut pos = game.start();
        let mut line = Vec::new();
        loop {
            write!(out, "{}", game.render_play(&pos, line.last().copied()))?;
            if game.outcome(&pos).is_some() {
                let left = game.pieces_left(&pos);
                score.left.push(left);
                let verdict = match best {
                    Some(b) if b == left => ", the best possible from this start".to_string(),
                    Some(b) => format!(" (the best possible from this start is {b})"),
                    None => String::new(),
                };
                let pegs = if left == 1 { "peg" } else { "pegs" };
                writeln!(
                    out,
                    "no move left: {left} {pegs} left{verdict} ({})",
                    game.format_line(&line)
                )?;
                break;
            }
            let mv = loop {
                match human_move(game, &pos, input, out)? {
                    Turn::Move(mv) => break Some(mv),
                    Turn::Quit => break None,
                    // `why` is a two-player question: a solitaire hint.
                    Turn::Hint | Turn::Why => {
                        let (mv, why) = bot_move(game, advisor, &pos);
                        match mv {
                            Some(m) => {
                                writeln!(out, "bebete suggests {} {why}", game.format_move(m))?
                            }
                            None => writeln!(out, "bebete has no suggestion {why}")?,
                        }
                    }
                }
            };
            let Some(mv) = mv else {
                writeln!(out, "stopped")?;
                return Ok(score);
            };
            line.push(mv);
            pos = game.play(&pos, mv);
        }
    }
    Ok(score)
}

/// A writer that wraps lines longer than `width` columns at spaces (the
/// rest indented by two), for the bot's notes on a terminal: the terminal
/// itself would cut them mid-word. A line without its newline yet (a
/// prompt) is written as it is when flushed.
pub struct WrapAtWords<W: Write> {
    inner: W,
    width: usize,
    line: Vec<u8>,
}

impl<W: Write> WrapAtWords<W> {
    pub fn new(inner: W, width: usize) -> Self {
        WrapAtWords {
            inner,
            width: width.max(20),
            line: Vec::new(),
        }
    }

    /// Writes the held line, wrapped, then `end`.
    fn emit(&mut self, end: &[u8]) -> io::Result<()> {
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        // A prompt's line is ended by the person's answer (echoed with its
        // newline on a terminal): every line written here starts a line.
        let mut column = 0;
        for (i, word) in text.split(' ').enumerate() {
            let len = word.chars().count();
            if i > 0 && column > 0 && column + 1 + len > self.width {
                self.inner.write_all(b"\n  ")?;
                column = 2;
            } else if i > 0 {
                self.inner.write_all(b" ")?;
                column += 1;
            }
            self.inner.write_all(word.as_bytes())?;
            column += len;
        }
        self.inner.write_all(end)
    }
}

impl<W: Write> Write for WrapAtWords<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &byte in buf {
            if byte == b'\n' {
                self.emit(b"\n")?;
            } else {
                self.line.push(byte);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            let partial = std::mem::take(&mut self.line);
            self.inner.write_all(&partial)?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Notation;
    use crate::games::TicTacToe;
    use crate::players::PlayerSpec;

    fn session(moves: &str, first: First, games: u32) -> (Score, String) {
        let game = TicTacToe::BASE3;
        let player = PlayerSpec::Perfect
            .build(&game, 1, IllegalPolicy::Repair)
            .unwrap();
        let mut bot = Bot::Player {
            name: "perfect".into(),
            player,
        };
        let mut out = Vec::new();
        let score = play(
            &game,
            &mut bot,
            first,
            games,
            &mut moves.as_bytes(),
            &mut out,
            &mut |_, _| Ok(()),
        )
        .unwrap();
        (score, String::from_utf8(out).unwrap())
    }

    #[test]
    fn bad_moves_are_refused_with_the_reason_and_asked_again() {
        let (_, out) = session("x\n0\n\x1b[15~\nit's\n5\n5\nq\n", First::Human, 1);
        assert!(out.contains("'x' is not a move"), "{out}");
        assert!(out.contains("'it's' is not a move"), "{out}");
        assert!(out.contains("'0' is not a move"), "{out}");
        // The F5 key's escape sequence, shown rather than sent to the terminal.
        assert!(out.contains("'\\u{1b}[15~' is not a move"), "{out}");
        assert!(
            out.contains("not allowed: cell 5 is already taken"),
            "{out}"
        );
        assert!(
            out.contains("stopped; score: you 0, bebete 0, draws 0"),
            "{out}"
        );
    }

    /// `?` (or `why`) shows why bebete played its last move, and says so
    /// when it has not moved yet; `help` names the commands.
    #[test]
    fn a_question_mark_explains_the_bots_last_move() {
        let game = TicTacToe::BASE3;
        let genes = crate::genome::Genome::random(game.spec(), 3).genes;
        let mut bot = Bot::Genome {
            genes: Arc::from(genes),
            policy: IllegalPolicy::Repair,
            lookahead: 0,
        };
        let mut out = Vec::new();
        let input = "?\nhelp\n5\nwhy\nq\n";
        play(
            &game,
            &mut bot,
            First::Human,
            1,
            &mut input.as_bytes(),
            &mut out,
            &mut |_, _| Ok(()),
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("bebete has not moved yet"), "{text}");
        assert!(text.contains("? or why: why bebete played"), "{text}");
        let after = text.split("bebete plays").nth(1).expect("a bot move");
        assert!(after.contains("index"), "{after}");
        assert!(!text.contains("is not a move"), "{text}");
    }

    /// A side whose only move is to pass is told so and passes with
    /// Enter; a side with squares is asked as usual.
    #[test]
    fn a_player_with_no_move_is_told_to_pass() {
        use crate::games::{OTHELLO_PASS, Othello, OthelloPosition};
        let game = Othello::NTUPLE;
        // White to move with a lone disc beside Black's corner: no square.
        let stuck = OthelloPosition {
            black: 1,
            white: 1 << 1,
            to_move: Side::Second,
        };
        let mut out = Vec::new();
        let turn = human_move(&game, &stuck, &mut "\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("you have no move: press Enter to pass"),
            "{text}"
        );
        assert!(matches!(turn, Turn::Move(OTHELLO_PASS)));
        // Black, with a square, gets the usual prompt; Enter asks again.
        let free = OthelloPosition {
            to_move: Side::First,
            ..stuck
        };
        let mut out = Vec::new();
        let turn = human_move(&game, &free, &mut "\nc1\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("no move"), "{text}");
        assert!(matches!(turn, Turn::Move(2)));
    }

    #[test]
    fn long_lines_wrap_at_words_and_prompts_pass_through() {
        let mut out = WrapAtWords::new(Vec::new(), 24);
        write!(out, "your move: ").unwrap();
        out.flush().unwrap();
        writeln!(
            out,
            "bebete plays 6 shell (lookahead 5): removed: 1 (loses by force)"
        )
        .unwrap();
        writeln!(out, " X | 2 ").unwrap();
        let text = String::from_utf8(out.inner).unwrap();
        assert_eq!(
            text,
            "your move: bebete plays 6 shell\n  (lookahead 5):\n  removed: 1 (loses by\n  force)\n X | 2 \n"
        );
        for line in text.lines().skip(1) {
            assert!(line.chars().count() <= 24, "{line:?}");
        }
    }

    #[test]
    fn a_solitaire_game_played_to_the_end_says_if_it_is_the_best() {
        use crate::games::{Game, Solitaire};
        let game = Solitaire::bits(Solitaire::FIVE_ROWS.rules);
        let mut perfect = PlayerSpec::Perfect
            .build(&game, 1, IllegalPolicy::Repair)
            .unwrap();
        // The perfect line, typed in.
        let (mut pos, mut input) = (game.start(), String::new());
        while game.outcome(&pos).is_none() {
            let mv = perfect.choose(&game, &pos).unwrap();
            input.push_str(&format!("{}\n", game.format_move(mv)));
            pos = game.play(&pos, mv);
        }
        let mut advisor = Bot::Player {
            name: "perfect".into(),
            player: perfect,
        };
        for (best, says) in [
            (
                Some(1),
                "no move left: 1 peg left, the best possible from this start (",
            ),
            (
                Some(0),
                "no move left: 1 peg left (the best possible from this start is 0) (",
            ),
            (None, "no move left: 1 peg left ("),
        ] {
            let mut out = Vec::new();
            play_solo(
                &game,
                &mut advisor,
                1,
                best,
                &mut input.as_bytes(),
                &mut out,
            )
            .unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(out.contains(says), "{out}");
            assert!(out.contains("leave as few pegs as you can"), "{out}");
        }
    }

    #[test]
    fn the_end_of_input_ends_cleanly() {
        let (score, out) = session("", First::Human, 3);
        assert_eq!(score, Score::default());
        assert!(out.contains("stopped"), "{out}");
    }

    #[test]
    fn solitaire_is_played_alone_with_suggestions_on_request() {
        use crate::games::Solitaire;
        let game = Solitaire::bits(Solitaire::FIVE_ROWS.rules);
        let player = PlayerSpec::Perfect
            .build(&game, 1, IllegalPolicy::Repair)
            .unwrap();
        let mut advisor = Bot::Player {
            name: "perfect".into(),
            player,
        };
        let mut out = Vec::new();
        let input = "?\n4-2\n4-1\nq\n";
        let score = play_solo(
            &game,
            &mut advisor,
            1,
            Some(1),
            &mut input.as_bytes(),
            &mut out,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("bebete suggests"), "{out}");
        assert!(out.contains("4-2 is not a jump"), "{out}");
        assert!(out.contains("13 pegs left"), "{out}");
        assert!(out.contains("stopped"), "{out}");
        assert!(score.left.is_empty());
    }

    #[test]
    fn a_whole_game_against_perfect_never_ends_in_a_human_win() {
        // The human plays the first legal cell every time.
        let input = "1\n2\n3\n4\n5\n6\n7\n8\n9\n".repeat(3);
        let (score, out) = session(&input, First::Bot, 2);
        assert_eq!(score.human, 0, "{out}");
        assert_eq!(score.bot + score.draws, 2, "{out}");
        assert!(out.contains("game 2 of 2: you are X"), "{out}");
    }
}
