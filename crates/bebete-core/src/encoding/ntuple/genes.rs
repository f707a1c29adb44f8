//! A value genome's bytes: fresh genomes, their checks, and the mutation
//! that redraws whole tuples.

use super::*;

/// A fresh genome: random-walk tuples, all distinct as cell sets, zero
/// weights, the default learning settings.
pub fn fill_random<G: CellBoard, R: Rng + ?Sized>(shape: NTuple, genes: &mut [u8], rng: &mut R) {
    genes.fill(0);
    let mut seen: Vec<u64> = Vec::new();
    for t in 0..shape.tuples as usize {
        // Distinct when the board allows it (a few hundred draws at most).
        let mut cells = random_walk::<G, R>(shape.length, rng);
        for _ in 0..200 {
            if !seen.contains(&cell_set(&cells)) {
                break;
            }
            cells = random_walk::<G, R>(shape.length, rng);
        }
        seen.push(cell_set(&cells));
        write_shape::<G>(shape, genes, t, &cells);
    }
    let p = genes.len() - PARAM_BYTES;
    genes[p..p + 4].copy_from_slice(&fresh_codes::<G>(Placement::Drawn, 1));
}

/// A fresh genome of the given tuples (a systematic placement): their
/// cells, zero weights, the default learning settings for that placement.
/// A shape with k times as many tuples (k ≤ [`CellBoard::MAX_STAGES`])
/// holds them k times over, one group for each of k game stages.
pub fn fill_given<G: CellBoard>(
    shape: NTuple,
    genes: &mut [u8],
    tuples: &[Vec<u8>],
    placement: Placement,
) {
    genes.fill(0);
    let given = tuples.len().max(1);
    let stages = match shape.tuples as usize {
        n if n > given && n.is_multiple_of(given) => (n / given).min(G::MAX_STAGES),
        _ => 1,
    };
    for (t, cells) in tuples.iter().cycle().take(given * stages).enumerate() {
        write_shape::<G>(shape, genes, t, cells);
    }
    let p = genes.len() - PARAM_BYTES;
    genes[p..p + 4].copy_from_slice(&fresh_codes::<G>(placement, stages));
}

pub(super) fn cell_set(cells: &[u8]) -> u64 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

fn write_shape<G: CellBoard>(shape: NTuple, genes: &mut [u8], t: usize, cells: &[u8]) {
    let block = shape.block_in(G::STATES);
    let head = &mut genes[t * block..t * block + SHAPE_BYTES];
    head.fill(NO_CELL);
    head[..cells.len()].copy_from_slice(cells);
}

/// `length` distinct cells, each a neighbour (8 directions) of the one
/// before; a walk that gets stuck starts again.
fn random_walk<G: CellBoard, R: Rng + ?Sized>(length: u8, rng: &mut R) -> Vec<u8> {
    let (w, h) = (G::WIDTH as i32, G::HEIGHT as i32);
    'walk: loop {
        let mut cells = vec![rng.random_range(0..w * h) as u8];
        while cells.len() < length as usize {
            let last = *cells.last().expect("one cell") as i32;
            let (r, c) = (last / w, last % w);
            let next: Vec<u8> = (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
                .filter(|&(nr, nc)| (0..h).contains(&nr) && (0..w).contains(&nc))
                .map(|(nr, nc)| (nr * w + nc) as u8)
                .filter(|n| !cells.contains(n))
                .collect();
            if next.is_empty() {
                continue 'walk;
            }
            cells.push(next[rng.random_range(0..next.len())]);
        }
        return cells;
    }
}

/// What is wrong with a stored value genome, if anything: every tuple's
/// cells on the board, distinct, unused bytes empty, and only known
/// learning flags.
pub fn problem<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Option<String> {
    if genes.len() != shape.gene_count_in(G::STATES) {
        return Some(format!(
            "{} bytes, but a {shape} value genome has {}",
            genes.len(),
            shape.gene_count_in(G::STATES)
        ));
    }
    let block = shape.block_in(G::STATES);
    let board = G::WIDTH * G::HEIGHT;
    let len = shape.length as usize;
    for t in 0..shape.tuples as usize {
        let head = &genes[t * block..t * block + SHAPE_BYTES];
        let (cells, rest) = head.split_at(len);
        if let Some(&c) = cells.iter().find(|&&c| c as usize >= board) {
            return Some(format!(
                "tuple {t} names cell {c}, off the {board}-cell board"
            ));
        }
        if cell_set(cells).count_ones() as usize != len {
            return Some(format!("tuple {t} names a cell twice"));
        }
        if rest.iter().any(|&b| b != NO_CELL) {
            return Some(format!("tuple {t} has stray bytes after its cells"));
        }
    }
    let flags = learning_flags(genes);
    if flags & !KNOWN_FLAGS != 0 {
        return Some(format!(
            "learning flags {flags:#04x}: only {FROM_EXPLORATION} (from exploration), {ONE_TABLE} (one table) and {FIXED_SCHEDULE} (a fixed schedule) are known"
        ));
    }
    let stages = stages(genes);
    if stages > G::MAX_STAGES {
        return Some(format!(
            "{stages} game stages: this board has at most {}",
            G::MAX_STAGES
        ));
    }
    if !(shape.tuples as usize).is_multiple_of(stages) {
        return Some(format!(
            "{stages} game stages do not split {} tuples into equal groups",
            shape.tuples
        ));
    }
    None
}

/// The value genome's mutation: with `redraw`, each tuple with
/// probability `rate` gets a new random-walk shape and empty tables; the
/// learning settings drift (each code by −8..=8 with probability 1/2)
/// unless the genome's schedule is fixed (`FIXED_SCHEDULE`).
/// Returns the tuples redrawn.
pub fn mutate<G: CellBoard, R: Rng + ?Sized>(
    shape: NTuple,
    genes: &mut [u8],
    rate: f64,
    redraw: bool,
    rng: &mut R,
) -> usize {
    let mut redrawn = 0;
    for t in (0..shape.tuples as usize).filter(|_| redraw) {
        if rng.random::<f64>() < rate {
            let cells = random_walk::<G, R>(shape.length, rng);
            write_shape::<G>(shape, genes, t, &cells);
            let block = shape.block_in(G::STATES);
            let start = t * block + SHAPE_BYTES;
            genes[start..(t + 1) * block].fill(0);
            redrawn += 1;
        }
    }
    if learning_flags(genes) & FIXED_SCHEDULE != 0 {
        return redrawn;
    }
    let p = genes.len() - PARAM_BYTES;
    for code in &mut genes[p..p + 3] {
        if rng.random::<bool>() {
            *code = (*code as i32 + rng.random_range(-8..=8)).clamp(0, 255) as u8;
        }
    }
    redrawn
}
