//! Seeds derived from the tournament seed and an identity (game, seat, invocation...), so that
//! every random stream is independent of scheduling and thread count.

use sha2::{Digest, Sha256};

/// A 32-byte seed for the stream named by `domain` and `parts`, under `root`.
pub fn derive(root: u64, domain: &str, parts: &[u64]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"koth-seed-v1\0");
    h.update(domain.as_bytes());
    h.update([0]);
    h.update(root.to_le_bytes());
    for p in parts {
        h.update(p.to_le_bytes());
    }
    h.finalize().into()
}

/// A u64 for the stream named by `domain` and byte-string `parts` (names, hashes: each part
/// is length-prefixed, so no two lists of parts collide), under `root`.
pub fn derive_named(root: u64, domain: &str, parts: &[&[u8]]) -> u64 {
    let mut h = Sha256::new();
    h.update(b"koth-seed-v1\0");
    h.update(domain.as_bytes());
    h.update([1]);
    h.update(root.to_le_bytes());
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    let b: [u8; 32] = h.finalize().into();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// A u64 derived like [`derive`], for generators seeded from a u64.
pub fn derive_u64(root: u64, domain: &str, parts: &[u64]) -> u64 {
    let b = derive(root, domain, parts);
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_depend_on_every_part() {
        let a = derive(1, "coup", &[0, 1]);
        assert_eq!(a, derive(1, "coup", &[0, 1]));
        assert_ne!(a, derive(2, "coup", &[0, 1]));
        assert_ne!(a, derive(1, "euchre", &[0, 1]));
        assert_ne!(a, derive(1, "coup", &[1, 0]));
        assert_ne!(a, derive(1, "coup", &[0, 1, 0]));
    }

    #[test]
    fn named_seeds_depend_on_every_part_and_its_bounds() {
        let a = derive_named(1, "m", &[b"ab", b"c"]);
        assert_eq!(a, derive_named(1, "m", &[b"ab", b"c"]));
        assert_ne!(a, derive_named(1, "m", &[b"a", b"bc"]));
        assert_ne!(a, derive_named(2, "m", &[b"ab", b"c"]));
        assert_ne!(a, derive_named(1, "n", &[b"ab", b"c"]));
        assert_ne!(a, derive_named(1, "m", &[b"c", b"ab"]));
    }
}
