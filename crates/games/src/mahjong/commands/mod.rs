//! `arena mahjong …`: the contest Mahjong commands, registered as the game's
//! [`Game::commands`](crate::Game::commands).

mod bot;
pub mod comp;
mod fan;
mod match_cmd;

use std::time::Instant;

use anyhow::{Context, Result, bail};
use arena_table::{Scratch, play_fast};
use clap::{Args, Parser, Subcommand};
use mahjong::{
    Action, ActionList, Counts, Deal, Decision, Meld, Reading, Rules, TILE_KINDS, Tile,
    add_meld_tiles, legal_actions_for, parse_tiles, shape, tiles_to_string,
};
use mahjong_bots::Player;
use serde_json::json;

use crate::commands::Derived;
use crate::mahjong::spec::MahjongSpec;
use crate::mahjong::{MahjongBot, MahjongTable};

/// The `arena mahjong` commands, as the game registers them.
pub(crate) static COMMANDS: Derived<MahjongCli> = Derived::new(|cli| run(cli.command));

/// Mahjong (the 2015 AI contest's): self-play, deals, legal actions, shanten.
#[derive(Parser)]
pub(crate) struct MahjongCli {
    #[command(subcommand)]
    command: MahjongCommand,
}

/// Mahjong commands (the 2015 AI contest's simplified Guobiao Mahjong).
#[derive(Subcommand)]
enum MahjongCommand {
    /// Play hands with one built-in bot in every seat; hands per second.
    Selfplay(SelfplayArgs),
    /// Print the wall and first player of a seed.
    Deal(DealArgs),
    /// The legal actions of a position: a turn, an answer to a discard, or to an added kong.
    Legal(LegalArgs),
    /// Shanten and waits of a hand.
    Shanten(ShantenArgs),
    /// The fans of a winning hand (one by flags, or JSON lines with --batch).
    Fan(fan::FanArgs),
    /// The contest's 96-hand duplicate match among four bots: a ranking (place probabilities with --matches).
    Match(match_cmd::MatchArgs),
    /// A built-in bot as a program speaking the 2015 contest's line protocol on stdin and
    /// stdout, for other contest servers (docs/mahjong-line-protocol.md).
    Bot(bot::BotArgs),
}

