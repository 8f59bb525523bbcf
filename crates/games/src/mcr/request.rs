//! A Chinese Standard Mahjong decision request read back into the rules engine's types (the
//! wire-to-rules direction of [`super::convert`]), for the built-in bots bot-host runs, which
//! decide from a seat's [`View`].
//!
//! A request carries the seat's whole view (its concealed tiles and every event it saw), so no
//! state is kept between requests. Each is rebuilt into a hand the seat could be playing: a wall
//! on which every seat draws what the events say it drew (the asked seat's own tiles exactly,
//! its dealt hand worked out from its tiles now and what it gave out; every other seat's hidden
//! tiles chosen so that it holds each tile it discards or melds when it does), and the events'
//! answers replayed on it. What the rebuilt seat sees must be what the observation says (hand,
//! packs, discards, wall, the decision and its legal answers): a request that disagrees with
//! itself is refused, the error naming the field.

use arena_proto::packages::arena::mcr::v1 as mcr_pb;
use arena_proto::v1;
use mcr::{
    Action, ActionList, Counts, Decision, Event, Game, TILE_KINDS, Tile, Wall, WallTile,
    parse_tiles,
};

use super::convert;
use crate::BadRequest;

const OBS: &str = "request.observation.mcr";

fn bad<T>(msg: String) -> Result<T, BadRequest> {
    Err(BadRequest(msg))
}

/// A request rebuilt: a hand the asked seat could be playing, at its decision.
#[derive(Clone, Debug)]
pub struct McrRequest {
    game: Game,
    seat: u8,
    decision: Decision,
    /// The seat's 13 dealt tiles.
    dealt: Counts,
}

/// One tile of a seat's draws while the wall is worked out: known, or still to choose.
#[derive(Copy, Clone, Debug)]
enum Slot {
    Known(WallTile),
    Hidden,
}

/// A tile a seat gave out of its concealed hand, or a quarter of another seat's concealed kong
/// (whose kind the seat does not show).
#[derive(Copy, Clone, Debug)]
enum Given {
    Tile(Tile),
    HiddenKong,
}

/// The tiles an answer takes out of its seat's concealed hand; `claimed` is the tile it claims
/// (the last discard).
fn given_out(action: Action, claimed: Option<Tile>, out: &mut Vec<Given>) -> Result<(), String> {
    let need = || claimed.ok_or_else(|| format!("{action} claims no discard"));
    let mut push = |t: Tile, n: usize| out.extend(std::iter::repeat_n(Given::Tile(t), n));
    match action {
        Action::Pass | Action::Win => {}
        Action::Play(t) | Action::AddedKong(t) => push(t, 1),
        Action::ConcealedKong(t) => push(t, 4),
        Action::Kong => push(need()?, 3),
        Action::Pung(t) => {
            push(need()?, 2);
            push(t, 1);
        }
        Action::Chow { middle, discard } => {
            let c = need()?;
            for by in [-1, 0, 1] {
                let t = middle
                    .offset(by)
                    .ok_or_else(|| format!("{action}: no chow around {middle}"))?;
                if t != c {
                    push(t, 1);
                }
            }
            push(discard, 1);
        }
    }
    Ok(())
}

/// The tile an answer discards, if it does.
fn discard_of(action: Action) -> Option<Tile> {
    match action {
        Action::Play(t) | Action::Pung(t) | Action::Chow { discard: t, .. } => Some(t),
        Action::AddedKong(t) => Some(t),
        _ => None,
    }
}

impl McrRequest {
    /// Reads `req`, checking every field; the error names the field.
    pub fn from_request(req: &v1::DecisionRequest) -> Result<McrRequest, BadRequest> {
        let Some(envelope) = req.observation.as_ref() else {
            return bad(format!(
                "{OBS} is missing: a Chinese Standard Mahjong request needs the seat's observation"
            ));
        };
        let o = convert::observation_of(envelope).map_err(BadRequest)?;
        if o.seat != req.seat {
            return bad(format!(
                "{OBS}.seat ({}) is not request.seat ({})",
                o.seat, req.seat
            ));
        }
        let seat = u8::try_from(req.seat)
            .ok()
            .filter(|s| *s < 4)
            .ok_or_else(|| BadRequest(format!("request.seat is {}; seats are 0 to 3", req.seat)))?;
        let r = rebuild(seat, &o).map_err(|e| BadRequest(format!("{OBS}.{e}")))?;
        r.check_against(req, &o)?;
        Ok(r)
    }

