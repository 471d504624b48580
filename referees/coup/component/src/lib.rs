//! Coup's referee (`koth-referee-coup`) as a component: `koth play coup_referee.wasm` plays
//! the game `koth coup` plays, through the same file protocol.

koth_referee::export_referee!(koth_referee_coup::CoupReferee);
