//! The client side: a [`Player`] (a built-in bot) served as a contest program, reading the
//! server's lines and writing its answers, so that other contest servers can use the arena's
//! bots (`arena mahjong bot NAME`).
//!
//! A player decides from a [`View`] of a [`Game`], but a program knows only what the server
//! told it. So at every question [`Client`] rebuilds a game that agrees with everything the
//! seat was told: its own tiles and draws exactly, and for the other seats hidden tiles chosen
//! to fit what they did in the open (each seat's discards and melded tiles placed in its hand
//! in the order it used them, a kind no one has seen for a concealed kong, the rest of the
//! unseen tiles anywhere). It replays the hand's decisions on that game: the seat's view of
//! it is exactly the view the arena would have given (the rules hide the rest), and its legal
//! actions are the rules' own.

use mahjong::{
    Action, ActionList, Deal, Event, Game, Phase, Reading, Rules, TILE_KINDS, Tile, View, Wall,
};
use mahjong_bots::Player;

use crate::codec::{BotMessage, INIT_TILES, ServerMessage};

/// Why the server's lines cannot be followed: they contradict each other or the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the server's lines do not make a hand: {0}")]
pub struct ClientError(pub String);

fn error(what: impl Into<String>) -> ClientError {
    ClientError(what.into())
}

/// What the seat heard of the hand (and did itself), in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Heard {
    Draw {
        seat: u8,
        tile: Option<Tile>,
    },
    Discard {
        seat: u8,
        tile: Tile,
    },
    Chow {
        seat: u8,
        lowest: Tile,
    },
    Pung {
        seat: u8,
        tile: Tile,
    },
    Kong {
        seat: u8,
        tile: Tile,
    },
    ConcealedKong {
        seat: u8,
        tile: Option<Tile>,
    },
    AddedKong {
        seat: u8,
        tile: Tile,
    },
    /// The seat's own chow at `lowest` failed (`mfail`).
    ChowFailed {
        lowest: Tile,
    },
}

/// One hand as the seat was told it.
#[derive(Clone, Debug, Default)]
struct Hand {
    seat: u8,
    first: Option<u8>,
    init: Option<[Tile; INIT_TILES]>,
    heard: Vec<Heard>,
    started: bool,
    /// The seat's last answer.
    last: Option<Action>,
}

/// A player served over the contest protocol: feed it the server's lines with
/// [`Client::hear`], write what it returns.
pub struct Client<P> {
    player: P,
    reading: Reading,
    seed: u64,
    hand: Option<Hand>,
    legal: ActionList,
}

impl<P: Player> Client<P> {
    /// Serves `player`, scoring under `reading`; `seed` seeds the player (mixed with the
    /// seat's starting tiles, so each hand differs).
    pub fn new(player: P, reading: Reading, seed: u64) -> Client<P> {
        Client {
            player,
            reading,
            seed,
            hand: None,
            legal: ActionList::new(),
        }
    }

    /// The player served.
    pub fn player(&self) -> &P {
        &self.player
    }

    /// The player served, to change.
    pub fn player_mut(&mut self) -> &mut P {
        &mut self.player
    }

    /// The `join` line a program writes first.
    pub fn greeting(&self) -> BotMessage {
        BotMessage::Join(None)
    }

