//! Why a genome plays what it plays in a position, as one value: the game's
//! own reasons (the gene read, or Connect-Four's twelve votes), the move, and
//! what the tactical shell did when the genome has one.
//!
//! `bebete explain` prints it (as text or `--json`), `play` shows its one-line
//! summary, and `bebete serve` draws it on the board: all of them build it
//! here, so that the page and the command line state the same facts.

use crate::encoding::shell::{self, ShellDecision, Verdict};
use crate::encoding::{Explanation, IllegalPolicy, TableGame};
use crate::games::BuiltIn;
use serde::Serialize;

/// A genome's decision in one position, with its reasons.
pub struct Explained<G: TableGame> {
    /// The pure genome's reasons.
    pub reason: G::Reason,
    /// The shell's verdicts, for a genome with a lookahead.
    pub(crate) shell: Option<ShellDecision<G::Move>>,
    /// Plies of the shell (0: pure).
    pub lookahead: u8,
}

/// `explain --json` (and the API's `explain`): the position, the move and the
/// game's own reasons.
#[derive(Serialize)]
pub struct ExplainReport<'a, R: Serialize> {
    /// The game's name.
    pub game: &'static str,
    pub(crate) position: &'a str,
    /// The pure genome's move (`None`: it forfeits).
    #[serde(rename = "move")]
    pub(crate) mv: Option<String>,
    #[serde(flatten)]
    /// Why the genome plays its move.
    pub reason: &'a R,
    /// What the tactical shell did (genomes with a lookahead only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) shell: Option<ShellReport>,
}

/// The shell's part of the report.
#[derive(Serialize)]
pub struct ShellReport {
    /// The shell's depth, in plies.
    pub lookahead: u8,
    /// What it did, in the words `play` prints (`shell::describe`).
    pub(crate) summary: String,
    /// The move played after the shell.
    #[serde(rename = "move")]
    pub(crate) mv: Option<String>,
    pub(crate) overrode: bool,
    pub(crate) verdicts: Vec<MoveVerdict>,
}

/// One legal move and what the shell found about it.
#[derive(Serialize)]
pub struct MoveVerdict {
    #[serde(rename = "move")]
    pub(crate) mv: String,
    pub(crate) verdict: Verdict,
}

impl<G: TableGame + BuiltIn> Explained<G> {
    /// Explains the decision of `genes` (with a shell of `lookahead` plies)
    /// in the unfinished position `pos`.
    pub fn new(
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        policy: IllegalPolicy,
        lookahead: u8,
    ) -> Self {
        // A value genome searches with its own values instead of a shell.
        if let Some(reason) = game
            .as_learner()
            .filter(|_| lookahead > 0)
            .map(|learner| learner.explain_search(genes, pos, lookahead))
        {
            return Explained {
                reason,
                shell: None,
                lookahead,
            };
        }
        Explained {
            reason: game.explain(genes, pos, policy),
            shell: (lookahead > 0).then(|| shell::decide(game, genes, pos, policy, lookahead)),
            lookahead,
        }
    }

    /// The move played, after the shell; `None` when the genome forfeits.
    pub fn played(&self) -> Option<G::Move> {
        match &self.shell {
            Some(d) => d.chosen,
            None => self.reason.chosen(),
        }
    }

    /// The report of `explain --json`; `position` is the notation of `pos`.
    pub fn report<'a>(&'a self, game: &G, position: &'a str) -> ExplainReport<'a, G::Reason> {
        let shell = self.shell.as_ref().map(|d| ShellReport {
            lookahead: self.lookahead,
            summary: shell::describe(game, self.lookahead, d),
            mv: d.chosen.map(|m| game.format_move(m)),
            overrode: d.overrode,
            verdicts: d
                .verdicts
                .iter()
                .map(|&(m, verdict)| MoveVerdict {
                    mv: game.format_move(m),
                    verdict,
                })
                .collect(),
        });
        ExplainReport {
            game: game.spec().game().name(),
            position,
            mv: self.reason.chosen().map(|m| game.format_move(m)),
            reason: &self.reason,
            shell,
        }
    }

    /// One line for `play`: the reason's summary, and the shell's findings
    /// when it overrode the genome or saw a win or a loss.
    pub fn summary(&self, game: &G) -> String {
        let why = self.reason.summary();
        match &self.shell {
            Some(d) if d.overrode || d.verdicts.iter().any(|(_, v)| v.wins() || v.loses()) => {
                format!("{why} {}", shell::describe(game, self.lookahead, d))
            }
            _ => why,
        }
    }

    /// The lines `explain` prints under the board.
    pub fn details(&self, game: &G) -> String {
        let mv = self.reason.chosen().map(|m| game.format_move(m));
        let mut out = self.reason.details(mv.as_deref().unwrap_or("forfeit"));
        if let Some(d) = &self.shell {
            out.push_str(&shell::describe(game, self.lookahead, d));
            out.push('\n');
        }
        out
    }
}