    /// Checks that the rebuilt seat sees what the observation says it sees.
    fn check_against(
        &self,
        req: &v1::DecisionRequest,
        o: &mcr_pb::Observation,
    ) -> Result<(), BadRequest> {
        let kind = convert::decision_kind(self.decision);
        if req.kind != v1::DecisionKind::Unspecified as i32 && req.kind != kind as i32 {
            return bad(format!(
                "request.kind is {}, but after its events the seat is asked {}",
                v1::DecisionKind::try_from(req.kind)
                    .map_or_else(|_| req.kind.to_string(), |k| k.as_str_name().to_string()),
                kind.as_str_name()
            ));
        }
        let seen = convert::observation_of(&convert::observation_from(
            &self.view(),
            self.game.legal(self.seat),
            0,
        ))
        .map_err(BadRequest)?;
        let disagrees = |field: &str, theirs: &dyn std::fmt::Debug, ours: &dyn std::fmt::Debug| {
            bad(format!(
                "{OBS}.{field} is {theirs:?}, but the seat's events make it {ours:?}"
            ))
        };
        if o.hand != seen.hand {
            return disagrees("hand", &o.hand, &seen.hand);
        }
        if o.quan != seen.quan {
            return disagrees("quan", &o.quan, &seen.quan);
        }
        if o.seats != seen.seats {
            return disagrees("seats", &o.seats, &seen.seats);
        }
        if (o.decision, &o.tile, o.from) != (seen.decision, &seen.tile, seen.from) {
            return disagrees(
                "decision",
                &(o.decision, &o.tile, o.from),
                &(seen.decision, &seen.tile, seen.from),
            );
        }
        if !o.legal.is_empty() && o.legal != seen.legal {
            return disagrees("legal", &o.legal, &seen.legal);
        }
        Ok(())
    }

    /// The asked seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The decision it faces.
    pub fn decision(&self) -> Decision {
        self.decision
    }

    /// What it sees.
    pub fn view(&self) -> mcr::View<'_> {
        self.game.view(self.seat)
    }

    /// Its legal answers.
    pub fn legal(&self) -> &ActionList {
        self.game.legal(self.seat)
    }

    /// The rebuilt hand: the seat's own tiles and everything public as the request says, other
    /// seats' hidden tiles chosen to fit (not the real ones).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seat's 13 dealt tiles (flowers set aside).
    pub fn dealt(&self) -> &Counts {
        &self.dealt
    }

    /// The answer an automatic seat gives.
    pub fn automatic(&self) -> Action {
        self.game.automatic(self.seat)
    }
}

/// The events as the seat saw them, a bare `GANG` read as another seat's concealed kong when it
/// follows that seat's own draw.
fn events_of(o: &mcr_pb::Observation, viewer: u8) -> Result<Vec<Event>, String> {
    let mut out: Vec<Event> = Vec::with_capacity(o.events.len());
    for (i, e) in o.events.iter().enumerate() {
        let after_own_draw = out
            .iter()
            .rev()
            .find(|e| !matches!(e, Event::Flower { .. }))
            .is_some_and(|p| matches!(p, Event::Draw { seat, .. } if u32::from(*seat) == e.seat));
        let turn = after_own_draw && e.seat != u32::from(viewer);
        out.push(convert::event_of(e, turn).map_err(|why| format!("events[{i}]: {why}"))?);
    }
    Ok(out)
}

