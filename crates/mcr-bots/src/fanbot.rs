//! The fan-aware bot: the efficiency bot that waits only on wins worth 8 points.

use mcr::fan::{WinningHand, evaluate};
use mcr::game::MIN_POINTS;
use mcr::shape::{is_winning_shape, shanten};
use mcr::{Action, ActionList, Counts, Decision, Pack, TILE_KINDS, Tile, View, tiles_of};

use crate::Player;
use crate::efficiency::decide_with;

/// The efficiency bot with an eye on points. Ready hands are judged by their live winning
/// tiles that make a win of 8 points or more (an efficiency bot happily waits on wins the
/// rules refuse): among the discards that leave the hand ready it keeps the most such tiles,
/// and it declines a claim that leaves it ready with none. Before that it keeps the suit it
/// holds most of and honour pairs (towards Half and Full Flush) and claims only those tiles.
/// Like every built-in bot it wins whenever the rules offer a win.
#[derive(Clone, Debug, Default)]
pub struct FanBot;

impl FanBot {
    /// A fan-aware bot.
    pub fn new() -> FanBot {
        FanBot
    }
}

/// The suit the hand leans to and how much each tile is worth keeping towards Half and Full
/// Flush (the suit's tiles and honour pairs kept, other suits' tiles given up first).
pub(crate) fn plan(view: &View<'_>) -> (usize, [i32; TILE_KINDS]) {
    let mut per_suit = [0i32; 3];
    let hand = view.hand();
    for i in 0..27 {
        per_suit[i / 9] += i32::from(hand[i]);
    }
    for p in view.own_packs() {
        if let Some(s) = p.tile.suit() {
            per_suit[s as usize] += 3;
        }
    }
    let suit = (0..3).max_by_key(|&s| per_suit[s]).unwrap_or(0);
    let mut bias = [0i32; TILE_KINDS];
    for (i, b) in bias.iter_mut().enumerate() {
        *b = if i < 27 {
            if i / 9 == suit { 24 } else { -8 }
        } else if hand[i] >= 2 {
            24
        } else {
            0
        };
    }
    (suit, bias)
}

/// The live tiles that would complete the ready hand `hand` (beside `packs`) into a win of at
/// least 8 points, claimed from a discard.
fn worthy_waits(view: &View<'_>, hand: &Counts, packs: &[Pack], unseen: &Counts) -> u32 {
    let mut standing = [Tile::default(); 14];
    let mut n = 0;
    for t in tiles_of(hand) {
        if n < standing.len() {
            standing[n] = t;
            n += 1;
        }
    }
    let mut h = *hand;
    let mut live = 0;
    for x in Tile::all() {
        let i = x.index();
        if unseen[i] == 0 {
            continue;
        }
        h[i] += 1;
        let wins = is_winning_shape(&h, packs.len());
        h[i] -= 1;
        if !wins {
            continue;
        }
        let scored = evaluate(&WinningHand {
            packs,
            standing: &standing[..n],
            win_tile: x,
            flowers: 0,
            self_drawn: false,
            fourth_tile: false,
            about_kong: false,
            wall_last: false,
            seat_wind: view.seat_wind(),
            prevalent_wind: view.quan(),
        });
        if scored.is_ok_and(|s| s.without_flowers() >= MIN_POINTS) {
            live += u32::from(unseen[i]);
        }
    }
    live
}

impl Player for FanBot {
    fn name(&self) -> String {
        "fan".into()
    }

    fn start_hand(&mut self, _seat: u8, _hand_seed: u64) {}

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        let (suit, bias) = plan(view);
        let a = decide_with(view, legal, &bias);
        if a == Action::Win {
            return a;
        }
        let hand = *view.hand();
        let packs = view.own_packs();
        let unseen = view.unseen();
        match (view.decision(), a) {
            (Some(Decision::Turn { .. }), Action::Play(_)) => {
                // Among the discards that leave the hand ready, the most worthy waits.
                let mut best: Option<(u32, Tile)> = None;
                let mut h = hand;
                for d in Tile::all().filter(|d| hand[d.index()] > 0) {
                    h[d.index()] -= 1;
                    if shanten(&h, packs.len()) == 0 {
                        let w = worthy_waits(view, &h, packs, &unseen);
                        if w > 0 && best.is_none_or(|(b, _)| w > b) {
                            best = Some((w, d));
                        }
                    }
                    h[d.index()] += 1;
                }
                best.map_or(a, |(_, d)| Action::Play(d))
            }
            (Some(Decision::Discard { tile, from }), claim) if claim != Action::Pass => {
                if tile.suit().is_some_and(|s| s as usize != suit) {
                    return Action::Pass;
                }
                // A claim that leaves the hand ready must leave a worthy wait.
                let Some((h, after, n)) =
                    after_claim(&hand, packs, tile, claim, (from + 4 - view.seat()) % 4)
                else {
                    return claim;
                };
                if shanten(&h, n) == 0 && worthy_waits(view, &h, &after[..n], &unseen) == 0 {
                    Action::Pass
                } else {
                    claim
                }
            }
            _ => a,
        }
    }
}

/// The concealed tiles and packs after claiming `tile` (discarded by seat `from`) with
/// `claim` and making the claim's discard: `None` for any answer but a pung or a chow, or when
/// the hand would hold more than four packs. `relative` is the discarder's seat counted from
/// the claimer's (1 the next seat … 3 the previous), as a pung's `offer` records it.
pub(crate) fn after_claim(
    hand: &Counts,
    packs: &[Pack],
    tile: Tile,
    claim: Action,
    relative: u8,
) -> Option<(Counts, [Pack; 4], usize)> {
    let n = packs.len() + 1;
    if n > 4 {
        return None;
    }
    let mut h = *hand;
    let i = tile.index();
    let mut after = [Pack::kong(tile, 0); 4];
    after[..packs.len()].copy_from_slice(packs);
    match claim {
        Action::Pung(x) => {
            h[i] = h[i].checked_sub(2)?;
            h[x.index()] = h[x.index()].checked_sub(1)?;
            after[n - 1] = Pack::pung(tile, relative.clamp(1, 3));
        }
        Action::Chow { middle, discard } => {
            h[i] += 1;
            for k in [-1, 0, 1] {
                let x = middle.offset(k)?;
                h[x.index()] = h[x.index()].checked_sub(1)?;
            }
            h[discard.index()] = h[discard.index()].checked_sub(1)?;
            let claimed = (tile.rank().unwrap_or(0) + 2).saturating_sub(middle.rank().unwrap_or(0));
            after[n - 1] = Pack::chow(middle, claimed);
        }
        _ => return None,
    }
    Some((h, after, n))
}
