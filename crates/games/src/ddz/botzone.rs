//! Dou Dizhu in Botzone's grammars ([`arena_line::botzone::BotzoneGrammar`]): FightTheLandlord
//! (no bidding, the landlord plays first) and FightTheLandlord2 (bidding, then play), their
//! requests and responses as Botzone's judges write and read them (`docs/botzone-ddz.md`).
//!
//! - Cards are the codes 0–53 of [`super::codes`]: suits are given by a fixed rule, per seat,
//!   consistent for the whole game.
//! - A request of the play phase gives `history`, the last two plays before the seat's turn
//!   (those of the two other seats, oldest first, `[]` for a pass or for no play yet); the seat's
//!   first request of the phase also gives its cards (`own`), the bottom cards (`publiccard`)
//!   and, in FightTheLandlord2, `landlord`, `pos` (the seat) and `finalbid`.
//! - FightTheLandlord's `own` is the seat's whole hand (20 cards for the landlord, bottom
//!   cards included); FightTheLandlord2's is the 17 dealt cards, both in bidding and play: the
//!   landlord adds `publiccard` itself, as on Botzone.
//! - A FightTheLandlord2 bidding request is `{"own": [...], "bid": [calls so far]}`, answered by
//!   a number 0–3.
//! - A response is a list of codes (`[]` = pass). Codes that are no card, not in the bot's
//!   hand or played twice are refused with Botzone's names (`OUT_OF_RANGE`, `MISSING_CARD`,
//!   `REPEATED_CARD`) as malformed answers. A play the table's rules refuse is refused here
//!   first, as an `illegal` answer whose reason is the foul Botzone's judge names
//!   ([`ddz::botzone::foul`]: `INVALID_CARDTYPE`, `INVALID_PASS`, `LESS_COMPARE`,
//!   `MISMATCH_CARDTYPE`, `MISMATCH_CARDLENGTH`; FightTheLandlord's judge says `BAD_FORMAT` for
//!   cards of no type) followed by the referee's explanation; a call that does not raise is
//!   `INVALID_BID` the same way.

use arena_line::Fault;
use arena_line::botzone::{BotzoneGrammar, BotzoneTurn};
use arena_proto::v1;
use ddz::botzone::Foul;
use ddz::{CardSet, Event, IllegalMove, Move, Phase, RuleSet, Seat};
use serde_json::{Value, json};

use super::codes::{CurrentDeal, SeatCodes};
use super::convert::{DdzDecision, ddz_action};
use super::request::DdzView;

pub use ddz::botzone::Edition;

/// One seat's Botzone grammar of FightTheLandlord or FightTheLandlord2.
#[derive(Debug)]
pub struct FtlGrammar {
    edition: Edition,
    codes: SeatCodes,
    /// The seat's 17 dealt cards as codes, ascending (empty until dealt).
    dealt: Vec<u8>,
    /// The bottom cards as codes, in the order the seat was given or shown them.
    public: Vec<u8>,
    /// Every play of the game so far as codes (a pass as none), in order.
    plays: Vec<Vec<u8>>,
    /// The calls of the auction so far.
    bids: Vec<u8>,
    landlord: Option<Seat>,
    final_bid: u8,
    /// How many events of the current deal were read.
    seen: usize,
    /// How many redeals were read (a redeal starts the seat's codes afresh).
    redeals: usize,
    /// The seat was given its first request of the play phase.
    told_play: bool,
    /// The phase of the open decision.
    asked: Option<Phase>,
    /// The codes of the seat's last answered play, until its event is read.
    own_last: Option<Vec<u8>>,
    seat: Option<Seat>,
    /// What the open decision is judged by: the table's rules, the seat's hand, the play to
    /// beat and the highest call so far.
    rules: RuleSet,
    hand: CardSet,
    to_beat: Move,
    highest_bid: u8,
}

impl FtlGrammar {
    /// A fresh grammar for one seat of one table.
    pub fn new(edition: Edition) -> FtlGrammar {
        FtlGrammar {
            edition,
            codes: SeatCodes::default(),
            dealt: Vec::new(),
            public: Vec::new(),
            plays: Vec::new(),
            bids: Vec::new(),
            landlord: None,
            final_bid: 1,
            seen: 0,
            redeals: 0,
            told_play: false,
            asked: None,
            own_last: None,
            seat: None,
            rules: RuleSet::COMPETITION,
            hand: CardSet::EMPTY,
            to_beat: Move::PASS,
            highest_bid: 0,
        }
    }

