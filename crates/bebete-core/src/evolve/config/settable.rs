//! Settings by name: `--set KEY=VALUE` on the command line and a keyword
//! in Python fill the one settings type by its keys, the keys `run.toml`
//! writes, so that a new field is a new setting everywhere at once.

use super::EvolveConfig;
use super::words::game;
use serde_json::Value;

/// A setting refused by name: no such key, or a value that does not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingError {
    /// No setting has this name.
    #[error("{key}: no such setting; the settings are {}", known.join(", "))]
    Unknown {
        /// The name given.
        key: String,
        /// Every setting's name.
        known: Vec<String>,
    },
    /// The value does not read as this setting's.
    #[error("{key}={value}: {reason}")]
    Value {
        /// The setting.
        key: String,
        /// The value given, as written.
        value: String,
        /// Why it does not read.
        reason: String,
    },
    /// `KEY` alone, where `KEY=VALUE` was due.
    #[error("{0}: give KEY=VALUE")]
    NoValue(String),
}

/// Keys that are no setting of their own: the game is chosen with its
/// options before the settings (`--game`, `--encoder`…), and the preset is
/// where the settings start from.
fn chosen_before(key: &str) -> bool {
    key == "preset" || game::KEYS.contains(&key)
}

impl EvolveConfig {
    /// Every setting's name, as `run.toml`, `--set` and Python write it,
    /// sorted.
    pub fn keys(&self) -> Vec<String> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map
                .keys()
                .filter(|key| !chosen_before(key))
                .cloned()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Sets the setting `key` to `value` (a number, a truth value, a
    /// string in the command line's words, or a list of them), read as
    /// `run.toml` reads it. Ranges are [`EvolveConfig::validate`]'s.
    pub fn set(&mut self, key: &str, value: Value) -> Result<(), SettingError> {
        let Ok(Value::Object(mut map)) = serde_json::to_value(&*self) else {
            unreachable!("a configuration serialises to a JSON object");
        };
        if chosen_before(key) || !map.contains_key(key) {
            return Err(SettingError::Unknown {
                key: key.to_string(),
                known: self.keys(),
            });
        }
        let shown = match &value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        map.insert(key.to_string(), value);
        let read: EvolveConfig =
            serde_json::from_value(Value::Object(map)).map_err(|e| SettingError::Value {
                key: key.to_string(),
                value: shown,
                reason: e.to_string(),
            })?;
        *self = read;
        Ok(())
    }

    /// [`EvolveConfig::set`] from `KEY=VALUE` as the command line gives it:
    /// VALUE a number or `true`/`false` where it reads as one, else words.
    pub fn set_text(&mut self, assignment: &str) -> Result<(), SettingError> {
        let Some((key, text)) = assignment.split_once('=') else {
            return Err(SettingError::NoValue(assignment.trim().to_string()));
        };
        let text = text.trim();
        let value = serde_json::from_str::<Value>(text)
            .ok()
            .filter(|v| v.is_number() || v.is_boolean())
            .unwrap_or_else(|| Value::String(text.to_string()));
        self.set(key.trim().replace('-', "_").as_str(), value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameSpec;

    /// Every setting written can be set back to the value written, by its
    /// name and the words `run.toml` holds, for every game and preset.
    #[test]
    fn every_setting_is_set_by_its_name_and_its_words() {
        for spec in GameSpec::registered() {
            for cfg in [
                EvolveConfig::recommended(spec, 7),
                EvolveConfig::method(spec, 7),
            ] {
                let Ok(Value::Object(map)) = serde_json::to_value(&cfg) else {
                    panic!("{spec}: not an object");
                };
                let mut again = EvolveConfig::method(spec, 1);
                for key in cfg.keys() {
                    again.set(&key, map[&key].clone()).unwrap();
                }
                again.preset = cfg.preset;
                assert_eq!(again, cfg, "{spec}");
            }
        }
    }

    #[test]
    fn a_setting_is_refused_by_name_and_by_value() {
        let mut cfg = EvolveConfig::method(GameSpec::registered()[0], 1);
        let unknown = cfg.set_text("populaton=5").unwrap_err();
        assert!(
            matches!(&unknown, SettingError::Unknown { key, known } if key == "populaton" && known.contains(&"population".to_string())),
            "{unknown}"
        );
        assert!(matches!(
            cfg.set_text("game=connect4"),
            Err(SettingError::Unknown { .. })
        ));
        let bad = cfg.set_text("mutation=lots").unwrap_err();
        assert!(bad.to_string().starts_with("mutation=lots: "), "{bad}");
        cfg.set_text("bench-against=random,alphabeta:2").unwrap();
        cfg.set_text("mutation=0.05").unwrap();
        cfg.set_text("target=none").unwrap();
        assert_eq!(cfg.bench_against.len(), 2);
        assert_eq!(cfg.mutation.to_string(), "0.05");
        assert_eq!(cfg.target, None);
    }
}
