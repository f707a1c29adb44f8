//! Othello's genomes: how files store them, the straight tuples and
//! their symmetries, and the registry's entry.

use super::{
    GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, NTuple, NoGenome, Othello, Placement,
    Registered, SQUARES, ValueGenome,
};
use crate::games::{MAX_STAGES, OptionError, Pair};
use serde::{Deserialize, Serialize};

/// Othello with its genome as files store it: both are value genomes,
/// their tuples read in the board's 8 symmetries. Stored by variant
/// index: append only.
#[derive(Serialize, Deserialize)]
pub enum Stored {
    /// `ntuple`: tuples drawn as random walks ("snakes"), redrawn by
    /// mutation.
    NTuple(NTuple),
    /// `straight`: every straight line of `length` squares (along a row, a
    /// column or a diagonal), one tuple per class under the symmetries;
    /// fixed, so that evolution and learning change only the weights.
    Straight(NTuple),
    /// `patterns`: the hand-placed patterns of `pattern_tuples`, fixed
    /// like the straight tuples.
    Patterns(NTuple),
}

/// Othello has no vote table (see `encoding::othello`): its genomes are
/// value genomes.
impl GenomeKinds for Othello {
    type Votes = NoGenome;
    type Values = ValueGenome;
    type Stored = Stored;

    fn store(game: &GenomeGame<Othello>) -> Stored {
        match game.kind {
            Kind::Votes(none) => match none {},
            Kind::Value(ValueGenome {
                shape,
                placement: Placement::Drawn,
            }) => Stored::NTuple(shape),
            Kind::Value(ValueGenome {
                shape,
                placement: Placement::Straight,
            }) => Stored::Straight(shape),
            Kind::Value(ValueGenome {
                shape,
                placement: Placement::Patterns,
            }) => Stored::Patterns(shape),
        }
    }

    fn load(stored: Stored) -> Result<GenomeGame<Othello>, String> {
        Ok(GenomeGame::value(
            Othello,
            match stored {
                Stored::NTuple(shape) => ValueGenome::drawn(shape),
                Stored::Straight(shape) => ValueGenome::straight(shape),
                Stored::Patterns(shape) => ValueGenome::patterns(shape),
            },
        ))
    }
}

impl Othello {
    /// Random snakes' shape by default: 12 tuples of 6 squares.
    pub(crate) const SNAKES: NTuple = NTuple {
        tuples: 12,
        length: 6,
    };
    /// Straight tuples' length by default: quadruples (21 tuples, 81
    /// weights a table). Jaśkowski found pairs enough for self-play, and
    /// here pairs and quadruples learn alike by self-play; learning against
    /// the benchmark's player, quadruples score higher and learn faster
    /// (fewer tuples to read; docs/experiments.md).
    pub(crate) const STRAIGHT_LENGTH: u8 = 4;
    /// The value genome of straight quadruples.
    pub const STRAIGHT: Pair<Othello, ValueGenome> = Othello::straight(Othello::STRAIGHT_LENGTH);
    /// The value genome of straight pairs (Jaśkowski's 288 weights).
    pub const STRAIGHT_PAIRS: Pair<Othello, ValueGenome> = Othello::straight(2);

    /// The value genome of every straight line of `length` squares.
    pub(crate) const fn straight(length: u8) -> Pair<Othello, ValueGenome> {
        Pair::new(
            Othello,
            ValueGenome::straight(NTuple {
                tuples: straight_count(length),
                length,
            }),
        )
    }
    /// The hand-placed patterns' shape: the 7 tuples of 8 squares of
    /// `pattern_tuples`.
    pub(crate) const PATTERN_SHAPE: NTuple = NTuple {
        tuples: PATTERNS,
        length: 8,
    };
    /// The value genome of the hand-placed patterns.
    pub const PATTERNS: Pair<Othello, ValueGenome> =
        Pair::new(Othello, ValueGenome::patterns(Othello::PATTERN_SHAPE));
    /// The value genome of the hand-placed patterns with a set of tables
    /// for each of `stages` game stages (1 to [`MAX_STAGES`]), by discs on
    /// the board.
    pub const fn patterns_in_stages(stages: u16) -> Pair<Othello, ValueGenome> {
        Pair::new(
            Othello,
            ValueGenome::patterns(NTuple {
                tuples: PATTERNS * stages,
                length: 8,
            }),
        )
    }
    /// The value genome of random snakes.
    pub const NTUPLE: Pair<Othello, ValueGenome> =
        Pair::new(Othello, ValueGenome::drawn(Othello::SNAKES));
}

