//! Sampled ladders: for ladders too big for a round robin, each bot meets a fixed number of
//! opponents per round, drawn from the run's seed and the bots' names.
//!
//! Each round places every bot on a ring at a position hashed from the seed, the round and its
//! name, and pairs each bot with its `k` nearest neighbours on either side: every bot meets
//! exactly `2k` opponents a round (all of them when there are at most `2k + 1` bots), and a
//! different set each round.
//!
//! Why a ring rather than a coin per pair. Whether a pair plays depends on the two bots and on
//! whoever falls between them, nobody else: a bot added to the ladder takes its own `2k`
//! pairs a round and displaces only the `k` pairs that straddled its position at distance
//! exactly `k` (they are now `k + 1` apart), while every other pair, and so every other match, stays exactly as it was, so
//! `--reuse` replays only the new bot's matches. A coin per pair under a fixed threshold would
//! displace nothing, but then the number of opponents grows with the ladder and varies from
//! bot to bot; a threshold scaled to the ladder's size would redraw every pair on each entry.
//! A bot's new version keeps its name, so it keeps its place and its opponents.

use crate::seed::derive_named;

/// Whether `opponents` can be a sampled ladder's size: an even number of at least 2 (half on
/// either side of the ring). The error says why not, to follow the option's name.
pub fn check_opponents(opponents: u32) -> Result<(), String> {
    if opponents == 0 || opponents % 2 == 1 {
        return Err(format!(
            "must be an even number of at least 2 (each bot meets M/2 neighbours on either side \
             of a ring drawn each round); got {opponents}"
        ));
    }
    Ok(())
}

/// The opponents of each bot in round `round` of a ladder where each meets `opponents`, by
/// bot index (each list sorted, symmetric).
pub fn partners(seed: u64, round: u32, names: &[&str], opponents: u32) -> Vec<Vec<usize>> {
    ring_partners(seed, round, names, (opponents / 2) as usize)
}

/// Games of two seats a round holds when each bot meets `opponents`: both orders of every
/// pair.
pub fn ordered_pairs(bots: usize, opponents: u32) -> usize {
    2 * ring_pair_count(bots, (opponents / 2) as usize)
}

/// The opponents of each bot in one round, `k` a side, by bot index.
fn ring_partners(seed: u64, round: u32, names: &[&str], k: usize) -> Vec<Vec<usize>> {
    let n = names.len();
    let mut partners: Vec<Vec<usize>> = vec![Vec::new(); n];
    if n < 2 || k == 0 {
        return partners;
    }
    if n <= 2 * k + 1 {
        for (i, p) in partners.iter_mut().enumerate() {
            p.extend((0..n).filter(|&j| j != i));
        }
        return partners;
    }
    let round = round.to_le_bytes();
    let mut ring: Vec<(u64, &str, usize)> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let at = derive_named(seed, "ladder/ring", &[&round, name.as_bytes()]);
            (at, *name, i)
        })
        .collect();
    // Names are unique in a run, so the order is total.
    ring.sort_unstable();
    for s in 0..n {
        for d in 1..=k {
            let (a, b) = (ring[s].2, ring[(s + d) % n].2);
            partners[a].push(b);
            partners[b].push(a);
        }
    }
    for p in &mut partners {
        p.sort_unstable();
    }
    partners
}

/// Unordered pairs a round holds, for `bots` bots and `k` neighbours a side.
fn ring_pair_count(bots: usize, k: usize) -> usize {
    if bots < 2 || k == 0 {
        0
    } else if bots <= 2 * k + 1 {
        bots * (bots - 1) / 2
    } else {
        bots * k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("bot{i}")).collect()
    }

    fn refs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }

    #[test]
    fn every_bot_meets_exactly_2k_distinct_opponents() {
        let all = names(50);
        for k in [1, 3, 10] {
            let p = ring_partners(7, 2, &refs(&all), k);
            let pairs: usize = p.iter().map(Vec::len).sum::<usize>() / 2;
            assert_eq!(pairs, ring_pair_count(50, k));
            for (i, list) in p.iter().enumerate() {
                assert_eq!(list.len(), 2 * k, "bot {i}");
                assert!(!list.contains(&i));
                assert!(
                    list.windows(2).all(|w| w[0] < w[1]),
                    "duplicates for bot {i}"
                );
                for &j in list {
                    assert!(p[j].contains(&i), "{i} meets {j} but not back");
                }
            }
        }
    }

    #[test]
    fn a_small_ladder_is_a_round_robin() {
        let all = names(5);
        let p = ring_partners(1, 0, &refs(&all), 2);
        assert!(p.iter().all(|l| l.len() == 4));
        assert_eq!(ring_pair_count(5, 2), 10);
    }

    #[test]
    fn rounds_and_seeds_draw_different_opponents() {
        let all = names(100);
        let r0 = ring_partners(1, 0, &refs(&all), 3);
        assert_ne!(r0, ring_partners(1, 1, &refs(&all), 3));
        assert_ne!(r0, ring_partners(2, 0, &refs(&all), 3));
        assert_eq!(r0, ring_partners(1, 0, &refs(&all), 3));
    }

    #[test]
    fn a_new_bot_keeps_almost_every_other_pair() {
        let k = 5;
        let before = names(200);
        let mut after = before.clone();
        after.push("newcomer".into());
        let (pb, pa) = (
            ring_partners(3, 4, &refs(&before), k),
            ring_partners(3, 4, &refs(&after), k),
        );
        let set = |p: &[Vec<usize>], skip: usize| {
            let mut s = std::collections::BTreeSet::new();
            for (i, l) in p.iter().enumerate() {
                for &j in l {
                    if i < j && j != skip {
                        s.insert((i, j));
                    }
                }
            }
            s
        };
        let (old, new) = (set(&pb, usize::MAX), set(&pa, 200));
        let dropped = old.difference(&new).count();
        // Only the k pairs straddling the newcomer's place at distance k go, of the 1,000.
        assert_eq!(dropped, k);
        assert!(new.is_subset(&old), "no pair appears between two old bots");
        assert_eq!(pa[200].len(), 2 * k);
        // The bots' indices do not matter, only their names: shuffled input, same pairs.
        let mut rev = before.clone();
        rev.reverse();
        let pr = ring_partners(3, 4, &refs(&rev), k);
        for (i, l) in pb.iter().enumerate() {
            let mapped: std::collections::BTreeSet<usize> = l.iter().map(|&j| 199 - j).collect();
            let got: std::collections::BTreeSet<usize> = pr[199 - i].iter().copied().collect();
            assert_eq!(mapped, got);
        }
    }
}
