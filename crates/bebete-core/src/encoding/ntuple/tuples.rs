//! A genome's tuples as the evaluator reads them: cells, their images
//! under the board's symmetries, table offsets, and which slots read each
//! cell.

use super::*;

/// The tuples of a genome, read once: each tuple's cells and their
/// symmetric images, where its tables start, and for each cell the tuple
/// slots that read it (so that a move updates only the indices it
/// changes). With stages ([`stages`]), a position reads only its stage's
/// group of tuples: a slot is numbered within its group.
pub struct Tuples {
    pub(super) shape: NTuple,
    /// Cell states: the base of the table indices.
    base: u32,
    /// The board's width and height, as the game reads it.
    board: (usize, usize),
    pub(super) cells: Vec<[u8; MAX_LENGTH as usize]>,
    /// The genome's cell bytes as stored, tuple after tuple.
    raw: Vec<u8>,
    /// Per slot: the cells it reads. Slot `S·t + s` is tuple t's image
    /// under symmetry s ([`CellBoard::symmetric_cell`]; S images a tuple).
    images: Vec<[u8; MAX_LENGTH as usize]>,
    /// Per stage and cell (`stage · cells + cell`): (slot in the stage's
    /// group, base^i) for each slot that reads it at place i.
    readers: Vec<Vec<(u16, u32)>>,
    /// Per slot: the byte offset of its tuple's first table.
    tables: Vec<u32>,
    /// Where the second player's tables start, past a tuple's first
    /// table: 0 when both sides read the first ([`ONE_TABLE`]).
    second: u32,
    /// Game stages, each with its own equal group of tuples.
    pub(super) stages: usize,
    /// Slots in one stage's group.
    pub(super) group: usize,
    /// Cells on the board (the stride of `readers` between stages).
    cells_per_board: usize,
}

impl Tuples {
    pub(crate) fn read<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Tuples {
        let len = shape.length as usize;
        let block = shape.block_in(G::STATES);
        let board = G::WIDTH * G::HEIGHT;
        let images_per_tuple = G::SYMMETRIES;
        let stages = stages(genes);
        let group = images_per_tuple * shape.tuples as usize / stages;
        let mut cells = Vec::with_capacity(shape.tuples as usize);
        let mut images = Vec::with_capacity(images_per_tuple * shape.tuples as usize);
        let mut readers = vec![Vec::new(); board * stages];
        let mut tables = Vec::with_capacity(images_per_tuple * shape.tuples as usize);
        let mut raw = Vec::with_capacity(shape.tuples as usize * SHAPE_BYTES);
        for t in 0..shape.tuples as usize {
            let head = &genes[t * block..];
            raw.extend_from_slice(&head[..SHAPE_BYTES]);
            let mut c = [0u8; MAX_LENGTH as usize];
            for i in 0..len {
                c[i] = (head[i] as usize).min(board - 1) as u8;
            }
            cells.push(c);
            let table = (t * block + SHAPE_BYTES) as u32;
            for s in 0..images_per_tuple {
                let slot = images_per_tuple * t + s;
                let (stage, local) = (slot / group, (slot % group) as u16);
                let mut image = [0u8; MAX_LENGTH as usize];
                for i in 0..len {
                    image[i] = G::symmetric_cell(s, c[i] as usize) as u8;
                    readers[stage * board + image[i] as usize]
                        .push((local, G::STATES.pow(i as u32)));
                }
                images.push(image);
                tables.push(table);
            }
        }
        Tuples {
            shape,
            base: G::STATES,
            board: (G::WIDTH, G::HEIGHT),
            cells,
            raw,
            images,
            readers,
            tables,
            second: Self::second_in(shape, G::STATES, genes),
            stages,
            group,
            cells_per_board: board,
        }
    }

    /// Whether these are the tuples of `genes` read for the game `G` (same
    /// board, same shape, same cell bytes): compared in place, allocating
    /// nothing.
    pub(super) fn read_from<G: CellBoard>(&self, shape: NTuple, genes: &[u8]) -> bool {
        if self.shape != shape
            || self.base != G::STATES
            || self.board != (G::WIDTH, G::HEIGHT)
            || self.second != Self::second_in(shape, G::STATES, genes)
            || self.stages != stages(genes)
        {
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

    /// Where the second player's tables of `genes` start past a tuple's
    /// first table: after it, or at it with [`ONE_TABLE`].
    fn second_in(shape: NTuple, base: u32, genes: &[u8]) -> u32 {
        if learning_flags(genes) & ONE_TABLE != 0 {
            0
        } else {
            2 * shape.states_in(base) as u32
        }
    }

    /// The state index each slot of `stage`'s group reads in a position.
    pub(super) fn indices(&self, states: &[u8], stage: usize, out: &mut Vec<u32>) {
        out.clear();
        let len = self.shape.length as usize;
        let images = &self.images[stage * self.group..(stage + 1) * self.group];
        out.extend(images.iter().map(|cells| {
            cells[..len].iter().rev().fold(0u32, |index, &c| {
                index * self.base + states[c as usize] as u32
            })
        }));
    }

    /// The slots of `stage`'s group that read `cell`, with the place value
    /// of the cell in each slot's index.
    #[inline]
    pub(super) fn readers(&self, stage: usize, cell: usize) -> &[(u16, u32)] {
        &self.readers[stage * self.cells_per_board + cell]
    }

    /// The byte offset of the first table of slot `slot` of `stage`'s group.
    #[inline]
    pub(super) fn table(&self, stage: usize, slot: usize) -> u32 {
        self.tables[stage * self.group + slot]
    }

    /// The first tables of `stage`'s group, slot by slot.
    pub(super) fn tables(&self, stage: usize) -> &[u32] {
        &self.tables[stage * self.group..(stage + 1) * self.group]
    }

    /// The byte offset where the tables of `mover` (the side that left the
    /// position) start, past a tuple's first table (0 for both sides with
    /// [`ONE_TABLE`]).
    pub(super) fn side(&self, mover: Side) -> u32 {
        match mover {
            Side::First => 0,
            Side::Second => self.second,
        }
    }

    /// The byte offsets of the weights the indices of `stage`'s group read.
    pub(super) fn offsets(&self, indices: &[u32], stage: usize, mover: Side, out: &mut Vec<u32>) {
        let side = self.side(mover);
        out.clear();
        out.extend(
            indices
                .iter()
                .zip(self.tables(stage))
                .map(|(&i, &table)| table + side + 2 * i),
        );
    }
}
