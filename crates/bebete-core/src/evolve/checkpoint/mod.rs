//! Checkpoints: the whole state needed to continue a run exactly.
//!
//! A checkpoint is a framed file of kind `CK` (see [`crate::store`]): the
//! header holds the run's configuration, the next generation to evaluate,
//! every stats row so far and the size of the hall of fame; the payload is
//! the population's genes, then the hall's, compressed (deflate; raw up to
//! format 7).
//! Because all randomness is derived from (seed, generation, child), nothing
//! else is needed to continue.

use super::hall::{self, Hall};
use super::{EvolveConfig, Population, StatsRow};
use crate::encoding::TableGame;
use crate::encoding::{TableGameVisitor, visit_table_game};
use crate::games::BuiltIn;
use crate::store::{FileError, FileProblem, Framed, decode_checkpoint, write_framed_streamed};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Magic tag and version of checkpoint files. Since version 8 the
/// configuration and the stats rows are self-described (JSON, every field
/// named), so a new option, fitness term or stats column needs no new
/// format, and the payload is deflated; version 9 writes the configuration
/// as `run.toml` does (one flat settings type, each value in the command
/// line's words). Before 1.0
/// a checkpoint is read only by the format that wrote it: an older one is
/// refused with what to do ([`FileProblem::OlderCheckpoint`]).
pub const CHECKPOINT_FORMAT: Framed = Framed {
    magic: *b"BEBETECK",
    version: 9,
    file: "checkpoint",
};

/// Bytes of genes a piece of the deflate stream covers (see [`deflate`]).
const DEFLATE_PIECE: usize = 1 << 20;

/// Deflates the genes into `out`: fast, for most tables are long runs of
/// the same byte (a Connect-Four value checkpoint shrinks about tenfold).
///
/// The genes are cut into pieces of [`DEFLATE_PIECE`] bytes, compressed on
/// the thread pool, each but the last ending with a sync flush (an empty
/// stored block, byte-aligned, not final) and none referring back into
/// another: their concatenation is one deflate stream, read as any other.
/// The pieces do not depend on the number of threads, so neither do the
/// bytes written. They are compressed a pool's worth at a time and written
/// in order, so no more than that is held beside the genes.
fn deflate(parts: &[&[u8]], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use rayon::prelude::*;
    let raw: usize = parts.iter().map(|p| p.len()).sum();
    let pieces = raw.div_ceil(DEFLATE_PIECE).max(1);
    let batch = rayon::current_num_threads().max(1);
    for first in (0..pieces).step_by(batch) {
        let packed: Vec<Vec<u8>> = (first..pieces.min(first + batch))
            .into_par_iter()
            .map(|piece| {
                let start = piece * DEFLATE_PIECE;
                let end = (start + DEFLATE_PIECE).min(raw);
                deflate_piece(&slices(parts, start, end), piece + 1 == pieces)
            })
            .collect();
        packed.iter().try_for_each(|p| out.write_all(p))?;
    }
    Ok(())
}

/// The bytes `start..end` of the parts laid end to end, as slices of them.
fn slices<'a>(parts: &[&'a [u8]], start: usize, end: usize) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    for part in parts {
        let (from, to) = (start.max(at), end.min(at + part.len()));
        if from < to {
            out.push(&part[from - at..to - at]);
        }
        at += part.len();
    }
    out
}

/// One piece of the stream: `input` compressed from a fresh dictionary,
/// ended by a sync flush, or finished when it is the `last`. A piece whose
/// bytes look random is stored instead (deflate's stored blocks, the same
/// stream to the reader): a Connect-Four sub-grid table is random bytes
/// wherever play never reached, and searching them for matches costs six
/// times a copy to gain nothing.
fn deflate_piece(input: &[&[u8]], last: bool) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    let size: usize = input.iter().map(|s| s.len()).sum();
    let level = if looks_random(input) {
        Compression::none()
    } else {
        Compression::fast()
    };
    let mut compress = Compress::new(level, false);
    let mut out = Vec::with_capacity(size / 2 + 1024);
    for slice in input {
        feed(&mut compress, slice, FlushCompress::None, &mut out);
    }
    let end = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    feed(&mut compress, &[], end, &mut out);
    out
}

