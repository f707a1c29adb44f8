//! The game-selection flags shared by every command that needs a game.

use crate::games::{
    GameName, GameOptions, GameSpec, OptionError, Spelling, TakeRuleName, UnknownGame,
};
use crate::genome::Genome;
use crate::players::{PlayerError, PlayerSpec};
use clap::{Args, ValueEnum};
use std::path::Path;

/// How the command line spells an option: `--max-take`, `--rows 3`.
pub const FLAGS: Spelling = Spelling {
    name: |name| format!("--{}", name.replace('_', "-")),
    valued: |name, value| format!("--{} {value}", name.replace('_', "-")),
};

/// Options a game refused, said in flags (`--rows and --empty apply only
/// to --game solitaire, not connect4`); another door (Python) finds the
/// engine's error inside and says it its own way.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.spelled(FLAGS))]
pub struct FlagError(pub OptionError);

/// `--encoder`'s long help: each game's encoders, its default and the one
/// `evolve`'s recommended settings use, read from the registry.
pub fn encoder_help() -> String {
    let own: Vec<String> = GameName::ALL
        .iter()
        .flat_map(|kind| {
            kind.own_encoders()
                .iter()
                .map(move |(name, about)| format!("{kind}'s `{name}` is {about}"))
        })
        .collect();
    let mut text = format!(
        "How positions become gene indices, per game (the default first; `ntuple` is the value \
         genome: tuples of cells, a weight per state, learning by self-play, shaped by --tuples \
         NxL{}):",
        own.iter()
            .map(|line| format!("; {line}"))
            .collect::<String>()
    );
    for &kind in GameName::ALL {
        let names = kind.encoders(false);
        let recommended = kind.encoders(true)[0];
        let evolve = if recommended == names[0] {
            String::new()
        } else {
            format!(" (evolve's recommended settings: {recommended})")
        };
        text.push_str(&format!("\n  {kind}: {}{evolve}", names.join(", ")));
    }
    text.push_str("\nWith a genome file it must match the genome's own.");
    text
}

/// `--game` and the matchsticks rule flags.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Game")]
pub struct GameArgs {
    #[arg(long, short = 'g', value_parser = parse_game_kind, value_name = "GAME", help = games_help())]
    pub game: Option<GameName>,

    /// How positions become gene indices (each game's list in --help)
    #[arg(long, value_name = "NAME")]
    pub encoder: Option<String>,

    /// Value genomes: N tuples of L cells each, `70x8`; `N` or `xL` alone
    /// keeps the other's default (each game's in --help)
    #[arg(long, value_parser = parse_shape, value_name = "NxL", long_help = format!("{}\n{}", shape_help(true), shape_help(false)))]
    pub tuples: Option<Shape>,

    /// Matchsticks: subtract (take 1..=max-take) or double (Fibonacci nim)
    #[arg(long, value_enum, value_name = "RULE")]
    pub rule: Option<RuleArg>,

    /// Matchsticks: sticks on the heap at the start, 1-255 [default: 21]
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..), value_name = "N")]
    pub sticks: Option<u8>,

    /// Matchsticks (subtract): the most sticks a move takes, 1-255 [default: 3]
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..), value_name = "N")]
    pub max_take: Option<u8>,

    /// Matchsticks (subtract): who takes the last stick loses (the default)
    #[arg(long, conflicts_with = "last_wins")]
    pub last_loses: bool,

    /// Matchsticks (subtract): who takes the last stick wins
    #[arg(long)]
    pub last_wins: bool,

    /// Solitaire: rows of the triangle, 4-7 [default: 5, 15 holes]
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7), value_name = "N")]
    pub rows: Option<u8>,

    /// Solitaire: the hole empty at the start, 1..holes [default: 1, the top]
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=28), value_name = "H")]
    pub empty: Option<u8>,
}

/// The matchsticks take rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RuleArg {
    /// Take 1..=max-take sticks
    Subtract,
    /// First move 1..N-1, then at most twice the opponent's last take; last stick wins
    Double,
}

/// `--game`'s help, from the registry: every game with its short names,
/// `tictactoe (ttt), … or othello (reversi)`.
pub fn games_help() -> String {
    let named: Vec<String> = GameName::ALL
        .iter()
        .map(|kind| match kind.aliases() {
            [] => kind.name().to_string(),
            aliases => format!("{} ({})", kind.name(), aliases.join(", ")),
        })
        .collect();
    format!("The game: {}", crate::store::listed(&named, "or"))
}

/// A value genome's shape as `--tuples` gives it: either part may be left
/// to the game's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub tuples: Option<u16>,
    pub length: Option<u8>,
}

/// `--tuples N`, `NxL` or `xL` (`×` too): N 1-1000 tuples of L 2-8 cells.
fn parse_shape(text: &str) -> Result<Shape, String> {
    let (n, l) = match text.split_once(['x', '×']) {
        Some((n, l)) => (n, Some(l)),
        None => (text, None),
    };
    let tuples = match n {
        "" if l.is_some() => None,
        n => Some(
            n.parse::<u16>()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    format!("'{text}': N tuples is a whole number 1-1000 (NxL, N or xL)")
                })?,
        ),
    };
    let length = l
        .map(|l| {
            l.parse::<u8>()
                .ok()
                .filter(|l| (2..=8).contains(l))
                .ok_or_else(|| {
                    format!("'{text}': L cells a tuple is a whole number 2-8 (NxL, N or xL)")
                })
        })
        .transpose()?;
    Ok(Shape { tuples, length })
}

