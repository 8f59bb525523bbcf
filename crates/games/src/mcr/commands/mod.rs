//! `arena mcr …`: the Chinese Standard Mahjong commands, registered as the game's
//! [`Game::commands`](crate::Game::commands).

mod fan;
mod match_cmd;

pub(crate) use match_cmd::HandResult;

use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use mcr::game::MIN_POINTS;
use mcr::wall::Deal;
use mcr::{
    Action, Counts, Decision, Event, FaultPolicy, Game, Pack, Position, Tile, Wall, Wind,
    counts_of, parse_tiles, shape, tiles_of, tiles_to_string,
};
use mcr_bots::{Player, play_hand};
use serde_json::json;

use crate::commands::Derived;

/// The `arena mcr` commands, as the game registers them.
pub(crate) static COMMANDS: Derived<McrCli> = Derived::new(|cli| run(cli.command));

/// Chinese Standard Mahjong (IJCAI's, Botzone's): fans, legal answers, shanten, walls,
/// self-play and the IJCAI match.
#[derive(Parser)]
pub(crate) struct McrCli {
    #[command(subcommand)]
    command: McrCommand,
}

/// Chinese Standard Mahjong commands.
#[derive(Subcommand)]
enum McrCommand {
    /// The fans of a winning hand (one by flags, or JSON lines with --batch): every fan with
    /// its English and Chinese name, the total, whether it reaches 8.
    Fan(fan::FanArgs),
    /// The legal answers of a seat's decision: its turn, another seat's discard, an added kong.
    Legal(LegalArgs),
    /// Shanten of a hand and its useful tiles (per discard on a hand one tile over).
    Shanten(ShantenArgs),
    /// The wall of a seed in Botzone's walltiles notation, with each seat's dealt hand.
    Deal(DealArgs),
    /// Play hands with one built-in bot in every seat; hands per second.
    Selfplay(SelfplayArgs),
    /// The IJCAI duplicate match: every wall at all 24 seatings of each group of four, rank
    /// points, Swiss pairing over rounds, place probabilities over --matches.
    Match(match_cmd::MatchArgs),
}

/// Runs an `mcr` subcommand.
fn run(cmd: McrCommand) -> Result<()> {
    match cmd {
        McrCommand::Fan(a) => fan::run(a),
        McrCommand::Legal(a) => legal(a),
        McrCommand::Shanten(a) => shanten(a),
        McrCommand::Deal(a) => deal(a),
        McrCommand::Selfplay(a) => selfplay(a),
        McrCommand::Match(a) => match_cmd::run(a),
    }
}

/// `field: why` for a list of playing tiles.
fn parse_tiles_field(field: &str, s: &str) -> Result<Vec<Tile>> {
    parse_tiles(s).map_err(|e| anyhow::anyhow!("{field}: {e}"))
}

/// One playing tile, or `field: why`.
fn parse_tile(field: &str, s: &str) -> Result<Tile> {
    s.trim()
        .parse::<Tile>()
        .map_err(|e| anyhow::anyhow!("{field}: {e}"))
}

/// A wind numbered 0 (East) to 3 (North), or `field: why`.
fn wind_field(field: &str, n: u8) -> Result<Wind> {
    Wind::from_index(n)
        .with_context(|| format!("{field}: {n} is no wind; winds are 0 (East) to 3 (North)"))
}

/// A pack in Botzone's words with its offer: `CHI T3 2`, `PENG F1 1`, `GANG J1 0`.
fn parse_pack(field: &str, s: &str) -> Result<Pack> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let [word, tile, offer] = words.as_slice() else {
        bail!("{field}: {s:?} is not a pack: write CHI middle n, PENG tile n or GANG tile n");
    };
    let tile = parse_tile(field, tile)?;
    let offer: u8 = offer
        .parse()
        .ok()
        .filter(|&n| n <= 3)
        .with_context(|| format!("{field}: the offer {offer:?} is not 0-3"))?;
    let pack = match word.to_ascii_uppercase().as_str() {
        "CHI" => Pack::chow(tile, offer),
        "PENG" => Pack::pung(tile, offer),
        "GANG" => Pack::kong(tile, offer),
        w => bail!("{field}: {w:?} is not a pack: packs are CHI, PENG and GANG"),
    };
    if !pack.is_valid() {
        bail!(
            "{field}: {s:?} is not a pack: a chow's middle is a numbered 2-8 and its offer 1-3 (the claimed tile's place), a pung's offer 1-3 (the giver, seats after the owner), a kong's 0-3 (0 concealed)"
        );
    }
    Ok(pack)
}

