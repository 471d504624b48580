//! A small std-only random number generator.

use std::hash::{BuildHasher, RandomState};

/// A splitmix64 generator: tiny, fast, good enough for game decisions.
///
/// [`Rng::new`] seeds it from std's `RandomState`, whose keys come from the platform's
/// randomness: the OS natively, WASI `random_get` on wasm32-wasip1, which koth makes
/// deterministic per tournament seed, game, seat and invocation. So a bot's choices are
/// reproducible under koth and random natively, with no dependency.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Default for Rng {
    fn default() -> Rng {
        Rng::new()
    }
}

impl Rng {
    /// A generator seeded from the platform's randomness.
    pub fn new() -> Rng {
        Rng::from_seed(RandomState::new().hash_one(0x6b6f_7468_u64))
    }

    /// A generator with a fixed seed (for tests).
    pub const fn from_seed(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (0 if `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Rejection sampling removes the modulo bias.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A uniform index into a slice of length `len` (0 if `len` is 0).
    pub fn index(&mut self, len: usize) -> usize {
        // usize is at most 64 bits on every target koth supports.
        self.below(len as u64) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.index(items.len()))
        }
    }

    /// Shuffles `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_is_deterministic() {
        let mut a = Rng::from_seed(7);
        let mut b = Rng::from_seed(7);
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn ranges() {
        let mut r = Rng::from_seed(1);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            let i = r.index(5);
            seen[i] += 1;
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.choose::<u8>(&[]), None);
        assert!(!r.chance(0, 3));
        assert!(r.chance(3, 3));
        let mut v: Vec<u32> = (0..10).collect();
        r.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn unseeded_generators_differ() {
        // RandomState gives each instance fresh keys.
        assert_ne!(Rng::new().next_u64(), Rng::new().next_u64());
    }
}
