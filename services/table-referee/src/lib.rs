//! The table referee (work in progress).
