//! The built-in games, registered once; a game named as data.

use super::registry::{GameOptions, Registered, registry};
use super::{
    Checkers, Connect4, GenomeGame, GenomeKinds, KindOf, Matchsticks, NTuple, Othello, Pair,
    Solitaire, TicTacToe,
};
use serde::{Deserialize, Serialize};

// The order of this list is part of every file: a genome, checkpoint or
// bank stores its game as the game's place here (postcard writes an enum
// as its variant's index), then the game's stored form (`GenomeKinds::Stored`:
// its rules and its genome kind's tag). Append new games at the end,
// never reorder or remove one; `stored_tags_are_pinned` holds every
// registered variant's bytes.
registry! {$
    /// Tic-tac-toe on 3×3.
    TicTacToe(GenomeGame<TicTacToe>) [Votes, Value],
    /// Matchsticks (nim): take sticks from one heap, by a take rule.
    Matchsticks(GenomeGame<Matchsticks>) [Votes; never Value],
    /// Connect-Four on 7×6.
    Connect4(GenomeGame<Connect4>) [Votes, Value],
    /// Triangular peg solitaire (one player; one encoder: the pegs as bits).
    Solitaire(GenomeGame<Solitaire>) [Votes; never Value],
    /// English checkers on the 32 dark squares.
    Checkers(GenomeGame<Checkers>) [Votes, Value],
    /// Othello (reversi) on 8×8; value genomes only.
    Othello(GenomeGame<Othello>) [Value; never Votes],
}

impl GameName {
    /// The game's encoders, as `--encoder` names them: its default first
    /// (or, with `recommended`, the one `evolve`'s recommended settings
    /// use), then the others in the order of its registered variants.
    pub fn encoders(self, recommended: bool) -> Vec<&'static str> {
        let default = self.from_options(&GameOptions {
            recommended,
            ..GameOptions::default()
        });
        let mut names: Vec<&'static str> = default.iter().map(GameSpec::encoder_name).collect();
        for variant in self.variants() {
            if !names.contains(&variant.encoder_name()) {
                names.push(variant.encoder_name());
            }
        }
        names
    }

    /// Reads a game name or alias (`tictactoe`/`ttt`, `matchsticks`/`nim`,
    /// `connect4`/`c4`, `solitaire`/`peg`), in any case, and as prose
    /// writes the names: hyphens, underscores and spaces left out, `four`
    /// read as `4` (`Tic-tac-toe`, `connect-four`, `Connect Four`).
    pub fn parse(text: &str) -> Option<GameName> {
        let text: String = text
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect();
        let text = text.replace("four", "4");
        GameName::ALL
            .iter()
            .copied()
            .find(|k| k.name() == text || k.aliases().contains(&text.as_str()))
    }
}

impl std::fmt::Display for GameName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Rule parameters out of range (read from a file); says which.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidRules(pub String);

/// An unknown `--game` name; says which names are known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game: expected {}", known_games())]
pub struct UnknownGame;

