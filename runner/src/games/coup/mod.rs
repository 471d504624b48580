//! Coup (two players, file-append protocol): `shared/spec/coup.md`.

pub mod rules;