/// Whether the bytes' order-0 entropy is within 1% of 8 bits a byte, so
/// that no Huffman code could shrink them by more than 1% (a piece of
/// repeated random blocks would compress by its matches and is still
/// called random: stored, it is merely larger).
fn looks_random(input: &[&[u8]]) -> bool {
    let mut counts = [0u64; 256];
    for slice in input {
        for &byte in *slice {
            counts[byte as usize] += 1;
        }
    }
    let total: u64 = counts.iter().sum();
    if total < 4096 {
        return false;
    }
    let n = total as f64;
    let bits: f64 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum();
    bits > 7.92
}

/// Gives `slice` to `compress` with `flush`, growing `out` until all of
/// it is taken and the flush is complete.
fn feed(
    compress: &mut flate2::Compress,
    slice: &[u8],
    flush: flate2::FlushCompress,
    out: &mut Vec<u8>,
) {
    use flate2::{FlushCompress, Status};
    let start = compress.total_in();
    loop {
        if out.capacity() - out.len() < 64 {
            out.reserve(out.capacity().max(4096));
        }
        let taken = (compress.total_in() - start) as usize;
        let status = compress
            .compress_vec(&slice[taken..], out, flush)
            .expect("deflating in memory cannot fail");
        let all_in = (compress.total_in() - start) as usize == slice.len();
        let done = match flush {
            FlushCompress::Finish => status == Status::StreamEnd,
            // A sync flush is complete once it left room to spare.
            FlushCompress::Sync => all_in && out.len() < out.capacity(),
            _ => all_in,
        };
        if done {
            return;
        }
    }
}

/// Inflates a compressed payload that must hold exactly `expected` bytes:
/// never more is produced, whatever the file says.
fn inflate(packed: &[u8], expected: usize) -> Result<Vec<u8>, FileProblem> {
    use std::io::Read;
    // Deflate cannot shrink data more than 1032 to 1: a header that
    // promises more than the payload can hold is refused before any
    // memory is set aside for it.
    if expected as u64 > packed.len() as u64 * 1032 + 1024 {
        return Err(FileProblem::Malformed(format!(
            "{} bytes of compressed genes cannot hold the {expected} the header promises",
            packed.len()
        )));
    }
    let mut genes = Vec::with_capacity(expected);
    flate2::read::DeflateDecoder::new(packed)
        .take(expected as u64 + 1)
        .read_to_end(&mut genes)
        .map_err(|e| FileProblem::Malformed(format!("the compressed genes do not read: {e}")))?;
    if genes.len() != expected {
        return Err(FileProblem::Malformed(format!(
            "the compressed genes hold {}{} bytes, expected {expected}",
            genes.len(),
            if genes.len() > expected {
                " or more"
            } else {
                ""
            }
        )));
    }
    Ok(genes)
}

/// A checkpoint's header, whatever format it was read from.
struct Header {
    config: EvolveConfig,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    /// Genomes of the hall of fame after the populations in the payload.
    hall: u64,
    /// The islands in this file: the first one's index and how many (all
    /// of them in one process; one per rank under MPI).
    first_island: u32,
    held_islands: u32,
}

/// The header of format 9 as stored: the configuration and the stats rows
/// as JSON text, the rest by position (these fields are the checkpoint's
/// own, not options).
#[derive(Deserialize)]
struct StoredHeader {
    config: String,
    generation: u64,
    gene_count: u64,
    rows: String,
    hall: u64,
    first_island: u32,
    held_islands: u32,
}

/// The state of a run between two generations.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The run's settings.
    pub config: EvolveConfig,
    /// The next generation to evaluate (= generations completed).
    pub generation: u64,
    /// Stats of every completed generation.
    pub rows: Vec<StatsRow>,
    /// The population of generation `generation`: the islands this file
    /// holds, one after the other.
    pub population: Population,
    /// The index of the first island held (0 but under MPI).
    pub first_island: usize,
    /// Past champions (`--fitness hof:N`; empty otherwise).
    pub hall: Hall,
}

struct GeneCount;

impl TableGameVisitor for GeneCount {
    type Output = usize;
    fn visit<G: TableGame + BuiltIn>(self, game: G) -> usize {
        game.gene_count()
    }
}