/// `--tuples`' help for its count (`tuples`) or its length, from the registry:
/// each value-genome encoder that takes the flag with its default, those
/// that take `--tuples` as a set of their own tuples per game stage, and
/// those that place tuples of their own.
pub fn shape_help(tuples: bool) -> String {
    let (mut takes, mut staged, mut own) = (Vec::new(), Vec::new(), Vec::new());
    for kind in GameName::ALL {
        for encoder in kind.encoders(false) {
            // The encoder's shape, with the flag at `n` when `Some`.
            let shape = |n: Option<u8>| {
                let options = GameOptions {
                    encoder: Some(encoder.to_string()),
                    tuples: n.filter(|_| tuples).map(u16::from),
                    tuple_length: n.filter(|_| !tuples),
                    ..GameOptions::default()
                };
                kind.from_options(&options)
                    .ok()
                    .and_then(|spec| spec.value_genome())
            };
            let Some(default) = shape(None) else {
                continue;
            };
            let name = match encoder {
                "ntuple" => kind.name().to_string(),
                _ => format!("{} {encoder}", kind.name()),
            };
            let field = |s: crate::games::NTuple| {
                if tuples {
                    s.tuples
                } else {
                    u16::from(s.length)
                }
            };
            let twice = u8::try_from(2 * field(default)).ok();
            if shape(Some(3)).map(field) == Some(3) {
                takes.push(format!("{name} {}", field(default)));
            } else if tuples && twice.is_some() && shape(twice).map(field) == twice.map(u16::from) {
                staged.push(format!(
                    "{name} {} a game stage, up to {} stages",
                    field(default),
                    crate::games::MAX_STAGES
                ));
            } else {
                own.push(name);
            }
        }
    }
    let (what, range) = if tuples {
        ("Value genome: N tuples per genome", "1-1000")
    } else {
        ("L cells per tuple (after x)", "2-8")
    };
    let mut help = format!("{what}, {range} [default: {}", takes.join(", "));
    if !staged.is_empty() {
        help += &format!("; {}", staged.join(", "));
    }
    if !own.is_empty() {
        let verb = if own.len() == 1 {
            "places its"
        } else {
            "place their"
        };
        help += &format!("; {} {verb} own", crate::store::listed(&own, "and"));
    }
    help + "]"
}

/// clap value parser for `--game`.
pub fn parse_game_kind(text: &str) -> Result<GameName, UnknownGame> {
    text.parse()
}

impl GameArgs {
    /// The game `player` plays: a genome's own (checked against `--game`
    /// when given), else the one `--game` names (required then). The one
    /// answer for `move`, `eval` and `play`.
    pub fn game_of(&self, player: &PlayerSpec) -> anyhow::Result<GameSpec> {
        match player.plain() {
            PlayerSpec::Genome(path) if path.exists() => {
                let genome = load_genome(path)?;
                if let Some(kind) = self.game {
                    genome.expect_game(path, kind)?;
                }
                self.check_encoder(path, &genome)?;
                Ok(genome.game)
            }
            PlayerSpec::Genome(path) => Err(PlayerError::missing(path).into()),
            other => {
                if self.game.is_none() {
                    anyhow::bail!(
                        "--game is required when the player is '{other}' rather than a genome file"
                    );
                }
                self.spec(GameName::TicTacToe)
            }
        }
    }

    /// Refuses an explicit `--encoder` that is not the one `genome` was
    /// evolved with (the genome's genes only mean something under it).
    pub fn check_encoder(&self, path: &std::path::Path, genome: &Genome) -> anyhow::Result<()> {
        let Some(name) = self.encoder.as_deref() else {
            return Ok(());
        };
        let own = genome.game.encoder_name();
        if name != own {
            anyhow::bail!(
                "--encoder {name}: {} was evolved with the {own} encoder; leave --encoder out to use it",
                path.display()
            );
        }
        Ok(())
    }

    /// Refuses `--encoder` where no genome is read (`solve`).
    pub fn refuse_encoder(&self, command: &str) -> anyhow::Result<()> {
        if let Some(name) = &self.encoder {
            anyhow::bail!(
                "--encoder {name}: {command} works on the rules alone, where an encoder means nothing"
            );
        }
        Ok(())
    }

    /// The game and its rules; `default` is used when `--game` is absent.
    pub fn spec(&self, default: GameName) -> anyhow::Result<GameSpec> {
        self.spec_with_encoders(default, false)
    }

    /// [`GameArgs::spec`], with `evolve`'s recommended encoders when
    /// `--encoder` is absent and `recommended` is set: symmetric for
    /// tic-tac-toe, sticks for matchsticks under the double rule, the value
    /// genome for Connect-Four.
    pub fn spec_with_encoders(
        &self,
        default: GameName,
        recommended: bool,
    ) -> anyhow::Result<GameSpec> {
        let kind = self.game.unwrap_or(default);
        kind.from_options(&self.options(recommended))
            .map_err(|e| FlagError(e).into())
    }