/// The image of square `square` under symmetry `s` of the square board
/// (0 the identity; 1–3 the mirrors and the half turn; 4–7 the same after
/// exchanging rows and columns).
pub(crate) const fn symmetric_square(s: usize, square: usize) -> usize {
    let (mut row, mut col) = (square / 8, square % 8);
    if s & 4 != 0 {
        (row, col) = (col, row);
    }
    if s & 1 != 0 {
        col = 7 - col;
    }
    if s & 2 != 0 {
        row = 7 - row;
    }
    row * 8 + col
}

/// Straight lines of `length` squares, one per class of lines that the
/// board's symmetries map onto each other: the tuples of the `straight`
/// encoder. Each is its squares in order along the line.
pub(crate) fn straight_tuples(length: u8) -> Vec<Vec<u8>> {
    let length = length as i32;
    let mut classes: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    // East, south, south-east, south-west.
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for start in 0..64i32 {
            let (r0, c0) = (start / 8, start % 8);
            let (r1, c1) = (r0 + dr * (length - 1), c0 + dc * (length - 1));
            if !(0..8).contains(&r1) || !(0..8).contains(&c1) {
                continue;
            }
            let line: Vec<u8> = (0..length)
                .map(|i| ((r0 + dr * i) * 8 + c0 + dc * i) as u8)
                .collect();
            let key = (0..8)
                .map(|s| {
                    let mut image: Vec<u8> = line
                        .iter()
                        .map(|&q| symmetric_square(s, q as usize) as u8)
                        .collect();
                    image.sort_unstable();
                    image
                })
                .min()
                .expect("eight images");
            if !classes.iter().any(|(k, _)| *k == key) {
                classes.push((key, line));
            }
        }
    }
    classes.into_iter().map(|(_, line)| line).collect()
}

/// How many tuples `pattern_tuples` gives (pinned by a test).
pub(crate) const PATTERNS: u16 = 7;

/// Whether the patterns encoder takes `tuples`: a set of the patterns for
/// each of 1 to [`MAX_STAGES`] game stages.
fn pattern_stages(tuples: u16) -> bool {
    tuples.is_multiple_of(PATTERNS) && (1..=MAX_STAGES).contains(&((tuples / PATTERNS) as usize))
}

/// The `patterns` encoder's tuples: the tables classic Othello programs
/// learn, each of exactly 8 squares (the longest tuple a value genome
/// stores) and one class under the board's 8 symmetries (read in all 8
/// images): the second, third and fourth rows; a long diagonal; an edge;
/// a corner's 3×3 block less its far corner; a corner's 2×4 block.
/// Squares are `row * 8 + column` from a corner. (The programs' shorter
/// diagonals and 10-square edge and block add nothing measurable here:
/// docs/experiments.md.)
pub(crate) fn pattern_tuples() -> Vec<Vec<u8>> {
    let squares = |cells: &mut dyn Iterator<Item = (u8, u8)>| -> Vec<u8> {
        cells.map(|(row, col)| row * 8 + col).collect()
    };
    let mut tuples = Vec::new();
    for row in [1, 2, 3] {
        tuples.push(squares(&mut (0..8).map(|col| (row, col))));
    }
    tuples.push(squares(&mut (0..8).map(|i| (i, i))));
    tuples.push(squares(&mut (0..8).map(|col| (0, col))));
    tuples.push(squares(&mut (0..8).map(|i| (i / 3, i % 3))));
    tuples.push(squares(&mut (0..8).map(|i| (i / 4, i % 4))));
    tuples
}

/// How many tuples [`straight_tuples`] gives, computed at compile time
/// for the encoder's constants (lengths 2–8).
pub(crate) const fn straight_count(length: u8) -> u16 {
    // Counted once by `straight_tuples` and pinned by a test.
    match length {
        2 => 32,
        3 => 24,
        4 => 21,
        5 => 14,
        6 => 12,
        7 => 6,
        8 => 5,
        _ => 0,
    }
}