/// Rebuilds the hand `o` shows `viewer` (the error starts with the field's name, after
/// `request.observation.mcr.`).
fn rebuild(viewer: u8, o: &mcr_pb::Observation) -> Result<McrRequest, String> {
    let events = events_of(o, viewer)?;
    let quan = convert::wind_of("quan", o.quan)?;
    let v = usize::from(viewer);
    let mut hand: Counts = [0; TILE_KINDS];
    for t in parse_tiles(&o.hand).map_err(|e| format!("hand: {e}"))? {
        let n = &mut hand[t.index()];
        if *n == 4 {
            return Err(format!("hand: holds more than four {t}"));
        }
        *n += 1;
    }
    // Each seat's draws in order (flowers of the deal first: where they lay among the dealt
    // tiles changes nothing), and the tiles each seat gave out of its hand, in order.
    let mut deal_flowers: [Vec<Slot>; 4] = Default::default();
    let mut draws: [Vec<Slot>; 4] = Default::default();
    let mut given: [Vec<Given>; 4] = Default::default();
    let mut dealt = false;
    let mut last_discard = None;
    for (i, e) in events.iter().enumerate() {
        match *e {
            Event::Dealt => dealt = true,
            Event::Flower { seat, flower } => {
                let slot = Slot::Known(WallTile::Flower(flower));
                if dealt {
                    draws[usize::from(seat)].push(slot);
                } else {
                    deal_flowers[usize::from(seat)].push(slot);
                }
            }
            Event::Draw { seat, tile } => {
                if seat == viewer && tile.is_none() {
                    return Err(format!("events[{i}]: the seat's own draw has no tile"));
                }
                draws[usize::from(seat)]
                    .push(tile.map_or(Slot::Hidden, |t| Slot::Known(WallTile::Tile(t))));
            }
            Event::Act { seat, action } => {
                given_out(action, last_discard, &mut given[usize::from(seat)])
                    .map_err(|why| format!("events[{i}]: {why}"))?;
                if let Some(t) = discard_of(action) {
                    last_discard = Some(t);
                }
            }
            Event::HiddenKong { seat } => {
                given[usize::from(seat)].extend([Given::HiddenKong; 4]);
            }
            Event::Fault { .. } => {}
        }
    }
    // The seat's dealt hand: what it holds now and gave out, less what it drew since.
    let mut dealt_hand = hand;
    for g in &given[v] {
        match *g {
            // Saturating: a request giving out more than there are is refused below.
            Given::Tile(t) => {
                let n = &mut dealt_hand[t.index()];
                *n = n.saturating_add(1);
            }
            Given::HiddenKong => {
                return Err(format!(
                    "events: seat {viewer}'s own concealed kong shows no tile"
                ));
            }
        }
    }
    for s in &draws[v] {
        if let Slot::Known(WallTile::Tile(t)) = s {
            let n = &mut dealt_hand[t.index()];
            *n = n
                .checked_sub(1)
                .ok_or_else(|| format!("hand: does not hold the {t} the seat drew"))?;
        }
    }
    if dealt_hand.iter().map(|&n| usize::from(n)).sum::<usize>() != 13 {
        return Err("hand: with what the seat gave out and drew it was not dealt 13 tiles".into());
    }
    // The tiles nobody shows, from which other seats' hidden tiles are chosen: first what
    // each must hold to give out what it gave, then anything left.
    let quarter = usize::from(o.seats.get(v).map_or(0, |s| s.wall_left as u16))
        + 13
        + deal_flowers[v].len()
        + draws[v].len();
    let flowers = match quarter {
        36 => true,
        34 => false,
        n => {
            return Err(format!(
                "seats[{viewer}].wall_left: the seat's quarter would hold {n} tiles, not 36 (or 34 without flowers)"
            ));
        }
    };
    let mut pool: Counts = [4; TILE_KINDS];
    let take = |pool: &mut Counts, t: Tile| -> Result<(), String> {
        let n = &mut pool[t.index()];
        *n = n
            .checked_sub(1)
            .ok_or_else(|| format!("events: more than four {t} are in play"))?;
        Ok(())
    };
    for t in mcr::tiles_of(&dealt_hand) {
        take(&mut pool, t)?;
    }
    for s in &draws[v] {
        if let Slot::Known(WallTile::Tile(t)) = s {
            take(&mut pool, *t)?;
        }
    }
    for (s, g) in given.iter().enumerate() {
        if s != v {
            for g in g {
                if let Given::Tile(t) = *g {
                    take(&mut pool, t)?;
                }
            }
        }
    }
    // Another seat's concealed kong is of a kind four of which nobody shows: chosen before any
    // hidden tile is.
    let mut kong_kinds: [Vec<Tile>; 4] = Default::default();
    for (s, g) in given.iter().enumerate() {
        for _ in 0..g.iter().filter(|g| matches!(g, Given::HiddenKong)).count() / 4 {
            let k = Tile::all()
                .find(|t| pool[t.index()] == 4)
                .ok_or("events: a concealed kong of no kind left unseen")?;
            pool[k.index()] = 0;
            kong_kinds[s].push(k);
        }
    }
    let mut quarters: [Vec<WallTile>; 4] = Default::default();
    for s in 0..4usize {
        quarters[s].extend(deal_flowers[s].iter().filter_map(known));
        if s == v {
            quarters[s].extend(mcr::tiles_of(&dealt_hand).map(WallTile::Tile));
            quarters[s].extend(draws[s].iter().filter_map(known));
            continue;
        }
        // What the seat must hold to give out what it gave, in the order it gave it: then it
        // holds each tile in time.
        let mut kinds = kong_kinds[s].iter().flat_map(|&k| [k; 4]);
        let want: Vec<Tile> = given[s]
            .iter()
            .filter_map(|g| match *g {
                Given::Tile(t) => Some(t),
                Given::HiddenKong => kinds.next(),
            })
            .collect();
        let mut next = want.into_iter();
        let mut fill = |pool: &mut Counts| -> Result<WallTile, String> {
            if let Some(t) = next.next() {
                return Ok(WallTile::Tile(t));
            }
            let t = Tile::all()
                .find(|t| pool[t.index()] > 0)
                .ok_or("events: more tiles drawn than the wall holds")?;
            pool[t.index()] -= 1;
            Ok(WallTile::Tile(t))
        };
        for _ in 0..13 {
            quarters[s].push(fill(&mut pool)?);
        }
        for slot in &draws[s] {
            quarters[s].push(match *slot {
                Slot::Known(t) => t,
                Slot::Hidden => fill(&mut pool)?,
            });
        }
    }
    let wall = Wall::arranged(
        [&quarters[0], &quarters[1], &quarters[2], &quarters[3]],
        flowers,
    )
    .map_err(|e| format!("events: no wall fits them: {e}"))?;
    let mut game = Game::with_wall(wall, quan);
    replay(&mut game, &events, &kong_kinds)?;
    let decision = game
        .decision(viewer)
        .ok_or("events: the seat is asked nothing after them")?;
    Ok(McrRequest {
        game,
        seat: viewer,
        decision,
        dealt: dealt_hand,
    })
}

