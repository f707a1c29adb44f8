//! A committee of value genomes: one genome whose sum is the mean of
//! theirs, so that it values every position as the mean of their values
//! before the `tanh`.
//!
//! A value genome's sum is linear in its weights, so the mean of several
//! genomes' sums is itself a value genome: every tuple of every member,
//! each weight divided by the number of members. Members that read the
//! same tuples (Othello's patterns and straight lines, or one lineage's
//! genomes) keep their shape: their weights are averaged table by table.
//! Members of one run share their ancestors' tuples and much of their
//! learning; members learned apart (other seeds) differ more, and their
//! mean is the one that can be stronger than any of them
//! (docs/experiments.md, "A committee of learners").

use super::evaluator::weight;
use super::{NTuple, PARAM_BYTES, Params, SHAPE_BYTES, learning_flags, stages};
use crate::games::MAX_TUPLES;

/// Why genomes do not make a committee. Members are numbered from 1, in
/// the order given.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommitteeError {
    #[error("a committee needs at least 2 genomes, not {0}")]
    TooFew(usize),
    #[error("member {member} has tuples of {found} cells, member 1 of {expected}")]
    Length {
        member: usize,
        found: u8,
        expected: u8,
    },
    #[error(
        "member {member} has {found} bytes, not a whole number of tuples of a {shape} value genome"
    )]
    Blocks {
        member: usize,
        shape: NTuple,
        found: usize,
    },
    #[error("member {member} has {found} bytes, but a {shape} value genome has {expected}")]
    Size {
        member: usize,
        shape: NTuple,
        found: usize,
        expected: usize,
    },
    #[error(
        "member {member}'s learning flags are {found:#04x}, member 1's {expected:#04x}: members must learn alike (one table or two, from exploratory moves or not)"
    )]
    Flags {
        member: usize,
        found: u8,
        expected: u8,
    },
    #[error("member {member} splits its tables into {found} game stages, member 1 into {expected}")]
    StageCount {
        member: usize,
        found: usize,
        expected: usize,
    },
    #[error(
        "member {member} reads other tuples than member 1 and its tables are split into {stages} game stages: members split by stage must read the same tuples"
    )]
    Stages { member: usize, stages: usize },
    #[error("the members hold {0} tuples in all, over the {MAX_TUPLES} a genome holds")]
    TooMany(usize),
}

/// The committee of `members` (each its shape and its genes): its shape and
/// genes. Its weights are the members' summed and divided by their number,
/// rounded to the nearest unit, so that its sum is their sums' mean within
/// half a unit a weight read; members with the same tuples, in the same
/// order, keep that shape; otherwise the committee holds every member's
/// tuples in turn. Its learning settings are the first member's, and its
/// count of games learned from the largest member's (the schedule's clock,
/// should it learn on).
pub fn committee(members: &[(NTuple, &[u8])]) -> Result<(NTuple, Vec<u8>), CommitteeError> {
    let [(first, first_genes), ..] = members else {
        return Err(CommitteeError::TooFew(0));
    };
    if members.len() < 2 {
        return Err(CommitteeError::TooFew(members.len()));
    }
    let block = block_of(*first, first_genes.len()).ok_or(CommitteeError::Blocks {
        member: 1,
        shape: *first,
        found: first_genes.len(),
    })?;
    for (i, &(shape, genes)) in members.iter().enumerate().skip(1) {
        let member = i + 1;
        if shape.length != first.length {
            return Err(CommitteeError::Length {
                member,
                found: shape.length,
                expected: first.length,
            });
        }
        let expected = shape.tuples as usize * block + PARAM_BYTES;
        if genes.len() != expected {
            return Err(CommitteeError::Size {
                member,
                shape,
                found: genes.len(),
                expected,
            });
        }
        let (found, expected) = (learning_flags(genes), learning_flags(first_genes));
        if found != expected {
            return Err(CommitteeError::Flags {
                member,
                found,
                expected,
            });
        }
        let (found, expected) = (stages(genes), stages(first_genes));
        if found != expected {
            return Err(CommitteeError::StageCount {
                member,
                found,
                expected,
            });
        }
    }
    let same_tuples = members.iter().all(|&(shape, genes)| {
        shape.tuples == first.tuples
            && (0..shape.tuples as usize)
                .all(|t| heads(genes, block, t) == heads(first_genes, block, t))
    });
    let count = members.len();
    let mut genes = Vec::new();
    let shape = if same_tuples {
        let all: Vec<&[u8]> = members.iter().map(|&(_, g)| g).collect();
        for t in 0..first.tuples as usize {
            push_mean(&mut genes, &all, block, t, count);
        }
        *first
    } else {
        if let Some(i) = members.iter().position(|(_, g)| stages(g) > 1) {
            return Err(CommitteeError::Stages {
                member: i + 1,
                stages: stages(members[i].1),
            });
        }
        let tuples: usize = members.iter().map(|(s, _)| s.tuples as usize).sum();
        if tuples > MAX_TUPLES as usize {
            return Err(CommitteeError::TooMany(tuples));
        }
        for &(shape, member) in members {
            for t in 0..shape.tuples as usize {
                push_mean(&mut genes, &[member], block, t, count);
            }
        }
        NTuple {
            tuples: tuples as u16,
            length: first.length,
        }
    };
    let params = &first_genes[first_genes.len() - PARAM_BYTES..];
    genes.extend_from_slice(&params[..4]);
    let games = members.iter().map(|(_, g)| Params::read(g).games).max();
    genes.extend_from_slice(&games.unwrap_or(0).to_le_bytes());
    Ok((shape, genes))
}

