//! Cards as the 0–53 codes of Botzone's FightTheLandlord and the championship's engines, for
//! one seat.
//!
//! Both number a card `4 × rank + suit` for the ranks 3 … 2 (so 0–3 are the 3s, 48–51 the 2s)
//! and give the black (small) joker 52 and the red (big) joker 53. The arena's cards have ranks
//! only, so a seat's cards are given suits by a fixed rule, the same for the whole game:
//!
//! - the seat's own cards take the lowest free suits of their rank, in the order the seat gets
//!   them (its 17 dealt cards, then, as landlord, the three bottom cards);
//! - cards another seat shows (the bottom cards of another landlord, others' plays) take the
//!   lowest suits of their rank that the seat has not seen yet, in the order they are shown;
//!   except that the landlord's plays first use the codes its bottom cards were shown with
//!   (they are the same cards).
//!
//! So a seat never sees one code twice, every card it plays is a code it holds, and which suits
//! it sees says nothing about the others' hands (the rule depends only on what the seat saw).
//! Two seats may see different codes for the same card; neither can tell.

use ddz::{CardSet, Event, Observation, Rank, Seat};

/// The number of codes, 0–53.
pub const CODES: usize = 54;

/// The code of the black (small) joker.
pub const BLACK_JOKER: u8 = 52;
/// The code of the red (big) joker.
pub const RED_JOKER: u8 = 53;

/// The rank of a code, `None` outside 0–53.
pub fn rank_of(code: i64) -> Option<Rank> {
    match code {
        0..=51 => Rank::from_index((code / 4) as usize),
        52 => Some(Rank::BlackJoker),
        53 => Some(Rank::RedJoker),
        _ => None,
    }
}

/// The codes of a rank, lowest first (four for 3 … 2, one for a joker).
fn codes_of(rank: Rank) -> std::ops::Range<u8> {
    match rank {
        Rank::BlackJoker => BLACK_JOKER..BLACK_JOKER + 1,
        Rank::RedJoker => RED_JOKER..RED_JOKER + 1,
        r => {
            let first = 4 * r.index() as u8;
            first..first + 4
        }
    }
}

/// What a seat knows of one code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Known {
    /// Not seen: still in another seat's hand or the bottom, as far as the seat knows.
    Unseen,
    /// In the seat's hand.
    Held,
    /// Played by the seat.
    Played,
    /// The bottom cards of another seat, the landlord, not played yet.
    Bottom,
    /// Shown by another seat's play.
    Shown,
}

/// Why codes a seat answered are not cards it may play: Botzone's judge's names
/// (`OUT_OF_RANGE`, `REPEATED_CARD`, `MISSING_CARD`) and the code at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeFoul {
    /// Botzone's name of the foul.
    pub name: &'static str,
    /// The sentence saying which code and why.
    pub detail: String,
}

impl std::fmt::Display for CodeFoul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.detail)
    }
}

/// One seat's codes for the game: what it holds, played and was shown.
#[derive(Clone, Debug)]
pub struct SeatCodes {
    known: [Known; CODES],
}

impl Default for SeatCodes {
    fn default() -> Self {
        SeatCodes {
            known: [Known::Unseen; CODES],
        }
    }
}

impl SeatCodes {
    /// Forgets everything (a redeal).
    pub fn reset(&mut self) {
        self.known = [Known::Unseen; CODES];
    }

    /// Gives `cards` to the seat's hand; appends their codes to `out`, rank by rank.
    pub fn take(&mut self, cards: CardSet, out: &mut Vec<u8>) {
        self.mark(cards, Known::Held, out);
    }

    /// Shows the seat the bottom cards of another seat, the landlord; appends their codes to
    /// `out`, rank by rank.
    pub fn show_bottom(&mut self, cards: CardSet, out: &mut Vec<u8>) {
        self.mark(cards, Known::Bottom, out);
    }

