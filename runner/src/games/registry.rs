//! The games koth plays by name through their referees, built in: the one list a new
//! built-in game joins (its own folder under `referees/`, and one line here).
//!
//! `koth play NAME` plays one of them natively; `koth verify`, `merge` and `report` find
//! the game of an archive a built-in referee played here, by the manifest's `game`.

use super::{bank_heist, coup, euchre};
use crate::referee::Referee;
use std::sync::Arc;

/// A game built into koth as a referee.
pub struct BuiltIn {
    /// Its name, as the referee describes it and manifests record it.
    pub name: &'static str,
    /// The referee, run natively.
    pub referee: fn() -> Arc<dyn Referee>,
}

/// Every built-in referee, by name.
pub const BUILT_IN: [BuiltIn; 3] = [
    BuiltIn {
        name: koth_referee_coup::NAME,
        referee: coup::referee,
    },
    BuiltIn {
        name: euchre::NAME,
        referee: euchre::referee,
    },
    BuiltIn {
        name: bank_heist::NAME,
        referee: bank_heist::referee,
    },
];

/// The built-in referee of the game `name`, if there is one.
pub fn referee(name: &str) -> Option<Arc<dyn Referee>> {
    BUILT_IN
        .iter()
        .find(|g| g.name == name)
        .map(|g| (g.referee)())
}

/// The names of the built-in referees, for messages.
pub fn names() -> Vec<&'static str> {
    BUILT_IN.iter().map(|g| g.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_is_the_referee_of_its_name() {
        for g in &BUILT_IN {
            assert_eq!((g.referee)().description().name, g.name);
        }
        assert!(referee("chess").is_none());
        assert_eq!(names(), ["coup", "euchre", "bank-heist"]);
    }
}
