//! Seats and roles at a three-player table.

use std::fmt;

/// A seat at the table, 0, 1 or 2. Play goes from seat i to seat i + 1 (mod 3).
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

impl Seat {
    /// The three seats in order.
    pub const ALL: [Seat; 3] = [Seat(0), Seat(1), Seat(2)];

    /// The seat with index `i`, or `None` unless `i < 3`.
    #[inline]
    pub const fn new(i: u8) -> Option<Seat> {
        if i < 3 { Some(Seat(i)) } else { None }
    }

    /// The seat's index, 0 to 2.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat that acts after this one.
    #[inline]
    pub const fn next(self) -> Seat {
        Seat(if self.0 == 2 { 0 } else { self.0 + 1 })
    }

    /// The seat `k` places after this one.
    #[inline]
    pub const fn offset(self, k: u8) -> Seat {
        Seat((self.0 + k % 3) % 3)
    }

    /// This seat's role when `landlord` is the landlord.
    #[inline]
    pub const fn role(self, landlord: Seat) -> Role {
        match (self.0 + 3 - landlord.0) % 3 {
            0 => Role::Landlord,
            1 => Role::Down,
            _ => Role::Up,
        }
    }
}

impl TryFrom<u8> for Seat {
    type Error = String;
    fn try_from(i: u8) -> Result<Seat, String> {
        Seat::new(i).ok_or_else(|| format!("seat {i} does not exist (seats are 0, 1, 2)"))
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A seat's role once the landlord is known.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The landlord, alone against the two farmers.
    Landlord,
    /// The farmer who plays right after the landlord (下家).
    Down,
    /// The farmer who plays right before the landlord (上家).
    Up,
}

impl Role {
    /// The seat holding this role when `landlord` is the landlord.
    #[inline]
    pub const fn seat(self, landlord: Seat) -> Seat {
        match self {
            Role::Landlord => landlord,
            Role::Down => landlord.offset(1),
            Role::Up => landlord.offset(2),
        }
    }

    /// True for the two farmers.
    #[inline]
    pub const fn is_farmer(self) -> bool {
        !matches!(self, Role::Landlord)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_follow_play_order() {
        let l = Seat::new(2).unwrap();
        assert_eq!(l.next(), Seat::new(0).unwrap());
        assert_eq!(Seat::new(0).unwrap().role(l), Role::Down);
        assert_eq!(Seat::new(1).unwrap().role(l), Role::Up);
        for role in [Role::Landlord, Role::Down, Role::Up] {
            assert_eq!(role.seat(l).role(l), role);
        }
        assert_eq!(Seat::new(3), None);
    }
}
