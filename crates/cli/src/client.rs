//! What every client command shares: finding a role's address, connecting to it, sending the
//! operator token, and saying what to do when a call is refused.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use arena_auth::Bearer;
use clap::Args;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

/// Where a client finds its operator token: `ARENA_OPERATOR_TOKEN`, else the token `arena
/// standalone` wrote to its data directory; and the roles' addresses that standalone wrote
/// there ([`ENDPOINTS_FILE`]).
#[derive(Args, Clone, Debug)]
pub struct ClientAuth {
    /// The data directory of the `arena standalone` to talk to, whose `operator.token` is sent
    /// unless ARENA_OPERATOR_TOKEN is set, and whose `endpoints.json` gives the roles'
    /// addresses no flag or environment variable gives.
    #[arg(
        long = "data-dir",
        env = "ARENA_DATA_DIR",
        default_value = "arena-data"
    )]
    pub data_dir: PathBuf,
}

impl ClientAuth {
    /// The interceptor sending the operator token found (or nothing).
    pub fn bearer(&self) -> Bearer {
        Bearer::new(arena_auth::discover_operator_token(&self.data_dir).as_ref())
    }

    /// The address of `role`: [`address`] with this data directory.
    pub fn address(&self, given: Option<&str>, role: Role) -> Result<String> {
        address(given, role, &self.data_dir)
    }
}

pub use arena::standalone::ENDPOINTS_FILE;

/// The most of an [`ENDPOINTS_FILE`] a client reads.
const MAX_ENDPOINTS_BYTES: u64 = 64 * 1024;

/// The address of `role`: `given` (its flag or environment variable) when set; else the one the
/// standalone with data directory `data_dir` wrote to its [`ENDPOINTS_FILE`]; else the role's
/// default port on this machine. An endpoints file that cannot be read is an error naming it,
/// never silently passed over for a default where another process may be listening.
pub fn address(given: Option<&str>, role: Role, data_dir: &Path) -> Result<String> {
    if let Some(url) = given {
        return Ok(url.to_string());
    }
    let path = data_dir.join(ENDPOINTS_FILE);
    let text = match std::fs::File::open(&path) {
        Ok(file) => {
            // A standalone writes a few hundred bytes; anything past the bound is not its file.
            let mut text = String::new();
            std::io::Read::read_to_string(
                &mut std::io::Read::take(file, MAX_ENDPOINTS_BYTES + 1),
                &mut text,
            )
            .with_context(|| format!("reading {}", path.display()))?;
            if text.len() as u64 > MAX_ENDPOINTS_BYTES {
                anyhow::bail!(
                    "{} is over {MAX_ENDPOINTS_BYTES} bytes: not an endpoints file arena wrote",
                    path.display()
                );
            }
            text
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(role.default_url()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let endpoints: std::collections::BTreeMap<String, String> = serde_json::from_str(&text)
        .with_context(|| {
            format!(
                "{} is not a JSON object of addresses (delete it if no arena standalone runs there)",
                path.display()
            )
        })?;
    endpoints.get(role.key()).cloned().with_context(|| {
        format!(
            "{} names no {} address ({}): pass {} URL",
            path.display(),
            role.name(),
            role.key(),
            role.flag()
        )
    })
}

/// A channel with the operator token on every call.
pub type Authed = InterceptedService<Channel, Bearer>;

/// A role a client command talks to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// The matchmaker (competitions, the leaderboard, the bot registry).
    Matchmaker,
    /// The deal library.
    DealLibrary,
    /// A table referee.
    Referee,
    /// bot-host's bot port, where bots connect.
    BotHost,
}

impl Role {
    /// The role as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Matchmaker => "matchmaker",
            Role::DealLibrary => "deal library",
            Role::Referee => "referee",
            Role::BotHost => "bot-host",
        }
    }

    /// Its key in a standalone's [`ENDPOINTS_FILE`].
    pub fn key(self) -> &'static str {
        match self {
            Role::Matchmaker => "matchmaker",
            Role::DealLibrary => "deal_library",
            Role::Referee => "referee",
            Role::BotHost => "bot_host",
        }
    }

    /// Where it listens by default on this machine (the standalone's defaults, which are the
    /// roles' own).
    pub fn default_url(self) -> String {
        use arena::standalone as sa;
        sa::local_url(match self {
            Role::Referee => sa::DEFAULT_REFEREE_LISTEN,
            Role::DealLibrary => sa::DEFAULT_DEAL_LIBRARY_LISTEN,
            Role::Matchmaker => sa::DEFAULT_MATCHMAKER_LISTEN,
            Role::BotHost => sa::DEFAULT_BOT_HOST_LISTEN,
        })
    }

    /// The flag that gives its address.
    pub fn flag(self) -> &'static str {
        match self {
            Role::Matchmaker => "--matchmaker",
            Role::DealLibrary => "--library",
            Role::Referee => "--referee",
            Role::BotHost => "--bot-host",
        }
    }
}

/// Connects to the `role` at `url`, carrying the operator token of `auth`; a failure says what
/// to check and which flag names another address.
pub async fn connect(url: &str, role: Role, auth: &ClientAuth) -> Result<Authed> {
    let (what, flag) = (role.name(), role.flag());
    let channel = tonic::transport::Endpoint::from_shared(url.to_string())
        .with_context(|| format!("{url:?} is not a valid address for the {what} ({flag} URL)"))?
        .connect()
        .await
        .with_context(|| {
            format!(
                "connecting to the {what} at {url}: is `arena standalone` (or the {what} role) \
                 running there? {flag} URL names another address"
            )
        })?;
    Ok(InterceptedService::new(channel, auth.bearer()))
}

/// A refused call as an error that says what to do about it.
pub fn status(s: tonic::Status) -> anyhow::Error {
    let hint = match s.code() {
        tonic::Code::Unauthenticated => {
            "; this needs an operator token: set ARENA_OPERATOR_TOKEN (from `arena operators add NAME`), \
             or point --data-dir at the directory of the `arena standalone` you talk to"
        }
        tonic::Code::PermissionDenied => "; this token may not call this method",
        _ => "",
    };
    anyhow::anyhow!("{} ({:?}){hint}", s.message(), s.code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_wins_then_the_endpoints_file_then_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert_eq!(
            address(None, Role::Matchmaker, d).unwrap(),
            "http://127.0.0.1:50054"
        );
        std::fs::write(
            d.join(ENDPOINTS_FILE),
            r#"{"matchmaker": "http://127.0.0.1:6001", "referee": "http://127.0.0.1:6002"}"#,
        )
        .unwrap();
        assert_eq!(
            address(None, Role::Matchmaker, d).unwrap(),
            "http://127.0.0.1:6001"
        );
        assert_eq!(
            address(Some("http://elsewhere:1"), Role::Matchmaker, d).unwrap(),
            "http://elsewhere:1"
        );
        let missing = address(None, Role::DealLibrary, d).unwrap_err().to_string();
        assert!(
            missing.contains("names no deal library address") && missing.contains("--library"),
            "{missing}"
        );
    }

    #[test]
    fn an_endpoints_file_past_its_bound_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let big = format!(r#"{{"matchmaker": "{}"}}"#, "x".repeat(70 * 1024));
        std::fs::write(dir.path().join(ENDPOINTS_FILE), big).unwrap();
        let e = address(None, Role::Matchmaker, dir.path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("is over 65536 bytes"), "{e}");
    }
}
