//! How the settings are written in `run.toml`, in a checkpoint's header and
//! as `--set KEY=VALUE` or a Python keyword: each value as the command line
//! writes it (`mutation = "0.0005..0.02"`, `fitness = "vs:random:10"`), the
//! game as its name and the options that choose it again. A value is read
//! back from a string or, where its words are a number or a truth value
//! (`mutation = 0.02`), from that too.

use crate::games::{GameId, GameName, GameOptions, TakeRuleName};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use std::str::FromStr;

/// A value's words: a string, or a number or truth value as written.
struct Words;

impl<'de> Visitor<'de> for Words {
    type Value = String;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a value in the command line's words")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
}

/// A value's words, or none (absent, null).
struct MaybeWords;

impl<'de> Visitor<'de> for MaybeWords {
    type Value = Option<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a value in the command line's words, or none")
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(Words).map(Some)
    }
}

fn parse<T: FromStr, E: de::Error>(text: &str) -> Result<T, E>
where
    T::Err: Display,
{
    text.trim().parse().map_err(E::custom)
}

/// A value written as its words (`Display`), read back with `FromStr`.
pub(crate) mod text {
    use super::*;

    /// Words that are a number (a mutation rate) are written as one.
    pub(crate) fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        let words = v.to_string();
        match words.parse::<f64>() {
            Ok(x) if x.is_finite() && x.to_string() == words => s.serialize_f64(x),
            _ => s.serialize_str(&words),
        }
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        parse(&d.deserialize_any(Words)?)
    }
}

/// An optional value: absent (or `none`) is `None`.
pub(crate) mod optional {
    use super::*;

    pub(crate) fn serialize<T: Display, S: Serializer>(
        v: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::text::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        absent_as(d, &["", "none"])
    }
}

/// An optional value whose absence is written as one of `absent`
/// (`none`; `self` for the player a genome learns against).
fn absent_as<'de, T, D>(d: D, absent: &[&str]) -> Result<Option<T>, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    match d.deserialize_option(MaybeWords)?.as_deref().map(str::trim) {
        None => Ok(None),
        Some(text) if absent.contains(&text) => Ok(None),
        Some(text) => parse(text).map(Some),
    }
}

/// The player a value genome learns against: `self` (`None`) or a player.
pub(crate) mod opponent {
    use super::*;

    pub(crate) fn serialize<T: Display, S: Serializer>(
        v: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_str("self"),
        }
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        absent_as(d, &["self"])
    }
}

/// A seed: a whole number, written as a string where TOML's integers
/// (signed, 64 bits) cannot hold it.
pub(crate) mod seed {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*seed) {
            Ok(n) => s.serialize_i64(n),
            Err(_) => s.collect_str(seed),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        parse(&d.deserialize_any(Words)?)
    }
}

/// A list: an array of words, or one string of them comma separated.
pub(crate) mod list {
    use super::*;

    pub(crate) fn serialize<T: Display, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for item in v {
            seq.serialize_element(&item.to_string())?;
        }
        seq.end()
    }

    struct Items;

    impl<'de> Visitor<'de> for Items {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list, or its items comma separated")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
            Ok(v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element::<String>()? {
                items.push(item);
            }
            Ok(items)
        }
    }

    pub(crate) fn deserialize<'de, T, D>(d: D) -> Result<Vec<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        d.deserialize_any(Items)?
            .iter()
            .map(|item| parse(item))
            .collect()
    }
}

/// The game: its name and the options that choose it again (`encoder`,
/// `tuples`, `rule`, …), side by side with the settings. A name no
/// registered game has is a game from outside this crate.
pub(crate) mod game {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Fields {
        game: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encoder: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sticks: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_take: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_loses: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rows: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        empty: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tuples: Option<u16>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tuple_length: Option<u8>,
    }

    /// The keys the game is written under: not settings of their own.
    pub(crate) const KEYS: [&str; 10] = [
        "game",
        "encoder",
        "rule",
        "sticks",
        "max_take",
        "last_loses",
        "rows",
        "empty",
        "tuples",
        "tuple_length",
    ];

    pub(crate) fn serialize<S: Serializer>(id: &GameId, s: S) -> Result<S::Ok, S::Error> {
        let Some(spec) = id.built_in() else {
            return Fields::from_name(id.name()).serialize(s);
        };
        let options = spec.options();
        Fields {
            game: id.name().to_string(),
            encoder: Some(spec.encoder_name().to_string()),
            rule: options.rule.map(|r| r.name().to_string()),
            sticks: options.sticks,
            max_take: options.max_take,
            last_loses: (options.last_loses || options.last_wins).then_some(options.last_loses),
            rows: options.rows,
            empty: options.empty,
            tuples: options.tuples,
            tuple_length: options.tuple_length,
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameId, D::Error> {
        let fields = Fields::deserialize(d)?;
        let Some(kind) = GameName::parse(&fields.game) else {
            return Ok(GameId::Outside(fields.game));
        };
        let rule = match fields.rule.as_deref() {
            None => None,
            Some("subtract") => Some(TakeRuleName::Subtract),
            Some("double") => Some(TakeRuleName::Double),
            Some(other) => {
                return Err(de::Error::custom(format!(
                    "rule '{other}': subtract or double"
                )));
            }
        };
        let options = GameOptions {
            encoder: fields.encoder,
            tuples: fields.tuples,
            tuple_length: fields.tuple_length,
            rule,
            sticks: fields.sticks,
            max_take: fields.max_take,
            last_loses: fields.last_loses == Some(true),
            last_wins: fields.last_loses == Some(false),
            rows: fields.rows,
            empty: fields.empty,
            ..GameOptions::default()
        };
        kind.from_options(&options)
            .map(GameId::from)
            .map_err(de::Error::custom)
    }

    impl Fields {
        fn from_name(name: &str) -> Fields {
            Fields {
                game: name.to_string(),
                encoder: None,
                rule: None,
                sticks: None,
                max_take: None,
                last_loses: None,
                rows: None,
                empty: None,
                tuples: None,
                tuple_length: None,
            }
        }
    }
}