fn known(s: &Slot) -> Option<WallTile> {
    match *s {
        Slot::Known(t) => Some(t),
        Slot::Hidden => None,
    }
}

/// Replays the events' answers on `game`; seats the events show passing (or not asked) pass.
fn replay(game: &mut Game, events: &[Event], kong_kinds: &[Vec<Tile>; 4]) -> Result<(), String> {
    let mut kongs = [0usize; 4];
    for (i, e) in events.iter().enumerate() {
        let (seat, action) = match *e {
            Event::Act { seat, action } => (seat, action),
            Event::HiddenKong { seat } => {
                // Of the kind the wall was built with.
                let n = &mut kongs[usize::from(seat % 4)];
                let t = kong_kinds[usize::from(seat % 4)]
                    .get(*n)
                    .copied()
                    .ok_or_else(|| format!("events[{i}]: an unexpected concealed kong"))?;
                *n += 1;
                (seat, Action::ConcealedKong(t))
            }
            // Draws and flowers follow from the answers; a seat passing is not an event.
            Event::Draw { .. } | Event::Flower { .. } => {
                pass_all(game).map_err(|why| format!("events[{i}]: {why}"))?;
                continue;
            }
            Event::Dealt | Event::Fault { .. } => continue,
        };
        let mut answers = Vec::with_capacity(4);
        for s in game.deciders() {
            answers.push((s, if s == seat { action } else { Action::Pass }));
        }
        if !answers.iter().any(|&(s, _)| s == seat) {
            return Err(format!(
                "events[{i}]: seat {seat} answered {action} but was asked nothing"
            ));
        }
        game.apply(&answers)
            .map_err(|e| format!("events[{i}]: {e}"))?;
    }
    Ok(())
}

/// Every seat asked passes (a discard nobody took, an added kong nobody robbed).
fn pass_all(game: &mut Game) -> Result<(), String> {
    if matches!(game.phase(), mcr::Phase::Turn { .. } | mcr::Phase::Over) {
        return Ok(());
    }
    let answers: Vec<(u8, Action)> = game.deciders().map(|s| (s, Action::Pass)).collect();
    if answers.is_empty() {
        return Ok(());
    }
    game.apply(&answers).map_err(|e| e.to_string())
}
