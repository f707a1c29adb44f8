//! What a built-in game tells the rest of the program about itself, and the
//! one list of built-in games.
//!
//! A built-in game is its rules file (a [`Game`] with its
//! [`GenomeKinds`](super::GenomeKinds): the genome kinds it has and how files store
//! them), its genomes file (`encoding`: how its vote table reads the rules,
//! its board view for the value genome), what the fixed opponents know of
//! it (a `Knowledge`) and one line in [`registry!`]'s invocation in
//! `spec.rs`, naming the game as genomes play it,
//! [`GenomeGame`](super::GenomeGame)`<GenomeKinds>`. The macro writes the
//! [`GameName`](super::GameName) and [`GameSpec`](super::GameSpec) enums
//! and every `match` over the games (names, variants, options, dispatch):
//! the command line, the server, the run settings and the tests read those,
//! so none of them names a game to support it.

use super::{GameSpec, InvalidRules, NTuple, TakeRuleName};

/// The options that choose a game's rules and encoder, as the command line,
/// Python and the server collect them (all optional: each game has
/// defaults), named as `run.toml` names them.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// The encoder's name.
    pub encoder: Option<String>,
    /// Use `evolve`'s recommended encoder when `encoder` is absent.
    pub recommended: bool,
    /// Value genomes: tuples.
    pub tuples: Option<u16>,
    /// Value genomes: cells per tuple.
    pub tuple_length: Option<u8>,
    /// Matchsticks: the take rule.
    pub rule: Option<TakeRuleName>,
    /// Matchsticks: sticks at the start.
    pub sticks: Option<u8>,
    /// Matchsticks: the most sticks a move takes.
    pub max_take: Option<u8>,
    /// Matchsticks: whoever takes the last stick loses.
    pub last_loses: bool,
    /// Matchsticks: whoever takes the last stick wins.
    pub last_wins: bool,
    /// Peg solitaire: rows of the triangle.
    pub rows: Option<u8>,
    /// Peg solitaire: the empty hole at the start.
    pub empty: Option<u8>,
}

impl GameOptions {
    /// A value genome's shape: `default` with `tuples` and
    /// cells per tuple applied, checked against a board of `cells`.
    pub(crate) fn value_shape(&self, default: NTuple, cells: usize) -> Result<NTuple, OptionError> {
        let shape = NTuple {
            tuples: self.tuples.unwrap_or(default.tuples),
            length: self.tuple_length.unwrap_or(default.length),
        };
        shape
            .check(cells)
            .map_err(|e| OptionError::valued("tuples", e.value(), e.to_string()))?;
        Ok(shape)
    }

    /// The error for an `encoder` the game does not have.
    pub(crate) fn unknown_encoder(&self, game: &str, names: &[&str], default: &str) -> OptionError {
        let list = match names.split_last() {
            Some((last, [])) => format!("has one encoder, {last}"),
            Some((last, rest)) => format!("encoders are {} and {last}", rest.join(", ")),
            None => "has no encoders".to_string(),
        };
        OptionError::valued(
            "encoder",
            self.encoder.clone().unwrap_or_default(),
            format!("{game} {list} (default here: {default})"),
        )
    }
}

/// Options a game cannot take: the options at fault by the names
/// `run.toml` gives them (`encoder`, `max_take`; the server's
/// `rules.rows`), the value given, and what is wrong. The games name no
/// door's syntax: each door spells the names its own way
/// ([`OptionError::spelled`]): the command line's `--encoder votes:
/// othello encoders are …` or `--rows and --empty apply only to --game
/// solitaire, not connect4`, Python's `encoder=votes: …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The options at fault: one, or several that go together.
    pub options: Vec<&'static str>,
    /// The value given, when the fault is one option's value.
    pub value: Option<String>,
    /// What is wrong.
    pub fault: Fault,
}

