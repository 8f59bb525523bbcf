//! Chinese Standard Mahjong (MCR): everything the game-neutral platform needs to play it.
//!
//! - [`ijcai`]: the IJCAI competition's duplicate format (24 seatings per wall, rank points,
//!   Swiss pairing), pure;
//! - [`commands`]: `arena mcr …`, the game's commands on the command line;
//! - [`competition`]: IJCAI competitions through the services.

pub mod commands;
pub mod competition;
pub mod ijcai;
