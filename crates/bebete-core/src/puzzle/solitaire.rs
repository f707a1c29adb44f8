//! Peg solitaire solved: for every position reachable from the start, the
//! fewest pegs it can still end with and the number of jump sequences from
//! it that end with one peg.
//!
//! One memoised walk backwards from the ends of games (a position's best is
//! the best of its children; its one-peg sequences are theirs summed). The
//! tests check every figure against a second, independent computation: a
//! forward sweep, jump by jump, that counts the ways to reach each position,
//! and a backward search by reversed jumps from the one-peg ends.

use super::TooLarge;
use crate::games::{Game, Notation, Solitaire, SolitairePosition};
use rustc_hash::FxHashMap;

/// Most positions [`SoloTable::build`] keeps before giving up (the
/// 21-hole board has under 3 million; the 28-hole one far more).
pub(crate) const MAX_POSITIONS: usize = 20_000_000;

/// The largest board solved: 6 rows. Every 7-row board reaches more than
/// [`MAX_POSITIONS`] positions (measured: the walk gives up after 75 s), so
/// it is refused at once.
pub(crate) const MAX_SOLVED_ROWS: u8 = 6;

/// What is known of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SoloEntry {
    /// The fewest pegs a game from here can end with.
    pub best: u8,
    /// Jump sequences from here that end with one peg.
    pub(crate) one_peg_ways: u128,
}

/// Every position reachable from the start, solved.
pub struct SoloTable {
    entries: FxHashMap<u32, SoloEntry>,
    start: u32,
}

/// The boards solved ([`MAX_SOLVED_ROWS`]), in words: for [`TooLarge`] and
/// for the refusals of what reads every position.
pub(crate) const SOLVED_BOARDS: &str = "solitaire boards of up to 6 rows";

/// Whether `game`'s board is too large to solve (more rows than
/// [`MAX_SOLVED_ROWS`]).
pub(crate) fn too_large(game: &Solitaire) -> bool {
    game.rules.rows > MAX_SOLVED_ROWS
}

fn too_large_error(limit: usize) -> TooLarge {
    TooLarge {
        limit,
        solved: SOLVED_BOARDS,
    }
}

/// The figures of `bebete solve --game solitaire`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SoloReport {
    /// Positions reachable from the start, the start included.
    pub positions: u64,
    /// The fewest pegs a game can end with.
    pub(crate) best_pegs: u8,
    /// Distinct jump sequences from the start that end with one peg (a
    /// string in JSON: it can exceed what JSON numbers hold exactly).
    #[serde(serialize_with = "as_text")]
    pub(crate) one_peg_sequences: u128,
    /// Reachable positions from which one peg can still be reached.
    pub(crate) one_peg_positions: u64,
    /// Reachable positions from which the best count can still be reached.
    pub(crate) best_positions: u64,
    /// Reachable positions where the game is over (no jump left).
    pub(crate) ends: u64,
    /// The chance that a genome of uniformly random genes (each naming any
    /// jump of the board, repaired to the next possible one) leaves one peg:
    /// what a random first generation starts from.
    pub(crate) random_genome_one_peg: f64,
}

fn as_text<S: serde::Serializer>(n: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(n)
}

impl SoloTable {
    /// Solves every position reachable from `game`'s start, giving up past
    /// `limit` positions.
    pub fn build(game: &Solitaire, limit: usize) -> Result<SoloTable, TooLarge> {
        if too_large(game) {
            return Err(too_large_error(limit));
        }
        let start = game.start().pegs;
        let mut entries = FxHashMap::default();
        solve(game, start, &mut entries, limit)?;
        Ok(SoloTable { entries, start })
    }

    /// The entry of a reachable position.
    pub(crate) fn get(&self, pos: &SolitairePosition) -> Option<SoloEntry> {
        self.entries.get(&pos.pegs).copied()
    }

    /// The entry of the start.
    pub(crate) fn start(&self) -> SoloEntry {
        self.entries[&self.start]
    }

    /// Every reachable position with its entry, in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (SolitairePosition, SoloEntry)> + '_ {
        self.entries
            .iter()
            .map(|(&pegs, &e)| (SolitairePosition { pegs }, e))
    }

    /// The figures of `solve`.
    pub fn report(&self, game: &Solitaire) -> SoloReport {
        let best = self.start().best;
        let count = |keep: &dyn Fn(&SoloEntry) -> bool| {
            self.entries.values().filter(|e| keep(e)).count() as u64
        };
        SoloReport {
            positions: self.entries.len() as u64,
            best_pegs: best,
            one_peg_sequences: self.start().one_peg_ways,
            one_peg_positions: count(&|e| e.best == 1),
            best_positions: count(&|e| e.best == best),
            ends: self
                .entries
                .keys()
                .filter(|&&pegs| !game.has_jump(pegs))
                .count() as u64,
            random_genome_one_peg: random_genome_success(
                game,
                self.start,
                &mut FxHashMap::default(),
            ),
        }
    }
}

