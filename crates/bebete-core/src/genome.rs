//! The gene table and its file format.
//!
//! A genome file is a framed container (see [`crate::store`]) of kind `GN`:
//! the header holds the game with its rules, the provenance and the gene
//! count (and, from version 2, the depth of the tactical shell the genome
//! plays in; from version 3, how it learned: by self-play or against which
//! player); the payload is the gene table as raw bytes, one byte per gene.
//! A pure genome (no shell) is still written as version 1, and one without
//! a learning record as version 2 or 1, so files that need nothing new stay
//! readable by older builds.

use crate::encoding::TableGame;
use crate::encoding::shell::lookahead_limit;
use crate::encoding::{TableGameVisitor, visit_table_game};
use crate::games::BuiltIn;
use crate::games::{GameId, GameName, GameSpec, Identified};
use crate::store::run_files;
use crate::store::{
    FileError, FileProblem, Framed, decode_framed_versions, peek_framed, write_framed,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Magic tag and version of genome files: version 2 adds the shell's
/// lookahead, version 3 how the genome learned; each file is written in the
/// lowest version that holds what it has.
pub(crate) const GENOME_FORMAT: Framed = Framed {
    magic: *b"BEBETEGN",
    version: 3,
    file: "genome",
};

/// The version-2 frame, for genomes with a shell and no learning record.
const GENOME_FORMAT_V2: Framed = Framed {
    version: 2,
    ..GENOME_FORMAT
};

/// The version-1 frame, for pure genomes.
const GENOME_FORMAT_V1: Framed = Framed {
    version: 1,
    ..GENOME_FORMAT
};

/// Where a genome came from, as far as is known.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The run that evolved it (its directory name).
    pub run: Option<String>,
    /// The generation it was champion of.
    pub generation: Option<u64>,
    /// Its round-robin points in that generation.
    pub fitness: Option<f64>,
    /// The seed it was drawn or evolved from.
    pub seed: Option<u64>,
    /// How it learned between generations: `self` (self-play) or the spec
    /// of the fixed player it learned against (`--learn-against`); `None`
    /// for a genome that did not learn, or one written before the record.
    pub(crate) learning: Option<String>,
}

/// How a genome learned, as `genome info` shows it: who it learned
/// against (from the file's header) and where its schedule stands (from
/// its own bytes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Learning {
    /// `self` for self-play, a player spec for a fixed opponent, `None`
    /// when the file does not say (written before the record).
    pub opponent: Option<String>,
    #[serde(flatten)]
    /// Where the learning stands.
    pub schedule: crate::encoding::ntuple::Schedule,
}

/// The provenance as genome headers store it, field by field in this
/// order: a frozen copy, so that a change to [`Provenance`] does not change
/// how files read. Append only (`header_bytes_are_pinned`).
#[derive(Serialize, Deserialize)]
struct StoredProvenance {
    run: Option<String>,
    generation: Option<u64>,
    fitness: Option<f64>,
    seed: Option<u64>,
}

impl From<Provenance> for StoredProvenance {
    /// The four stored fields (the learning record is the version-3
    /// header's own field).
    fn from(p: Provenance) -> Self {
        StoredProvenance {
            run: p.run,
            generation: p.generation,
            fitness: p.fitness,
            seed: p.seed,
        }
    }
}

impl From<StoredProvenance> for Provenance {
    fn from(p: StoredProvenance) -> Self {
        Provenance {
            run: p.run,
            generation: p.generation,
            fitness: p.fitness,
            seed: p.seed,
            learning: None,
        }
    }
}

/// The version-1 header, field by field in this order (the game's bytes
/// are pinned by `stored_tags_are_pinned`).
#[derive(Serialize, Deserialize)]
struct GenomeHeader {
    game: GameId,
    provenance: StoredProvenance,
    gene_count: u64,
}