/// Bytes of one tuple's block in a genome of `shape` and `len` bytes; `None`
/// when they do not divide so.
fn block_of(shape: NTuple, len: usize) -> Option<usize> {
    let tuples = shape.tuples as usize;
    let body = len.checked_sub(PARAM_BYTES)?;
    (tuples > 0 && body.is_multiple_of(tuples) && body / tuples > SHAPE_BYTES)
        .then_some(body / tuples)
}

/// Tuple `t`'s cell bytes.
fn heads(genes: &[u8], block: usize, t: usize) -> &[u8] {
    &genes[t * block..t * block + SHAPE_BYTES]
}

/// The byte offsets of tuple `t`'s weights, both tables.
fn weights(block: usize, t: usize) -> impl Iterator<Item = usize> {
    (t * block + SHAPE_BYTES..(t + 1) * block).step_by(2)
}

/// The weight at byte `at`, in units.
fn unit(genes: &[u8], at: usize) -> i64 {
    weight(genes, at as u32) as i64
}

/// Appends tuple `t` of `sources` (which read the same cells): the first's
/// cell bytes, then each weight their sum divided by `count` (the
/// committee's size), rounded to the nearest unit.
fn push_mean(out: &mut Vec<u8>, sources: &[&[u8]], block: usize, t: usize, count: usize) {
    out.extend_from_slice(heads(sources[0], block, t));
    for w in weights(block, t) {
        let units: i64 = sources.iter().map(|g| unit(g, w)).sum();
        let mean = (units as f64 / count as f64).round();
        let mean = mean.clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        out.extend_from_slice(&mean.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::ntuple::{CellBoard, Evaluator, fill_random};
    use crate::games::{Game, Pair, TicTacToe, ValueGenome};
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    const SHAPE: NTuple = NTuple {
        tuples: 6,
        length: 4,
    };

    /// A fresh tic-tac-toe value genome of `shape` with small random
    /// weights (small enough that no sum is near `tanh`'s flat ends).
    fn member(shape: NTuple, seed: u64) -> Vec<u8> {
        let game = Pair::new(TicTacToe, ValueGenome::drawn(shape));
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut genes = vec![0; crate::encoding::TableGame::gene_count(&game)];
        fill_random::<TicTacToe, _>(shape, &mut genes, &mut rng);
        let block = block_of(shape, genes.len()).unwrap();
        for t in 0..shape.tuples as usize {
            for w in weights(block, t) {
                let units: i16 = rng.random_range(-40..=40);
                genes[w..w + 2].copy_from_slice(&units.to_le_bytes());
            }
        }
        let p = genes.len() - 4;
        genes[p..].copy_from_slice(&(1000 * seed as u32).to_le_bytes());
        genes
    }

    /// The sum (`atanh` of the value) of `genes` at every position a few
    /// random games reach.
    fn sums(shape: NTuple, genes: &[u8]) -> Vec<f32> {
        let game = TicTacToe;
        let mut evaluator = Evaluator::<TicTacToe>::new(shape, genes);
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut pos = game.start();
            while game.outcome(&pos).is_none() {
                game.legal_moves(&pos, &mut moves);
                pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
                if game.outcome(&pos).is_none() {
                    let mover = game.turn(&pos).other();
                    out.push(evaluator.value(&game, genes, &pos, mover).atanh());
                }
            }
        }
        out
    }

    #[test]
    fn a_committee_values_every_position_as_the_mean_of_its_members() {
        let a = member(SHAPE, 1);
        let b = member(SHAPE, 2);
        let c = member(SHAPE, 3);
        let (shape, genes) = committee(&[(SHAPE, &a), (SHAPE, &b), (SHAPE, &c)]).unwrap();
        assert_eq!(shape.tuples, 18, "drawn tuples differ, so all are kept");
        assert_eq!(genes.len(), shape.gene_count_in(TicTacToe::STATES));
        let (sa, sb, sc, sm) = (
            sums(SHAPE, &a),
            sums(SHAPE, &b),
            sums(SHAPE, &c),
            sums(shape, &genes),
        );
        assert!(sm.len() > 50);
        // Half a unit of rounding for each weight read: 18 tuples, 2 images.
        let slack = 18.0 * 2.0 * 0.5 / super::super::SCALE + 1e-4;
        for i in 0..sm.len() {
            let mean = (sa[i] + sb[i] + sc[i]) / 3.0;
            assert!((sm[i] - mean).abs() <= slack, "{} against {mean}", sm[i]);
        }
        // The first member's settings, the largest count of games.
        let p = genes.len() - PARAM_BYTES;
        assert_eq!(genes[p..p + 4], a[a.len() - PARAM_BYTES..a.len() - 4]);
        assert_eq!(Params::read(&genes).games, 3000);
    }

    #[test]
    fn members_with_the_same_tuples_keep_their_shape() {
        let a = member(SHAPE, 1);
        let mut b = a.clone();
        let block = block_of(SHAPE, a.len()).unwrap();
        for t in 0..SHAPE.tuples as usize {
            for w in weights(block, t) {
                let doubled = (unit(&a, w) * 3) as i16;
                b[w..w + 2].copy_from_slice(&doubled.to_le_bytes());
            }
        }
        let (shape, genes) = committee(&[(SHAPE, &a), (SHAPE, &b)]).unwrap();
        assert_eq!(shape, SHAPE);
        for t in 0..SHAPE.tuples as usize {
            assert_eq!(heads(&genes, block, t), heads(&a, block, t));
            for w in weights(block, t) {
                assert_eq!(unit(&genes, w), unit(&a, w) * 2, "(w + 3w) / 2");
            }
        }
    }

    #[test]
    fn genomes_that_cannot_sit_together_are_refused_saying_why() {
        let a = member(SHAPE, 1);
        assert_eq!(committee(&[(SHAPE, &a)]), Err(CommitteeError::TooFew(1)));
        let short = NTuple {
            tuples: 6,
            length: 3,
        };
        let b = member(short, 2);
        assert_eq!(
            committee(&[(SHAPE, &a), (short, &b)]),
            Err(CommitteeError::Length {
                member: 2,
                found: 3,
                expected: 4
            })
        );
        let mut c = member(SHAPE, 3);
        let flags = c.len() - PARAM_BYTES + 3;
        c[flags] |= super::super::ONE_TABLE;
        assert!(matches!(
            committee(&[(SHAPE, &a), (SHAPE, &c)]),
            Err(CommitteeError::Flags { member: 2, .. })
        ));
        let mut staged = member(SHAPE, 3);
        staged[flags] |= super::super::stage_bits(2);
        assert_eq!(
            committee(&[(SHAPE, &a), (SHAPE, &staged)]),
            Err(CommitteeError::StageCount {
                member: 2,
                found: 2,
                expected: 1
            })
        );
        // Split by stage and reading other tuples: no committee.
        let mut other = member(SHAPE, 4);
        other[flags] |= super::super::stage_bits(2);
        assert_eq!(
            committee(&[(SHAPE, &staged), (SHAPE, &other)]),
            Err(CommitteeError::Stages {
                member: 1,
                stages: 2
            })
        );
        let many = NTuple {
            tuples: 600,
            length: 4,
        };
        let (d, e) = (member(many, 4), member(many, 5));
        assert_eq!(
            committee(&[(many, &d), (many, &e)]),
            Err(CommitteeError::TooMany(1200))
        );
        assert!(matches!(
            committee(&[(SHAPE, &a), (SHAPE, &a[1..])]),
            Err(CommitteeError::Size { member: 2, .. })
        ));
        assert!(matches!(
            committee(&[(SHAPE, &a[1..]), (SHAPE, &a)]),
            Err(CommitteeError::Blocks { member: 1, .. })
        ));
    }
}
