//! Uploads in progress: at most so many at once, and so many by one author. An upload past
//! either cap is refused at once (429), before its file is read; its slot is given back when
//! the upload ends, however it ends.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use thiserror::Error;

/// An upload refused for the caps.
#[derive(Debug, Error, PartialEq)]
pub enum Busy {
    /// Every slot is taken.
    #[error("the server is checking {0} uploads already; try again in a minute")]
    All(usize),
    /// The author's slots are taken.
    #[error("you have {0} uploads in progress already; wait for one to finish")]
    Author(usize),
}

/// The uploads in progress, by author id.
pub struct Quota {
    all: usize,
    per_author: usize,
    held: Mutex<HashMap<i64, usize>>,
}

impl Quota {
    /// At most `all` uploads at once, `per_author` by one author.
    pub fn new(all: usize, per_author: usize) -> Quota {
        Quota {
            all,
            per_author,
            held: Mutex::new(HashMap::new()),
        }
    }

    /// Uploads in progress now.
    pub fn in_progress(&self) -> usize {
        self.held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .sum()
    }

    /// A slot for an upload by `author`, held until the slot drops.
    pub fn take(self: &Arc<Self>, author: i64) -> Result<Slot, Busy> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let total: usize = held.values().sum();
        if total >= self.all {
            return Err(Busy::All(total));
        }
        let mine = held.entry(author).or_insert(0);
        if *mine >= self.per_author {
            return Err(Busy::Author(*mine));
        }
        *mine += 1;
        Ok(Slot(Arc::clone(self), author))
    }
}

/// An upload's slot.
pub struct Slot(Arc<Quota>, i64);

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.0.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = held.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_per_author_and_in_all_and_slots_come_back() {
        let q = Arc::new(Quota::new(3, 2));
        let a1 = q.take(1).unwrap();
        let _a2 = q.take(1).unwrap();
        assert_eq!(q.take(1).err(), Some(Busy::Author(2)));
        let _b1 = q.take(2).unwrap();
        assert_eq!(q.take(3).err(), Some(Busy::All(3)));
        drop(a1);
        let _c1 = q.take(3).unwrap();
        assert_eq!(q.take(1).err(), Some(Busy::All(3)));
        assert_eq!(q.in_progress(), 3);
    }
}
