//! A solver-labelled bank of positions: for each position, the exact score
//! of every legal move.
//!
//! The bank is what Connect-Four genomes learn from and are measured
//! against, position by position: the share of positions where a genome's
//! move keeps the solver's value is a fitness term (`--fitness vs:bank`) and
//! every Connect-Four run's `optimal_rate` column. `bebete bank` builds one
//! (the `labelling` module); a bank is shipped in `banks/connect4.bank` and
//! built into the binary ([`BankSource::Builtin`]).
//!
//! Positions are split by the game they came from, never one by one: every
//! tenth game's positions are held out (training never reads them), and a
//! position met in a held-out game is held out wherever else it was met, so
//! the held-out rate measures positions training did not see.
//!
//! The file is a framed container (kind `BK`): the header says how the bank
//! was made; the payload holds 24 bytes per position — the side to move's
//! stones and all stones (u64 LE each, the bitboard layout of
//! [`crate::games::Connect4Position`]), the score of each of the 7 columns
//! (i8, −128 for a full column) and a flag byte (bit 0: held out).

use crate::games::{CONNECT4_STRIDE, CONNECT4_WIDTH, Connect4Position};
use crate::solve::Score;
use crate::store::{FileError, FileProblem, Framed, decode_framed, read_framed, write_framed};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Magic tag and version of bank files.
pub(crate) const BANK_FORMAT: Framed = Framed {
    magic: *b"BEBETEBK",
    version: 1,
    file: "position bank",
};

/// Bytes per position in the payload.
const ENTRY_BYTES: usize = 24;
/// The score byte of a full column.
const FULL: i8 = i8::MIN;
/// Every `HELD_OUT_EVERY`-th game is held out.
pub const HELD_OUT_EVERY: u64 = 10;

/// The shipped bank, built into the binary (see `banks/README.md`).
static BUILTIN_CONNECT4: &[u8] = include_bytes!("../../../banks/connect4.bank");

/// How a bank was made, and how far its labelling got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BankHeader {
    /// The game's name (`connect4`).
    pub game: String,
    /// The seed the positions were gathered with.
    pub seed: u64,
    /// Positions asked for.
    pub wanted: u64,
    /// Positions with fewer stones were not gathered.
    pub min_stones: u8,
    /// The players whose games were gathered, as specs.
    pub players: Vec<String>,
    /// Games played to gather the positions.
    pub games: u64,
    /// Positions labelled so far (the payload's length); equal to the
    /// positions gathered once the bank is complete.
    pub labelled: u64,
    /// Positions gathered, labelled or not.
    pub gathered: u64,
    /// Seconds spent labelling.
    pub seconds: f64,
}

impl BankHeader {
    /// Whether every gathered position is labelled.
    pub fn complete(&self) -> bool {
        self.labelled == self.gathered
    }
}

/// One position with the exact score of every legal move.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled<P, M> {
    /// The position.
    pub pos: P,
    /// (move, score for the side to move after it), every legal move.
    pub moves: Vec<(M, Score)>,
}

impl<P, M: Copy + PartialEq> Labelled<P, M> {
    /// The best score of any move.
    pub(crate) fn best(&self) -> Score {
        self.moves
            .iter()
            .map(|&(_, s)| s)
            .max()
            .unwrap_or(Score::DRAW)
    }

    fn score_of(&self, mv: M) -> Option<Score> {
        self.moves.iter().find(|(m, _)| *m == mv).map(|&(_, s)| s)
    }

    /// Whether `mv` keeps the position's value (a win stays a win, a draw a
    /// draw; in a lost position every move does).
    pub(crate) fn keeps(&self, mv: M) -> bool {
        self.score_of(mv)
            .is_some_and(|s| s.value() == self.best().value())
    }

    /// `mv`'s score on a 0–1 scale: 1 for the best score, 0 for the worst
    /// (1 when every move scores the same; 0 for an illegal move).
    pub fn share(&self, mv: M) -> f64 {
        let Some(score) = self.score_of(mv) else {
            return 0.0;
        };
        let (lo, hi) = self
            .moves
            .iter()
            .fold((i32::MAX, i32::MIN), |(lo, hi), (_, s)| {
                (lo.min(s.get()), hi.max(s.get()))
            });
        if hi == lo {
            1.0
        } else {
            f64::from(score.get() - lo) / f64::from(hi - lo)
        }
    }
}

/// What a bank holds, split for learning.
#[derive(Clone, Debug, Default)]
pub struct Bank<P, M> {
    /// Positions training reads.
    pub train: Vec<Labelled<P, M>>,
    /// Positions training never reads.
    pub held_out: Vec<Labelled<P, M>>,
}