    /// Shows the seat a play of another seat (`by_landlord`: the landlord's, whose bottom
    /// cards keep the codes they were shown with); appends their codes to `out`, rank by rank.
    pub fn show(&mut self, cards: CardSet, by_landlord: bool, out: &mut Vec<u8>) {
        if by_landlord {
            self.mark_from(cards, Known::Bottom, Known::Shown, out);
        } else {
            self.mark(cards, Known::Shown, out);
        }
    }

    fn mark(&mut self, cards: CardSet, to: Known, out: &mut Vec<u8>) {
        self.mark_from(cards, Known::Unseen, to, out);
    }

    /// Marks `cards` as `to`, taking for each card the lowest code of its rank in state
    /// `first`, else the lowest unseen one.
    fn mark_from(&mut self, cards: CardSet, first: Known, to: Known, out: &mut Vec<u8>) {
        for (rank, n) in cards.ranks() {
            let mut left = n;
            for from in [first, Known::Unseen] {
                for code in codes_of(rank) {
                    if left == 0 {
                        break;
                    }
                    if self.known[code as usize] == from {
                        self.known[code as usize] = to;
                        out.push(code);
                        left -= 1;
                    }
                }
            }
            // A seat is never shown more of a rank than the deck has: the game's own record
            // guarantees it; were it otherwise, the missing codes are simply not written.
        }
    }

    /// The codes the seat holds, ascending, appended to `out`.
    pub fn held(&self, out: &mut Vec<u8>) {
        out.extend((0..CODES as u8).filter(|c| self.known[*c as usize] == Known::Held));
    }

    /// Reads codes the seat answered as the cards they stand for, and marks them played.
    /// Nothing is marked when any code is at fault.
    pub fn play(&mut self, codes: &[i64]) -> Result<CardSet, CodeFoul> {
        let cards = self.cards(codes)?;
        for &c in codes {
            self.known[c as usize] = Known::Played;
        }
        Ok(cards)
    }

    /// Reads codes the seat answered as the cards they stand for, marking nothing.
    pub fn cards(&self, codes: &[i64]) -> Result<CardSet, CodeFoul> {
        let mut counts = [0u8; Rank::COUNT];
        for (i, &c) in codes.iter().enumerate() {
            let Some(rank) = rank_of(c) else {
                return Err(CodeFoul {
                    name: "OUT_OF_RANGE",
                    detail: format!("card {c} is not a card (cards are 0 to 53)"),
                });
            };
            if codes[..i].contains(&c) || self.known[c as usize] == Known::Played {
                return Err(CodeFoul {
                    name: "REPEATED_CARD",
                    detail: format!("card {c} ({}) was already played", rank.char()),
                });
            }
            if self.known[c as usize] != Known::Held {
                return Err(CodeFoul {
                    name: "MISSING_CARD",
                    detail: format!("card {c} ({}) is not in the bot's hand", rank.char()),
                });
            }
            counts[rank.index()] += 1;
        }
        // Held codes are at most the deck's copies of each rank, so the counts fit.
        Ok(CardSet::from_counts(&counts).unwrap_or(CardSet::EMPTY))
    }
}

/// A seat's current deal as its observation shows it: what Botzone's grammar and the
/// championship's engines are told a deal from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CurrentDeal {
    /// The seat.
    pub seat: Seat,
    /// How many redeals came before the deal.
    pub redeals: usize,
    /// Where the deal's events start in the observation's (after its last redeal).
    pub start: usize,
    /// The 17 cards the seat was dealt (its hand with what it played, less the bottom cards
    /// if it is the landlord).
    pub dealt: CardSet,
}

