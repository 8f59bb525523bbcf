//! Import and export of measured deals as JSON lines and CSV. JSON lines are the stored form
//! (`docs/redis-keys.md`, schema version 2); lines of version 1 (no game tag) import as Dou
//! Dizhu deals.

use std::io::{BufRead, Write};

use arena_games::ddz::rules::{Deal, DealConstraint};
use arena_store::{DealRecord, DealSource};

/// Why a line could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    /// Reading or writing failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// A line that is not a record.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        reason: String,
    },
}

/// The CSV header.
pub const CSV_HEADER: &str = "id,deal,seed,bombs,index,panel,levels,counts,gdi";

/// Writes records as JSON lines.
pub fn write_jsonl<'a>(
    out: &mut impl Write,
    records: impl IntoIterator<Item = &'a DealRecord>,
) -> Result<u64, IoError> {
    let mut n = 0;
    for r in records {
        serde_json::to_writer(&mut *out, r).map_err(std::io::Error::other)?;
        out.write_all(b"\n")?;
        n += 1;
    }
    Ok(n)
}

fn join<T: ToString>(xs: &[T]) -> String {
    xs.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

/// Writes records as CSV (list fields space-separated).
pub fn write_csv<'a>(
    out: &mut impl Write,
    records: impl IntoIterator<Item = &'a DealRecord>,
) -> Result<u64, IoError> {
    writeln!(out, "{CSV_HEADER}")?;
    let mut n = 0;
    for r in records {
        let (seed, bombs, index) = match r.source {
            Some((s, i)) => (
                s.seed.to_string(),
                s.bombs.map_or(String::new(), |b| b.to_string()),
                i.to_string(),
            ),
            None => (String::new(), String::new(), String::new()),
        };
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            r.id,
            r.deal,
            seed,
            bombs,
            index,
            r.panel,
            join(&r.levels),
            join(&r.counts),
            join(&r.gdi)
        )?;
        n += 1;
    }
    Ok(n)
}

fn parse_list<T: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<T>, String> {
    s.split_whitespace()
        .map(|x| {
            x.parse()
                .map_err(|_| format!("{what}: {x:?} is not a number"))
        })
        .collect()
}

/// Reads records from JSON lines or CSV (detected from the first line). Blank lines are skipped;
/// a bad line is an error naming its number, and nothing is returned (no partial import).
pub fn read_records(input: impl BufRead) -> Result<Vec<DealRecord>, IoError> {
    let mut out = Vec::new();
    let mut csv = None;
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let lineno = i + 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let is_csv = *csv.get_or_insert_with(|| !t.starts_with('{'));
        if is_csv && t == CSV_HEADER {
            continue;
        }
        let rec = if is_csv {
            parse_csv_line(t)
        } else {
            serde_json::from_str(t).map_err(|e| e.to_string())
        };
        let rec = rec.and_then(check).map_err(|reason| IoError::Line {
            line: lineno,
            reason,
        })?;
        out.push(rec);
    }
    Ok(out)
}

fn parse_csv_line(t: &str) -> Result<DealRecord, String> {
    let f: Vec<&str> = t.split(',').collect();
    if f.len() != 9 {
        return Err(format!(
            "expected 9 comma-separated fields ({CSV_HEADER}), found {}",
            f.len()
        ));
    }
    let deal: Deal = f[1].parse().map_err(|e| format!("deal: {e}"))?;
    let source = if f[2].is_empty() {
        None
    } else {
        let seed = f[2]
            .parse()
            .map_err(|_| format!("seed {:?} is not a number", f[2]))?;
        let bombs = if f[3].is_empty() {
            None
        } else {
            Some(
                f[3].parse()
                    .map_err(|_| format!("bombs {:?} is not a number", f[3]))?,
            )
        };
        let index = f[4]
            .parse()
            .map_err(|_| format!("index {:?} is not a number", f[4]))?;
        Some((DealSource { seed, bombs }, index))
    };
    Ok(DealRecord {
        id: f[0].to_string(),
        game: crate::LIBRARY_GAME,
        deal: deal.to_string(),
        source,
        panel: f[5].to_string(),
        levels: parse_list(f[6], "levels")?,
        counts: parse_list(f[7], "counts")?,
        gdi: parse_list(f[8], "gdi")?,
    })
}

/// Rejects records whose parts disagree (so a hand-edited file cannot poison a library).
fn check(r: DealRecord) -> Result<DealRecord, String> {
    if r.id.is_empty() || r.panel.is_empty() {
        return Err("id and panel must not be empty".into());
    }
    if r.levels.len() != r.counts.len() || r.gdi.len() + 1 != r.levels.len() {
        return Err(format!(
            "{} levels, {} counts and {} GDI values do not fit together (k, k, k−1)",
            r.levels.len(),
            r.counts.len(),
            r.gdi.len()
        ));
    }
    let expected = crate::levels::gdi(&r.counts);
    if expected
        .iter()
        .zip(&r.gdi)
        .any(|(a, b)| (a - b).abs() > 1e-6)
    {
        return Err(format!(
            "GDI {:?} does not match counts {:?}",
            r.gdi, r.counts
        ));
    }
    let deal = crate::record::ddz_deal(&r)?;
    if let Some((s, i)) = r.source
        && Deal::generate_with(s.seed, i, &DealConstraint { bombs: s.bombs }).ok() != Some(deal)
    {
        return Err(format!(
            "deal is not deal {i} of seed {} (bombs {:?})",
            s.seed, s.bombs
        ));
    }
    Ok(r)
}
