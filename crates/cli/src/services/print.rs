//! What the table and competition clients print: a table's replay, a competition's standings.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;

pub(super) fn print_replay(job: &v1::TableJob, replay: &v1::Replay, result: &v1::TableResult) {
    if crate::mahjong_comp::is_mahjong(&job.game) {
        // The hand in the 2015 log format, then verdicts and scores.
        let replay = v1::Replay {
            result: Some(result.clone()),
            ..replay.clone()
        };
        return crate::mahjong_comp::print_replay(&replay, None, false);
    }
    println!(
        "table {}: {}",
        job.table_id,
        job.seats
            .iter()
            .map(|s| s.bot.as_str())
            .collect::<Vec<_>>()
            .join(" / ")
    );
    if let Ok(s) = arena_proto::payload::unpack::<ddz_pb::Setup>(job.setup.as_ref(), "setup") {
        println!("deal {}", s.deal);
    }
    for e in &arena_games::ddz::convert::history_of(replay).events {
        use ddz_pb::event::Event as E;
        let what = match &e.event {
            Some(E::Bid(b)) => format!("bids {b}"),
            Some(E::Redeal(_)) => "redeal".to_string(),
            Some(E::Landlord(l)) => format!("is landlord at {} and takes {}", l.bid, l.bottom),
            Some(E::Double(d)) => {
                if *d {
                    "doubles".into()
                } else {
                    "does not double".into()
                }
            }
            Some(E::Play(p)) => format!("plays {p}"),
            None => continue,
        };
        println!("  seat {} {what}", e.seat);
    }
    print_verdicts_and_scores(result);
    if !result.error.is_empty() {
        println!("error: {}", result.error);
    }
}

/// How many finished tables the standings leave out (their deal is still being played
/// elsewhere), as a note after the table count; empty when none are.
/// A table's verdicts (each with its whole report when the reason is a cut of it) and its
/// scores, penalties and final scores: the end of every printed table, whatever its game.
pub(crate) fn print_verdicts_and_scores(result: &v1::TableResult) {
    for v in &result.verdicts {
        println!("  verdict: seat {} {:?}: {}", v.seat, v.kind(), v.reason);
        if !v.detail.is_empty() {
            // The whole report the reason is cut from: a crash's exit status, limits, stderr.
            println!("    in full: {}", v.detail);
        }
    }
    if let Some(o) = &result.outcome {
        println!(
            "scores ({}): {:?}; penalties {:?}; final {:?}",
            o.scoring, o.scores, result.penalties, result.final_scores
        );
    }
}

pub(crate) fn withheld_note(s: &v1::Standings) -> String {
    match s.tables_withheld {
        0 => String::new(),
        n => format!(" ({n} not counted yet: their deal is still being played at another table)"),
    }
}

pub(super) fn print_standings(s: &v1::Standings) {
    if crate::mahjong_comp::is_mahjong(&s.game) {
        return crate::mahjong_comp::print_standings(s);
    }
    println!(
        "{}: {}/{} tables{}{}",
        s.competition,
        s.tables_done,
        s.tables_total,
        withheld_note(s),
        if s.r#final { ", final" } else { "" }
    );
    let w = s
        .standings
        .iter()
        .map(|x| x.participant.len())
        .max()
        .unwrap_or(0)
        .max("participant".len());
    let mut head = format!("  {:>5}  {:<w$}", "place", "participant", w = w);
    for k in 1..=s.standings.len() {
        head += &format!(" {:>6}", format!("P(#{k})"));
    }
    println!("{head}   {:<17} verdicts", "mean score");
    for x in &s.standings {
        let mut line = format!("  {:>5}  {:<w$}", x.place, x.participant, w = w);
        for p in &x.rank_probabilities {
            line += &format!(" {:>6.2}", p);
        }
        // A participant with fewer than two scores has no interval (an infinite half-width).
        let mean = if x.score_ci95.is_finite() {
            format!("{:+.3} ± {:.3}", x.mean_score, x.score_ci95)
        } else {
            format!("{:+.3}", x.mean_score)
        };
        println!("{line}   {mean:<17} {:>8}", x.verdicts);
    }
}