/// The version-2 header: version 1's, then the shell's lookahead.
#[derive(Serialize, Deserialize)]
struct GenomeHeaderV2 {
    game: GameId,
    provenance: StoredProvenance,
    gene_count: u64,
    lookahead: u8,
}

/// The version-3 header: version 2's, then how the genome learned.
#[derive(Serialize, Deserialize)]
struct GenomeHeaderV3 {
    game: GameId,
    provenance: StoredProvenance,
    gene_count: u64,
    lookahead: u8,
    learning: Option<String>,
}

/// A genome header of any version, as version 3's.
fn parse_header(version: u16, header: &[u8]) -> postcard::Result<GenomeHeaderV3> {
    let v2 = |h: GenomeHeaderV2| GenomeHeaderV3 {
        game: h.game,
        provenance: h.provenance,
        gene_count: h.gene_count,
        lookahead: h.lookahead,
        learning: None,
    };
    match version {
        0 | 1 => postcard::from_bytes::<GenomeHeader>(header).map(|h| {
            v2(GenomeHeaderV2 {
                game: h.game,
                provenance: h.provenance,
                gene_count: h.gene_count,
                lookahead: 0,
            })
        }),
        2 => postcard::from_bytes::<GenomeHeaderV2>(header).map(v2),
        _ => postcard::from_bytes::<GenomeHeaderV3>(header),
    }
}

/// A genome: a game, where it came from, and one byte per gene.
///
/// Its file is framed and checked: written atomically, read back whole,
/// and refused with the reason when it is damaged. A genome of a built-in
/// game names it by its [`GameSpec`] (the default); one of a game from
/// outside this crate by its [`GameId`], read back with
/// [`Genome::load_for`] and that game.
///
/// ```
/// use bebete_core::games::GameSpec;
/// use bebete_core::genome::{Genome, Provenance};
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("mine.genome");
/// let genome = Genome {
///     game: GameSpec::TICTACTOE,
///     provenance: Provenance::default(),
///     genes: vec![4; 19_683],
///     lookahead: 0,
/// };
/// genome.save(&path).unwrap();
/// assert_eq!(Genome::load(&path).unwrap(), genome);
/// // Cut short, it is refused, and the message says so.
/// let bytes = std::fs::read(&path).unwrap();
/// std::fs::write(&path, &bytes[..100]).unwrap();
/// let err = Genome::load(&path).unwrap_err().to_string();
/// assert!(err.contains("truncated"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Genome<Id = GameSpec> {
    /// The game (and encoder) the genes are for.
    pub game: Id,
    /// Where it comes from: run, generation, fitness, seed.
    pub provenance: Provenance,
    /// The genes, one byte each.
    pub genes: Vec<u8>,
    /// Plies of the tactical shell it plays in (0: the pure genome; see
    /// [`crate::encoding::shell`]).
    pub lookahead: u8,
}

/// The genome file `path` means when it was written without its
/// `.genome` (`genomes/tictactoe`): that file, when `path` is not there and
/// it is.
pub fn meant_file(path: &Path) -> Option<PathBuf> {
    let with_extension = path.with_extension("genome");
    (!path.exists() && path.extension().is_none() && with_extension.is_file())
        .then_some(with_extension)
}

/// A fresh table of uniformly random genes for `game`.
pub fn random_genes<G: TableGame, R: rand::Rng + ?Sized>(game: &G, rng: &mut R) -> Vec<u8> {
    if game.as_learner().is_some() {
        // A value genome is tuples and settings, drawn whole.
        let mut genes = vec![0; game.gene_count()];
        game.fill_random(&mut genes, rng);
        return genes;
    }
    (0..game.gene_count())
        .map(|i| game.random_gene(i, rng))
        .collect()
}

struct RandomGenes(u64);

impl TableGameVisitor for RandomGenes {
    type Output = Vec<u8>;
    fn visit<G: TableGame + BuiltIn>(self, game: G) -> Vec<u8> {
        random_genes(&game, &mut Pcg64Mcg::seed_from_u64(self.0))
    }
}