    /// Takes one line from the server; returns the answer to write, if the line asks one.
    pub fn hear(&mut self, message: &ServerMessage) -> Result<Option<BotMessage>, ClientError> {
        if let ServerMessage::Id(seat) = *message {
            self.hand = Some(Hand {
                seat,
                ..Hand::default()
            });
            return Ok(None);
        }
        let hand = self
            .hand
            .as_mut()
            .ok_or_else(|| error(format!("{message} came before \"id\"")))?;
        let me = hand.seat;
        let heard = match *message {
            ServerMessage::Id(_) => unreachable!("handled above"),
            ServerMessage::First(n) => {
                hand.first = Some(n);
                return Ok(None);
            }
            ServerMessage::Init(tiles) => {
                hand.init = Some(tiles);
                return Ok(None);
            }
            ServerMessage::Pick(tile) => Heard::Draw {
                seat: me,
                tile: Some(tile),
            },
            ServerMessage::MPick(seat) if seat == me => {
                return Err(error(
                    "\"mpick\" names this seat; its draws come as \"pick\"",
                ));
            }
            ServerMessage::MPick(seat) => Heard::Draw { seat, tile: None },
            ServerMessage::MOut { seat, tile } if seat == me => {
                // The arena does not echo a seat's own discard; a server that does is heard
                // once.
                if hand.heard.last() == Some(&Heard::Discard { seat, tile }) {
                    return Ok(None);
                }
                return Err(error(format!(
                    "{message} is not the discard this seat made"
                )));
            }
            ServerMessage::MOut { seat, tile } => Heard::Discard { seat, tile },
            ServerMessage::MChi { seat, lowest } => Heard::Chow { seat, lowest },
            ServerMessage::MPeng { seat, tile } => Heard::Pung { seat, tile },
            ServerMessage::MGang { seat, tile } => Heard::Kong { seat, tile },
            ServerMessage::MAGang(seat) => Heard::ConcealedKong {
                seat,
                tile: match hand.last {
                    Some(Action::ConcealedKong(t)) if seat == me => Some(t),
                    _ if seat == me => {
                        return Err(error("\"magang\" names this seat, which declared no kong"));
                    }
                    _ => None,
                },
            },
            ServerMessage::MJGang { seat, tile } => Heard::AddedKong { seat, tile },
            ServerMessage::MFail => match hand.last {
                Some(Action::Chow(lowest)) => Heard::ChowFailed { lowest },
                _ => return Err(error("\"mfail\" came, but this seat asked for no chow")),
            },
        };
        hand.heard.push(heard);
        if !crate::feed::asks(me, message) {
            return Ok(None);
        }
        self.answer().map(Some)
    }

    /// Rebuilds the hand, asks the player and records its answer.
    fn answer(&mut self) -> Result<BotMessage, ClientError> {
        let hand = self.hand.as_mut().expect("a hand is under way");
        let game = rebuild(hand, self.reading)?;
        let me = hand.seat;
        if !hand.started {
            hand.started = true;
            let seed = self.seed ^ fingerprint(hand.init.as_ref().expect("rebuilt"));
            // A built-in player does not fail to start; if it did, it is asked anyway.
            let _ = self.player.start_hand(me, seed);
        }
        game.legal_actions(me, &mut self.legal);
        let view: View<'_> = game.view(me);
        let action = match self.player.decide(&view, &self.legal).answer {
            Ok(a) if self.legal.contains(a) => a,
            // A built-in player's fault or illegal answer: what the arena plays for a dead seat.
            _ => game.automatic(me),
        };
        hand.last = Some(action);
        if let Action::Discard(tile) = action {
            hand.heard.push(Heard::Discard { seat: me, tile });
        }
        Ok(to_message(action))
    }
}

/// The answer line of an action.
pub fn to_message(action: Action) -> BotMessage {
    match action {
        Action::Discard(t) => BotMessage::Out(t),
        Action::SelfDrawnWin | Action::Win => BotMessage::Hu,
        Action::ConcealedKong(t) => BotMessage::AGang(t),
        Action::AddedKong(t) => BotMessage::JGang(t),
        Action::Pass => BotMessage::Pass,
        Action::Kong => BotMessage::Gang,
        Action::Pung => BotMessage::Peng,
        Action::Chow(t) => BotMessage::Chi(t),
        Action::RobKong => BotMessage::QGang,
    }
}

