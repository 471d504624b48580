//! Coup rules (pure).