/// Checks a gene table against a game: its length and every gene's range.
struct CheckGenes<'a>(&'a [u8], u8);

impl TableGameVisitor for CheckGenes<'_> {
    type Output = Result<(), FileProblem>;
    fn visit<G: TableGame + BuiltIn>(self, game: G) -> Result<(), FileProblem> {
        check_genes(&game, self.0, self.1)
    }
}

/// Whether `genes` (and a lookahead of `lookahead` plies) are a genome of
/// `game`: its gene count, each gene in range, its own checks.
fn check_genes<G: TableGame + Identified>(
    game: &G,
    genes: &[u8],
    lookahead: u8,
) -> Result<(), FileProblem> {
    let most = lookahead_limit(game);
    if lookahead > most {
        return Err(FileProblem::Malformed(format!(
            "a lookahead of {lookahead} plies (at most {most})"
        )));
    }
    if genes.len() != game.gene_count() {
        return Err(FileProblem::Malformed(format!(
            "{} genes, but {} genome has {}",
            genes.len(),
            crate::store::with_article(&game.id().to_string()),
            game.gene_count()
        )));
    }
    if let Some(i) = genes.iter().position(|&g| !game.gene_is_valid(g)) {
        return Err(FileProblem::Malformed(format!(
            "gene {i} holds {}, outside the game's range",
            genes[i]
        )));
    }
    match game.genes_problem(genes) {
        Some(problem) => Err(FileProblem::Malformed(problem)),
        None => Ok(()),
    }
}

/// The genome file `path` names: itself, or for a run directory its
/// champion (`best.genome`).
fn genome_file(path: &Path) -> Result<PathBuf, FileError> {
    if !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    let best = path.join(run_files::BEST_GENOME);
    match best.is_file() {
        true => Ok(best),
        false => {
            let wanted = run_files::BEST_GENOME;
            Err(FileError::new(path, FileProblem::Directory { wanted }))
        }
    }
}

/// The built-in game a file names; a game from outside is refused, saying
/// so.
fn built_in(game: &GameId) -> Result<GameSpec, FileProblem> {
    game.built_in().ok_or_else(|| FileProblem::Outside {
        game: game.to_string(),
        file: "genome",
    })
}

/// A genome file's header and genes, their counts checked against each
/// other.
fn decode(bytes: Vec<u8>) -> Result<(GenomeHeaderV3, Vec<u8>), FileProblem> {
    let (header, genes): (GenomeHeaderV3, Vec<u8>) =
        decode_framed_versions(bytes, GENOME_FORMAT, parse_header)?;
    if header.gene_count != genes.len() as u64 {
        return Err(FileProblem::Malformed(format!(
            "header says {} genes, the table holds {}",
            header.gene_count,
            genes.len()
        )));
    }
    Ok((header, genes))
}

impl<Id: Clone + Into<GameId>> Genome<Id> {
    /// Writes the genome atomically, in the lowest format version that
    /// holds what it has.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let (game, provenance) = (self.game.clone().into(), self.provenance.clone().into());
        let gene_count = self.genes.len() as u64;
        if let Some(learning) = &self.provenance.learning {
            let header = GenomeHeaderV3 {
                game,
                provenance,
                gene_count,
                lookahead: self.lookahead,
                learning: Some(learning.clone()),
            };
            return write_framed(path, GENOME_FORMAT, &header, &self.genes);
        }
        if self.lookahead == 0 {
            let header = GenomeHeader {
                game,
                provenance,
                gene_count,
            };
            return write_framed(path, GENOME_FORMAT_V1, &header, &self.genes);
        }
        let header = GenomeHeaderV2 {
            game,
            provenance,
            gene_count,
            lookahead: self.lookahead,
        };
        write_framed(path, GENOME_FORMAT_V2, &header, &self.genes)
    }
}

