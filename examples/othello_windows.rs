//! Why Othello has no vote-table genome: how rarely a 4×4 window's state
//! recurs.
//!
//! A vote table for Othello would read the board through 4×4 windows, as
//! the article's Connect-Four genome does: 25 placements, 16 squares in 3
//! states (empty, the mover's disc, the opponent's), 3^16 = 43,046,721
//! genes. This plays games between two players (by default `wpc@0.1`
//! against itself, the papers' benchmark pair) and counts the window
//! states met: how many distinct ones, and the share of reads that go to a
//! state read only once in all these games (a gene no training could
//! teach, as it is never met again).
//!
//! ```sh
//! cargo run --release --example othello_windows -- [GAMES] [PLAYER]
//! ```

use bebete::encoding::IllegalPolicy;
use bebete::games::{Game, Othello, OthelloPosition};
use bebete::players::PlayerSpec;
use std::collections::HashMap;

/// The 25 window states of `pos`, read for the side to move: Σ 3^k ·
/// state (0 empty, 1 the mover's, 2 the opponent's) over the window's
/// squares row by row.
fn windows(pos: &OthelloPosition) -> [u32; 25] {
    let (me, them) = pos.sides();
    std::array::from_fn(|w| {
        let (r0, c0) = (w / 5, w % 5);
        (0..16).rev().fold(0u32, |index, k| {
            let bit = 1u64 << ((r0 + k / 4) * 8 + c0 + k % 4);
            let state = if me & bit != 0 {
                1
            } else if them & bit != 0 {
                2
            } else {
                0
            };
            index * 3 + state
        })
    })
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().map_or(Ok(1000), |g| g.parse())?;
    let spec = PlayerSpec::parse(args.get(1).map_or("wpc@0.1", String::as_str))?;
    let game = Othello::STRAIGHT;
    let factory = spec.factory(&game, IllegalPolicy::Repair)?;
    let mut seen: HashMap<u32, u64> = HashMap::new();
    let mut reads = 0u64;
    for g in 0..games {
        let mut players = [factory.make(&game, 2 * g), factory.make(&game, 2 * g + 1)];
        let mut pos = game.start();
        while game.outcome(&pos).is_none() {
            for index in windows(&pos) {
                *seen.entry(index).or_default() += 1;
                reads += 1;
            }
            let side = game.turn(&pos) as usize;
            let mv = players[side]
                .choose(&game, &pos)
                .expect("a player moves in an unfinished game");
            pos = game.play(&pos, mv);
        }
    }
    let once = seen.values().filter(|&&n| n == 1).count() as u64;
    println!("{games} games of {spec} against itself: {reads} window reads");
    println!(
        "distinct window states {} of 3^16 = 43,046,721 genes ({:.3}% of the table)",
        seen.len(),
        100.0 * seen.len() as f64 / 43_046_721.0
    );
    println!(
        "reads of a state read only once: {once} ({:.1}% of the reads)",
        100.0 * once as f64 / reads as f64
    );
    Ok(())
}
