//! Bank Heist's referee (`koth-referee-bank-heist`) as a component: `koth play
//! bank_heist_referee.wasm` plays the game `koth bank-heist` plays, through the same argv
//! protocol.

koth_referee::export_referee!(koth_referee_bank_heist::BankHeistReferee);