impl CurrentDeal {
    /// Reads `obs` for a program that plays one seat: `pinned` is that seat, set by its first
    /// request; a request for another seat is refused, naming the program as `who`.
    pub fn read(
        obs: &Observation<'_>,
        pinned: &mut Option<Seat>,
        who: &str,
    ) -> Result<CurrentDeal, String> {
        let seat = obs.seat;
        if let Some(s) = *pinned
            && s != seat
        {
            return Err(format!(
                "request.seat is {} but this {who} plays seat {}",
                seat.index(),
                s.index()
            ));
        }
        *pinned = Some(seat);
        let is_redeal = |e: &Event| matches!(e, Event::Redeal);
        let mut dealt = obs
            .hand
            .try_add(obs.played[seat.index()])
            .unwrap_or(obs.hand);
        if obs.landlord == Some(seat)
            && let Some(b) = obs.bottom
        {
            dealt = dealt.try_sub(b).unwrap_or(dealt);
        }
        Ok(CurrentDeal {
            seat,
            redeals: obs.events.iter().filter(|e| is_redeal(e)).count(),
            start: obs.events.iter().rposition(is_redeal).map_or(0, |i| i + 1),
            dealt,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn ranks_of_codes_follow_botzones_numbering() {
        assert_eq!(rank_of(0), Some(Rank::Three));
        assert_eq!(rank_of(3), Some(Rank::Three));
        assert_eq!(rank_of(4), Some(Rank::Four));
        assert_eq!(rank_of(51), Some(Rank::Two));
        assert_eq!(rank_of(52), Some(Rank::BlackJoker));
        assert_eq!(rank_of(53), Some(Rank::RedJoker));
        assert_eq!(rank_of(54), None);
        assert_eq!(rank_of(-1), None);
    }

    #[test]
    fn own_cards_take_the_lowest_suits_and_shown_cards_the_next_ones() {
        let mut s = SeatCodes::default();
        let mut own = Vec::new();
        s.take(cards("33TBR"), &mut own);
        assert_eq!(own, [0, 1, 28, 52, 53]);
        let mut shown = Vec::new();
        s.show(cards("333T"), false, &mut shown);
        assert_eq!(shown, [2, 3, 29]);
        assert_eq!(s.play(&[1, 0]).map(CardSet::to_text), Ok("33".to_string()));
        let mut held = Vec::new();
        s.held(&mut held);
        assert_eq!(held, [28, 52, 53]);
    }

    #[test]
    fn the_landlords_plays_reuse_the_codes_its_bottom_cards_were_shown_with() {
        let mut s = SeatCodes::default();
        s.take(cards("33"), &mut Vec::new());
        let mut bottom = Vec::new();
        s.show_bottom(cards("3R"), &mut bottom);
        assert_eq!(bottom, [2, 53]);
        // A farmer's 3 cannot be the bottom's.
        let mut farmer = Vec::new();
        s.show(cards("3"), false, &mut farmer);
        assert_eq!(farmer, [3]);
        let mut s = SeatCodes::default();
        s.take(cards("33"), &mut Vec::new());
        s.show_bottom(cards("3R"), &mut Vec::new());
        let mut landlord = Vec::new();
        s.show(cards("3R"), true, &mut landlord);
        assert_eq!(landlord, [2, 53]);
    }

    #[test]
    fn codes_the_seat_does_not_hold_are_named_as_botzones_judge_names_them() {
        let mut s = SeatCodes::default();
        s.take(cards("34"), &mut Vec::new());
        s.show(cards("3"), false, &mut Vec::new());
        assert_eq!(s.play(&[54]).unwrap_err().name, "OUT_OF_RANGE");
        assert_eq!(s.play(&[1]).unwrap_err().name, "MISSING_CARD");
        assert_eq!(s.play(&[5]).unwrap_err().name, "MISSING_CARD");
        assert_eq!(s.play(&[0, 0]).unwrap_err().name, "REPEATED_CARD");
        assert!(s.play(&[0]).is_ok());
        assert_eq!(s.play(&[0]).unwrap_err().name, "REPEATED_CARD");
        // A foul marks nothing: the 4 is still held.
        assert_eq!(s.play(&[4]), Ok(cards("4")));
    }
}