/// `s` after a count other than one: `peg`/`pegs`.
fn plural(n: impl Into<u128>) -> &'static str {
    if n.into() == 1 { "" } else { "s" }
}

/// The lines of `bebete solve --game solitaire` under the board's name.
impl std::fmt::Display for SoloReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "positions   {} reachable from the start, {} of them ends (no jump left)\n\
             best        {} peg{} left\n\
             one peg     {} jump sequences end with one peg; one peg can still be reached from {} positions\n\
             best count  still reachable from {} positions\n\
             random      a genome of random genes leaves one peg with probability {:.4}\n",
            self.positions,
            self.ends,
            self.best_pegs,
            plural(self.best_pegs),
            self.one_peg_sequences,
            self.one_peg_positions,
            self.best_positions,
            self.random_genome_one_peg,
        )
    }
}

/// One jump of a position and the fewest pegs it can still end with.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JumpReport {
    #[serde(rename = "move")]
    pub(crate) mv: String,
    pub(crate) best_pegs: u8,
    /// A string in JSON, as [`SoloReport::one_peg_sequences`].
    #[serde(serialize_with = "as_text")]
    pub(crate) one_peg_sequences: u128,
    /// Among the jumps that end with the fewest pegs.
    pub best: bool,
}

/// The jumps of one position (`solve --game solitaire --position P`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SoloMoves {
    /// The board drawn (text only).
    #[serde(skip)]
    pub(crate) board: String,
    /// The fewest pegs the position can still end with.
    pub(crate) best_pegs: u8,
    /// Every legal jump, with the best result after it.
    pub moves: Vec<JumpReport>,
}

impl SoloMoves {
    /// The jumps of the unfinished `pos`, from the solved `table`.
    pub fn new(game: &Solitaire, table: &SoloTable, pos: &SolitairePosition) -> SoloMoves {
        let mut jumps = Vec::new();
        game.legal_moves(pos, &mut jumps);
        let entry = |m: u8| table.get(&game.play(pos, m)).expect("reachable");
        let best = jumps.iter().map(|&m| entry(m).best).min().unwrap_or(0);
        SoloMoves {
            board: game.render(pos),
            best_pegs: best,
            moves: jumps
                .iter()
                .map(|&m| JumpReport {
                    mv: game.format_move(m),
                    best_pegs: entry(m).best,
                    one_peg_sequences: entry(m).one_peg_ways,
                    best: entry(m).best == best,
                })
                .collect(),
        }
    }
}

/// The board, the best count, and each jump with what it can still reach.
impl std::fmt::Display for SoloMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.board)?;
        writeln!(
            f,
            "best        {} peg{} left",
            self.best_pegs,
            plural(self.best_pegs)
        )?;
        for j in &self.moves {
            let mark = if j.best { "  best" } else { "" };
            writeln!(
                f,
                "  {:>5}  ends with {} peg{} at best; {} sequences to one peg{mark}",
                j.mv,
                j.best_pegs,
                plural(j.best_pegs),
                j.one_peg_sequences
            )?;
        }
        Ok(())
    }
}

/// The audit of a peg-solitaire genome: what it leaves from the start, and
/// how it plays from every position reachable from there.
#[derive(Clone, Debug, PartialEq)]
pub struct SoloAudit {
    /// Pegs its game from the start leaves (`None`: it forfeits).
    pub(crate) pegs_from_start: Option<u32>,
    /// The fewest pegs the board allows.
    pub(crate) best_pegs: u8,
    /// Reachable unfinished positions.
    pub positions: u64,
    /// Of those, where its move keeps the best achievable count.
    pub(crate) keeps_best: u64,
    /// Of those, where playing on with it ends with the best count still
    /// achievable there.
    pub(crate) finishes_best: u64,
}

impl SoloAudit {
    /// The share of positions whose move keeps the best count.
    pub(crate) fn keep_rate(&self) -> f64 {
        self.keeps_best as f64 / self.positions.max(1) as f64
    }