/// Writes a checkpoint of the given state atomically: the populations of
/// the islands held (from `first_island` on, in island order; one island
/// without `--islands`), then the hall.
pub fn write(
    path: &Path,
    config: &EvolveConfig,
    generation: u64,
    rows: &[StatsRow],
    populations: &[&Population],
    first_island: usize,
    hall: &Hall,
) -> Result<(), FileError> {
    let config = serde_json::to_string(config).expect("a configuration serialises to JSON");
    let rows = serde_json::to_string(rows).expect("stats rows serialise to JSON");
    let header = StoredHeaderRef {
        config: &config,
        generation,
        gene_count: populations.first().map_or(0, |p| p.gene_count()) as u64,
        rows: &rows,
        hall: hall.len() as u64,
        first_island: first_island as u32,
        held_islands: populations.len() as u32,
    };
    let parts: Vec<&[u8]> = populations
        .iter()
        .map(|p| p.as_bytes())
        .chain(hall.parts())
        .collect();
    write_framed_streamed(path, CHECKPOINT_FORMAT, &header, |out| deflate(&parts, out))
}

/// [`StoredHeader`] as written: borrowed, so a running evolution
/// checkpoints its state without copying it (serialises the same).
#[derive(Serialize)]
struct StoredHeaderRef<'a> {
    config: &'a str,
    generation: u64,
    gene_count: u64,
    rows: &'a str,
    hall: u64,
    first_island: u32,
    held_islands: u32,
}

impl StoredHeader {
    /// The header, its configuration and rows read from the stored JSON.
    fn read(self) -> Result<Header, FileProblem> {
        let config = serde_json::from_str(&self.config).map_err(|e| {
            FileProblem::Malformed(format!("the stored configuration does not read: {e}"))
        })?;
        let rows = serde_json::from_str(&self.rows).map_err(|e| {
            FileProblem::Malformed(format!("the stored stats rows do not read: {e}"))
        })?;
        Ok(Header {
            config,
            generation: self.generation,
            gene_count: self.gene_count,
            rows,
            hall: self.hall,
            first_island: self.first_island,
            held_islands: self.held_islands,
        })
    }
}

/// Where the checkpoints of rank `rank` of `ranks` processes go: the run's
/// `checkpoints/` in one process, `checkpoints/rank-R/` under MPI (each
/// rank writes its own islands).
pub fn dir_of_rank(run: &super::RunDir, rank: usize, ranks: usize) -> PathBuf {
    match ranks {
        1 => run.checkpoints(),
        _ => run.checkpoints().join(format!("rank-{rank}")),
    }
}

/// How many ranks' checkpoint directories a run holds (0 for a run of one
/// process).
pub fn rank_dirs(run: &super::RunDir) -> usize {
    std::fs::read_dir(run.checkpoints()).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| e.path().is_dir() && e.file_name().to_string_lossy().starts_with("rank-"))
            .count()
    })
}

/// The file name of the checkpoint taken before `generation`.
pub fn file_name(generation: u64) -> String {
    format!("gen-{generation:06}.ckpt")
}

