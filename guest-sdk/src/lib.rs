//! koth guest SDK