fn fingerprint(tiles: &[Tile]) -> u64 {
    tiles.iter().fold(0xcbf2_9ce4_8422_2325, |h, t| {
        (h ^ t.index() as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A tile the seat knows (its own) or one another seat must have held.
#[derive(Copy, Clone, Debug)]
enum Need {
    Known(Tile),
    /// The `n`-th concealed kong of unknown kind.
    Kong(usize),
}

/// Takes one `t` from the tiles `left` unplaced.
fn take(t: Tile, left: &mut [u8; TILE_KINDS]) -> Result<(), ClientError> {
    let n = &mut left[t.index()];
    *n = n
        .checked_sub(1)
        .ok_or_else(|| error(format!("more than four {t} were seen")))?;
    Ok(())
}

/// A wall and first player that agree with everything the seat heard, replayed into a game.
fn rebuild(hand: &Hand, reading: Reading) -> Result<Game, ClientError> {
    let me = hand.seat;
    let first = hand.first.ok_or_else(|| error("no \"first\" line came"))?;
    let init = hand.init.ok_or_else(|| error("no \"init\" line came"))?;
    let mut wall: [Option<Tile>; 136] = [None; 136];
    let mut left = [4u8; TILE_KINDS];
    for (i, &t) in init.iter().enumerate() {
        wall[usize::from(me) * INIT_TILES + i] = Some(t);
        take(t, &mut left)?;
    }
    // The other seats' slots (their starting tiles, then their draws, in the order they got
    // them) and the tiles they used, in the order they used them.
    let mut slots: [Vec<usize>; 4] =
        std::array::from_fn(|s| (s * INIT_TILES..(s + 1) * INIT_TILES).collect());
    let mut needs: [Vec<Need>; 4] = Default::default();
    let mut kongs = 0;
    let mut draws = 0;
    let mut last_discard = None;
    for &h in &hand.heard {
        match h {
            Heard::Draw { seat, tile } => {
                let at = 4 * INIT_TILES + draws;
                draws += 1;
                if at >= wall.len() {
                    return Err(error("more than 84 draws"));
                }
                match tile {
                    Some(t) => {
                        wall[at] = Some(t);
                        take(t, &mut left)?;
                    }
                    None => slots[usize::from(seat)].push(at),
                }
            }
            Heard::Discard { seat, tile } => {
                last_discard = Some(tile);
                if seat != me {
                    needs[usize::from(seat)].push(Need::Known(tile));
                }
            }
            Heard::Chow { seat, lowest } if seat != me => {
                let claimed = last_discard.ok_or_else(|| error("a chow before any discard"))?;
                let mut t = lowest;
                for k in 0..3 {
                    if t != claimed {
                        needs[usize::from(seat)].push(Need::Known(t));
                    }
                    if k < 2 {
                        t = t
                            .next()
                            .ok_or_else(|| error(format!("no chow starts at {lowest}")))?;
                    }
                }
            }
            Heard::Pung { seat, tile } if seat != me => {
                needs[usize::from(seat)].extend([Need::Known(tile); 2]);
            }
            Heard::Kong { seat, tile } if seat != me => {
                needs[usize::from(seat)].extend([Need::Known(tile); 3]);
            }
            Heard::ConcealedKong { seat, .. } if seat != me => {
                needs[usize::from(seat)].extend([Need::Kong(kongs); 4]);
                kongs += 1;
            }
            Heard::AddedKong { seat, tile } if seat != me => {
                needs[usize::from(seat)].push(Need::Known(tile));
            }
            _ => {}
        }
    }
    for (seat, need) in needs.iter().enumerate() {
        for n in need {
            if let Need::Known(t) = *n {
                take(t, &mut left)?;
            }
        }
        if need.len() > slots[seat].len() {
            return Err(error(format!(
                "seat {seat} used more tiles than it was dealt and drew"
            )));
        }
    }
    // A kind nobody has seen for each concealed kong of another seat.
    let mut kong_kinds = Vec::with_capacity(kongs);
    for _ in 0..kongs {
        let kind = left
            .iter()
            .position(|&n| n == 4)
            .ok_or_else(|| error("a concealed kong of a kind that has been seen"))?;
        left[kind] = 0;
        kong_kinds.push(Tile::from_index(kind).expect("kind < 34"));
    }
    for (seat, need) in needs.iter().enumerate() {
        for (&slot, n) in slots[seat].iter().zip(need) {
            wall[slot] = Some(match *n {
                Need::Known(t) => t,
                Need::Kong(k) => kong_kinds[k],
            });
        }
    }
    let mut rest = (0..TILE_KINDS).flat_map(|i| {
        let t = Tile::from_index(i).expect("i < 34");
        std::iter::repeat_n(t, usize::from(left[i]))
    });
    let mut tiles = [Tile::EAST; 136];
    for (slot, t) in wall.iter().zip(tiles.iter_mut()) {
        *t = match slot {
            Some(known) => *known,
            None => rest
                .next()
                .ok_or_else(|| error("more tiles than the wall holds"))?,
        };
    }
    let wall = Wall::from_tiles(&tiles).map_err(|e| error(e.to_string()))?;
    let mut game = Game::new(&Deal { wall, first }, Rules { reading });
    replay(&mut game, hand, &kong_kinds)?;
    if game.decision(me).is_none() {
        return Err(error(format!(
            "this seat is asked nothing after what it heard (the hand is at {:?})",
            game.phase()
        )));
    }
    Ok(game)
}

/// Plays the decisions the seat heard of on `game`, up to the one it is asked now.
fn replay(game: &mut Game, hand: &Hand, kong_kinds: &[Tile]) -> Result<(), ClientError> {
    let me = hand.seat;
    // The seat's moves and the table's, without the draws (the game makes those itself).
    let moves: Vec<Heard> = hand
        .heard
        .iter()
        .copied()
        .filter(|h| !matches!(h, Heard::Draw { .. }))
        .collect();
    let draws_heard = hand.heard.len() - moves.len();
    let is_draw = |e: &Event| matches!(e, Event::Draw { .. });
    let mut draws_made = game.events().iter().filter(|e| is_draw(e)).count();
    let mut kongs = kong_kinds.iter();
    let mut i = 0;
    let mut answers: Vec<(u8, Action)> = Vec::with_capacity(4);
    // Until every move is made and every draw heard is drawn: a discard everyone passed on
    // is followed by the next seat's draw, with no move in between.
    while i < moves.len() || draws_made < draws_heard {
        answers.clear();
        let everyone_passes = |game: &Game, answers: &mut Vec<(u8, Action)>| {
            answers.extend(game.deciders().iter().map(|s| (s, Action::Pass)));
        };
        match game.phase() {
            Phase::Over => return Err(error("lines came after the hand was over")),
            Phase::Turn { seat } => {
                let Some(&next) = moves.get(i) else {
                    return Err(error(format!(
                        "seat {seat} drew, then nothing was heard of it"
                    )));
                };
                let action = match next {
                    Heard::Discard { seat: s, tile } if s == seat => Action::Discard(tile),
                    Heard::ConcealedKong { seat: s, tile } if s == seat => {
                        Action::ConcealedKong(match tile {
                            Some(t) => t,
                            None => *kongs.next().expect("one kind per hidden kong"),
                        })
                    }
                    Heard::AddedKong { seat: s, tile } if s == seat => Action::AddedKong(tile),
                    other => {
                        return Err(error(format!(
                            "it was seat {seat}'s turn, but the next thing heard was {other:?}"
                        )));
                    }
                };
                i += 1;
                answers.push((seat, action));
            }
            Phase::Claims { discarder, .. } => {
                everyone_passes(game, &mut answers);
                let claim = match moves.get(i) {
                    Some(&Heard::Chow { seat, lowest }) => Some((seat, Action::Chow(lowest))),
                    Some(&Heard::Pung { seat, .. }) => Some((seat, Action::Pung)),
                    Some(&Heard::Kong { seat, .. }) => Some((seat, Action::Kong)),
                    _ => None,
                };
                if let Some((seat, action)) = claim {
                    i += 1;
                    set(&mut answers, seat, action)?;
                    if let Some(&Heard::ChowFailed { lowest }) = moves.get(i) {
                        i += 1;
                        if me != (discarder + 1) % 4 {
                            return Err(error("\"mfail\" came to a seat that may not chow"));
                        }
                        set(&mut answers, me, Action::Chow(lowest))?;
                    }
                }
            }
            Phase::RobKong { .. } => everyone_passes(game, &mut answers),
        }
        let before = game.events().len();
        game.apply(&answers)
            .map_err(|e| error(format!("the rules refuse what was heard: {e}")))?;
        draws_made += game.events()[before..]
            .iter()
            .filter(|e| is_draw(e))
            .count();
    }
    Ok(())
}

/// Sets `seat`'s answer among `answers`.
fn set(answers: &mut [(u8, Action)], seat: u8, action: Action) -> Result<(), ClientError> {
    let slot = answers
        .iter_mut()
        .find(|(s, _)| *s == seat)
        .ok_or_else(|| error(format!("seat {seat} claimed a discard it could not claim")))?;
    slot.1 = action;
    Ok(())
}