/// What is wrong with the options of an [`OptionError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The value is not one the game allows: what it allows, in words.
    Allowed(String),
    /// The options apply only where `option` is `only` (`game`
    /// `solitaire`), not `here` (`connect4`) when that is worth saying;
    /// `why` in words.
    OnlyWhere {
        /// The option that decides.
        option: &'static str,
        /// Its value where the options apply.
        only: &'static str,
        /// Its value here.
        here: Option<String>,
        /// Why, in words.
        why: Option<&'static str>,
    },
}

/// How a door writes an option: its name alone (`--max-take`,
/// `max_take`), and given a value (`--rows 3`, `rows=3`).
#[derive(Clone, Copy, Debug)]
pub struct Spelling {
    /// The name alone.
    pub name: fn(&str) -> String,
    /// The name with a value.
    pub valued: fn(&str, &str) -> String,
}

impl Spelling {
    /// The names as `run.toml` writes them, a value after a space
    /// (`rows 3`): the error's `Display`.
    pub const PLAIN: Spelling = Spelling {
        name: str::to_string,
        valued: |name, value| format!("{name} {value}"),
    };

    /// The names as keys of the JSON `rules` object the server reads
    /// (`rules.sticks 300`; the object itself is `rules`).
    pub const RULES_JSON: Spelling = Spelling {
        name: rules_key,
        valued: |name, value| format!("{} {value}", rules_key(name)),
    };
}

/// An option as a key of the `rules` object: `rules.sticks`; `rules` is
/// the object itself.
fn rules_key(name: &str) -> String {
    match name {
        "rules" => name.to_string(),
        key => format!("rules.{key}"),
    }
}

impl OptionError {
    /// `option` cannot be `value`: `allowed` says what can.
    pub(crate) fn valued(
        option: &'static str,
        value: impl Into<String>,
        allowed: impl Into<String>,
    ) -> OptionError {
        OptionError {
            options: vec![option],
            value: Some(value.into()),
            fault: Fault::Allowed(allowed.into()),
        }
    }

    /// `options` (given together) apply only where `option` is `only`.
    pub(crate) fn only_where(
        options: &[&'static str],
        option: &'static str,
        only: &'static str,
        here: Option<String>,
        why: Option<&'static str>,
    ) -> OptionError {
        OptionError {
            options: options.to_vec(),
            value: None,
            fault: Fault::OnlyWhere {
                option,
                only,
                here,
                why,
            },
        }
    }

    /// The error as a door writes its options.
    pub fn spelled(&self, spelling: Spelling) -> String {
        let names: Vec<String> = self.options.iter().map(|n| (spelling.name)(n)).collect();
        let names = match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        match &self.fault {
            Fault::Allowed(allowed) => match (&self.value, self.options.as_slice()) {
                (Some(value), [one]) => format!("{}: {allowed}", (spelling.valued)(one, value)),
                (Some(value), _) => format!("{names} {value}: {allowed}"),
                (None, _) => format!("{names}: {allowed}"),
            },
            Fault::OnlyWhere {
                option,
                only,
                here,
                why,
            } => {
                let verb = if self.options.len() == 1 {
                    "applies"
                } else {
                    "apply"
                };
                let mut text =
                    format!("{names} {verb} only to {}", (spelling.valued)(option, only));
                if let Some(here) = here {
                    text.push_str(&format!(", not {here}"));
                }
                if let Some(why) = why {
                    text.push_str(&format!(" ({why})"));
                }
                text
            }
        }
    }
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.spelled(Spelling::PLAIN))
    }
}

impl std::error::Error for OptionError {}

/// A game's rule parameters as a JSON object (the shape of
/// [`Registered::rules_json`]), read key by key for
/// [`Registered::rules_options`]: each reader is given the key, which a
/// refusal names (with the value and what the key takes; the server says
/// it `rules.KEY`, [`Spelling::RULES_JSON`]).
pub struct RuleObject<'a> {
    map: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

