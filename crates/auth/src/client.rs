//! The client side: which operator token a command sends, and a tonic interceptor that sends it.

use std::path::Path;

use tonic::metadata::MetadataValue;
use tonic::service::Interceptor;

use crate::Secret;

/// The environment variable holding an operator token for clients.
pub const OPERATOR_TOKEN_ENV: &str = "ARENA_OPERATOR_TOKEN";

/// The file in a data directory holding the operator token `arena standalone` made.
pub const OPERATOR_TOKEN_FILE: &str = "operator.token";

/// The operator token a client sends: `ARENA_OPERATOR_TOKEN` if set and not empty, else the
/// token `arena standalone` wrote to `<data_dir>/operator.token`, else none.
pub fn discover_operator_token(data_dir: &Path) -> Option<Secret> {
    if let Ok(v) = std::env::var(OPERATOR_TOKEN_ENV) {
        let v = v.trim();
        if !v.is_empty() {
            return Some(Secret::new(v));
        }
    }
    crate::read_secret_file(&data_dir.join(OPERATOR_TOKEN_FILE)).ok()
}

/// Adds `authorization: Bearer <token>` to every call (nothing when there is no token).
#[derive(Clone, Debug, Default)]
pub struct Bearer {
    value: Option<MetadataValue<tonic::metadata::Ascii>>,
}

impl Bearer {
    /// An interceptor sending `token`. A token that cannot be a header value (control
    /// characters) sends nothing, and the server says the call lacks a token.
    pub fn new(token: Option<&Secret>) -> Bearer {
        let value = token.and_then(|t| {
            let mut v: MetadataValue<tonic::metadata::Ascii> =
                format!("Bearer {}", t.expose()).parse().ok()?;
            v.set_sensitive(true);
            Some(v)
        });
        Bearer { value }
    }

    /// Whether a token will be sent.
    pub fn is_set(&self) -> bool {
        self.value.is_some()
    }

    /// Adds the header to `metadata` (for calls made without the interceptor, e.g. a stream
    /// opened on a shared channel).
    pub fn apply(&self, metadata: &mut tonic::metadata::MetadataMap) {
        if let Some(v) = &self.value {
            metadata.insert("authorization", v.clone());
        }
    }
}

impl Interceptor for Bearer {
    fn call(&mut self, mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        self.apply(req.metadata_mut());
        Ok(req)
    }
}
