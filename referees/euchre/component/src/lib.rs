//! Euchre's referee (`koth-referee-euchre`) as a component: `koth play euchre_referee.wasm`
//! gives the archive `koth euchre` gives, which plays the same referee natively.

koth_referee::export_referee!(koth_referee_euchre::EuchreReferee);