/// `arena mahjong selfplay`.
#[derive(Args)]
struct SelfplayArgs {
    /// Number of hands.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed: hand i is played on the deal of seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The built-in bot in every seat.
    #[arg(long, default_value = "random")]
    bot: String,
    /// Fan reading: contest or seed-2015.
    #[arg(long, default_value = "contest")]
    fans: Reading,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `arena mahjong deal`.
#[derive(Args)]
struct DealArgs {
    /// The hand's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `arena mahjong legal`.
#[derive(Args)]
struct LegalArgs {
    /// The seat's concealed tiles, e.g. "1M 2M 3M 5S 5S E E E 7T 8T 9T B B 4M" (on a turn with
    /// the drawn tile; 13 − 3 × melds when answering).
    #[arg(long)]
    hand: String,
    /// Declared sets, comma-separated: "pung E, chow 2S, kong 5T, added-kong 3T, concealed-kong 1M".
    #[arg(long, default_value = "")]
    melds: String,
    /// Answer another seat's discard of this tile (default: the seat's own turn).
    #[arg(long, conflicts_with_all = ["rob", "after_claim"])]
    discard: Option<String>,
    /// With --discard: the seat is the one after the discarder, so it may chow.
    #[arg(long, requires = "discard")]
    next: bool,
    /// Answer another seat's added kong of this tile.
    #[arg(long, conflicts_with = "after_claim")]
    rob: Option<String>,
    /// The turn follows the seat's own chow or pung (no tile drawn).
    #[arg(long)]
    after_claim: bool,
    /// Fan reading: contest or seed-2015 (decides the thirteen-orphans test).
    #[arg(long, default_value = "contest")]
    fans: Reading,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `arena mahjong shanten`.
#[derive(Args)]
struct ShantenArgs {
    /// The concealed tiles (1 to 14), e.g. "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E".
    #[arg(long)]
    hand: String,
    /// Fan reading: contest or seed-2015 (decides the thirteen-orphans test).
    #[arg(long, default_value = "contest")]
    fans: Reading,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs a `mahjong` subcommand.
fn run(cmd: MahjongCommand) -> Result<()> {
    match cmd {
        MahjongCommand::Selfplay(a) => selfplay(a),
        MahjongCommand::Deal(a) => deal(a),
        MahjongCommand::Legal(a) => legal(a),
        MahjongCommand::Shanten(a) => shanten(a),
        MahjongCommand::Fan(a) => fan::run(a),
        MahjongCommand::Match(a) => match_cmd::run_match(a),
        MahjongCommand::Bot(a) => bot::run(a),
    }
}

fn make_bot(name: &str) -> Result<Box<dyn Player>> {
    mahjong_bots::builtin(name).with_context(|| {
        format!(
            "{name:?} is no built-in Mahjong bot (built-in: {})",
            mahjong_bots::BUILTIN_NAMES.join(", ")
        )
    })
}

fn selfplay(a: SelfplayArgs) -> Result<()> {
    let mut bots = [
        make_bot(&a.bot)?,
        make_bot(&a.bot)?,
        make_bot(&a.bot)?,
        make_bot(&a.bot)?,
    ];
    let rules = Rules { reading: a.fans };
    let (mut wins, mut self_drawn, mut robbed, mut drawn, mut events) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut fan_total = 0u64;
    let mut scratch = Scratch::new();
    let start = Instant::now();
    for i in 0..a.games {
        let deal = Deal::from_seed(a.seed.wrapping_add(i));
        let mut table = MahjongTable::new(&MahjongSpec { deal, rules });
        let [b0, b1, b2, b3] = &mut bots;
        let mut seats: [MahjongBot<&mut dyn Player>; 4] =
            [b0, b1, b2, b3].map(|b| MahjongBot::with(&mut **b as &mut dyn Player));
        // The one runner's fast path, the bots seeded with the deal's fingerprint as ever.
        play_fast(&mut table, &mut seats, deal.fingerprint(), &mut scratch)
            .context("a built-in bot made an illegal move")?;
        let game = table.game();
        events += game.events().len() as u64;
        let outcome = game.outcome().context("the hand did not end")?;
        match &outcome.win {
            None => drawn += 1,
            Some(w) => {
                wins += 1;
                self_drawn += u64::from(w.from.is_none());
                robbed += u64::from(w.robbed_kong);
                fan_total += u64::from(w.fans.total);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = a.games.max(1) as f64;
    let hps = a.games as f64 / secs;
    if a.json {
        let obj = json!({
            "bot": a.bot,
            "hands": a.games,
            "seed": a.seed,
            "fans": a.fans.name(),
            "seconds": secs,
            "hands_per_second": hps,
            "win_rate": wins as f64 / n,
            "self_drawn_rate": self_drawn as f64 / n,
            "robbed_kong_rate": robbed as f64 / n,
            "drawn_rate": drawn as f64 / n,
            "events_per_hand": events as f64 / n,
            "fans_per_win": fan_total as f64 / (wins.max(1) as f64),
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "self-play: {} hands, {} in every seat, seed {}, {} fans",
        a.games, a.bot, a.seed, a.fans
    );
    println!("  time          {secs:.2} s on one thread: {hps:.0} hands/s");
    println!(
        "  won           {:.1}% ({:.1}% self-drawn, {:.2}% robbed kongs); drawn {:.1}%",
        100.0 * wins as f64 / n,
        100.0 * self_drawn as f64 / n,
        100.0 * robbed as f64 / n,
        100.0 * drawn as f64 / n
    );
    println!(
        "  per hand      {:.1} events; {:.2} fan points per win",
        events as f64 / n,
        fan_total as f64 / (wins.max(1) as f64)
    );
    Ok(())
}

fn deal(a: DealArgs) -> Result<()> {
    let d = Deal::from_seed(a.seed);
    let hand = |s: u8| tiles_to_string(d.wall.initial_hand(s).iter().copied());
    let sorted = |s: u8| {
        let mut h = d.wall.initial_hand(s).to_vec();
        h.sort();
        tiles_to_string(h)
    };
    if a.json {
        let obj = json!({
            "seed": a.seed,
            "first": d.first,
            "hands": (0..4).map(sorted).collect::<Vec<_>>(),
            "draws": tiles_to_string(d.wall.draws().iter().copied()),
            "wall": d.wall.to_string(),
        });
        println!("{obj}");
        return Ok(());
    }
    println!("seed {}: seat {} draws first", a.seed, d.first);
    for s in 0..4 {
        println!("  seat {s}  {}   (dealt {})", sorted(s), hand(s));
    }
    println!(
        "  draws   {}",
        tiles_to_string(d.wall.draws().iter().copied())
    );
    Ok(())
}

fn parse_counts(what: &str, s: &str) -> Result<Counts> {
    let tiles = parse_tiles(s).with_context(|| format!("{what} {s:?}"))?;
    let mut c = [0u8; TILE_KINDS];
    for t in tiles {
        c[t.index()] += 1;
    }
    Ok(c)
}

fn parse_tile(what: &str, s: &str) -> Result<Tile> {
    s.trim()
        .parse::<Tile>()
        .with_context(|| format!("{what} {s:?}"))
}

fn parse_melds(s: &str) -> Result<Vec<Meld>> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<Meld>().with_context(|| format!("--melds {s:?}")))
        .collect()
}

fn count(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

/// Refuses a position with more than four of a kind across the hand, the melds and `extra`.
fn check_four(hand: &Counts, melds: &[Meld], extra: Option<Tile>) -> Result<()> {
    let mut all = *hand;
    for &m in melds {
        add_meld_tiles(&mut all, m);
    }
    if let Some(t) = extra {
        all[t.index()] += 1;
    }
    if let Some(i) = all.iter().position(|&n| n > 4) {
        let t = Tile::from_index(i).expect("i < 34");
        bail!(
            "the position holds {} of {t}; there are only four of each kind",
            all[i]
        );
    }
    Ok(())
}

fn legal(a: LegalArgs) -> Result<()> {
    let hand = parse_counts("--hand", &a.hand)?;
    let melds = parse_melds(&a.melds)?;
    if melds.len() > 4 {
        bail!(
            "--melds: a seat declares at most four sets, found {}",
            melds.len()
        );
    }
    let (decision, extra) = match (&a.discard, &a.rob) {
        (Some(d), None) => {
            let tile = parse_tile("--discard", d)?;
            (Decision::Claim { tile, next: a.next }, Some(tile))
        }
        (None, Some(r)) => {
            let tile = parse_tile("--rob", r)?;
            (Decision::RobKong { tile }, Some(tile))
        }
        (None, None) => (
            Decision::Turn {
                drawn: !a.after_claim,
            },
            None,
        ),
        (Some(_), Some(_)) => bail!("give --discard or --rob, not both"),
    };
    let expected = match decision {
        Decision::Turn { .. } => 14 - 3 * melds.len(),
        _ => 13 - 3 * melds.len(),
    };
    let n = count(&hand);
    if n != expected {
        bail!(
            "--hand has {n} tiles; with {} declared sets the seat holds {expected} {}",
            melds.len(),
            match decision {
                Decision::Turn { .. } => "on its turn (the drawn tile included)",
                _ => "when answering",
            }
        );
    }
    check_four(&hand, &melds, extra)?;
    let mut out = ActionList::new();
    legal_actions_for(&hand, &melds, decision, a.fans, &mut out);
    let names: Vec<String> = out.iter().map(Action::to_string).collect();
    if a.json {
        println!("{}", json!({"actions": names}));
    } else {
        for n in &names {
            println!("{n}");
        }
        println!("{} legal actions", names.len());
    }
    Ok(())
}

fn shanten(a: ShantenArgs) -> Result<()> {
    let hand = parse_counts("--hand", &a.hand)?;
    let n = count(&hand);
    if n == 0 || n > 14 || n.is_multiple_of(3) {
        bail!(
            "--hand has {n} tiles; a concealed hand holds 14, 13, 11, 10, 8, 7, 5, 4, 2 or 1 (3 × sets fewer than 14 or 13)"
        );
    }
    check_four(&hand, &[], None)?;
    let s = shape::shanten_in(&hand, a.fans);
    let waits = (n % 3 == 1).then(|| shape::waits_in(&hand, a.fans));
    // On a hand one tile over: each discard and the shanten it leaves, best first.
    let mut discards = Vec::new();
    if n % 3 == 2 && s >= 0 {
        for t in Tile::all().filter(|t| hand[t.index()] > 0) {
            let mut h = hand;
            h[t.index()] -= 1;
            discards.push((
                t,
                shape::shanten_in(&h, a.fans),
                shape::waits_in(&h, a.fans),
            ));
        }
        discards.sort_by_key(|d| (d.1, std::cmp::Reverse(d.2.len()), d.0));
    }
    if a.json {
        let mut obj = json!({"hand": tiles_to_string(Tile::all().flat_map(|t| std::iter::repeat_n(t, usize::from(hand[t.index()])))), "shanten": s});
        if let Some(w) = waits {
            obj["waits"] = json!(w.iter().map(|t| t.to_string()).collect::<Vec<_>>());
        }
        if !discards.is_empty() {
            obj["discards"] = json!(
                discards
                    .iter()
                    .map(|(t, s, w)| json!({"discard": t.to_string(), "shanten": s, "waits": w.iter().map(|t| t.to_string()).collect::<Vec<_>>()}))
                    .collect::<Vec<_>>()
            );
        }
        println!("{obj}");
        return Ok(());
    }
    match s {
        -1 => println!("shanten -1: the hand is complete (a win)"),
        0 => println!("shanten 0: ready"),
        s => println!("shanten {s}"),
    }
    if let Some(w) = waits {
        if w.is_empty() {
            println!("waits: none");
        } else {
            println!("waits: {w}");
        }
    }
    for (t, s, w) in &discards {
        if w.is_empty() {
            println!("  discard {t:<2} → shanten {s}");
        } else {
            println!("  discard {t:<2} → shanten {s}, waits {w}");
        }
    }
    Ok(())
}
