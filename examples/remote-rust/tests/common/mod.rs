//! What several full-stack test binaries share. Each binary uses only part of it, so unused items
//! are expected here and not warned about.
#![allow(dead_code)]

pub mod collector;
pub mod redis;
