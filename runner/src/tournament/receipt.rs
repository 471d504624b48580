//! The replay receipt: one hash over the manifest, the standings and every match's result,
//! stored in `results.json`, so that anyone holding the bots can check a published result
//! (`koth verify` re-plays matches and compares each record's digest).
//!
//! The hash is SHA-256 over a canonical text: a version line, then the manifest, the
//! standings (`bots`) and each match entry (with its record's digest), each as compact JSON
//! with sorted keys, one per line. The same text comes out whether it is built from the run
//! in memory or from the archive's files, so verifying needs no knowledge of the game.

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The version of the receipt's canonical text.
pub const RECEIPT_SCHEMA: &str = "koth-receipt/1";

/// The digest of one match's record: SHA-256 of its JSON, in hex. An error where the record
/// cannot be written as JSON (a game's record type with a map keyed by non-strings, say).
pub fn digest<R: Serialize>(record: &R) -> Result<String, serde_json::Error> {
    Ok(digest_json(&serde_json::to_vec(record)?))
}

/// The digest of a record already serialised (`serde_json::to_vec` of it): what [`digest`]
/// gives for that record. The journal takes it from the bytes it writes.
pub fn digest_json(json: &[u8]) -> String {
    hex::encode(Sha256::digest(json))
}

/// Every record's digest, in order: those in `known` (by match index, as the journal took
/// them) as they are, the others computed on every core.
pub fn digests<R: Serialize + Sync>(
    records: &[R],
    known: &BTreeMap<usize, String>,
) -> Result<Vec<String>, serde_json::Error> {
    use rayon::prelude::*;
    records
        .par_iter()
        .enumerate()
        .map(|(i, r)| match known.get(&i) {
            Some(d) => Ok(d.clone()),
            None => digest(r),
        })
        .collect()
}

/// The receipt over a manifest, standings and match entries, given as JSON values.
pub fn receipt(manifest: &Value, bots: &Value, matches: &[Value]) -> String {
    let mut h = Sha256::new();
    h.update(RECEIPT_SCHEMA.as_bytes());
    h.update(b"\n");
    for v in [manifest, bots].into_iter().chain(matches) {
        h.update(canonical(v).as_bytes());
        h.update(b"\n");
    }
    hex::encode(h.finalize())
}

/// Compact JSON with keys sorted at every level.
fn canonical(v: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(v).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter_but_every_value_does() {
        let m = json!({"game": "coup", "seed": 1});
        let reordered: Value = serde_json::from_str(r#"{"seed": 1, "game": "coup"}"#).unwrap();
        let matches = vec![json!({"scores": [1, 0]}), json!({"scores": [0, 1]})];
        let r = receipt(&m, &json!([]), &matches);
        assert_eq!(r, receipt(&reordered, &json!([]), &matches));
        assert_eq!(r.len(), 64);
        let edited = vec![json!({"scores": [1, 0]}), json!({"scores": [1, 1]})];
        assert_ne!(r, receipt(&m, &json!([]), &edited));
        let swapped = vec![matches[1].clone(), matches[0].clone()];
        assert_ne!(r, receipt(&m, &json!([]), &swapped));
        assert_ne!(digest(&(1, "a")).unwrap(), digest(&(1, "b")).unwrap());
    }

    #[test]
    fn a_record_json_cannot_hold_is_an_error_not_an_empty_digest() {
        // JSON keys are strings: a map keyed by pairs has no JSON, so no digest.
        let bad: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        assert!(digest(&bad).is_err());
        let records = vec![BTreeMap::new(), bad];
        assert!(digests(&records, &BTreeMap::new()).is_err());
        // A digest the journal took is used as it is, without serialising the record again.
        let known: BTreeMap<usize, String> = [(1, "taken".to_string())].into_iter().collect();
        let d = digests(&records, &known).unwrap();
        assert_eq!(d[1], "taken");
        assert_eq!(d[0], digest(&BTreeMap::<(u8, u8), u8>::new()).unwrap());
    }
}