impl Genome<GameId> {
    /// Reads and checks a genome of `game` (a game from outside this crate
    /// as well as a built-in one; a run directory stands for its
    /// champion): a file of another game is refused, naming both.
    pub fn load_for<G: TableGame + Identified>(game: &G, path: &Path) -> Result<Self, FileError> {
        let path = &genome_file(path)?;
        let bytes = crate::store::read_regular(path)?;
        Genome::from_bytes_for(game, bytes).map_err(|problem| FileError::new(path, problem))
    }

    /// [`Genome::load_for`] of a file's bytes.
    pub(crate) fn from_bytes_for<G: TableGame + Identified>(
        game: &G,
        bytes: Vec<u8>,
    ) -> Result<Self, FileProblem> {
        let (header, genes) = decode(bytes)?;
        let id = game.id();
        if header.game != id {
            return Err(FileProblem::OtherGame {
                found: header.game.to_string(),
                expected: id.to_string(),
            });
        }
        check_genes(game, &genes, header.lookahead)?;
        Ok(Genome::from_header(id, header, genes))
    }
}

impl<Id> Genome<Id> {
    /// The genome a file's checked header and genes hold, its game named
    /// by `game`.
    fn from_header(game: Id, header: GenomeHeaderV3, genes: Vec<u8>) -> Self {
        Genome {
            game,
            provenance: Provenance {
                learning: header.learning,
                ..header.provenance.into()
            },
            genes,
            lookahead: header.lookahead,
        }
    }
}

impl Genome {
    /// A genome of uniformly random genes, reproducible from `seed`.
    pub fn random(game: GameSpec, seed: u64) -> Genome {
        Genome {
            game,
            provenance: Provenance {
                seed: Some(seed),
                ..Provenance::default()
            },
            genes: visit_table_game(game, RandomGenes(seed)),
            lookahead: 0,
        }
    }