impl Registered for GenomeGame<Othello> {
    const NAME: &'static str = "othello";
    const TITLE: &'static str = "Othello";
    const ALIASES: &'static [&'static str] = &["reversi"];
    const OWN_ENCODERS: &'static [(&'static str, &'static str)] = &[
        (
            "straight",
            "a value genome of every straight line of L squares (--tuples xL)",
        ),
        (
            "patterns",
            "a value genome of 7 hand-placed tables of 8 squares: rows, the long diagonal, the edge, two corner blocks (--tuples 14 to 112, a multiple of 7, gives a set of them for each of 2 to 16 game stages by discs on the board)",
        ),
    ];
    fn variants() -> Vec<Self> {
        [
            Othello::PATTERNS,
            Othello::patterns_in_stages(6),
            Othello::STRAIGHT,
            Othello::STRAIGHT_PAIRS,
            Othello::NTUPLE,
        ]
        .map(|pair| pair.registered())
        .to_vec()
    }

    fn from_options(options: &GameOptions) -> Result<Self, OptionError> {
        const NAMES: [&str; 3] = ["patterns", "straight", "ntuple"];
        let genome = match options.encoder.as_deref().unwrap_or(NAMES[0]) {
            "ntuple" => ValueGenome::drawn(options.value_shape(Othello::SNAKES, SQUARES)?),
            "patterns" => {
                // Given, the length must be the patterns' own and the
                // tuples a set of them for each stage (as run.toml records
                // them).
                let shape = NTuple {
                    tuples: options.tuples.unwrap_or(PATTERNS),
                    ..Othello::PATTERN_SHAPE
                };
                if !pattern_stages(shape.tuples) {
                    return Err(OptionError::valued(
                        "tuples",
                        shape.tuples.to_string(),
                        format!(
                            "the patterns encoder has {PATTERNS} tuples of 8 squares for each game stage: {PATTERNS} (one stage) up to {}, a multiple of {PATTERNS}",
                            PATTERNS as usize * MAX_STAGES
                        ),
                    ));
                }
                if let Some(length) = options.tuple_length.filter(|&l| l != shape.length) {
                    return Err(OptionError::valued(
                        "tuples",
                        format!("x{length}"),
                        "the patterns encoder's tuples are 8 squares (leave the xL out, or choose the straight or ntuple encoder)",
                    ));
                }
                ValueGenome::patterns(shape)
            }
            "straight" => {
                let length = options.tuple_length.unwrap_or(Othello::STRAIGHT_LENGTH);
                let tuples = straight_count(length);
                if tuples == 0 {
                    return Err(OptionError::valued(
                        "tuples",
                        format!("x{length}"),
                        "straight tuples are 2 to 8 squares long",
                    ));
                }
                if let Some(given) = options.tuples.filter(|&t| t != tuples) {
                    return Err(OptionError::valued(
                        "tuples",
                        given.to_string(),
                        format!(
                            "the straight encoder has every straight line of {length} squares, {tuples} tuples (leave the count out, or choose the ntuple encoder)"
                        ),
                    ));
                }
                ValueGenome::straight(NTuple { tuples, length })
            }
            _ => return Err(options.unknown_encoder(Self::NAME, &NAMES, NAMES[0])),
        };
        Ok(GenomeGame::value(Othello, genome))
    }

    fn encoder_name(&self) -> &'static str {
        match self.value_kind().map(|genome| genome.placement) {
            Some(Placement::Straight) => "straight",
            Some(Placement::Patterns) => "patterns",
            _ => "ntuple",
        }
    }

    fn describe(&self) -> String {
        match self.value_kind() {
            Some(ValueGenome {
                shape,
                placement: Placement::Straight,
            }) => format!("othello (value genome, {shape} straight tuples)"),
            Some(ValueGenome {
                shape,
                placement: Placement::Patterns,
            }) if shape.tuples > PATTERNS => format!(
                "othello (value genome, {shape} patterns: {} game stages)",
                shape.tuples / PATTERNS
            ),
            Some(ValueGenome {
                placement: Placement::Patterns,
                shape,
            }) => format!("othello (value genome, {shape} patterns)"),
            genome => format!(
                "othello (value genome, {} snake tuples)",
                genome.map_or(Othello::SNAKES, |g| g.shape)
            ),
        }
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        let Some(genome) = self.value_kind() else {
            return Ok(());
        };
        let s = genome.shape;
        s.check(SQUARES).map_err(InvalidRules::from)?;
        if genome.placement == Placement::Straight && s.tuples != straight_count(s.length) {
            return Err(InvalidRules(format!(
                "{} straight tuples of {} squares: there are {}",
                s.tuples,
                s.length,
                straight_count(s.length)
            )));
        }
        if genome.placement == Placement::Patterns
            && (s.length != Othello::PATTERN_SHAPE.length || !pattern_stages(s.tuples))
        {
            return Err(InvalidRules(format!(
                "{} pattern tuples of {} squares: the patterns are {} of 8 for each game stage, up to {} stages",
                s.tuples, s.length, PATTERNS, MAX_STAGES
            )));
        }
        Ok(())
    }

    fn value_genome(&self) -> Option<NTuple> {
        self.value_kind().map(|genome| genome.shape)
    }
}