impl Checkpoint {
    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        write(
            path,
            &self.config,
            self.generation,
            &self.rows,
            &[&self.population],
            self.first_island,
            &self.hall,
        )
    }

    /// Reads and checks a checkpoint.
    pub fn load(path: &Path) -> Result<Checkpoint, FileError> {
        let bytes = crate::store::read_regular(path)?;
        Checkpoint::from_bytes(bytes).map_err(|problem| FileError::new(path, problem))
    }

    /// Decodes and checks the bytes of a checkpoint file.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Checkpoint, FileProblem> {
        // The header is read by position; its configuration's and rows'
        // JSON is read after.
        let (header, genes) = decode_checkpoint(bytes, CHECKPOINT_FORMAT, |header| {
            postcard::from_bytes::<StoredHeader>(header).map(StoredHeader::read)
        })?;
        let malformed = FileProblem::Malformed;
        let mut header = header?;
        // A built-in game's configuration and gene count are checked here;
        // a game from outside this crate's against the game itself, when
        // the run resumes (`Evolution::resume`).
        let expected = match header.config.game.built_in() {
            Some(spec) => {
                if spec.validate().is_err() || header.config.validate().is_err() {
                    return Err(malformed(
                        "the stored configuration is out of range".to_string(),
                    ));
                }
                visit_table_game(spec, GeneCount)
            }
            None => header.gene_count as usize,
        };
        // The populations of the islands held, one after the other.
        let islands = header.config.islands;
        let held = header.held_islands as usize;
        if held == 0 || header.first_island as usize + held > islands {
            return Err(malformed(format!(
                "islands {}..{} of a run of {islands}",
                header.first_island,
                header.first_island as usize + held
            )));
        }
        let size = header.config.population * held;
        if header.hall > hall::HALL_SIZE as u64 {
            return Err(malformed(format!(
                "a hall of fame of {} genomes (at most {})",
                header.hall,
                hall::HALL_SIZE
            )));
        }
        let hall = header.hall as usize;
        if header.gene_count as usize != expected {
            return Err(malformed(format!(
                "genomes of {} genes, expected {expected}",
                header.gene_count
            )));
        }
        let genes = inflate(&genes, (size + hall) * expected)?;
        if genes.len() != (size + hall) * expected {
            return Err(malformed(format!(
                "{} bytes of genes, expected {size} genomes and {hall} of the hall of fame, of {expected} genes each",
                genes.len()
            )));
        }
        if header.rows.len() as u64 != header.generation * islands as u64 {
            return Err(malformed(format!(
                "{} stats rows for {} generations of {islands} island(s)",
                header.rows.len(),
                header.generation
            )));
        }
        for (i, row) in header.rows.iter_mut().enumerate() {
            row.island = (i % islands) as u32;
        }
        let mut genes = genes;
        let hall = Hall::from_genes(&genes[size * expected..], expected);
        genes.truncate(size * expected);
        Ok(Checkpoint {
            config: header.config,
            generation: header.generation,
            rows: header.rows,
            population: Population::from_genes(genes, expected),
            first_island: header.first_island as usize,
            hall,
        })
    }
}

/// The checkpoints in `dir`, oldest first, as (generation, path).
pub fn list(dir: &Path) -> Vec<(u64, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(u64, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let generation = name
                .strip_prefix("gen-")?
                .strip_suffix(".ckpt")?
                .parse()
                .ok()?;
            Some((generation, e.path()))
        })
        .collect();
    found.sort();
    found
}