/// A Connect-Four bank entry as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position, the side to move's stones first.
    pub pos: Connect4Position,
    /// The score of each column for the side to move; `None`: full.
    pub(crate) scores: [Option<i8>; CONNECT4_WIDTH as usize],
    /// Held out of training: measured on, never learned from.
    pub held_out: bool,
}

impl Entry {
    fn labelled(&self) -> Labelled<Connect4Position, u8> {
        Labelled {
            pos: self.pos,
            moves: self
                .scores
                .iter()
                .enumerate()
                .filter_map(|(c, s)| s.map(|s| (c as u8, Score::raw(s.into()))))
                .collect(),
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.pos.current.to_le_bytes());
        out.extend_from_slice(&self.pos.mask.to_le_bytes());
        out.extend(self.scores.iter().map(|s| s.unwrap_or(FULL) as u8));
        out.push(self.held_out as u8);
    }

    fn decode(bytes: &[u8]) -> Result<Entry, String> {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (current, mask) = (word(0), word(8));
        let pos = Connect4Position {
            current,
            mask,
            moves: mask.count_ones() as u8,
        };
        if current & !mask != 0 || !valid_mask(mask) {
            return Err("a position that no game reaches".to_string());
        }
        let scores = std::array::from_fn(|c| {
            let s = bytes[16 + c] as i8;
            (s != FULL).then_some(s)
        });
        let entry = Entry {
            pos,
            scores,
            held_out: bytes[23] & 1 != 0,
        };
        let playable = (0..CONNECT4_WIDTH).all(|c| pos.can_play(c) == scores[c as usize].is_some());
        if !playable || bytes[23] > 1 {
            return Err("scores that do not match the position's columns".to_string());
        }
        Ok(entry)
    }
}

/// Whether every column of `mask` is filled from the bottom with no gap
/// (and the sentinel row above each column is empty).
fn valid_mask(mask: u64) -> bool {
    (0..CONNECT4_WIDTH).all(|c| {
        let column = (mask >> (c * CONNECT4_STRIDE)) & ((1 << CONNECT4_STRIDE) - 1);
        column & (column + 1) == 0 && column < (1 << (CONNECT4_STRIDE - 1))
    }) && mask >> (CONNECT4_WIDTH * CONNECT4_STRIDE) == 0
}

/// A Connect-Four bank file: how it was made and its entries.
#[derive(Clone, Debug, PartialEq)]
pub struct BankFile {
    /// How the bank was made.
    pub header: BankHeader,
    /// The labelled positions.
    pub entries: Vec<Entry>,
}

impl BankFile {
    /// Reads and checks a bank file.
    pub fn load(path: &Path) -> Result<BankFile, FileError> {
        let (header, payload) = read_framed(path, BANK_FORMAT)?;
        Self::decode(header, payload).map_err(|p| FileError::new(path, p))
    }

    fn decode(header: BankHeader, payload: Vec<u8>) -> Result<BankFile, FileProblem> {
        if header.game != "connect4" {
            return Err(FileProblem::OtherGame {
                found: header.game,
                expected: "connect4".to_string(),
            });
        }
        if !payload.len().is_multiple_of(ENTRY_BYTES)
            || (payload.len() / ENTRY_BYTES) as u64 != header.labelled
        {
            return Err(FileProblem::Malformed(format!(
                "{} payload bytes for {} positions of {ENTRY_BYTES} bytes",
                payload.len(),
                header.labelled
            )));
        }
        let entries = payload
            .chunks_exact(ENTRY_BYTES)
            .enumerate()
            .map(|(i, bytes)| {
                Entry::decode(bytes)
                    .map_err(|why| FileProblem::Malformed(format!("position {}: {why}", i + 1)))
            })
            .collect::<Result<_, _>>()?;
        Ok(BankFile { header, entries })
    }

    /// Writes the bank atomically.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let mut payload = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        self.entries.iter().for_each(|e| e.encode(&mut payload));
        write_framed(path, BANK_FORMAT, &self.header, &payload)
    }

    /// The bank split for learning; an incomplete bank is refused.
    pub fn split(&self) -> Result<Bank<Connect4Position, u8>, FileProblem> {
        if !self.header.complete() {
            return Err(FileProblem::Malformed(format!(
                "unfinished: {} of {} positions labelled (run the same `bebete bank` command again to finish it)",
                self.header.labelled, self.header.gathered
            )));
        }
        let mut bank = Bank::default();
        for e in &self.entries {
            let side = if e.held_out {
                &mut bank.held_out
            } else {
                &mut bank.train
            };
            side.push(e.labelled());
        }
        Ok(bank)
    }
}

