//! A referee's own options: `--opt NAME=VALUE` parsed against what the referee declared,
//! every option resolved (defaults filled in) and kept in declared order, as the manifest
//! records them and every match receives them.

use koth_referee::{OptionSpec, Value};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use thiserror::Error;

/// One option's value, as JSON shows it: `true`, `10`, `"text"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptValue {
    /// A flag.
    Flag(bool),
    /// An integer.
    Integer(i64),
    /// Text.
    Text(String),
}

impl From<&Value> for OptValue {
    fn from(v: &Value) -> Self {
        match v {
            Value::Flag(b) => OptValue::Flag(*b),
            Value::Integer(i) => OptValue::Integer(*i),
            Value::Text(t) => OptValue::Text(t.clone()),
        }
    }
}

impl From<&OptValue> for Value {
    fn from(v: &OptValue) -> Self {
        match v {
            OptValue::Flag(b) => Value::Flag(*b),
            OptValue::Integer(i) => Value::Integer(*i),
            OptValue::Text(t) => Value::Text(t.clone()),
        }
    }
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Flag(b) => write!(f, "{b}"),
            OptValue::Integer(i) => write!(f, "{i}"),
            OptValue::Text(t) => f.write_str(t),
        }
    }
}

/// Every option of a run, in the referee's declared order: a JSON object in the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OptionValues(pub Vec<(String, OptValue)>);

impl OptionValues {
    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&OptValue> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// As the referee receives them.
    pub fn to_values(&self) -> Vec<(String, Value)> {
        self.0
            .iter()
            .map(|(n, v)| (n.clone(), Value::from(v)))
            .collect()
    }
}

impl Serialize for OptionValues {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for OptionValues {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = OptionValues;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of option values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OptionValues, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, OptValue>()? {
                    out.push((k, v));
                }
                Ok(OptionValues(out))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// An `--opt` the referee does not take, or a value it would not accept.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum OptError {
    /// Not `NAME=VALUE`.
    #[error("--opt {0:?} is not NAME=VALUE")]
    Syntax(String),
    /// No such option.
    #[error("--opt {name}: the referee has no such option (it takes: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The options it takes.
        known: String,
    },
    /// Given twice.
    #[error("--opt {0} is given twice")]
    Twice(String),
    /// Not of the option's type or outside its range or choices.
    #[error("--opt {name}={value}: {why}")]
    Bad {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What it must be.
        why: String,
    },
}

/// Resolve the options of a run: each `NAME=VALUE` of `given` checked against `specs`, every
/// other option at its default, all in declared order.
pub fn resolve(specs: &[OptionSpec], given: &[String]) -> Result<OptionValues, OptError> {
    let mut chosen: Vec<(String, OptValue)> = Vec::new();
    for g in given {
        let (name, value) = g
            .split_once('=')
            .ok_or_else(|| OptError::Syntax(g.clone()))?;
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            return Err(OptError::Unknown {
                name: name.into(),
                known: if specs.is_empty() {
                    "none".into()
                } else {
                    specs
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            });
        };
        if chosen.iter().any(|(n, _)| n == name) {
            return Err(OptError::Twice(name.into()));
        }
        chosen.push((name.into(), parse(spec, value)?));
    }
    Ok(OptionValues(
        specs
            .iter()
            .map(|s| {
                let v = chosen
                    .iter()
                    .find(|(n, _)| *n == s.name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| OptValue::from(&s.default));
                (s.name.clone(), v)
            })
            .collect(),
    ))
}

/// `value` as the type of `spec`, within its bounds or choices.
pub fn parse(spec: &OptionSpec, value: &str) -> Result<OptValue, OptError> {
    let bad = |why: String| OptError::Bad {
        name: spec.name.clone(),
        value: value.into(),
        why,
    };
    match &spec.default {
        Value::Flag(_) => match value {
            "true" => Ok(OptValue::Flag(true)),
            "false" => Ok(OptValue::Flag(false)),
            _ => Err(bad("a flag is true or false".into())),
        },
        Value::Integer(_) => {
            let i: i64 = value
                .parse()
                .map_err(|_| bad("not a whole number".into()))?;
            check_integer(spec, i).map_err(bad)?;
            Ok(OptValue::Integer(i))
        }
        Value::Text(_) => {
            check_text(spec, value).map_err(bad)?;
            Ok(OptValue::Text(value.into()))
        }
    }
}

/// Whether `i` is within `spec`'s bounds.
pub fn check_integer(spec: &OptionSpec, i: i64) -> Result<(), String> {
    if spec.min.is_some_and(|m| i < m) || spec.max.is_some_and(|m| i > m) {
        return Err(format!(
            "must be within {}..={}",
            spec.min.map_or("".into(), |m| m.to_string()),
            spec.max.map_or("".into(), |m| m.to_string())
        ));
    }
    Ok(())
}

/// Whether `t` is one of `spec`'s choices (any text when it has none).
pub fn check_text(spec: &OptionSpec, t: &str) -> Result<(), String> {
    if !spec.choices.is_empty() && !spec.choices.iter().any(|c| c == t) {
        return Err(format!("must be one of {}", spec.choices.join(", ")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "target".into(),
                description: "points to win".into(),
                default: Value::Integer(10),
                min: Some(1),
                max: Some(100),
                choices: vec![],
            },
            OptionSpec {
                name: "loud".into(),
                description: "".into(),
                default: Value::Flag(false),
                min: None,
                max: None,
                choices: vec![],
            },
            OptionSpec {
                name: "deck".into(),
                description: "".into(),
                default: Value::Text("full".into()),
                min: None,
                max: None,
                choices: vec!["full".into(), "short".into()],
            },
        ]
    }

    #[test]
    fn options_resolve_in_declared_order_with_defaults() {
        let v = resolve(&specs(), &["deck=short".into(), "target=7".into()]).unwrap();
        assert_eq!(
            v.0,
            vec![
                ("target".into(), OptValue::Integer(7)),
                ("loud".into(), OptValue::Flag(false)),
                ("deck".into(), OptValue::Text("short".into())),
            ]
        );
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"{"target":7,"loud":false,"deck":"short"}"#);
        let back: OptionValues = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn bad_options_are_named() {
        let s = specs();
        assert!(matches!(
            resolve(&s, &["x=1".into()]),
            Err(OptError::Unknown { .. })
        ));
        assert!(matches!(
            resolve(&s, &["target".into()]),
            Err(OptError::Syntax(_))
        ));
        assert!(matches!(
            resolve(&s, &["target=1".into(), "target=2".into()]),
            Err(OptError::Twice(_))
        ));
        for bad in [
            "target=0",
            "target=101",
            "target=ten",
            "loud=yes",
            "deck=half",
        ] {
            let e = resolve(&s, &[bad.into()]).unwrap_err();
            assert!(matches!(e, OptError::Bad { .. }), "{bad}: {e}");
        }
        assert_eq!(
            resolve(&s, &["target=0".into()]).unwrap_err().to_string(),
            "--opt target=0: must be within 1..=100"
        );
    }
}