    /// The share of positions from which it still finishes with the best count.
    pub(crate) fn finish_rate(&self) -> f64 {
        self.finishes_best as f64 / self.positions.max(1) as f64
    }
}

/// The counts and both rates, as `audit --json` shows them.
impl serde::Serialize for SoloAudit {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("SoloAudit", 7)?;
        s.serialize_field("pegs_from_start", &self.pegs_from_start)?;
        s.serialize_field("best_pegs", &self.best_pegs)?;
        s.serialize_field("positions", &self.positions)?;
        s.serialize_field("keeps_best", &self.keeps_best)?;
        s.serialize_field("finishes_best", &self.finishes_best)?;
        s.serialize_field("keep_rate", &self.keep_rate())?;
        s.serialize_field("finish_rate", &self.finish_rate())?;
        s.end()
    }
}

/// The lines of `audit` under the genome's name.
impl std::fmt::Display for SoloAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let start = match self.pegs_from_start {
            Some(n) => format!("{n} peg{} left", plural(n)),
            None => "forfeits (an illegal gene under --illegal forfeit)".to_string(),
        };
        write!(
            f,
            "from the start  {start} (the board allows {})\n\
             keeps the best  in {} of {} reachable positions ({:.1}%): its jump there can still end with the fewest pegs\n\
             finishes best   from {} of them ({:.1}%): played on by the genome, the game ends with the fewest pegs still possible\n",
            self.best_pegs,
            self.keeps_best,
            self.positions,
            100.0 * self.keep_rate(),
            self.finishes_best,
            100.0 * self.finish_rate(),
        )
    }
}

/// The chance that a random gene table leaves one peg from `pegs`: each
/// position reads its own gene once, so the chance is the mean, over the
/// gene values, of the chance after the jump the value leads to.
fn random_genome_success(game: &Solitaire, pegs: u32, memo: &mut FxHashMap<u32, f64>) -> f64 {
    if let Some(&p) = memo.get(&pegs) {
        return p;
    }
    let jumps = game.jumps();
    let legal: Vec<bool> = jumps.iter().map(|j| j.fits(pegs)).collect();
    let p = if !legal.contains(&true) {
        f64::from(u8::from(pegs.count_ones() == 1))
    } else {
        // Gene g plays the first possible jump at or after g (wrapping).
        let n = jumps.len();
        let mut total = 0.0;
        for g in 0..n {
            let m = (0..n)
                .map(|k| (g + k) % n)
                .find(|&m| legal[m])
                .expect("a jump");
            total += random_genome_success(game, jumps[m].apply(pegs), memo);
        }
        total / n as f64
    };
    memo.insert(pegs, p);
    p
}

