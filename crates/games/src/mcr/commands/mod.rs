//! `arena mcr …`.