/// `tictactoe (ttt), matchsticks (nim), connect4 (c4), solitaire (peg),
/// checkers (draughts) or othello (reversi)`.
fn known_games() -> String {
    let names: Vec<String> = GameName::ALL
        .iter()
        .map(|k| format!("{} ({})", k.name(), k.aliases().join(", ")))
        .collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl std::str::FromStr for GameName {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<GameName, UnknownGame> {
        GameName::parse(text).ok_or(UnknownGame)
    }
}

/// A game this crate knows by name: its rules are recorded in files as a
/// [`GameSpec`] and read back from them, and the command line, the server
/// and the dispatch from a spec choose it at run time. Every registered game
/// has it; a game from outside the crate has [`Identified`] instead.
pub trait BuiltIn: Identified {
    /// The game and its rules, as stored in files.
    fn spec(&self) -> GameSpec;
}

/// A built-in game's pair of rules and genome kind is named by the choice
/// of kind it is.
impl<R: GenomeKinds, K: KindOf<R>> BuiltIn for Pair<R, K>
where
    GenomeGame<R>: Registered,
{
    fn spec(&self) -> GameSpec {
        (*self).into()
    }
}

/// How a game is named in the files the engine writes for it (a run's
/// checkpoints, its genomes): what the engine's evolution and genome files
/// need of a game besides its rules. Every built-in game
/// has it through [`BuiltIn`]; a game from outside this crate implements
/// it with its own name, and its files then say so:
///
/// ```
/// use bebete_core::games::{GameId, Identified, TicTacToe};
///
/// assert_eq!(TicTacToe::BASE3.id().to_string(), "tictactoe");
/// assert!(TicTacToe::BASE3.id().built_in().is_some());
/// assert_eq!(GameId::Outside("hexapawn".into()).to_string(), "hexapawn");
/// ```
pub trait Identified: super::Game {
    /// The game and its rules as files store them.
    fn id(&self) -> GameId;
}

impl<R: GenomeKinds, K: KindOf<R>> From<Pair<R, K>> for GameSpec
where
    GenomeGame<R>: Registered,
{
    fn from(pair: Pair<R, K>) -> GameSpec {
        pair.registered().into()
    }
}

impl<R: GenomeKinds, K: KindOf<R>> Identified for Pair<R, K>
where
    GenomeGame<R>: Registered,
{
    fn id(&self) -> GameId {
        self.spec().into()
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.built_in() {
            Some(spec) => spec.fmt(f),
            None => f.write_str(self.name()),
        }
    }
}

impl GameSpec {
    /// Every built-in game under each of its encoders and rule variants
    /// ([`GameName::variants`] of [`GameName::ALL`]).
    pub fn registered() -> Vec<GameSpec> {
        GameName::ALL.iter().flat_map(|k| k.variants()).collect()
    }

    /// Tic-tac-toe with the base-3 encoder (one gene per board).
    pub const TICTACTOE: GameSpec =
        GameSpec::TicTacToe(GenomeGame::votes(TicTacToe, super::TicTacToeEncoder::Base3));
    /// Connect-Four with the 4×4 sub-grid encoder.
    pub const CONNECT4: GameSpec =
        GameSpec::Connect4(GenomeGame::votes(Connect4, super::Connect4Encoder::Subgrid));

    /// Checks rule parameters read from a file (the command line checks its
    /// own flags).
    pub fn validate(&self) -> Result<(), InvalidRules> {
        with_game!(self, game => game.validate())
    }

    /// The shape of its value genome, when its encoder is `ntuple`.
    pub fn value_genome(&self) -> Option<NTuple> {
        with_game!(self, game => game.value_genome())
    }

    /// The rule parameters as JSON ([`Registered::rules_json`]).
    pub fn rules_json(&self) -> serde_json::Value {
        with_game!(self, game => game.rules_json())
    }

    /// The options that choose this game again ([`Registered::options`]).
    pub(crate) fn options(&self) -> GameOptions {
        with_game!(self, game => game.options())
    }

    /// The name of the encoder (`base3`, `symmetric`, `state`, `sticks`,
    /// `subgrid`, …), as `--encoder` takes it.
    pub fn encoder_name(&self) -> &'static str {
        with_game!(self, game => game.encoder_name())
    }
}

