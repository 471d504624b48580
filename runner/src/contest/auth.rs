//! Author tokens: drawn from the operating system's CSPRNG, stored only as SHA-256, compared
//! in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A new token: 32 random bytes, hex.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a token: {e}"))?;
    Ok(hex::encode(bytes))
}

/// What the database keeps of a token.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `token` is the one `stored` is the hash of, in time independent of where they
/// differ.
pub fn matches(token: &str, stored: &[u8]) -> bool {
    stored.len() == 32 && bool::from(hash(token).ct_eq(stored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_and_match_only_their_hash() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert!(matches(&a, &hash(&a)));
        assert!(!matches(&b, &hash(&a)));
        assert!(!matches(&a, &hash(&a)[..31]));
    }
}
