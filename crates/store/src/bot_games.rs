//! Which games a registered bot plays, as the roles agree on it: a program bot plays its
//! record's game ([`BotKind::Program`]'s `game`); a remote bot the games its last `Hello` listed
//! (`Hello.games`, none listed meaning Dou Dizhu only), which bot-host records when the bot
//! connects ([`put_remote_games`], record kind [`BOT_GAMES_KIND`]) so that whoever chooses
//! connected bots for tables (the ladder) chooses only those that play the table's game
//! ([`games_of`]). bot-host itself never seats a bot at a game it does not play.

use crate::{BotKind, BotRecord, Game, Store, StoreError, StoreResult};

/// Record kind of the games remote bots play: key = bot name, value = JSON list of games as
/// stored (`["ddz", "mahjong"]`), what the bot's last `Hello` listed.
pub const BOT_GAMES_KIND: &str = "bot-games";

/// Records that remote bot `bot` plays `games` (from its `Hello`; empty: Dou Dizhu only).
pub async fn put_remote_games(store: &dyn Store, bot: &str, games: &[Game]) -> StoreResult<()> {
    let games = if games.is_empty() {
        &[Game::LEGACY][..]
    } else {
        games
    };
    let value = serde_json::to_vec(games)
        .map_err(|e| StoreError::Invalid(format!("games of bot {bot}: {e}")))?;
    store.put_record(BOT_GAMES_KIND, bot, &value).await
}

/// The games `record`'s bot plays: a program bot its record's game; a remote bot the games it
/// last said it plays (Dou Dizhu, as `Hello` defaults to, if it never connected).
pub async fn games_of(store: &dyn Store, record: &BotRecord) -> StoreResult<Vec<Game>> {
    match &record.kind {
        BotKind::Program { game, .. } => Ok(vec![*game]),
        BotKind::Remote => match store.record(BOT_GAMES_KIND, &record.name).await? {
            None => Ok(vec![Game::LEGACY]),
            Some(bytes) => crate::decode(|| format!("{BOT_GAMES_KIND}/{}", record.name), &bytes),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EmbeddedStore;

    fn remote(name: &str) -> BotRecord {
        BotRecord {
            name: name.into(),
            kind: BotKind::Remote,
            token_sha256: None,
            max_tables: 0,
            created_unix_ms: 0,
            decision_ms: 0,
            later_decision_ms: 0,
        }
    }

    #[tokio::test]
    async fn a_remote_bot_plays_what_its_last_hello_listed_and_a_program_its_records_game() {
        let dir = tempfile::tempdir().unwrap();
        let store = EmbeddedStore::open(dir.path()).unwrap();
        let bot = remote("r");
        assert_eq!(games_of(&store, &bot).await.unwrap(), [Game::named("ddz")]);
        put_remote_games(&store, "r", &[Game::named("mahjong"), Game::named("ddz")])
            .await
            .unwrap();
        assert_eq!(
            games_of(&store, &bot).await.unwrap(),
            [Game::named("mahjong"), Game::named("ddz")]
        );
        put_remote_games(&store, "r", &[]).await.unwrap();
        assert_eq!(games_of(&store, &bot).await.unwrap(), [Game::named("ddz")]);
        let program = BotRecord {
            kind: BotKind::Program {
                game: Game::named("mahjong"),
                command: "bot".into(),
                workdir: None,
                cpu_seconds: 0,
                memory_mb: 0,
            },
            ..remote("p")
        };
        assert_eq!(
            games_of(&store, &program).await.unwrap(),
            [Game::named("mahjong")]
        );
    }

    #[test]
    fn a_program_record_written_before_games_were_kept_plays_dou_dizhu() {
        let old = br#"{"name":"p","kind":{"kind":"program","command":"python3 b.py","workdir":null,"cpu_seconds":0,"memory_mb":0},"token_sha256":null,"max_tables":0,"created_unix_ms":1}"#;
        let r: BotRecord = crate::decode(|| "bots/p".into(), old).unwrap();
        let BotKind::Program { game, .. } = r.kind else {
            panic!("a program bot")
        };
        assert_eq!(game, Game::named("ddz"));
        let written = String::from_utf8(crate::encode(&r).unwrap()).unwrap();
        assert!(written.contains(r#""game":"ddz""#), "{written}");
    }
}