impl<'a> RuleObject<'a> {
    /// `rules` as an object of `keys`, the parameters of `game`: `null`
    /// and `{}` are the default rules; a key not in `keys` is refused,
    /// naming those the game has.
    pub fn read(
        rules: &'a serde_json::Value,
        game: &str,
        keys: &[&str],
    ) -> Result<RuleObject<'a>, OptionError> {
        let allowed = || match keys {
            [] => format!("{game} has no rule parameters (null or {{}})"),
            _ => format!("{game}'s rule parameters are {}", keys.join(", ")),
        };
        let map = match rules {
            serde_json::Value::Null => None,
            serde_json::Value::Object(map) => Some(map),
            other => {
                return Err(OptionError::valued(
                    "rules",
                    other.to_string(),
                    format!("an object: {}", allowed()),
                ));
            }
        };
        if let Some(key) = map.and_then(|m| m.keys().find(|k| !keys.contains(&k.as_str()))) {
            return Err(OptionError::valued(
                "rules",
                format!("key '{key}'"),
                allowed(),
            ));
        }
        Ok(RuleObject { map })
    }

    /// The value under `key`.
    fn get(&self, key: &str) -> Option<&'a serde_json::Value> {
        self.map.and_then(|m| m.get(key))
    }

    /// A whole number 0–255 under `key`.
    pub fn byte(&self, key: &'static str) -> Result<Option<u8>, OptionError> {
        self.get(key)
            .map(|v| {
                v.as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or_else(|| OptionError::valued(key, v.to_string(), "a whole number 0-255"))
            })
            .transpose()
    }

    /// `true` or `false` under `key`.
    pub fn boolean(&self, key: &'static str) -> Result<Option<bool>, OptionError> {
        self.get(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| OptionError::valued(key, v.to_string(), "true or false"))
            })
            .transpose()
    }

    /// One of `names` under `key`, as its index.
    pub(crate) fn choice(
        &self,
        key: &'static str,
        names: &[&str],
    ) -> Result<Option<usize>, OptionError> {
        self.get(key)
            .map(|v| {
                v.as_str()
                    .and_then(|text| names.iter().position(|n| *n == text))
                    .ok_or_else(|| OptionError::valued(key, v.to_string(), names.join(" or ")))
            })
            .transpose()
    }
}

/// A game this crate knows by name. Everything the program needs to list
/// it and read it from options and files (its settings for a run are
/// evolution's: `evolve::Recommended`).
pub trait Registered: Copy + Into<GameSpec> {
    /// The canonical command-line name.
    const NAME: &'static str;
    /// The game's name in words, for people (`Connect-Four`).
    const TITLE: &'static str;
    /// Shorter names the command line also reads.
    const ALIASES: &'static [&'static str];
    /// The encoders of this game alone, each with what it is in words, for
    /// `--encoder`'s help (`("patterns", "one of 7 hand-placed tables…")`);
    /// none by default (the shared ones, `ntuple` and the vote tables, are
    /// described once).
    const OWN_ENCODERS: &'static [(&'static str, &'static str)] = &[];

    /// The game under each encoder and rule variant that the tests run
    /// over (published counts, move invariants, file round trips).
    fn variants() -> Vec<Self>;
    /// The game the options choose. Errors name the option and what it
    /// allows.
    fn from_options(options: &GameOptions) -> Result<Self, OptionError>;
    /// The options of this game's own rules, named as the error for
    /// another game says them (`["rows", "empty"]`), when `options` sets
    /// any; `None` when none is set.
    fn rule_options_given(_options: &GameOptions) -> Option<&'static [&'static str]> {
        None
    }
    /// The encoder's name, as `--encoder` takes it.
    fn encoder_name(&self) -> &'static str;
    /// Sets in `options` the options of this game's own rules (`sticks`,
    /// `rows`, …) that choose it again; nothing for a game without rule
    /// parameters. [`Registered::options`] adds the encoder's.
    fn rule_options(&self, _options: &mut GameOptions) {}
    /// The rule parameters as `genome info --json` and `solve --json`
    /// show them; `null` for a game without any.
    fn rules_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// The options of the rule parameters `rules` gives, as the object
    /// [`Registered::rules_json`] writes them (any key left out keeps its
    /// default; `null` or `{}` is the default rules): what the server reads
    /// from a new table's `rules`, so that it names no game's own
    /// parameters. [`Registered::from_options`] then checks their values.
    /// A game without rule parameters takes only `null` or `{}`.
    fn rules_options(rules: &serde_json::Value) -> Result<GameOptions, OptionError> {
        RuleObject::read(rules, Self::NAME, &[])?;
        Ok(GameOptions::default())
    }
    /// The options that choose this game again: its encoder, its value
    /// genome's shape and its own rules. `from_options` of them gives back
    /// this game (a test holds it for every registered variant), and a
    /// run's `run.toml` records them.
    fn options(&self) -> GameOptions {
        let shape = self.value_genome();
        let mut options = GameOptions {
            encoder: Some(self.encoder_name().to_string()),
            tuples: shape.map(|s| s.tuples),
            tuple_length: shape.map(|s| s.length),
            ..GameOptions::default()
        };
        self.rule_options(&mut options);
        options
    }
    /// The game with its rules and encoder, in words (`connect4 (mirror
    /// encoder)`).
    fn describe(&self) -> String {
        Self::NAME.to_string()
    }
    /// Checks rule parameters read from a file.
    fn validate(&self) -> Result<(), InvalidRules> {
        Ok(())
    }
    /// The shape of its value genome, when its encoder is one.
    fn value_genome(&self) -> Option<NTuple> {
        None
    }
}

