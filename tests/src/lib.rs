//! Integration tests of koth live in tests/.
