//! Built-in MCR bots.