impl BankFile {
    /// The positions of `banks` in order, each kept once (a position or its
    /// mirror image met again is dropped; held out if any copy was). The
    /// header adds up games and seconds and lists every player.
    pub fn merge(banks: &[BankFile]) -> Result<BankFile, FileProblem> {
        let mut seen: std::collections::HashMap<u64, usize> = Default::default();
        let mut merged = BankFile {
            header: BankHeader {
                game: "connect4".to_string(),
                seed: banks.first().map_or(0, |b| b.header.seed),
                wanted: 0,
                min_stones: banks.iter().map(|b| b.header.min_stones).min().unwrap_or(0),
                players: Vec::new(),
                games: 0,
                labelled: 0,
                gathered: 0,
                seconds: 0.0,
            },
            entries: Vec::new(),
        };
        for bank in banks {
            if !bank.header.complete() {
                return Err(FileProblem::Malformed(format!(
                    "an unfinished bank ({} of {} positions labelled) cannot be merged",
                    bank.header.labelled, bank.header.gathered
                )));
            }
            let h = &mut merged.header;
            h.games += bank.header.games;
            h.seconds += bank.header.seconds;
            for p in &bank.header.players {
                if !h.players.contains(p) {
                    h.players.push(p.clone());
                }
            }
            for e in &bank.entries {
                match seen.get(&canonical_key(&e.pos)) {
                    Some(&i) => merged.entries[i].held_out |= e.held_out,
                    None => {
                        seen.insert(canonical_key(&e.pos), merged.entries.len());
                        merged.entries.push(*e);
                    }
                }
            }
        }
        let n = merged.entries.len() as u64;
        (
            merged.header.wanted,
            merged.header.labelled,
            merged.header.gathered,
        ) = (n, n, n);
        Ok(merged)
    }
}

/// Where a run's bank comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BankSource {
    /// The bank built into the binary (`banks/connect4.bank`).
    #[default]
    Builtin,
    /// A bank file.
    File(PathBuf),
}

impl std::str::FromStr for BankSource {
    type Err = std::convert::Infallible;
    fn from_str(text: &str) -> Result<BankSource, Self::Err> {
        Ok(BankSource::parse(text))
    }
}

impl std::fmt::Display for BankSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BankSource::Builtin => f.write_str("builtin"),
            BankSource::File(p) => write!(f, "{}", p.display()),
        }
    }
}

impl BankSource {
    /// Reads `builtin` or a path.
    pub fn parse(text: &str) -> BankSource {
        match text {
            "builtin" => BankSource::Builtin,
            path => BankSource::File(PathBuf::from(path)),
        }
    }

    /// The path errors name: the file, or the built-in bank's source.
    fn path(&self) -> &Path {
        match self {
            BankSource::Builtin => Path::new("<built-in banks/connect4.bank>"),
            BankSource::File(path) => path,
        }
    }

    /// The bank file this names, read and checked.
    pub fn load(&self) -> Result<BankFile, FileError> {
        match self {
            BankSource::Builtin => decode_framed(BUILTIN_CONNECT4.to_vec(), BANK_FORMAT)
                .and_then(|(header, payload)| BankFile::decode(header, payload))
                .map_err(|p| FileError::new(self.path(), p)),
            BankSource::File(path) => BankFile::load(path),
        }
    }

    /// The Connect-Four bank this names, split for learning.
    pub(crate) fn connect4(&self) -> Result<Bank<Connect4Position, u8>, FileError> {
        self.load()?
            .split()
            .map_err(|p| FileError::new(self.path(), p))
    }
}

/// The mirror image of a Connect-Four position (columns reversed).
pub(crate) fn mirror(pos: &Connect4Position) -> Connect4Position {
    let flip = |bits: u64| {
        (0..CONNECT4_WIDTH).fold(0u64, |out, c| {
            let column = (bits >> (c * CONNECT4_STRIDE)) & ((1 << CONNECT4_STRIDE) - 1);
            out | column << ((CONNECT4_WIDTH - 1 - c) * CONNECT4_STRIDE)
        })
    };
    Connect4Position {
        current: flip(pos.current),
        mask: flip(pos.mask),
        moves: pos.moves,
    }
}

/// A key shared by a position and its mirror image.
pub(crate) fn canonical_key(pos: &Connect4Position) -> u64 {
    let key = |p: &Connect4Position| p.current + p.mask;
    key(pos).min(key(&mirror(pos)))
}

/// How many of some positions a genome's move keeps the value in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Rate {
    /// Positions measured.
    pub positions: u64,
    /// Of those, positions where the move kept the value.
    pub kept: u64,
}

impl Rate {
    /// `kept / positions` (0 when none was measured).
    pub fn share(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.kept as f64 / self.positions as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Connect4, Notation};

    fn entry(pos: Connect4Position, held_out: bool) -> Entry {
        Entry {
            pos,
            scores: std::array::from_fn(|c| pos.can_play(c as u32).then_some(c as i8 - 3)),
            held_out,
        }
    }