    /// The fault of a play the table's rules refuse (`e`): the foul Botzone's judge names,
    /// then the referee's reason. Where the judge would let the play stand (its reading of
    /// combinations differs from the table's rule set in a few rare ones), the judge's name of
    /// the referee's reason, and a note saying so.
    fn play_fault(&self, cards: CardSet, e: &IllegalMove) -> Fault {
        let reason = super::table::play_refusal(cards, e);
        let foul = ddz::botzone::foul(self.edition, self.to_beat.cards(), cards);
        Fault::illegal(match foul {
            Some(f) => format!("{}: {reason}", f.name()),
            None => {
                let closest = match e {
                    IllegalMove::PassOnLead => Foul::InvalidPass,
                    IllegalMove::DoesNotBeat { .. } => Foul::LessCompare,
                    _ if self.edition == Edition::Ftl => Foul::BadFormat,
                    _ => Foul::InvalidCardType,
                };
                format!(
                    "{}: {reason} (Botzone's judge would let it stand; the table's rule set does not)",
                    closest.name()
                )
            }
        })
    }

    /// Starts the seat's codes afresh for a new deal in which it holds `hand`.
    fn deal(&mut self, hand: CardSet) {
        self.codes.reset();
        self.dealt.clear();
        self.codes.take(hand, &mut self.dealt);
        self.dealt.sort_unstable();
        self.public.clear();
        self.plays.clear();
        self.bids.clear();
        self.landlord = None;
        self.final_bid = 1;
        self.seen = 0;
        self.told_play = false;
    }

    /// Reads the events of the current deal the seat has not read yet.
    fn read(&mut self, seat: Seat, events: &[Event]) {
        for e in &events[self.seen.min(events.len())..] {
            match *e {
                Event::Bid { bid, .. } => self.bids.push(bid),
                Event::Landlord {
                    seat: l,
                    bid,
                    bottom,
                } => {
                    self.landlord = Some(l);
                    self.final_bid = bid.max(1);
                    if l == seat {
                        self.codes.take(bottom, &mut self.public);
                    } else {
                        self.codes.show_bottom(bottom, &mut self.public);
                    }
                }
                Event::Play { seat: who, play } => {
                    let mut codes = Vec::new();
                    if who != seat {
                        let by_landlord = self.landlord == Some(who);
                        self.codes.show(play.cards(), by_landlord, &mut codes);
                    } else if let Some(last) = self.own_last.take() {
                        codes = last;
                    }
                    self.plays.push(codes);
                }
                Event::Redeal | Event::Double { .. } | Event::End(_) => {}
            }
        }
        self.seen = events.len();
    }

    /// The last two plays, oldest first, `[]` where there is none.
    fn history(&self) -> Value {
        let n = self.plays.len();
        let at = |i: Option<usize>| match i.and_then(|i| self.plays.get(i)) {
            Some(p) => json!(p),
            None => json!([]),
        };
        json!([at(n.checked_sub(2)), at(n.checked_sub(1))])
    }
}

