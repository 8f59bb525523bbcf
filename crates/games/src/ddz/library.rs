//! Dou Dizhu's deals in the deal library: the game its records and panels are tagged with, the
//! rules their difficulty is measured under, and the deal of a stored [`DealRecord`] (the store
//! keeps it game-tagged, in the game's own text form; this module, which knows the game, reads
//! and writes it).

use crate::ddz::rules::{Deal, RuleSet};
use arena_store::DealRecord;

/// The game of the library's deals: its records and panels are tagged with it (Dou Dizhu's
/// registered name; `library_game_is_dou_dizhu` checks it against the registry).
pub const LIBRARY_GAME: arena_store::Game = arena_store::Game::named("ddz");

/// The rules the deal library measures deals under (GDI batches, deals found on demand): a
/// stored GDI is a deal's difficulty under competition rules.
pub const LIBRARY_RULES: RuleSet = RuleSet::COMPETITION;

/// The deal of `record` as a Dou Dizhu deal: an error naming the record if it is of another
/// game or its text is not a deal.
pub fn ddz_deal(record: &DealRecord) -> Result<Deal, String> {
    if record.game != LIBRARY_GAME {
        return Err(format!(
            "deal {} of panel {} is a {} deal, not a Dou Dizhu one",
            record.id, record.panel, record.game
        ));
    }
    record.deal.parse().map_err(|e| {
        format!(
            "deal {} of panel {}: {:?} is not a deal: {e}",
            record.id, record.panel, record.deal
        )
    })
}

/// `text` as the library stores a Dou Dizhu deal (the game's canonical text form), or why it is
/// not a deal.
pub fn canonical_deal(text: &str) -> Result<String, String> {
    text.parse::<Deal>()
        .map(|deal| deal.to_string())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_game_is_dou_dizhu() {
        assert_eq!(LIBRARY_GAME, arena_store::Game::from(crate::ddz::GAME));
    }
    use arena_store::Game;

    #[test]
    fn a_deal_round_trips_through_its_record() {
        let deal = Deal::generate(5, 9);
        let record = DealRecord {
            id: "d".into(),
            game: Game::named("ddz"),
            deal: deal.to_string(),
            source: None,
            panel: "p".into(),
            levels: vec![],
            counts: vec![],
            gdi: vec![],
        };
        assert_eq!(ddz_deal(&record), Ok(deal));
        let broken = DealRecord {
            deal: "not cards".into(),
            ..record
        };
        assert!(ddz_deal(&broken).unwrap_err().contains("not a deal"));
    }

    #[test]
    fn a_deal_is_stored_in_its_canonical_text() {
        let deal = Deal::generate(5, 9);
        assert_eq!(canonical_deal(&deal.to_string()), Ok(deal.to_string()));
        assert!(canonical_deal("not cards").is_err());
    }
}
