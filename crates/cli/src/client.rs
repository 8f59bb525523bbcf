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

/// The address of `role`: `given` (its flag or environment variable) when set; else the one the
/// standalone with data directory `data_dir` wrote to its [`ENDPOINTS_FILE`]; else the role's
/// default port on this machine. An endpoints file that cannot be read is an error naming it,
/// never silently passed over for a default where another process may be listening.
pub fn address(given: Option<&str>, role: Role, data_dir: &Path) -> Result<String> {
    if let Some(url) = given {
        return Ok(url.to_string());
    }
    let path = data_dir.join(ENDPOINTS_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(role.default_url().to_string());
        }
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
}

impl Role {
    /// The role as messages name it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Matchmaker => "matchmaker",
            Role::DealLibrary => "deal library",
            Role::Referee => "referee",
        }
    }

    /// Its key in a standalone's [`ENDPOINTS_FILE`].
    pub fn key(self) -> &'static str {
        match self {
            Role::Matchmaker => "matchmaker",
            Role::DealLibrary => "deal_library",
            Role::Referee => "referee",
        }
    }

    /// Where it listens by default on this machine.
    pub fn default_url(self) -> &'static str {
        match self {
            Role::Referee => "http://127.0.0.1:50051",
            Role::DealLibrary => "http://127.0.0.1:50053",
            Role::Matchmaker => "http://127.0.0.1:50054",
        }
    }

    /// The flag that gives its address.
    pub fn flag(self) -> &'static str {
        match self {
            Role::Matchmaker => "--matchmaker",
            Role::DealLibrary => "--library",
            Role::Referee => "--referee",
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