impl std::fmt::Display for GameSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&with_game!(self, game => game.describe()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::OptionError;

    /// A game's rules read from JSON: any key left out keeps its default,
    /// and what is not the game's is refused naming the key and what it
    /// takes.
    #[test]
    fn rule_parameters_are_read_from_json_and_refused_by_key() {
        use serde_json::json;
        let read = |kind: GameName, rules| {
            kind.rules_options(&rules)
                .and_then(|o| kind.from_options(&o))
                .map(|spec| spec.rules_json())
                .map_err(|e| e.spelled(crate::games::Spelling::RULES_JSON))
        };
        assert_eq!(
            read(
                GameName::Matchsticks,
                json!({"rule": "double", "sticks": 8})
            ),
            Ok(json!({"rule": "double", "sticks": 8}))
        );
        assert_eq!(
            read(GameName::Matchsticks, json!({"last_loses": false})),
            Ok(json!({"rule": "subtract", "sticks": 21, "max_take": 3, "last_loses": false}))
        );
        assert_eq!(
            read(GameName::Matchsticks, json!(null)),
            read(GameName::Matchsticks, json!({}))
        );
        assert_eq!(
            read(GameName::Solitaire, json!({"rows": 5})),
            Ok(json!({"rows": 5, "empty": 1}))
        );
        assert_eq!(read(GameName::TicTacToe, json!({})), Ok(json!(null)));
        for (kind, rules, error) in [
            (
                GameName::Matchsticks,
                json!({"sticks": 300}),
                "rules.sticks 300: a whole number 0-255",
            ),
            (
                GameName::Matchsticks,
                json!({"rule": "add"}),
                "rules.rule \"add\": subtract or double",
            ),
            (
                GameName::Matchsticks,
                json!({"last_loses": "yes"}),
                "rules.last_loses \"yes\": true or false",
            ),
            (
                GameName::Matchsticks,
                json!({"rows": 5}),
                "rules key 'rows': matchsticks's rule parameters are rule, sticks, max_take, last_loses",
            ),
            (
                GameName::TicTacToe,
                json!({"sticks": 8}),
                "rules key 'sticks': tictactoe has no rule parameters (null or {})",
            ),
            (
                GameName::Connect4,
                json!([1]),
                "rules [1]: an object: connect4 has no rule parameters (null or {})",
            ),
            // The values are then checked as the flags' are.
            (
                GameName::Matchsticks,
                json!({"rule": "double", "max_take": 2}),
                "rules.max_take, rules.last_loses and rules.last_wins apply only to rules.rule subtract (double: last stick wins, takes limited by the last take)",
            ),
        ] {
            assert_eq!(read(kind, rules), Err(error.to_string()), "{kind}");
        }
    }

    /// The registry lists each game once, by the name the command line
    /// reads, with variants of that game only, all within their rules, and
    /// each variant read back from its own options.
    #[test]
    fn every_registered_game_is_named_and_valid() {
        for (i, kind) in GameName::ALL.iter().enumerate() {
            assert!(!GameName::ALL[..i].contains(kind), "{kind} twice");
            assert_eq!(GameName::parse(kind.name()), Some(*kind));
            let variants = kind.variants();
            assert!(!variants.is_empty(), "{kind} has no variants");
            for spec in variants {
                assert_eq!(spec.game(), *kind, "{spec}");
                assert!(spec.validate().is_ok(), "{spec}");
                // Its options (what run.toml records) choose it again.
                assert_eq!(kind.from_options(&spec.options()), Ok(spec), "{spec}");
                // Its rule parameters as JSON (what the server lists and
                // reads back) choose the same rules.
                let rules = spec.rules_json();
                let again = kind
                    .from_options(&kind.rules_options(&rules).unwrap())
                    .unwrap();
                assert_eq!(again.rules_json(), rules, "{spec}");
            }
            let plain = kind.from_options(&GameOptions::default()).unwrap();
            assert_eq!(plain.game(), *kind);
            let named = GameOptions {
                encoder: Some(plain.encoder_name().to_string()),
                ..GameOptions::default()
            };
            assert_eq!(kind.from_options(&named), Ok(plain), "{kind}");
        }
        assert!(GameSpec::registered().len() >= GameName::ALL.len());
        assert_eq!(
            UnknownGame.to_string(),
            "unknown game: expected tictactoe (ttt), matchsticks (nim), connect4 (c4), solitaire (peg), checkers (draughts) or othello (reversi)"
        );
        assert_eq!(GameName::parse("C4"), Some(GameName::Connect4));
        // As the README's table writes them.
        assert_eq!(GameName::parse("Tic-tac-toe"), Some(GameName::TicTacToe));
        assert_eq!(GameName::parse("connect-four"), Some(GameName::Connect4));
        assert_eq!(GameName::parse("Connect Four"), Some(GameName::Connect4));
        assert_eq!(GameName::parse("chess"), None);
    }

    /// Another game's rule options and the value genome's shape options
    /// without a value genome are refused, naming the options as each
    /// door spells them.
    #[test]
    fn options_of_another_game_are_refused() {
        let rows = GameOptions {
            rows: Some(5),
            ..GameOptions::default()
        };
        let err = GameName::Connect4.from_options(&rows).unwrap_err();
        assert_eq!(
            err,
            OptionError::only_where(
                &["rows", "empty"],
                "game",
                "solitaire",
                Some("connect4".to_string()),
                None
            )
        );
        assert_eq!(
            err.to_string(),
            "rows and empty apply only to game solitaire, not connect4"
        );
        let flags = crate::games::Spelling {
            name: |n| format!("--{}", n.replace('_', "-")),
            valued: |n, v| format!("--{} {v}", n.replace('_', "-")),
        };
        assert_eq!(
            err.spelled(flags),
            "--rows and --empty apply only to --game solitaire, not connect4"
        );
        let tuples = GameOptions {
            tuples: Some(5),
            ..GameOptions::default()
        };
        assert_eq!(
            GameName::TicTacToe
                .from_options(&tuples)
                .unwrap_err()
                .spelled(flags),
            "--tuples applies only to --encoder ntuple (it shapes a value genome)"
        );
    }

    /// A built-in game's `GameId` is stored as its `GameSpec`, byte for
    /// byte in files and in the checkpoint's JSON, so files written before
    /// `GameId` read the same; a game from outside is stored after every
    /// built-in one and is no `GameSpec`.
    #[test]
    fn a_game_id_is_stored_as_its_spec() {
        for spec in GameSpec::registered() {
            let id = GameId::from(spec);
            let bytes = postcard::to_allocvec(&id).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&spec).unwrap(), "{spec}");
            assert_eq!(postcard::from_bytes::<GameSpec>(&bytes).unwrap(), spec);
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, serde_json::to_string(&spec).unwrap(), "{spec}");
            assert_eq!(
                (id.built_in(), id.to_string()),
                (Some(spec), spec.to_string())
            );
            assert_eq!(id.name(), spec.game().name());
        }
        let outside = GameId::Outside("hexapawn".to_string());
        let bytes = postcard::to_allocvec(&outside).unwrap();
        assert_eq!(usize::from(bytes[0]), GameName::ALL.len());
        assert_eq!(postcard::from_bytes::<GameId>(&bytes).unwrap(), outside);
        assert!(postcard::from_bytes::<GameSpec>(&bytes).is_err());
        assert_eq!((outside.built_in(), outside.name()), (None, "hexapawn"));
    }

    /// Every registered game and encoder as files store it, pinned: the
    /// tags are places in lists (the registry's, each game's encoders'),
    /// so a reordered list would read old files as another game. Append
    /// only: a new game or encoder adds its line here.
    #[test]
    fn stored_tags_are_pinned() {
        const STORED: &[(&str, &[u8])] = &[
            ("tictactoe", &[0, 0]),
            ("tictactoe (symmetric encoder)", &[0, 1]),
            ("tictactoe (value genome, 40×5 tuples)", &[0, 2, 40, 5]),
            (
                "matchsticks (subtract, 21 sticks, take 1-3, last stick loses)",
                &[1, 21, 0, 3, 1, 0],
            ),
            (
                "matchsticks (double, 30 sticks, up to twice the last take, last stick wins)",
                &[1, 30, 1, 0],
            ),
            (
                "matchsticks (double, 30 sticks, up to twice the last take, last stick wins; sticks encoder)",
                &[1, 30, 1, 1],
            ),
            ("connect4", &[2, 0]),
            ("connect4 (mirror encoder)", &[2, 2]),
            ("connect4 (value genome, 8×6 tuples)", &[2, 4, 8, 6]),
            ("solitaire (5 rows, 15 holes, hole 1 empty)", &[3, 5, 1]),
            ("solitaire (4 rows, 10 holes, hole 2 empty)", &[3, 4, 2]),
            ("checkers", &[4, 0]),
            ("checkers (value genome, 4×4 tuples)", &[4, 1, 4, 4]),
            (
                "othello (value genome, 21×4 straight tuples)",
                &[5, 1, 21, 4],
            ),
            (
                "othello (value genome, 32×2 straight tuples)",
                &[5, 1, 32, 2],
            ),
            ("othello (value genome, 12×6 snake tuples)", &[5, 0, 12, 6]),
            ("othello (value genome, 7×8 patterns)", &[5, 2, 7, 8]),
            (
                "othello (value genome, 42×8 patterns: 6 game stages)",
                &[5, 2, 42, 8],
            ),
        ];
        let registered = GameSpec::registered();
        for spec in &registered {
            let name = spec.to_string();
            let bytes = postcard::to_allocvec(spec).unwrap();
            let pinned = STORED.iter().find(|(n, _)| *n == name);
            assert_eq!(
                pinned.map(|(_, b)| *b),
                Some(bytes.as_slice()),
                "{name}: a new variant appends its stored bytes to STORED; a changed one breaks every file"
            );
        }
        assert_eq!(
            registered.len(),
            STORED.len(),
            "a variant left the registry"
        );
        // Retired kinds keep their tags, never to be reused: a file of one
        // is refused, saying why; the kinds after them read as written.
        for retired in [[2u8, 1], [2, 3]] {
            let err = postcard::from_bytes::<GameSpec>(&retired)
                .err()
                .map(|e| e.to_string());
            assert!(err.is_some(), "{retired:?} read as a game");
        }
        let json = serde_json::from_str::<GameSpec>(r#"{"Connect4":"RetiredPlayable"}"#);
        assert!(json.unwrap_err().to_string().contains("was retired"));
    }

    /// Files written before the registry stored the same bytes: a spec's
    /// postcard and JSON forms are those of the enum of rule values it was.
    #[test]
    fn stored_forms_are_unchanged() {
        let matchsticks =
            GameSpec::Matchsticks(Matchsticks::state(Default::default()).registered());
        assert_eq!(
            serde_json::to_string(&matchsticks).unwrap(),
            r#"{"Matchsticks":[{"sticks":21,"rule":{"Subtract":{"max_take":3,"last_loses":true}}},"State"]}"#
        );
        assert_eq!(
            serde_json::to_string(&GameSpec::CONNECT4).unwrap(),
            r#"{"Connect4":"Subgrid"}"#
        );
        assert_eq!(postcard::to_allocvec(&GameSpec::CONNECT4).unwrap(), [2, 0]);
        for spec in GameSpec::registered() {
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(serde_json::from_str::<GameSpec>(&json).unwrap(), spec);
            let bytes = postcard::to_allocvec(&spec).unwrap();
            assert_eq!(postcard::from_bytes::<GameSpec>(&bytes).unwrap(), spec);
        }
    }
}
