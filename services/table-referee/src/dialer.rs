//! Finding the bot-host of a remote seat: the store's presence records first, then the
//! configured addresses; and a registered bot's own decision limit, from its record.

use std::sync::Arc;

use arena_store::Store;
use arena_table::remote::OwnLimits;
use arena_table::{BotHosts, DialError, SeatDialer, SeatLink};

/// Resolves a remote bot's host through [`Store::presence`] (a bot connected to some bot-host
/// right now), falling back to the configured bot-host addresses (which also start program bots
/// on demand). Links (a channel and its `Seats` stream) are shared per host.
pub struct PresenceDialer {
    store: Option<Arc<dyn Store>>,
    hosts: BotHosts,
}

impl PresenceDialer {
    /// A dialer over `store`'s presence records (if any) and the configured `hosts`.
    pub fn new(store: Option<Arc<dyn Store>>, hosts: BotHosts) -> PresenceDialer {
        PresenceDialer { store, hosts }
    }
}

#[async_trait::async_trait]
impl SeatDialer for PresenceDialer {
    async fn channel_for(
        &self,
        bot: &str,
        table_id: &str,
        seat: u32,
    ) -> Result<SeatLink, DialError> {
        if let Some(store) = &self.store {
            match store.presence(bot).await {
                Ok(hosts) => {
                    if let Some(addr) = BotHosts::pick(&hosts, table_id, seat) {
                        return self.hosts.link(addr);
                    }
                }
                Err(e) => {
                    tracing::warn!(bot, error = %e, "presence lookup failed; trying the configured bot-hosts")
                }
            }
        }
        match BotHosts::pick(self.hosts.addrs(), table_id, seat) {
            Some(addr) => self.hosts.link(addr),
            None => Err(DialError::NoHost(format!(
                "no bot-host holds bot {bot:?} (no presence record) and no bot-host address is configured"
            ))),
        }
    }

    /// The registry's record of `bot` (in the store): its own decision limits. A bot the
    /// registry lacks has none (opening its seat says the rest).
    async fn own_limits(&self, bot: &str) -> Result<OwnLimits, String> {
        let Some(store) = &self.store else {
            return Ok(OwnLimits::default());
        };
        match store.bot(bot).await {
            Ok(record) => Ok(record.map_or_else(OwnLimits::default, |r| OwnLimits {
                decision_ms: r.decision_ms,
                later_decision_ms: r.later_decision_ms,
            })),
            Err(e) => Err(format!(
                "cannot read bot {bot:?}'s record for its clock: {e}"
            )),
        }
    }
}