/// Removes the oldest checkpoints beyond `keep`.
pub(crate) fn prune(dir: &Path, keep: usize) -> std::io::Result<()> {
    let all = list(dir);
    for (_, path) in all.iter().take(all.len().saturating_sub(keep)) {
        std::fs::remove_file(path)?;
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::evolve::Init;
    use crate::games::{Connect4, GameSpec};

    /// [`deflate`] into memory.
    fn deflated(parts: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        deflate(parts, &mut out).unwrap();
        out
    }

    #[test]
    fn genes_deflated_in_pieces_are_one_stream_whatever_the_threads() {
        // Three parts of odd sizes over three pieces (a piece spans parts),
        // compressible runs and random bytes.
        let mut x = 7u64;
        let mut noise = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 9) as u8
                })
                .collect()
        };
        let a = noise(DEFLATE_PIECE - 1000);
        let b = vec![3u8; DEFLATE_PIECE + 17];
        let c = noise(12_345);
        let parts: [&[u8]; 3] = [&a, &b, &c];
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let packed = one.install(|| deflated(&parts));
        assert_eq!(two.install(|| deflated(&parts)), packed);
        let whole = [a.as_slice(), &b, &c].concat();
        assert_eq!(inflate(&packed, whole.len()).unwrap(), whole);
        assert!(packed.len() < whole.len() * 3 / 4);
        // Small and empty payloads too.
        for parts in [&[][..], &[&b"x"[..]][..], &[&[][..], &[][..]][..]] {
            let whole = parts.concat();
            assert_eq!(inflate(&deflated(parts), whole.len()).unwrap(), whole);
        }
    }

    #[test]
    fn random_pieces_are_stored_and_others_compressed() {
        let mut x = 11u64;
        let random: Vec<u8> = (0..DEFLATE_PIECE + 5000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let cells: Vec<u8> = random.iter().map(|b| b % 9).collect();
        assert!(looks_random(&[&random]));
        assert!(!looks_random(&[&cells]));
        // Stored: a few bytes of block headers over the raw size, no more.
        let packed = deflated(&[&random]);
        assert!(packed.len() >= random.len() && packed.len() < random.len() + 1024);
        assert_eq!(inflate(&packed, random.len()).unwrap(), random);
        // Nine values a byte: compressed, even by the fixed Huffman code.
        let packed = deflated(&[&cells, &random]);
        assert!(packed.len() < cells.len() * 3 / 4 + random.len() + 1024);
        assert_eq!(
            inflate(&packed, cells.len() + random.len()).unwrap(),
            [cells, random].concat()
        );
    }

    /// A two-genome Connect-Four run with a shell of 2 plies, and its
    /// initial population.
    pub(crate) fn small_connect4_run() -> (EvolveConfig, Population) {
        let mut cfg = EvolveConfig::method(GameSpec::CONNECT4, 3);
        cfg.population = 2;
        cfg.elite = 1;
        cfg.parents = 1;
        cfg.lookahead = 2;
        (
            cfg,
            Population::initial(&Connect4::SUBGRID, 2, 3, Init::Zero),
        )
    }

    /// Today's format keeps every setting, the ones options added since
    /// format 1 included.
    #[test]
    fn a_checkpoint_keeps_the_whole_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let (mut cfg, pop) = small_connect4_run();
        cfg.fitness = "round-robin+bank".parse().unwrap();
        cfg.bank = crate::bank::BankSource::File("my.bank".into());
        cfg.migrants = 1;
        cfg.mutation = "0.0013..0.07".parse().unwrap();
        let path = dir.path().join("gen-000000.ckpt");
        write(&path, &cfg, 0, &[], &[&pop], 0, &Hall::default()).unwrap();
        let loaded = Checkpoint::load(&path).unwrap();
        assert_eq!(loaded.config, cfg);
        assert_eq!(loaded.population, pop);
    }

    /// The stats rows come back as written, a value JSON has no number for
    /// (NaN, infinity) included, and each column is stored by name.
    #[test]
    fn stats_rows_are_stored_by_name_and_read_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (cfg, pop) = small_connect4_run();
        let row = |generation, bench: Vec<f64>| StatsRow {
            generation,
            best: 7,
            mean: 3.25,
            worst: 1,
            diversity: 0.1 + 0.2,
            tournament_s: f64::INFINITY,
            breeding_s: 1e-9,
            io_s: 0.0,
            games: 0,
            bench,
            island: 0,
        };
        let rows = vec![row(0, vec![0.5, f64::NAN]), row(1, Vec::new())];
        let path = dir.path().join("gen-000002.ckpt");
        write(&path, &cfg, 2, &rows, &[&pop], 0, &Hall::default()).unwrap();
        let loaded = Checkpoint::load(&path).unwrap();
        let bits = |rows: &[StatsRow]| -> Vec<Vec<u64>> {
            rows.iter()
                .map(|r| {
                    [r.mean, r.diversity, r.tournament_s, r.breeding_s, r.io_s]
                        .iter()
                        .chain(&r.bench)
                        .map(|x| x.to_bits())
                        .collect()
                })
                .collect()
        };
        assert_eq!(bits(&loaded.rows), bits(&rows));
        assert_eq!(loaded.rows[1].generation, 1);
        let text = serde_json::to_string(&rows[0]).unwrap();
        assert!(text.contains("\"tournament_s\":\"inf\""), "{text}");
        assert!(text.contains("\"bench\":[0.5,\"NaN\"]"), "{text}");
    }

    /// A field absent from the stored JSON (as one a later version adds
    /// would be from today's files) takes its default.
    #[test]
    fn an_absent_field_takes_its_default() {
        let cfg = EvolveConfig::method(GameSpec::TICTACTOE, 1);
        let mut json: serde_json::Value = serde_json::to_value(&cfg).unwrap();
        let fields = json.as_object_mut().unwrap();
        for optional in [
            "lookahead",
            "self_play",
            "learn_against",
            "target",
            "patience",
        ] {
            assert!(fields.remove(optional).is_some(), "{optional} is stored");
        }
        let read: EvolveConfig = serde_json::from_value(json).unwrap();
        assert_eq!(read, cfg);
    }
}
