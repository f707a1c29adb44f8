//! How much of what a sub-grid genome (Connect-Four or checkers) meets has
//! it learned?
//!
//! Plays a genome against a fixed player and reports two things:
//!
//! - how rarely window states recur: the distinct gene indices read, and the
//!   share of reads that go to an index read only once in all these games
//!   (a state met once in a thousand games is one that training, which plays
//!   a few dozen games per genome and generation, can hardly have taught);
//! - for each genome move, how many of its windows (12 in Connect-Four, 25
//!   in checkers) cast a vote with a weight above zero. For a genome evolved with `--init zero --mutate
//!   used`, a weight above zero means the gene was redrawn after being read
//!   in a training game (and kept by selection): the count says how many
//!   windows know the position; a move where none does falls back to the
//!   tie order (the centre first; in checkers the first legal move).
//!
//! ```sh
//! cargo run --release --example window_coverage -- GENOME [OPPONENT] [GAMES]
//! ```

use bebete::encoding::{Ballot, Explanation, IllegalPolicy, TableGame, Votes};
use bebete::games::{BuiltIn, GameSpec, Kind, Pair, Side};
use bebete::genome::Genome;
use bebete::players::{Knowledge, PlayerSpec};
use std::fmt::Write;
use std::path::Path;

/// A sub-grid decision: each window's vote weight.
trait Windows {
    fn weights(&self) -> Vec<u8>;
}

impl Windows for Votes {
    fn weights(&self) -> Vec<u8> {
        self.windows.iter().map(|w| w.weight).collect()
    }
}

impl Windows for Ballot {
    fn weights(&self) -> Vec<u8> {
        self.windows.iter().map(|w| w.weight).collect()
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        anyhow::bail!("usage: window_coverage GENOME [OPPONENT] [GAMES]");
    };
    let opponent = args.get(1).map_or("random", String::as_str);
    let games: u64 = args.get(2).map_or(Ok(1000), |g| g.parse())?;
    let genome = Genome::load(Path::new(path))?;
    let (histogram, reads) = match genome.game {
        GameSpec::Connect4(game) => match game.kind {
            Kind::Votes(encoder) => {
                coverage(&Pair::new(game.rules, encoder), &genome, opponent, games)?
            }
            Kind::Value(_) => anyhow::bail!("{path} is a value genome: it has no windows"),
        },
        GameSpec::Checkers(game) => match game.kind {
            Kind::Votes(encoder) => {
                coverage(&Pair::new(game.rules, encoder), &genome, opponent, games)?
            }
            Kind::Value(_) => anyhow::bail!("{path} is a value genome: it has no windows"),
        },
        _ => anyhow::bail!("{path} is not a Connect-Four or checkers genome"),
    };
    let moves: u64 = histogram.iter().sum();
    let mut report = String::new();
    writeln!(
        report,
        "{path}: {games} games against {opponent}, {moves} genome moves"
    )?;
    let total: u64 = reads.values().sum();
    let once = reads.values().filter(|&&n| n == 1).count();
    writeln!(
        report,
        "{} distinct window states in {total} reads; {:.1}% of the reads go to a state read only once",
        reads.len(),
        100.0 * once as f64 / total.max(1) as f64
    )?;
    writeln!(report, "windows with weight > 0   share of moves")?;
    let most = histogram.iter().rposition(|&n| n > 0).unwrap_or(0);
    for (k, &n) in histogram.iter().enumerate().take(most + 1) {
        let share = 100.0 * n as f64 / moves.max(1) as f64;
        writeln!(report, "{k:>25}   {share:>6.2}%")?;
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), report.as_bytes());
    Ok(())
}

/// Reads per gene index, and genome moves by the windows that voted with
/// a weight above zero.
type Coverage = (Vec<u64>, std::collections::HashMap<usize, u64>);

fn coverage<G, L, M>(
    game: &G,
    genome: &Genome,
    opponent: &str,
    games: u64,
) -> anyhow::Result<Coverage>
where
    G: TableGame<Move = M, Reason = L> + Knowledge + BuiltIn,
    L: Explanation<M> + Windows,
    M: Copy,
{
    let factory = PlayerSpec::parse(opponent)?.factory(game, IllegalPolicy::Repair)?;
    // histogram[k]: genome moves where k windows had a weight above zero.
    let mut histogram = vec![0u64; 26];
    let mut reads: std::collections::HashMap<usize, u64> = std::collections::HashMap::new();
    for g in 0..games {
        let mut other = factory.make(game, g);
        let genome_side = if g % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut pos = game.start();
        while game.outcome(&pos).is_none() {
            let mv = if game.turn(&pos) == genome_side {
                let reason = game.explain(&genome.genes, &pos, IllegalPolicy::Repair);
                histogram[reason.weights().iter().filter(|&&w| w > 0).count()] += 1;
                for index in reason.consulted() {
                    *reads.entry(index).or_default() += 1;
                }
                reason.chosen()
            } else {
                other.choose(game, &pos)
            };
            let Some(mv) = mv else { break };
            pos = game.play(&pos, mv);
        }
    }
    Ok((histogram, reads))
}