    #[test]
    fn entries_round_trip_and_bad_bytes_are_named() {
        let game = Connect4::SUBGRID;
        let pos = game.parse_position("4455443").unwrap();
        let e = entry(pos, true);
        let mut bytes = Vec::new();
        e.encode(&mut bytes);
        assert_eq!(bytes.len(), ENTRY_BYTES);
        assert_eq!(Entry::decode(&bytes).unwrap(), e);
        // A stone floating above an empty cell.
        let mut floating = bytes.clone();
        floating[8] = 0b10;
        assert!(
            Entry::decode(&floating)
                .unwrap_err()
                .contains("no game reaches")
        );
        // A score for a full column, or none for a playable one.
        let mut missing = bytes.clone();
        missing[16] = FULL as u8;
        assert!(Entry::decode(&missing).unwrap_err().contains("columns"));
    }

    #[test]
    fn mirror_keys_agree_and_mirror_twice_is_identity() {
        let game = Connect4::SUBGRID;
        let pos = game.parse_position("1123").unwrap();
        let mirrored = game.parse_position("7765").unwrap();
        assert_eq!(mirror(&pos), mirrored);
        assert_eq!(mirror(&mirror(&pos)), pos);
        assert_eq!(canonical_key(&pos), canonical_key(&mirrored));
        assert_ne!(
            canonical_key(&pos),
            canonical_key(&game.parse_position("1124").unwrap())
        );
    }

    #[test]
    fn keeping_and_shares_follow_the_scores() {
        let l = Labelled {
            pos: (),
            moves: vec![
                (0u8, Score::raw(-2)),
                (1, Score::raw(0)),
                (2, Score::raw(3)),
                (3, Score::raw(5)),
            ],
        };
        assert_eq!(l.best(), Score::raw(5));
        assert!(l.keeps(2) && l.keeps(3) && !l.keeps(1) && !l.keeps(9));
        assert_eq!(l.share(3), 1.0);
        assert_eq!(l.share(0), 0.0);
        assert!((l.share(1) - 2.0 / 7.0).abs() < 1e-12);
        let lost = Labelled {
            pos: (),
            moves: vec![(0u8, Score::raw(-2)), (1, Score::raw(-5))],
        };
        assert!(lost.keeps(0) && lost.keeps(1));
    }

    #[test]
    fn files_round_trip_and_unfinished_banks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.bank");
        let game = Connect4::SUBGRID;
        let entries = vec![
            entry(game.parse_position("44").unwrap(), false),
            entry(game.parse_position("4455").unwrap(), true),
        ];
        let mut file = BankFile {
            header: BankHeader {
                game: "connect4".into(),
                seed: 1,
                wanted: 2,
                min_stones: 0,
                players: vec!["random".into()],
                games: 1,
                labelled: 2,
                gathered: 2,
                seconds: 0.0,
            },
            entries,
        };
        file.save(&path).unwrap();
        let back = BankFile::load(&path).unwrap();
        assert_eq!(back, file);
        let bank = back.split().unwrap();
        assert_eq!((bank.train.len(), bank.held_out.len()), (1, 1));
        file.header.gathered = 3;
        file.save(&path).unwrap();
        let err = BankFile::load(&path).unwrap().split().unwrap_err();
        assert!(err.to_string().contains("unfinished: 2 of 3"), "{err}");
    }

    #[test]
    fn merging_keeps_each_position_once_and_held_out_wins() {
        let game = Connect4::SUBGRID;
        let header = |n: u64| BankHeader {
            game: "connect4".into(),
            seed: 1,
            wanted: n,
            min_stones: 0,
            players: vec!["random".into()],
            games: 2,
            labelled: n,
            gathered: n,
            seconds: 1.0,
        };
        let a = BankFile {
            header: header(2),
            entries: vec![
                entry(game.parse_position("44").unwrap(), false),
                entry(game.parse_position("12").unwrap(), false),
            ],
        };
        let b = BankFile {
            header: header(2),
            entries: vec![
                // The mirror image of "12", held out here.
                entry(game.parse_position("76").unwrap(), true),
                entry(game.parse_position("4455").unwrap(), false),
            ],
        };
        let m = BankFile::merge(&[a, b]).unwrap();
        assert_eq!(m.entries.len(), 3);
        assert!(m.entries[1].held_out && !m.entries[0].held_out);
        assert_eq!((m.header.labelled, m.header.games), (3, 4));
        assert_eq!(m.header.players, vec!["random".to_string()]);
    }

    #[test]
    fn the_builtin_bank_loads_with_a_held_out_part() {
        let bank = BankSource::Builtin.connect4().unwrap();
        assert!(bank.train.len() > 1000, "{}", bank.train.len());
        let share = bank.held_out.len() as f64 / (bank.train.len() + bank.held_out.len()) as f64;
        assert!((0.05..0.2).contains(&share), "held out {share}");
    }
}