impl BotzoneGrammar for FtlGrammar {
    fn botzone_game(&self) -> &'static str {
        self.edition.botzone_game()
    }

    fn turns(
        &mut self,
        request: &v1::DecisionRequest,
        out: &mut Vec<BotzoneTurn>,
    ) -> Result<(), String> {
        let view = DdzView::from_request(request).map_err(|e| e.0)?;
        let obs = view.observation();
        let deal = CurrentDeal::read(&obs, &mut self.seat, "Botzone seat")?;
        let seat = deal.seat;
        let events = &obs.events[deal.start..];
        if self.dealt.is_empty() || deal.redeals != self.redeals {
            self.redeals = deal.redeals;
            self.deal(deal.dealt);
        }
        self.read(seat, events);
        self.rules = *obs.rules;
        self.hand = obs.hand;
        self.to_beat = obs.to_beat();
        self.highest_bid = obs.bid;
        let request = match obs.phase {
            Phase::Bidding => {
                if self.edition == Edition::Ftl {
                    return Err(
                        "FightTheLandlord has no bidding: play it with a fixed landlord (job.ddz.fixed_landlord), or seat a FightTheLandlord2 bot"
                            .into(),
                    );
                }
                self.asked = Some(Phase::Bidding);
                json!({"own": self.dealt, "bid": self.bids})
            }
            Phase::Play => {
                self.asked = Some(Phase::Play);
                let mut r = serde_json::Map::new();
                r.insert("history".into(), self.history());
                if !self.told_play {
                    self.told_play = true;
                    let own = match self.edition {
                        Edition::Ftl => {
                            let mut all = Vec::new();
                            self.codes.held(&mut all);
                            all
                        }
                        Edition::Ftl2 => self.dealt.clone(),
                    };
                    r.insert("own".into(), json!(own));
                    r.insert("publiccard".into(), json!(self.public));
                    if self.edition == Edition::Ftl2 {
                        let landlord = self.landlord.map_or(0, Seat::index);
                        r.insert("landlord".into(), json!(landlord));
                        r.insert("pos".into(), json!(seat.index()));
                        r.insert("finalbid".into(), json!(self.final_bid));
                    }
                }
                Value::Object(r)
            }
            Phase::Doubling => {
                return Err(format!(
                    "{} has no doubling round: play it with job.ddz.doubling off",
                    self.edition.botzone_game()
                ));
            }
            Phase::Over => return Err("the game is over: there is nothing to ask".into()),
        };
        out.push(BotzoneTurn {
            request,
            filler: None,
        });
        Ok(())
    }

    fn action(&mut self, response: &Value) -> Result<v1::Action, Fault> {
        match self.asked.take() {
            Some(Phase::Bidding) => {
                let bid = match response {
                    Value::Number(n) => n.as_u64(),
                    // Botzone's judge reads the response with int(), so "2" is a call of 2.
                    Value::String(s) => s.trim().parse::<u64>().ok(),
                    _ => None,
                };
                match bid {
                    // The judge: a call other than 0 must be higher than the last.
                    Some(b) if b != 0 && b <= 3 && b <= u64::from(self.highest_bid) => {
                        let e = IllegalMove::InvalidBid {
                            bid: b as u8,
                            highest: self.highest_bid,
                        };
                        Err(Fault::illegal(format!("INVALID_BID: {e}")))
                    }
                    Some(b) if b <= 3 => Ok(ddz_action(DdzDecision::Bid(b as u32))),
                    _ => Err(Fault::malformed(format!(
                        "INVALID_BID: the response {response} is not a call (a number 0 to 3)"
                    ))),
                }
            }
            Some(Phase::Play) => {
                let Some(list) = response.as_array() else {
                    return Err(Fault::malformed(format!(
                        "BAD_FORMAT: the response {response} is not a list of cards (numbers 0 to 53, [] to pass)"
                    )));
                };
                let mut codes = Vec::with_capacity(list.len());
                for v in list {
                    match v.as_i64() {
                        Some(c) => codes.push(c),
                        None => {
                            return Err(Fault::malformed(format!(
                                "BAD_FORMAT: the response {response} holds {v}, which is not a card number"
                            )));
                        }
                    }
                }
                let cards = self
                    .codes
                    .cards(&codes)
                    .map_err(|f| Fault::malformed(f.to_string()))?;
                // The judge's rule fouls, decided before the referee sees the play (the
                // referee would refuse it with the same reason but without the judge's name).
                self.rules
                    .check_play(self.hand, self.to_beat, cards)
                    .map_err(|e| self.play_fault(cards, &e))?;
                self.codes
                    .play(&codes)
                    .map_err(|f| Fault::malformed(f.to_string()))?;
                self.own_last = Some(codes.iter().map(|&c| c as u8).collect());
                Ok(ddz_action(DdzDecision::Play(cards)))
            }
            _ => Err(Fault::malformed("a response when nothing was asked")),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The expected requests are what Botzone's judges (`FightTheLandlord.py3`,
    //! `FightTheLandlord2.py36`) printed as the seat's `content` when run on this deal (deal 0
    //! of seed 1) and these moves, with `initdata` giving the allocation and public cards in
    //! the codes the seat sees (its own cards the lowest suits, the rest as shown).
    use super::*;
    use crate::ddz::convert::ddz_observation;
    use ddz::{Action, Bidding, Deal, Game, GameConfig};

    fn game(auction: bool) -> Game {
        let mut c = GameConfig::fixed_landlord();
        if auction {
            c.bidding = Bidding::Auction {
                first: Seat::ALL[0],
                max_redeals: 0,
            };
        }
        Game::new(c, Deal::generate(1, 0), 1)
    }

    fn request(game: &Game) -> v1::DecisionRequest {
        let seat = game.to_act().unwrap();
        let kind = match game.phase() {
            Phase::Bidding => v1::DecisionKind::Bid,
            _ => v1::DecisionKind::Play,
        };
        v1::DecisionRequest {
            request_id: 1,
            table_id: "t".into(),
            seat: seat.index() as u32,
            game: "ddz".into(),
            kind: kind as i32,
            deadline_ms: 1000,
            observation: Some(ddz_observation(
                &game.observation(seat),
                "competition",
                vec![],
            )),
        }
    }

    fn play(game: &mut Game, cards: &str) {
        let set = if cards == "pass" {
            CardSet::EMPTY
        } else {
            cards.parse().unwrap()
        };
        let m = game
            .play_state()
            .check(&ddz::RuleSet::COMPETITION, set)
            .unwrap();
        game.apply(Action::Play(m)).unwrap();
    }

    /// The seat's request, and that it is the decision's own turn.
    fn turn(g: &mut FtlGrammar, game: &Game) -> Value {
        let mut turns = Vec::new();
        g.turns(&request(game), &mut turns).unwrap();
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].filler, None);
        turns.pop().unwrap().request
    }

    fn judge(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn fightthelandlord_requests_are_the_judges() {
        let mut g = game(false);
        let mut landlord = FtlGrammar::new(Edition::Ftl);
        assert_eq!(
            turn(&mut landlord, &g),
            judge(
                r#"{"own": [0, 1, 2, 8, 9, 12, 16, 17, 20, 24, 28, 29, 32, 36, 37, 40, 41, 48, 49, 52], "history": [[], []], "publiccard": [12, 17, 49]}"#
            )
        );
        assert_eq!(
            landlord.action(&json!([0])),
            Ok(ddz_action(DdzDecision::Play("3".parse().unwrap())))
        );
        play(&mut g, "3");
        let mut farmer = FtlGrammar::new(Edition::Ftl);
        assert_eq!(
            turn(&mut farmer, &g),
            judge(
                r#"{"own": [4, 5, 8, 12, 20, 24, 25, 32, 33, 34, 36, 40, 44, 45, 46, 48, 53], "history": [[], [0]], "publiccard": [13, 16, 49]}"#
            )
        );
        assert!(farmer.action(&json!([4])).is_ok());
        play(&mut g, "4");
        play(&mut g, "pass");
        // The landlord's second request: the farmers' 4 and pass, in its own codes (it holds
        // no 4, so the 4 is the lowest).
        assert_eq!(turn(&mut landlord, &g), judge(r#"{"history": [[4], []]}"#));
        assert!(landlord.action(&json!([12])).is_ok());
        // The landlord's 6 is the bottom card the farmer was shown as 13.
        play(&mut g, "6");
        assert_eq!(turn(&mut farmer, &g), judge(r#"{"history": [[], [13]]}"#));
    }

    #[test]
    fn fightthelandlord2_bidding_and_first_play_requests_are_the_judges() {
        let mut g = game(true);
        let mut seat0 = FtlGrammar::new(Edition::Ftl2);
        let mut seat2 = FtlGrammar::new(Edition::Ftl2);
        assert_eq!(
            turn(&mut seat0, &g),
            judge(
                r#"{"own": [0, 1, 2, 8, 9, 16, 20, 24, 28, 29, 32, 36, 37, 40, 41, 48, 52], "bid": []}"#
            )
        );
        assert_eq!(seat0.action(&json!(1)), Ok(ddz_action(DdzDecision::Bid(1))));
        g.apply(Action::Bid(1)).unwrap();
        g.apply(Action::Bid(2)).unwrap();
        assert_eq!(
            turn(&mut seat2, &g),
            judge(
                r#"{"own": [0, 4, 5, 8, 12, 13, 16, 17, 20, 21, 24, 28, 29, 36, 40, 44, 48], "bid": [1, 2]}"#
            )
        );
        assert_eq!(seat2.action(&json!(3)), Ok(ddz_action(DdzDecision::Bid(3))));
        g.apply(Action::Bid(3)).unwrap();
        assert_eq!(
            turn(&mut seat2, &g),
            judge(
                r#"{"history": [[], []], "own": [0, 4, 5, 8, 12, 13, 16, 17, 20, 21, 24, 28, 29, 36, 40, 44, 48], "publiccard": [14, 18, 49], "landlord": 2, "pos": 2, "finalbid": 3}"#
            )
        );
        assert!(seat2.action(&json!([0])).is_ok());
        play(&mut g, "3");
        assert_eq!(
            turn(&mut seat0, &g),
            judge(
                r#"{"history": [[], [3]], "own": [0, 1, 2, 8, 9, 16, 20, 24, 28, 29, 32, 36, 37, 40, 41, 48, 52], "publiccard": [12, 17, 49], "landlord": 2, "pos": 0, "finalbid": 3}"#
            )
        );
    }

    #[test]
    fn responses_that_are_no_cards_of_the_bot_are_named_as_botzone_names_them() {
        let g = game(false);
        let mut landlord = FtlGrammar::new(Edition::Ftl);
        turn(&mut landlord, &g);
        let foul = |g: &mut FtlGrammar, r: Value| {
            g.asked = Some(Phase::Play);
            let f = g.action(&r).unwrap_err();
            assert_eq!(f.kind, v1::VerdictKind::Malformed, "{f}");
            f.reason
        };
        assert!(foul(&mut landlord, json!([60])).starts_with("OUT_OF_RANGE"));
        // Code 3 is the fourth 3, which the landlord does not hold.
        assert!(foul(&mut landlord, json!([3])).starts_with("MISSING_CARD"));
        assert!(foul(&mut landlord, json!([0, 0])).starts_with("REPEATED_CARD"));
        assert!(foul(&mut landlord, json!("PASS")).starts_with("BAD_FORMAT"));
        assert!(foul(&mut landlord, json!([1.5])).starts_with("BAD_FORMAT"));
        // Bidding in FightTheLandlord2: a number 0 to 3 (or its text, as the judge's int()).
        let g = game(true);
        let mut bidder = FtlGrammar::new(Edition::Ftl2);
        turn(&mut bidder, &g);
        assert!(
            bidder
                .action(&json!(4))
                .unwrap_err()
                .reason
                .starts_with("INVALID_BID")
        );
        turn(&mut bidder, &g);
        assert_eq!(
            bidder.action(&json!("2")),
            Ok(ddz_action(DdzDecision::Bid(2)))
        );
        // FightTheLandlord has no bidding: its bots cannot sit at an auction.
        let mut ftl = FtlGrammar::new(Edition::Ftl);
        let e = ftl.turns(&request(&g), &mut Vec::new()).unwrap_err();
        assert!(e.contains("no bidding"), "{e}");
    }

    /// A deal where the landlord (seat 0) holds 3 3 4 5 6 7 8 9 T J Q K A 2 2 B R and the
    /// bottom J Q K, and seat 1 holds 3 4 4 4 5 5 5 6 6 6 7 8 9 T T J Q. In the codes the seats
    /// see, the landlord's 3s are 0 and 1, its 4 … 8 are 4, 8, 12, 16, 20; seat 1's 3 is 0, its
    /// 4s 4, 5, 6, its 5s 8, 9, 10, its 6s 12, 13, 14, its 7 … 9 16, 20, 24.
    fn rule_game(edition: Edition) -> Game {
        let deal: Deal = "33456789TJQKA22BR/3456789445566TTJQ/3778899TJQKKAAA22/JQK"
            .parse()
            .unwrap();
        let mut c = GameConfig::fixed_landlord();
        if edition == Edition::Ftl2 {
            c.bidding = Bidding::Auction {
                first: Seat::ALL[0],
                max_redeals: 0,
            };
        }
        let mut g = Game::new(c, deal, 1);
        if edition == Edition::Ftl2 {
            g.apply(Action::Bid(3)).unwrap();
        }
        g
    }

    /// The fault of `response` to the open request of `g`'s seat to act, which must be
    /// `illegal`; its reason.
    fn rule_foul(grammar: &mut FtlGrammar, g: &Game, response: Value) -> String {
        turn(grammar, g);
        let f = grammar.action(&response).unwrap_err();
        assert_eq!(f.kind, v1::VerdictKind::Illegal, "{f}");
        f.reason
    }

    #[test]
    fn a_play_on_a_free_lead_is_named_as_the_judges_name_its_foul() {
        for edition in [Edition::Ftl, Edition::Ftl2] {
            let g = rule_game(edition);
            let mut landlord = FtlGrammar::new(edition);
            assert_eq!(
                rule_foul(&mut landlord, &g, json!([])),
                "INVALID_PASS: play pass: cannot pass when leading"
            );
            // 3 and 4 are no combination: FightTheLandlord2's judge says INVALID_CARDTYPE;
            // FightTheLandlord's weighs the play before checking it and, finding no weight
            // for it, reports BAD_FORMAT.
            let name = match edition {
                Edition::Ftl => "BAD_FORMAT",
                Edition::Ftl2 => "INVALID_CARDTYPE",
            };
            assert_eq!(
                rule_foul(&mut landlord, &g, json!([1, 4])),
                format!(
                    "{name}: play 34: not a combination: a straight needs at least 5 links, this has 2"
                )
            );
        }
    }

    #[test]
    fn a_play_that_does_not_beat_the_last_is_named_as_the_judges_name_its_foul() {
        for edition in [Edition::Ftl, Edition::Ftl2] {
            let mut g = rule_game(edition);
            play(&mut g, "45678");
            let mut farmer = FtlGrammar::new(edition);
            assert_eq!(
                rule_foul(&mut farmer, &g, json!([0, 4, 8, 12, 16])),
                "LESS_COMPARE: play 34567: 34567 (straight) does not beat 45678 (straight)"
            );
            assert_eq!(
                rule_foul(&mut farmer, &g, json!([4, 5])),
                "MISMATCH_CARDTYPE: play 44: 44 (pair) does not beat 45678 (straight)"
            );
            assert_eq!(
                rule_foul(&mut farmer, &g, json!([4, 8, 12, 16, 20, 24])),
                "MISMATCH_CARDLENGTH: play 456789: 456789 (straight) does not beat 45678 (straight)"
            );
            // A pass, a higher straight and a bomb stand.
            turn(&mut farmer, &g);
            assert!(farmer.action(&json!([])).is_ok());
            turn(&mut farmer, &g);
            assert!(farmer.action(&json!([8, 12, 16, 20, 24])).is_ok());
        }
    }

    #[test]
    fn a_play_the_judge_allows_but_the_table_refuses_says_so() {
        // The landlord holds 333 444 and both jokers (codes 0–2, 4–6, 52, 53): a plane with the
        // rocket as its two wings is FightTheLandlord2's 飞机带小翼, but competition rules
        // refuse the rocket as kickers.
        let deal: Deal = "33344456789TJQKBR/34555666777888999/TTTJJJQQQKKKAAA22/A22"
            .parse()
            .unwrap();
        let g = Game::new(GameConfig::fixed_landlord(), deal, 1);
        let mut landlord = FtlGrammar::new(Edition::Ftl2);
        let reason = rule_foul(&mut landlord, &g, json!([0, 1, 2, 4, 5, 6, 52, 53]));
        assert!(
            reason.starts_with("INVALID_CARDTYPE: play 333444BR: not a combination")
                && reason.ends_with(
                    "(Botzone's judge would let it stand; the table's rule set does not)"
                ),
            "{reason}"
        );
    }

    #[test]
    fn a_call_that_does_not_raise_is_the_judges_invalid_bid_and_illegal() {
        let mut c = GameConfig::fixed_landlord();
        c.bidding = Bidding::Auction {
            first: Seat::ALL[0],
            max_redeals: 0,
        };
        let mut g = Game::new(c, Deal::generate(1, 0), 1);
        g.apply(Action::Bid(2)).unwrap();
        let mut seat1 = FtlGrammar::new(Edition::Ftl2);
        turn(&mut seat1, &g);
        let f = seat1.action(&json!(2)).unwrap_err();
        assert_eq!(f.kind, v1::VerdictKind::Illegal);
        assert_eq!(
            f.reason,
            "INVALID_BID: bid 2 is not allowed: bid 0 (no call) or more than 2, at most 3"
        );
        turn(&mut seat1, &g);
        assert_eq!(seat1.action(&json!(0)), Ok(ddz_action(DdzDecision::Bid(0))));
    }
}