    /// How the genome learned, for a genome that learns: who it learned
    /// against and where its schedule stands; `None` for one that does
    /// not learn.
    pub fn learning(&self) -> Option<Learning> {
        struct Read<'a>(&'a [u8]);
        impl TableGameVisitor for Read<'_> {
            type Output = Option<crate::encoding::ntuple::Schedule>;
            fn visit<G: TableGame + BuiltIn>(self, game: G) -> Self::Output {
                game.as_learner().map(|learner| learner.learning(self.0))
            }
        }
        let schedule = visit_table_game(self.game, Read(&self.genes))?;
        Some(Learning {
            opponent: self.provenance.learning.clone(),
            schedule,
        })
    }

    /// Reads and checks a genome file; a run directory stands for its
    /// champion (`best.genome`).
    pub fn load(path: &Path) -> Result<Genome, FileError> {
        let path = &genome_file(path)?;
        let bytes = crate::store::read_regular(path)?;
        Genome::from_bytes(bytes).map_err(|problem| FileError::new(path, problem))
    }

    /// The game and lookahead of a genome file, from its header alone: the
    /// tag, version, header and size are checked, the genes are not read
    /// (listing many files, or refusing a large foreign one cheaply).
    pub fn peek(path: &Path) -> Result<(GameSpec, u8), FileError> {
        let framed = peek_framed(path, GENOME_FORMAT)?;
        Genome::peeked(path, framed).map(|(game, lookahead, _)| (game, lookahead))
    }

    /// [`Genome::peek`] of a file already open (opened and checked by a
    /// reader that opens files its own way: the server), with how the
    /// genome learned (`Provenance::learning`); `path` names it in errors.
    pub fn peek_in(
        file: std::fs::File,
        path: &Path,
    ) -> Result<(GameSpec, u8, Option<String>), FileError> {
        let framed = crate::store::peek_framed_in(file, path, GENOME_FORMAT)?;
        Genome::peeked(path, framed)
    }

    fn peeked(
        path: &Path,
        framed: (u16, Vec<u8>, u64),
    ) -> Result<(GameSpec, u8, Option<String>), FileError> {
        let (version, header, payload_len) = framed;
        let header = parse_header(version, &header).map_err(|e| {
            FileError::new(
                path,
                FileProblem::Malformed(format!("unreadable header: {e}")),
            )
        })?;
        if header.gene_count != payload_len {
            return Err(FileError::new(
                path,
                FileProblem::Malformed(format!(
                    "{payload_len} gene bytes, but the header says {}",
                    header.gene_count
                )),
            ));
        }
        let spec = built_in(&header.game).map_err(|problem| FileError::new(path, problem))?;
        Ok((spec, header.lookahead, header.learning))
    }

    /// Decodes and checks the bytes of a genome file.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Genome, FileProblem> {
        let (header, genes) = decode(bytes)?;
        let spec = built_in(&header.game)?;
        spec.validate().map_err(|e| FileProblem::Malformed(e.0))?;
        visit_table_game(spec, CheckGenes(&genes, header.lookahead))?;
        Ok(Genome::from_header(spec, header, genes))
    }

    /// Refuses a genome of another game than `expected`.
    pub fn expect_game(&self, path: &Path, expected: GameName) -> Result<(), FileError> {
        if self.game.game() == expected {
            Ok(())
        } else {
            Err(FileError::new(
                path,
                FileProblem::OtherGame {
                    found: self.game.to_string(),
                    expected: expected.to_string(),
                },
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{MatchsticksRules, TakeRule};

    /// Both headers' bytes, pinned: their fields are read by position, so
    /// a field is appended in a new version, never inserted or reordered,
    /// and a change to the live `Provenance` or `GameSpec` types must not
    /// move them.
    #[test]
    fn header_bytes_are_pinned() {
        let provenance = StoredProvenance::from(Provenance {
            run: Some("r".to_string()),
            generation: Some(7),
            fitness: Some(0.5),
            seed: None,
            learning: None,
        });
        let v1 = GenomeHeader {
            game: GameSpec::TICTACTOE.into(),
            provenance,
            gene_count: 300,
        };
        assert_eq!(
            postcard::to_allocvec(&v1).unwrap(),
            [
                0, 0, 1, 1, b'r', 1, 7, 1, 0, 0, 0, 0, 0, 0, 224, 63, 0, 172, 2
            ],
            "version 1: game, provenance (run, generation, fitness, seed), gene count"
        );
        let v2 = GenomeHeaderV2 {
            game: GameSpec::CONNECT4.into(),
            provenance: Provenance::default().into(),
            gene_count: 5,
            lookahead: 3,
        };
        assert_eq!(
            postcard::to_allocvec(&v2).unwrap(),
            [2, 0, 0, 0, 0, 0, 5, 3],
            "version 2: version 1's fields, then the lookahead"
        );
        let v3 = GenomeHeaderV3 {
            game: GameSpec::CONNECT4.into(),
            provenance: Provenance::default().into(),
            gene_count: 5,
            lookahead: 0,
            learning: Some("self".to_string()),
        };
        assert_eq!(
            postcard::to_allocvec(&v3).unwrap(),
            [2, 0, 0, 0, 0, 0, 5, 0, 1, 4, b's', b'e', b'l', b'f'],
            "version 3: version 2's fields, then how it learned"
        );
    }

    /// A header-only read agrees with the full one and refuses what the
    /// full one refuses for the frame (a cut file, a foreign one).
    #[test]
    fn peeking_reads_the_header_and_checks_the_frame() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.genome");
        let mut genome = Genome::random(GameSpec::CONNECT4, 4);
        genome.lookahead = 3;
        genome.save(&path).unwrap();
        assert_eq!(Genome::peek(&path).unwrap(), (GameSpec::CONNECT4, 3));
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        let err = Genome::peek(&path).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        std::fs::write(&path, b"PK\x03\x04 not a genome at all").unwrap();
        let err = Genome::peek(&path).unwrap_err().to_string();
        assert!(err.contains("not a bebete genome file"), "{err}");
        std::fs::write(&path, b"BEB").unwrap();
        assert!(Genome::peek(&path).is_err());
    }

    /// A genome of a game from outside this crate is written with that
    /// game's name; the built-in readers and another game's refuse it,
    /// saying which game it holds (`Genome::load_for` with the game itself
    /// reads it: `examples/own_game.rs`).
    #[test]
    fn a_genome_of_a_game_from_outside_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hexapawn.genome");
        let genome = Genome {
            game: GameId::Outside("hexapawn".to_string()),
            provenance: Provenance::default(),
            genes: vec![0; 12],
            lookahead: 0,
        };
        genome.save(&path).unwrap();
        for err in [
            Genome::load(&path).unwrap_err(),
            Genome::peek(&path).unwrap_err(),
        ] {
            let text = err.to_string();
            assert!(
                text.ends_with("holds a genome of hexapawn, a game from outside bebete: the program that evolved it reads it"),
                "{text}"
            );
        }
        let tictactoe = crate::games::TicTacToe::BASE3;
        let err = Genome::load_for(&tictactoe, &path).unwrap_err().to_string();
        assert!(
            err.ends_with("holds a hexapawn genome, but tictactoe was asked for"),
            "{err}"
        );
    }

    #[test]
    fn random_genomes_round_trip_and_are_reproducible() {
        let dir = tempfile::tempdir().unwrap();
        for spec in [
            GameSpec::TICTACTOE,
            GameSpec::TicTacToe(crate::games::GenomeGame::votes(
                crate::games::TicTacToe,
                crate::games::TicTacToeEncoder::Symmetric,
            )),
            GameSpec::CONNECT4,
            GameSpec::Matchsticks(crate::games::GenomeGame::votes(
                crate::games::Matchsticks::new(MatchsticksRules {
                    sticks: 30,
                    rule: TakeRule::Double,
                }),
                crate::games::MatchsticksEncoder::Sticks,
            )),
        ] {
            let genome = Genome::random(spec, 42);
            assert_eq!(genome, Genome::random(spec, 42));
            assert_ne!(genome.genes, Genome::random(spec, 43).genes);
            let path = dir.path().join("g.genome");
            genome.save(&path).unwrap();
            assert_eq!(Genome::load(&path).unwrap(), genome);
        }
    }

    #[test]
    fn a_shell_is_stored_as_format_2_and_a_pure_genome_stays_format_1() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.genome");
        let mut genome = Genome::random(GameSpec::TICTACTOE, 1);
        genome.save(&path).unwrap();
        let version = |p: &Path| {
            let bytes = std::fs::read(p).unwrap();
            u16::from_le_bytes([bytes[8], bytes[9]])
        };
        assert_eq!(version(&path), 1);
        genome.lookahead = 3;
        genome.save(&path).unwrap();
        assert_eq!(version(&path), 2);
        assert_eq!(Genome::load(&path).unwrap(), genome);
        genome.lookahead = crate::encoding::shell::MAX_LOOKAHEAD + 1;
        genome.save(&path).unwrap();
        let err = Genome::load(&path).unwrap_err().to_string();
        assert!(err.contains("lookahead of 7"), "{err}");
    }

    #[test]
    fn a_gene_table_of_the_wrong_size_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.genome");
        let mut genome = Genome::random(GameSpec::TICTACTOE, 1);
        genome.genes.pop();
        genome.save(&path).unwrap();
        let err = Genome::load(&path).unwrap_err().to_string();
        assert!(err.contains("19682 genes"), "{err}");
    }

    #[test]
    fn a_tictactoe_gene_above_8_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.genome");
        let mut genome = Genome::random(GameSpec::TICTACTOE, 1);
        genome.genes[5] = 9;
        genome.save(&path).unwrap();
        let err = Genome::load(&path).unwrap_err().to_string();
        assert!(err.contains("gene 5 holds 9"), "{err}");
    }
}
