//! `cargo run -p arena-sdk --example replay-json FILE [TABLE_ID]`: prints a replay export
//! (`arena competition replays NAME --out FILE`) as JSON lines, or only table TABLE_ID's.

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let Some(file) = args.next() else {
        anyhow::bail!("usage: replay-json FILE [TABLE_ID]");
    };
    let table = args.next().map(|t| t.to_string_lossy().into_owned());
    let replays = arena_sdk::replay::read(std::path::Path::new(&file))?;
    let mut shown = 0;
    for r in &replays {
        if table
            .as_deref()
            .is_none_or(|t| arena_sdk::replay::table_id(r) == t)
        {
            println!("{}", arena_sdk::replay::to_json(r));
            shown += 1;
        }
    }
    if let (Some(t), 0) = (&table, shown) {
        anyhow::bail!("no replay of table {t:?} among {}", replays.len());
    }
    Ok(())
}