    /// The flags as the games read them.
    fn options(&self, recommended: bool) -> GameOptions {
        GameOptions {
            encoder: self.encoder.clone(),
            recommended,
            tuples: self.tuples.and_then(|s| s.tuples),
            tuple_length: self.tuples.and_then(|s| s.length),
            rule: self.rule.map(|rule| match rule {
                RuleArg::Subtract => TakeRuleName::Subtract,
                RuleArg::Double => TakeRuleName::Double,
            }),
            sticks: self.sticks,
            max_take: self.max_take,
            last_loses: self.last_loses,
            last_wins: self.last_wins,
            rows: self.rows,
            empty: self.empty,
        }
    }
}

/// A genome file, or a run directory's champion, loaded; the refusals of
/// the usual mistakes say what to name instead: a folder of runs (name one
/// of them) and a checkpoint (name its run).
pub fn load_genome(path: &Path) -> anyhow::Result<Genome> {
    let loaded = Genome::load(path);
    let Err(error) = loaded else {
        return loaded.map_err(Into::into);
    };
    if let Some(meant) = crate::genome::meant_file(path) {
        anyhow::bail!(
            "{}: no such file; did you mean {}?",
            path.display(),
            meant.display()
        );
    }
    if path.is_dir() {
        let run = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .find(|entry| {
                entry
                    .path()
                    .join(crate::store::run_files::BEST_GENOME)
                    .is_file()
            });
        if let Some(run) = run {
            anyhow::bail!(
                "{}: a folder of runs, not a run: name one of them, e.g. {}",
                path.display(),
                run.path().display()
            );
        }
    }
    let magic = file_magic(path);
    if magic == Some(crate::observed::OBSERVED_GENOME_FORMAT.magic) {
        let game = crate::observed::TensorGenome::read(path)
            .map_or_else(|_| "a game".to_string(), |f| f.game);
        anyhow::bail!(
            "{}: a genome of {game}, a game bebete was not built for: play it from Python (bebete.load, bebete.openspiel.Bot); `bebete genome info` describes it",
            path.display()
        );
    }
    if magic == Some(crate::evolve::checkpoint::CHECKPOINT_FORMAT.magic) {
        let run = path
            .parent()
            .filter(|dir| dir.ends_with(crate::store::run_files::CHECKPOINTS))
            .and_then(Path::parent)
            .map_or_else(
                || "its run directory".to_string(),
                |run| run.display().to_string(),
            );
        anyhow::bail!(
            "{}: a checkpoint, not a genome: name the run ({run}) for its champion, or continue the run with `bebete resume {run}`",
            path.display()
        );
    }
    Err(error.into())
}

/// The first eight bytes of the file at `path`, when it has them.
pub fn file_magic(path: &Path) -> Option<[u8; 8]> {
    let mut f = crate::store::open_regular(path).ok()?;
    let mut magic = [0u8; 8];
    std::io::Read::read_exact(&mut f, &mut magic).ok()?;
    Some(magic)
}

#[cfg(test)]
mod tests {
    use super::{Shape, encoder_help, parse_shape, shape_help};
    use crate::games::GameName;

    /// Every encoder a game describes as its own is one `--encoder`
    /// takes for it, and the help says it with the game's name.
    #[test]
    fn a_games_own_encoders_are_its_encoders_and_in_the_help() {
        let help = encoder_help();
        for &kind in GameName::ALL {
            for (name, about) in kind.own_encoders() {
                assert!(kind.encoders(false).contains(name), "{kind}: {name}");
                assert!(
                    help.contains(&format!("{kind}'s `{name}` is {about}")),
                    "{help}"
                );
            }
        }
        assert!(!GameName::Othello.own_encoders().is_empty());
    }

    /// The shape flags' help says each value genome's default as the
    /// registry builds it, and which encoders place their own tuples.
    #[test]
    fn the_shape_help_reads_the_registry() {
        assert_eq!(
            shape_help(true),
            "Value genome: N tuples per genome, 1-1000 [default: tictactoe 40, connect4 70, checkers 128, othello 12; othello patterns 7 a game stage, up to 16 stages; othello straight places its own]"
        );
        assert_eq!(
            shape_help(false),
            "L cells per tuple (after x), 2-8 [default: tictactoe 5, connect4 8, checkers 6, othello straight 4, othello 6; othello patterns places its own]"
        );
        let shape = |tuples, length| Ok(Shape { tuples, length });
        assert_eq!(parse_shape("70x8"), shape(Some(70), Some(8)));
        assert_eq!(parse_shape("70×8"), shape(Some(70), Some(8)));
        assert_eq!(parse_shape("42"), shape(Some(42), None));
        assert_eq!(parse_shape("x2"), shape(None, Some(2)));
        for bad in ["0", "1001", "70x1", "70x9", "x", "ax8", ""] {
            assert!(parse_shape(bad).is_err(), "{bad}");
        }
    }
}
