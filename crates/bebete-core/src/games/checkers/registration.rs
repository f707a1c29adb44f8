//! What checkers tells the rest of the program about itself (see
//! `games::registry`): its names, settings, encoders and options.

use super::*;
use crate::games::KindOf;
use crate::games::OptionError;

/// Checkers with its genome kind as files store it: the vote table's
/// encoder, then the value genome. Append only.
#[derive(serde::Serialize, serde::Deserialize)]
pub enum Stored {
    Subgrid,
    NTuple(NTuple),
}

impl GenomeKinds for Checkers {
    type Votes = CheckersEncoder;
    type Values = ValueGenome;
    type Stored = Stored;

    fn store(game: &GenomeGame<Checkers>) -> Stored {
        match game.kind {
            Kind::Votes(CheckersEncoder::Subgrid) => Stored::Subgrid,
            Kind::Value(genome) => Stored::NTuple(genome.shape),
        }
    }

    fn load(stored: Stored) -> Result<GenomeGame<Checkers>, String> {
        Ok(match stored {
            Stored::Subgrid => Checkers::SUBGRID.registered(),
            Stored::NTuple(shape) => Checkers::value_genome(shape).registered(),
        })
    }
}

/// The vote table is Checkers's votes kind.
impl KindOf<Checkers> for CheckersEncoder {
    fn of(self) -> Kind<Checkers> {
        Kind::Votes(self)
    }
}

impl Registered for GenomeGame<Checkers> {
    const NAME: &'static str = "checkers";
    const TITLE: &'static str = "Checkers";
    const ALIASES: &'static [&'static str] = &["draughts"];
    fn variants() -> Vec<Self> {
        vec![
            Checkers::SUBGRID.registered(),
            Checkers::value_genome(NTuple {
                tuples: 4,
                length: 4,
            })
            .registered(),
        ]
    }

    fn from_options(options: &GameOptions) -> Result<Self, OptionError> {
        // evolve's recommended settings learn a value genome; the text's
        // sub-grid genome is the default everywhere else.
        let default = if options.recommended {
            "ntuple"
        } else {
            "subgrid"
        };
        match options.encoder.as_deref().unwrap_or(default) {
            "subgrid" => Ok(Checkers::SUBGRID.registered()),
            "ntuple" => {
                Ok(Checkers::value_genome(options.value_shape(Checkers::NTUPLE, 32)?).registered())
            }
            _ => Err(options.unknown_encoder(Self::NAME, &["subgrid", "ntuple"], default)),
        }
    }

    fn encoder_name(&self) -> &'static str {
        self.encoder().map_or("ntuple", CheckersEncoder::name)
    }

    fn describe(&self) -> String {
        match self.kind {
            Kind::Votes(CheckersEncoder::Subgrid) => Self::NAME.to_string(),
            Kind::Value(genome) => format!("checkers (value genome, {} tuples)", genome.shape),
        }
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        match self.value_genome() {
            Some(shape) => shape.check(SQUARES).map_err(InvalidRules::from),
            None => Ok(()),
        }
    }

    fn value_genome(&self) -> Option<NTuple> {
        self.value_kind().map(|genome| genome.shape)
    }
}
