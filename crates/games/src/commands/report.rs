//! How an error reads to the user: its message and its causes on one line, each said once.
//!
//! Many errors put their cause's message in their own (`binding 127.0.0.1:50051: Address already
//! in use`) and also return the cause from `source()`, so printing the chain (`{:#}`) would say
//! the cause twice. [`chain`] skips a cause whose message the text already ends with.

/// The user stopped a command (Ctrl-C): not a failure, so it is said without `error:` and
/// with what became of the work, and the command exits with status 130 as an interrupted one
/// does.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);

/// `e` and every cause, joined with `": "`, leaving out a cause already said.
pub fn chain(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let said = cause.to_string();
        if said.is_empty() || text.ends_with(&said) {
            continue;
        }
        text.push_str(": ");
        text.push_str(&said);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::chain;

    #[derive(Debug, thiserror::Error)]
    enum Outer {
        #[error("binding 127.0.0.1:1: {source}")]
        Bind { source: std::io::Error },
        #[error("opening the store")]
        Store(#[source] std::io::Error),
    }

    #[test]
    fn a_cause_in_its_errors_message_is_said_once() {
        let e = anyhow::Error::new(Outer::Bind {
            source: std::io::Error::new(std::io::ErrorKind::AddrInUse, "Address already in use"),
        });
        assert_eq!(format!("{e:#}").matches("already in use").count(), 2);
        assert_eq!(chain(&e), "binding 127.0.0.1:1: Address already in use");
    }

    #[test]
    fn a_cause_not_in_the_message_is_appended_and_context_kept() {
        let e = anyhow::Error::new(Outer::Store(std::io::Error::other("disk full")))
            .context("arena standalone");
        assert_eq!(chain(&e), "arena standalone: opening the store: disk full");
    }
}