/// Writes [`GameName`](super::GameName), [`GameSpec`](super::GameSpec) and
/// every match over the built-in games from one list of `Kind(Type)`.
/// The first token is `$`, passed in so that the `with_game!` macro
/// written here can have metavariables of its own.
macro_rules! registry {
    ($d:tt $( $(#[$doc:meta])* $kind:ident($game:ty) [$($plays:ident),+ $(; never $($never:ident),+)?] ),+ $(,)?) => {
        /// Which game, without its rules (the value of `--game`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum GameName {
            $( $(#[$doc])* $kind, )+
        }

        impl GameName {
            /// Every built-in game, in the order the command line lists them.
            pub const ALL: &'static [GameName] = &[$(GameName::$kind),+];

            /// The canonical command-line name.
            pub fn name(self) -> &'static str {
                match self { $(GameName::$kind => <$game as Registered>::NAME,)+ }
            }

            /// The game's name in words, for people (`Connect-Four`).
            pub fn title(self) -> &'static str {
                match self { $(GameName::$kind => <$game as Registered>::TITLE,)+ }
            }

            /// The shorter names the command line also reads.
            pub fn aliases(self) -> &'static [&'static str] {
                match self { $(GameName::$kind => <$game as Registered>::ALIASES,)+ }
            }

            /// The encoders of this game alone, with what each is in words.
            pub fn own_encoders(self) -> &'static [(&'static str, &'static str)] {
                match self { $(GameName::$kind => <$game as Registered>::OWN_ENCODERS,)+ }
            }

            /// The game under each of its encoders and rule variants that
            /// the tests run over ([`Registered::variants`]).
            pub fn variants(self) -> Vec<GameSpec> {
                match self {
                    $(GameName::$kind => <$game as Registered>::variants()
                        .into_iter()
                        .map(GameSpec::$kind)
                        .collect(),)+
                }
            }

            /// The options of the rule parameters in `rules`
            /// ([`Registered::rules_options`]).
            pub fn rules_options(self, rules: &serde_json::Value) -> Result<GameOptions, $crate::games::OptionError> {
                match self { $(GameName::$kind => <$game as Registered>::rules_options(rules),)+ }
            }

            /// The game `options` choose: refuses another game's rule
            /// options and the value genome's shape options without a value
            /// genome.
            pub fn from_options(self, options: &GameOptions) -> Result<GameSpec, $crate::games::OptionError> {
                $(
                    if GameName::$kind != self {
                        if let Some(given) = <$game as Registered>::rule_options_given(options) {
                            return Err($crate::games::OptionError::only_where(
                                given,
                                "game",
                                GameName::$kind.name(),
                                Some(self.to_string()),
                                None,
                            ));
                        }
                    }
                )+
                let spec = match self {
                    $(GameName::$kind => GameSpec::$kind(<$game as Registered>::from_options(options)?),)+
                };
                if spec.value_genome().is_none()
                    && (options.tuples.is_some() || options.tuple_length.is_some())
                {
                    return Err($crate::games::OptionError::only_where(
                        &["tuples"],
                        "encoder",
                        "ntuple",
                        None,
                        Some("it shapes a value genome"),
                    ));
                }
                Ok(spec)
            }
        }

        /// A game together with its rules and encoder: what files record
        /// and what commands run.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum GameSpec {
            $( $(#[$doc])* $kind($game), )+
        }

        $(
            impl From<$game> for GameSpec {
                fn from(game: $game) -> GameSpec {
                    GameSpec::$kind(game)
                }
            }
        )+

        impl GameSpec {
            /// The game without its rules.
            pub fn game(&self) -> GameName {
                match self { $(GameSpec::$kind(_) => GameName::$kind,)+ }
            }
        }

        /// How files name the game they were written for: a built-in game
        /// with its rules and encoder, stored exactly as its [`GameSpec`]
        /// (the same variants in the same order, so the same bytes), or a
        /// game from outside this crate by its own name
        /// ([`Identified`](crate::games::Identified)), stored after them.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum GameId {
            $( $(#[$doc])* $kind($game), )+
            /// A game this crate does not know, by the name its own
            /// program gives it.
            Outside(String),
        }

        impl From<GameSpec> for GameId {
            fn from(spec: GameSpec) -> GameId {
                match spec { $(GameSpec::$kind(game) => GameId::$kind(game),)+ }
            }
        }

        impl GameId {
            /// The built-in game, or `None` for a game from outside.
            pub fn built_in(&self) -> Option<GameSpec> {
                match self {
                    $(GameId::$kind(game) => Some(GameSpec::$kind(*game)),)+
                    GameId::Outside(_) => None,
                }
            }

            /// The game's name: the command line's for a built-in game
            /// (`connect4`), its own for one from outside.
            pub fn name(&self) -> &str {
                match self {
                    $(GameId::$kind(_) => <$game as Registered>::NAME,)+
                    GameId::Outside(name) => name,
                }
            }
        }

        /// Runs `$body` with `$g` bound to the concrete game of a
        /// [`GameSpec`]: the one `match` over the games that generic code
        /// (dispatch, encoders, the spec's own methods) is written with.
        macro_rules! with_game {
            ($d spec:expr, $d g:ident => $d body:expr) => {
                match $d spec {
                    $($crate::games::GameSpec::$kind($d g) => $d body,)+
                }
            };
        }
        pub(crate) use with_game;

        /// Runs `$body` with `$g` bound to the game of a [`GameSpec`] as
        /// the engine plays it: its rules paired with the genome kind it
        /// names ([`Pair`](crate::games::Pair)), a concrete type for each
        /// kind a game has. A kind a game has not (`never`) is
        /// [`NoGenome`](crate::games::NoGenome), which has no values.
        macro_rules! with_pair {
            ($d spec:expr, $d g:ident => $d body:expr) => {
                match $d spec {
                    $($crate::games::GameSpec::$kind(registered) => match registered.kind {
                        $($crate::games::Kind::$plays(genome_kind) => {
                            let $d g = $crate::games::Pair::new(registered.rules, genome_kind);
                            $d body
                        })+
                        $($($crate::games::Kind::$never(none) => match none {},)+)?
                    },)+
                }
            };
        }
        pub(crate) use with_pair;
    };
}
pub(super) use registry;
