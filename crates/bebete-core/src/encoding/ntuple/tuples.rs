//! A genome's tuples as the evaluator reads them: cells, mirror cells,
//! table offsets, and which slots read each cell.

use super::*;

/// The tuples of a genome, read once: each tuple's cells and mirrored
/// cells, where its tables start, and for each cell the tuple slots that
/// read it (so that a move updates only the indices it changes).
pub struct Tuples {
    pub(super) shape: NTuple,
    /// Cell states: the base of the table indices.
    base: u32,
    /// The board's width and height, as the game reads it.
    board: (usize, usize),
    pub(super) cells: Vec<[u8; MAX_LENGTH as usize]>,
    /// The genome's cell bytes as stored, tuple after tuple.
    raw: Vec<u8>,
    mirrored: Vec<[u8; MAX_LENGTH as usize]>,
    /// Per cell: (slot, base^i) for each slot that reads it at place i; slot
    /// 2t is tuple t, 2t + 1 its mirror image.
    pub(super) readers: Vec<Vec<(u16, u32)>>,
    /// Per slot: the byte offset of its tuple's first table.
    pub(super) tables: Vec<u32>,
}

impl Tuples {
    pub fn read<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Tuples {
        let len = shape.length as usize;
        let block = shape.block_in(G::STATES);
        let board = G::WIDTH * G::HEIGHT;
        let mut cells = Vec::with_capacity(shape.tuples as usize);
        let mut mirrored = Vec::with_capacity(shape.tuples as usize);
        let mut readers = vec![Vec::new(); board];
        let mut tables = Vec::with_capacity(2 * shape.tuples as usize);
        let mut raw = Vec::with_capacity(shape.tuples as usize * SHAPE_BYTES);
        for t in 0..shape.tuples as usize {
            let head = &genes[t * block..];
            raw.extend_from_slice(&head[..SHAPE_BYTES]);
            let mut c = [0u8; MAX_LENGTH as usize];
            let mut m = [0u8; MAX_LENGTH as usize];
            for i in 0..len {
                let cell = (head[i] as usize).min(board - 1);
                c[i] = cell as u8;
                m[i] = G::mirror_cell(cell) as u8;
                let place = G::STATES.pow(i as u32);
                readers[c[i] as usize].push(((2 * t) as u16, place));
                readers[m[i] as usize].push(((2 * t + 1) as u16, place));
            }
            cells.push(c);
            mirrored.push(m);
            let table = (t * block + SHAPE_BYTES) as u32;
            tables.extend([table, table]);
        }
        Tuples {
            shape,
            base: G::STATES,
            board: (G::WIDTH, G::HEIGHT),
            cells,
            raw,
            mirrored,
            readers,
            tables,
        }
    }

    /// Whether these are the tuples of `genes` read for the game `G` (same
    /// board, same shape, same cell bytes): compared in place, allocating
    /// nothing.
    pub(super) fn read_from<G: CellBoard>(&self, shape: NTuple, genes: &[u8]) -> bool {
        if self.shape != shape || self.base != G::STATES || self.board != (G::WIDTH, G::HEIGHT) {
            return false;
        }
        let block = shape.block_in(self.base);
        self.raw
            .chunks_exact(SHAPE_BYTES)
            .enumerate()
            .all(|(t, cells)| genes.get(t * block..t * block + SHAPE_BYTES) == Some(cells))
    }

    /// The tuples of `genes`, from this thread's cache of the last few
    /// genomes read (a genome plays many moves in a row, and reading its
    /// tuples costs more than a move), matched by [`Tuples::read_from`].
    pub(super) fn cached<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Arc<Tuples> {
        thread_local! {
            static CACHE: RefCell<Vec<Arc<Tuples>>> = const { RefCell::new(Vec::new()) };
        }
        CACHE.with_borrow_mut(|cache| {
            if let Some(i) = cache.iter().position(|t| t.read_from::<G>(shape, genes)) {
                let tuples = cache.remove(i);
                cache.push(tuples.clone());
                return tuples;
            }
            let tuples = Arc::new(Tuples::read::<G>(shape, genes));
            if cache.len() == 8 {
                cache.remove(0);
            }
            cache.push(tuples.clone());
            tuples
        })
    }

    /// The state index each slot reads in a position.
    pub(super) fn indices(&self, states: &[u8], out: &mut Vec<u32>) {
        out.clear();
        let len = self.shape.length as usize;
        for (cells, mirrored) in self.cells.iter().zip(&self.mirrored) {
            let (mut a, mut b) = (0u32, 0u32);
            for i in (0..len).rev() {
                a = a * self.base + states[cells[i] as usize] as u32;
                b = b * self.base + states[mirrored[i] as usize] as u32;
            }
            out.extend([a, b]);
        }
    }

    /// The byte offset where the tables of `mover` (the side that left the
    /// position) start, past a tuple's first table.
    pub(super) fn side(&self, mover: Side) -> u32 {
        match mover {
            Side::First => 0,
            Side::Second => 2 * self.shape.states_in(self.base) as u32,
        }
    }

    /// The byte offsets of the weights the indices read.
    pub(super) fn offsets(&self, indices: &[u32], mover: Side, out: &mut Vec<u32>) {
        let side = self.side(mover);
        out.clear();
        out.extend(
            indices
                .iter()
                .zip(&self.tables)
                .map(|(&i, &table)| table + side + 2 * i),
        );
    }
}