/// Refuses more than four of a kind across `hand`, `packs` and `extra`.
fn check_four(hand: &Counts, packs: &[Pack], extra: Option<Tile>) -> Result<()> {
    let mut all = *hand;
    for p in packs {
        p.add_to(&mut all);
    }
    if let Some(t) = extra {
        all[t.index()] += 1;
    }
    if let Some(t) = Tile::all().find(|t| all[t.index()] > 4) {
        bail!(
            "the position holds {} of {t}; there are four of each kind",
            all[t.index()]
        );
    }
    Ok(())
}

/// `arena mcr legal`.
#[derive(Args)]
struct LegalArgs {
    /// The seat's concealed tiles: on its turn 14 − 3 × packs with the drawn tile, when
    /// answering 13 − 3 × packs; e.g. "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 J1".
    #[arg(long)]
    hand: String,
    /// A declared pack in Botzone's words with its offer, repeatable: "CHI T3 2", "PENG F1 1",
    /// "GANG J1 0" (see `arena mcr fan --help`).
    #[arg(long = "pack", value_name = "PACK")]
    packs: Vec<String>,
    /// The deciding seat, 0 (East) to 3 (North).
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The prevalent wind, 0 (East) to 3 (North).
    #[arg(long, default_value_t = 0)]
    quan: u8,
    /// Flowers the seat has set aside.
    #[arg(long, default_value_t = 0)]
    flowers: u8,
    /// On the seat's turn: the tile just drawn (default: the last tile of --hand).
    #[arg(long, conflicts_with_all = ["discard", "rob"])]
    drawn: Option<String>,
    /// Answer seat --from's discard of this tile.
    #[arg(long, requires = "from", conflicts_with = "rob")]
    discard: Option<String>,
    /// Answer seat --from's added kong of this tile (rob it or not).
    #[arg(long, requires = "from")]
    rob: Option<String>,
    /// The seat that discarded or added the kong.
    #[arg(long)]
    from: Option<u8>,
    /// Tiles shown to everyone (discards, exposed packs): decides Last Tile.
    #[arg(long, default_value = "")]
    shown: String,
    /// Tiles left in each seat's quarter, East first: "21,21,21,21". An empty quarter forbids
    /// kongs and claims and makes a win Last Tile Draw or Claim.
    #[arg(long, default_value = "20,20,20,20")]
    wall_left: String,
    /// On a turn: the drawn tile replaced a kong.
    #[arg(long)]
    kong_draw: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn legal(a: LegalArgs) -> Result<()> {
    let hand = counts_of(parse_tiles_field("--hand", &a.hand)?);
    let packs = a
        .packs
        .iter()
        .map(|p| parse_pack("--pack", p))
        .collect::<Result<Vec<_>>>()?;
    if packs.len() > 4 {
        bail!(
            "--pack: a seat declares at most four packs, not {}",
            packs.len()
        );
    }
    let seat = wind_field("--seat", a.seat)?.index();
    let quan = wind_field("--quan", a.quan)?;
    let from = a
        .from
        .map(|f| {
            if wind_field("--from", f).is_ok() && f != seat {
                Ok(f)
            } else {
                Err(anyhow::anyhow!(
                    "--from: {f} is not another seat (seats are 0-3, the deciding seat is {seat})"
                ))
            }
        })
        .transpose()?;
    if from.is_some() && a.discard.is_none() && a.rob.is_none() {
        bail!("--from: names the seat of a --discard or --rob; give one of them");
    }
    let held = hand.iter().map(|&n| usize::from(n)).sum::<usize>();
    let (decision, extra) = match (&a.discard, &a.rob, from) {
        (Some(d), _, Some(from)) => {
            let tile = parse_tile("--discard", d)?;
            (Decision::Discard { from, tile }, Some(tile))
        }
        (_, Some(r), Some(from)) => {
            let tile = parse_tile("--rob", r)?;
            (Decision::RobKong { from, tile }, Some(tile))
        }
        _ => {
            let drawn = match &a.drawn {
                Some(d) => parse_tile("--drawn", d)?,
                None => parse_tiles_field("--hand", &a.hand)?
                    .last()
                    .copied()
                    .context("--hand: no tiles")?,
            };
            if hand[drawn.index()] == 0 {
                bail!("--drawn: {drawn} is not in --hand (the hand holds the drawn tile)");
            }
            (Decision::Turn { drawn }, None)
        }
    };
    let want = match decision {
        Decision::Turn { .. } => 14 - 3 * packs.len(),
        _ => 13 - 3 * packs.len(),
    };
    if held != want {
        bail!(
            "--hand: {held} tiles; with {} packs the seat holds {want} {}",
            packs.len(),
            match decision {
                Decision::Turn { .. } => "on its turn (the drawn tile included)",
                _ => "when answering",
            }
        );
    }
    check_four(&hand, &packs, extra)?;
    let shown = counts_of(parse_tiles_field("--shown", &a.shown)?);
    let left: Vec<u8> = a
        .wall_left
        .split(',')
        .map(|n| n.trim().parse::<u8>())
        .collect::<Result<_, _>>()
        .ok()
        .filter(|v: &Vec<u8>| v.len() == 4 && v.iter().all(|&n| n <= 36))
        .context("--wall-left: four counts 0-36 separated by commas, e.g. 20,20,20,20")?;
    let position = Position {
        seat,
        hand,
        packs: &packs,
        flowers: a.flowers,
        decision,
        quan,
        shown,
        wall_left: [left[0], left[1], left[2], left[3]],
        kong_draw: a.kong_draw,
    };
    let game = Game::at(&position);
    let answers: Vec<String> = game.legal(seat).iter().map(Action::to_string).collect();
    // Why a win is missing, when the shape wins but the points do not reach 8.
    let wrong_win = (!game.legal(seat).contains(&Action::Win))
        .then(|| game.check(seat, Action::Win).err())
        .flatten()
        .and_then(|e| match e {
            mcr::game::Illegal::WrongWin { points: Some(p) } => Some(p),
            _ => None,
        });
    if a.json {
        let mut v = json!({ "answers": answers });
        if let Some(p) = wrong_win {
            v["win_points"] = json!(p);
        }
        println!("{v}");
        return Ok(());
    }
    for x in &answers {
        println!("{x}");
    }
    println!("{} legal answers", answers.len());
    if let Some(p) = wrong_win {
        println!(
            "(the hand wins with {p} points without flowers, below the {MIN_POINTS}-point minimum: HU would be a wrong win)"
        );
    }
    Ok(())
}

/// `arena mcr shanten`.
#[derive(Args)]
struct ShantenArgs {
    /// The concealed tiles, 13 − 3 × packs (or one more, a drawn tile), e.g.
    /// "W1 W2 W3 T4 T5 B7 B8 B9 F1 F1 J1 J2 J3".
    #[arg(long)]
    hand: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// The kinds whose draw lowers `hand`'s shanten below `s`, with how many of each are not in
/// the hand.
/// Tiles with how many of each are left.
type Useful = Vec<(Tile, u8)>;

fn useful(hand: &Counts, packs: usize, s: i8) -> Useful {
    Tile::all()
        .filter(|t| hand[t.index()] < 4)
        .filter(|t| {
            let mut h = *hand;
            h[t.index()] += 1;
            shape::shanten(&h, packs) < s
        })
        .map(|t| (t, 4 - hand[t.index()]))
        .collect()
}

fn useful_text(u: &[(Tile, u8)]) -> String {
    let n: u32 = u.iter().map(|&(_, n)| u32::from(n)).sum();
    let kinds: Vec<String> = u.iter().map(|(t, _)| t.to_string()).collect();
    format!("{} ({n} tiles)", kinds.join(" "))
}

fn useful_json(u: &[(Tile, u8)]) -> serde_json::Value {
    json!(
        u.iter()
            .map(|(t, n)| json!({"tile": t.to_string(), "left": n}))
            .collect::<Vec<_>>()
    )
}

fn shanten(a: ShantenArgs) -> Result<()> {
    let tiles = parse_tiles_field("--hand", &a.hand)?;
    let n = tiles.len();
    if n == 0 || n > 14 || n.is_multiple_of(3) {
        bail!(
            "--hand: {n} tiles; a concealed hand holds 13 − 3 × packs (13, 10, 7, 4, 1), or one more with a drawn tile"
        );
    }
    let hand = counts_of(tiles);
    check_four(&hand, &[], None)?;
    let packs = (14 - n) / 3;
    let s = shape::shanten(&hand, packs);
    let sorted = tiles_to_string(tiles_of(&hand));
    if n % 3 == 1 {
        let u = useful(&hand, packs, s);
        if a.json {
            println!(
                "{}",
                json!({"hand": sorted, "packs": packs, "shanten": s, "useful": useful_json(&u)})
            );
        } else {
            println!(
                "{sorted} ({packs} packs declared): shanten {s}{}",
                if s == 0 { ", ready" } else { "" }
            );
            println!("useful: {}", useful_text(&u));
        }
        return Ok(());
    }
    // One tile over: each discard with the shanten it leaves and its useful tiles, best first.
    let mut discards: Vec<(Tile, i8, Useful)> = Tile::all()
        .filter(|t| hand[t.index()] > 0)
        .map(|t| {
            let mut h = hand;
            h[t.index()] -= 1;
            let after = shape::shanten(&h, packs);
            (t, after, useful(&h, packs, after))
        })
        .collect();
    let total = |u: &[(Tile, u8)]| u.iter().map(|&(_, n)| u32::from(n)).sum::<u32>();
    discards.sort_by_key(|d| (d.1, std::cmp::Reverse(total(&d.2)), d.0));
    if a.json {
        let d: Vec<_> = discards
            .iter()
            .map(|(t, s, u)| json!({"discard": t.to_string(), "shanten": s, "useful": useful_json(u)}))
            .collect();
        println!(
            "{}",
            json!({"hand": sorted, "packs": packs, "shanten": s, "discards": d})
        );
        return Ok(());
    }
    if s == -1 {
        println!("{sorted} ({packs} packs declared): shanten -1, a winning shape");
    } else {
        println!("{sorted} ({packs} packs declared): shanten {s}");
    }
    for (t, s, u) in &discards {
        println!("  discard {t} → shanten {s}, useful {}", useful_text(u));
    }
    Ok(())
}

/// `arena mcr deal`.
#[derive(Args)]
struct DealArgs {
    /// The seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A wall of 136 tiles without flowers, as IJCAI plays (prevalent wind East unless --quan).
    #[arg(long)]
    no_flowers: bool,
    /// The prevalent wind, 0 (East) to 3 (North) (default: drawn with the wall, or East
    /// without flowers).
    #[arg(long)]
    quan: Option<u8>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Print the walls of N seeds instead, from --seed on, one Botzone walltiles a line: what
    /// `arena deals import --game mcr FILE` reads into the deal library.
    #[arg(long, value_name = "N", conflicts_with_all = ["json", "quan"])]
    walls: Option<u64>,
}

/// The deal of `seed`: Botzone's wall and prevalent wind, or the flowerless wall.
fn deal_of(seed: u64, no_flowers: bool, quan: Option<Wind>) -> Deal {
    let mut d = if no_flowers {
        Deal {
            wall: Wall::from_seed(seed, false),
            quan: Wind::East,
        }
    } else {
        Deal::from_seed(seed)
    };
    if let Some(q) = quan {
        d.quan = q;
    }
    d
}

fn deal(a: DealArgs) -> Result<()> {
    if let Some(n) = a.walls {
        if n == 0 {
            bail!("--walls must be at least 1");
        }
        // println!, as every command prints: a reader that stops early ends it quietly.
        for k in 0..n {
            println!(
                "{}",
                deal_of(a.seed.wrapping_add(k), a.no_flowers, None).wall
            );
        }
        return Ok(());
    }
    let quan = a.quan.map(|q| wind_field("--quan", q)).transpose()?;
    let d = deal_of(a.seed, a.no_flowers, quan);
    // The rules deal the hands: each seat's 13 tiles and the flowers it set aside before play.
    let game = Game::new(&d);
    let dealt = game
        .events()
        .iter()
        .position(|e| *e == Event::Dealt)
        .unwrap_or(0);
    let mut flowers: [Vec<String>; 4] = Default::default();
    for e in &game.events()[..dealt] {
        if let Event::Flower { seat, flower } = e {
            flowers[usize::from(*seat)].push(flower.to_string());
        }
    }
    let hands: Vec<String> = (0..4u8)
        .map(|s| {
            let mut h = *game.hand(s);
            if let Some(Decision::Turn { drawn }) = game.decision(s) {
                h[drawn.index()] -= 1;
            }
            tiles_to_string(tiles_of(&h))
        })
        .collect();
    if a.json {
        println!(
            "{}",
            json!({
                "seed": a.seed,
                "quan": d.quan.index(),
                "walltiles": d.wall.to_string(),
                "hands": hands,
                "flowers": flowers,
            })
        );
        return Ok(());
    }
    println!(
        "seed {}: {} tiles, prevalent wind {} ({:?})",
        a.seed,
        d.wall.tiles().len(),
        d.quan.index(),
        d.quan
    );
    for s in 0..4 {
        let f = if flowers[s].is_empty() {
            String::new()
        } else {
            format!("   flowers {}", flowers[s].join(" "))
        };
        println!("  seat {s}  {}{f}", hands[s]);
    }
    println!("walltiles: {}", d.wall);
    Ok(())
}

/// `arena mcr selfplay`.
#[derive(Args)]
struct SelfplayArgs {
    /// Number of hands.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed: hand i is played on the wall of seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The built-in bot in every seat (random, efficiency, fan, search[:samples=N,…]).
    #[arg(long, default_value = "random")]
    bot: String,
    /// Walls of 136 tiles without flowers, as IJCAI plays.
    #[arg(long)]
    no_flowers: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// A built-in bot by name, or an error listing them.
pub(crate) fn make_bot(name: &str) -> Result<Box<dyn Player>> {
    mcr_bots::builtin(name).with_context(|| {
        format!(
            "{name:?} is no built-in MCR bot (built-in: {})",
            mcr_bots::BUILTIN_NAMES.join(", ")
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
    let (mut wins, mut self_drawn, mut drawn, mut faults, mut decisions) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut points = 0u64;
    let start = Instant::now();
    for i in 0..a.games {
        let seed = a.seed.wrapping_add(i);
        let d = deal_of(seed, a.no_flowers, None);
        // The rules and bots directly: no table runtime, the bots seeded with the wall's seed.
        let record = play_hand(Game::new(&d), &mut bots, FaultPolicy::Judge, seed);
        faults += record.faults.iter().map(|&f| u64::from(f)).sum::<u64>();
        decisions += u64::from(record.decisions);
        match record.outcome.win {
            None => drawn += 1,
            Some(w) => {
                wins += 1;
                self_drawn += u64::from(w.from.is_none());
                points += u64::from(w.fans.total);
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = a.games.max(1) as f64;
    let hps = a.games as f64 / secs.max(1e-9);
    if a.json {
        println!(
            "{}",
            json!({
                "bot": a.bot,
                "hands": a.games,
                "seed": a.seed,
                "flowers": !a.no_flowers,
                "seconds": secs,
                "hands_per_second": hps,
                "win_rate": wins as f64 / n,
                "self_drawn_rate": self_drawn as f64 / n,
                "drawn_rate": drawn as f64 / n,
                "faults": faults,
                "decisions_per_hand": decisions as f64 / n,
                "points_per_win": points as f64 / (wins.max(1) as f64),
            })
        );
        return Ok(());
    }
    println!(
        "self-play: {} hands, {} in every seat, seed {}, {}",
        a.games,
        a.bot,
        a.seed,
        if a.no_flowers {
            "136 tiles"
        } else {
            "144 tiles with flowers"
        }
    );
    println!("  time      {secs:.2} s on one thread: {hps:.0} hands/s");
    println!(
        "  won       {:.1}% ({:.1}% self-drawn); drawn {:.1}%; {:.1} points per win",
        100.0 * wins as f64 / n,
        100.0 * self_drawn as f64 / n,
        100.0 * drawn as f64 / n,
        points as f64 / (wins.max(1) as f64)
    );
    println!(
        "  per hand  {:.1} decisions; faults {faults}",
        decisions as f64 / n
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcr::PackKind;

    /// Runs `arena mcr ARGS…` as the CLI would.
    fn cli(args: &[&str]) -> Result<()> {
        let parsed = McrCli::try_parse_from(std::iter::once("mcr").chain(args.iter().copied()))?;
        run(parsed.command)
    }

    #[test]
    fn commands_run_and_refuse_bad_input_by_field() {
        cli(&["selfplay", "--games", "20"]).unwrap();
        cli(&["deal", "--seed", "3", "--no-flowers"]).unwrap();
        cli(&[
            "shanten",
            "--hand",
            "W1 W2 W3 T4 T5 B7 B8 B9 F1 F1 J1 J2 J3",
        ])
        .unwrap();
        cli(&[
            "legal",
            "--hand",
            "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 J1",
        ])
        .unwrap();
        cli(&[
            "match", "random", "random", "random", "random", "--walls", "1",
        ])
        .unwrap();
        let err = |args: &[&str]| format!("{:#}", cli(args).unwrap_err());
        assert!(err(&["shanten", "--hand", "W1 W2 W3"]).starts_with("--hand: 3 tiles"));
        assert!(err(&["legal", "--hand", "W1 W2"]).starts_with("--hand: 2 tiles"));
        assert!(
            err(&[
                "legal",
                "--hand",
                "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1",
                "--discard",
                "J1",
                "--from",
                "0"
            ])
            .starts_with("--from:")
        );
        assert!(err(&["deal", "--quan", "7"]).starts_with("--quan:"));
        assert!(err(&["match", "random", "random", "random"]).starts_with("bots:"));
        assert!(
            err(&["match", "random", "random", "random", "nobody"]).starts_with("bot 4 (nobody)")
        );
    }

    #[test]
    fn packs_read_in_botzones_words() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert_eq!(parse_pack("p", "CHI T3 2").unwrap(), Pack::chow(t("T3"), 2));
        assert_eq!(
            parse_pack("p", "peng F1 1").unwrap(),
            Pack::pung(t("F1"), 1)
        );
        assert_eq!(
            parse_pack("p", "GANG J1 0").unwrap(),
            Pack::kong(t("J1"), 0)
        );
        assert_eq!(parse_pack("p", "GANG J1 0").unwrap().kind, PackKind::Kong);
        for bad in [
            "CHI T1 2",
            "PENG F1 0",
            "GANG J1 4",
            "PONG F1 1",
            "CHI T3",
            "PENG X1 1",
        ] {
            let e = parse_pack("packs[2]", bad).unwrap_err().to_string();
            assert!(e.starts_with("packs[2]: "), "{bad}: {e}");
        }
    }

    #[test]
    fn useful_tiles_lower_shanten() {
        let hand = counts_of(parse_tiles("W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1").unwrap());
        let s = shape::shanten(&hand, 0);
        assert_eq!(s, 0);
        let u = useful(&hand, 0, s);
        let kinds: Vec<String> = u.iter().map(|(t, _)| t.to_string()).collect();
        assert_eq!(kinds, ["F1", "J1"]);
        assert!(u.iter().all(|&(_, n)| n == 2));
    }
}

#[cfg(test)]
mod speed {
    use super::*;

    /// Runs `arena mcr ARGS…`.
    fn cli(args: &[&str]) {
        let parsed =
            McrCli::try_parse_from(std::iter::once("mcr").chain(args.iter().copied())).unwrap();
        run(parsed.command).unwrap();
    }

    /// The self-play speed target (20,000 random hands/s on one core), in release builds:
    /// `cargo test -p arena-games --release --lib mcr::commands::speed -- --ignored
    /// --nocapture` (the speed is printed, not asserted: it depends on the machine's load).
    #[test]
    #[ignore = "a measurement: run in release with --nocapture"]
    fn selfplay_speed() {
        cli(&["selfplay", "--games", "20000", "--no-flowers"]);
        cli(&["selfplay", "--games", "20000"]);
    }

    /// The match speed target (a 96-hand IJCAI match of four efficiency bots under 2 s), as
    /// above; run alone under `time` for its CPU time.
    #[test]
    #[ignore = "a measurement: run in release with --nocapture"]
    fn match_speed() {
        let start = Instant::now();
        cli(&[
            "match",
            "efficiency",
            "efficiency",
            "efficiency",
            "efficiency",
        ]);
        println!(
            "96-hand IJCAI match: {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }
}