fn solve(
    game: &Solitaire,
    pegs: u32,
    entries: &mut FxHashMap<u32, SoloEntry>,
    limit: usize,
) -> Result<SoloEntry, TooLarge> {
    if let Some(&e) = entries.get(&pegs) {
        return Ok(e);
    }
    if entries.len() >= limit {
        return Err(too_large_error(limit));
    }
    let mut entry = SoloEntry {
        best: u8::MAX,
        one_peg_ways: 0,
    };
    let mut any = false;
    for jump in game.jumps() {
        if jump.fits(pegs) {
            any = true;
            let child = solve(game, jump.apply(pegs), entries, limit)?;
            entry.best = entry.best.min(child.best);
            entry.one_peg_ways += child.one_peg_ways;
        }
    }
    if !any {
        let left = pegs.count_ones();
        entry = SoloEntry {
            best: left as u8,
            one_peg_ways: u128::from(left == 1),
        };
    }
    entries.insert(pegs, entry);
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::SolitaireRules;
    use std::collections::{HashMap, HashSet};

    /// The second way: forward, one jump at a time, counting the ways to
    /// reach each position; the one-peg positions found backwards by
    /// reversed jumps from the one-peg ends.
    fn forward(game: &Solitaire) -> SoloReport {
        let mut layer: HashMap<u32, u128> = HashMap::from([(game.start().pegs, 1)]);
        let mut reachable: HashSet<u32> = HashSet::new();
        let mut ends: Vec<u32> = Vec::new();
        let mut sequences = 0u128;
        while !layer.is_empty() {
            let mut next: HashMap<u32, u128> = HashMap::new();
            for (&pegs, &ways) in &layer {
                reachable.insert(pegs);
                let children: Vec<u32> = game
                    .jumps()
                    .iter()
                    .filter(|j| j.fits(pegs))
                    .map(|j| j.apply(pegs))
                    .collect();
                if children.is_empty() {
                    ends.push(pegs);
                    if pegs.count_ones() == 1 {
                        sequences += ways;
                    }
                }
                for child in children {
                    *next.entry(child).or_default() += ways;
                }
            }
            layer = next;
        }
        let best = ends.iter().map(|p| p.count_ones()).min().unwrap();
        // Backwards from the ends with `target` pegs, by reversed jumps.
        let back = |target: u32| -> u64 {
            let mut seen: HashSet<u32> = ends
                .iter()
                .copied()
                .filter(|p| p.count_ones() == target)
                .collect();
            let mut todo: Vec<u32> = seen.iter().copied().collect();
            while let Some(pegs) = todo.pop() {
                for j in game.jumps() {
                    // Undo: a peg in `to`, none in `from` or `over`.
                    if pegs & (1 << j.to) != 0
                        && pegs & (1 << j.from) == 0
                        && pegs & (1 << j.over) == 0
                    {
                        let parent = (pegs & !(1 << j.to)) | (1 << j.from) | (1 << j.over);
                        if reachable.contains(&parent) && seen.insert(parent) {
                            todo.push(parent);
                        }
                    }
                }
            }
            seen.len() as u64
        };
        SoloReport {
            positions: reachable.len() as u64,
            best_pegs: best as u8,
            one_peg_sequences: sequences,
            one_peg_positions: if best == 1 { back(1) } else { 0 },
            best_positions: back(best),
            ends: ends.len() as u64,
            random_genome_one_peg: 0.0,
        }
    }

    #[test]
    fn both_ways_agree_on_every_board_up_to_five_rows() {
        for rows in 4..=5u8 {
            for empty in 1..=(SolitaireRules { rows, empty: 1 }).holes() as u8 {
                let game = Solitaire::new(SolitaireRules { rows, empty });
                let table = SoloTable::build(&game, MAX_POSITIONS).unwrap();
                let report = SoloReport {
                    random_genome_one_peg: 0.0,
                    ..table.report(&game)
                };
                assert_eq!(report, forward(&game), "{rows} rows, hole {empty} empty");
            }
        }
    }

    #[test]
    fn the_fifteen_hole_triangle_matches_the_published_count() {
        // 29,760 ways to finish with one peg from an empty corner.
        let game = Solitaire::FIVE_ROWS;
        let report = SoloTable::build(&game, MAX_POSITIONS)
            .unwrap()
            .report(&game);
        assert_eq!(report.best_pegs, 1);
        assert_eq!(report.one_peg_sequences, 29_760);
    }

    #[test]
    fn the_random_genome_chance_matches_sampled_games() {
        // Each position of a game reads its own gene once, so a random
        // genome's game is a game whose every jump is drawn afresh: sample
        // 20,000 of them.
        use crate::encoding::{IllegalPolicy, TableGame};
        use rand::SeedableRng;
        let game = Solitaire::bits(Solitaire::FIVE_ROWS.rules);
        let exact = SoloTable::build(&game.rules, MAX_POSITIONS)
            .unwrap()
            .report(&game.rules)
            .random_genome_one_peg;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut genes = vec![0u8; game.gene_count()];
        let games = 20_000;
        let mut one_peg = 0;
        for _ in 0..games {
            let mut pos = game.start();
            while game.outcome(&pos).is_none() {
                genes[pos.pegs as usize] = game.random_gene(0, &mut rng);
                let mv = game.decide(&genes, &pos, IllegalPolicy::Repair).unwrap();
                pos = game.play(&pos, mv);
            }
            one_peg += u32::from(pos.pegs_left() == 1);
        }
        let sampled = f64::from(one_peg) / f64::from(games);
        // The standard error is 0.0008: four of them either side.
        assert!((sampled - exact).abs() < 0.0033, "{sampled} vs {exact}");
        assert!((exact - 0.0138).abs() < 0.0001, "{exact}");
    }

    #[test]
    fn the_limit_in_words_is_the_limit() {
        assert!(SOLVED_BOARDS.contains(&format!("up to {MAX_SOLVED_ROWS} rows")));
        let seven = Solitaire::new(SolitaireRules {
            rows: MAX_SOLVED_ROWS + 1,
            empty: 1,
        });
        assert!(too_large(&seven) && !too_large(&Solitaire::FIVE_ROWS));
    }

    #[test]
    fn a_limit_is_refused_not_exceeded() {
        let err = SoloTable::build(&Solitaire::FIVE_ROWS, 100).err().unwrap();
        assert_eq!(err, too_large_error(100));
    }
}
