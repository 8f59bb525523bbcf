//! Tokens: issued once to their owner, stored only as a SHA-256 hash.
//!
//! A bot token is 32 bytes from the operating system's random source, written in URL-safe base64
//! without padding (43 characters). The store keeps [`hash_token`] of it
//! (`BotRecord::token_sha256`); a remote bot presents the token as `authorization: Bearer <token>`
//! and names itself in its `Hello`, so checking it costs one store read and one hash. Operator
//! tokens ([`crate::operators`]) carry their own id for the same reason.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// Random bytes in a token.
pub const TOKEN_BYTES: usize = 32;

/// The operating system's random source failed.
#[derive(Debug, thiserror::Error)]
#[error("the operating system's random source failed: {0}")]
pub struct TokenError(getrandom::Error);

/// A new token and its hash: `(token, sha256_hex)`. Give the token to the bot's owner (it is
/// shown once) and store only the hash.
pub fn issue_token() -> Result<(String, String), TokenError> {
    let token = random_text(TOKEN_BYTES)?;
    let hash = hash_token(&token);
    Ok((token, hash))
}

/// The SHA-256 of a token's text, as lower-case hex (64 characters): what
/// `BotRecord::token_sha256` stores.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// True when `token` hashes to `sha256_hex` (compared in constant time, case-insensitively).
pub fn token_matches(token: &str, sha256_hex: &str) -> bool {
    let got = hash_token(token);
    let want = sha256_hex.trim().to_ascii_lowercase();
    if got.len() != want.len() {
        return false;
    }
    got.bytes()
        .zip(want.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

/// Random characters for session ids (shorter than tokens; they are not secrets).
pub fn session_id() -> String {
    let mut bytes = [0u8; 12];
    if getrandom::fill(&mut bytes).is_err() {
        // Session ids only need to be unique on this host, not secret.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        bytes.copy_from_slice(&nanos.to_le_bytes()[..12]);
    }
    format!("s-{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// `n` random bytes from the operating system, as URL-safe base64 without padding.
pub fn random_text(n: usize) -> Result<String, TokenError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(TokenError)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// HMAC-SHA-256 of `message` under `key` (RFC 2104), as URL-safe base64 without padding (43
/// characters): what proves a value was made by whoever holds `key` (the console signs its login
/// cookie with it).
pub fn mac(key: &[u8], message: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(hmac_of(key, message).finalize().into_bytes())
}

/// True when `tag` is [`mac`] of `message` under `key` (compared in constant time).
pub fn mac_matches(key: &[u8], message: &[u8], tag: &str) -> bool {
    let Ok(tag) = URL_SAFE_NO_PAD.decode(tag) else {
        return false;
    };
    hmac_of(key, message).verify_slice(&tag).is_ok()
}

fn hmac_of(key: &[u8], message: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length, so this cannot fail.
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC accepts any key length");
    m.update(message);
    m
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_url_safe_random_and_hash_to_their_record() {
        let (token, hash) = issue_token().unwrap();
        assert_eq!(token.len(), 43);
        assert!(
            token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{token}"
        );
        assert_eq!(hash, hash_token(&token));
        assert!(token_matches(&token, &hash));
        assert!(token_matches(&token, &hash.to_uppercase()));
        let (other, _) = issue_token().unwrap();
        assert_ne!(token, other);
        assert!(!token_matches(&other, &hash));
        assert!(!token_matches(&token, "abc"));
    }

    #[test]
    fn the_mac_is_hmac_sha256() {
        // RFC 4231, test case 2.
        let tag = mac(b"Jefe", b"what do ya want for nothing?");
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&tag)
            .unwrap();
        assert_eq!(
            hex(&bytes),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert!(mac_matches(b"Jefe", b"what do ya want for nothing?", &tag));
        assert!(!mac_matches(b"Jefe", b"what do ya want for nothing!", &tag));
        assert!(!mac_matches(
            b"other",
            b"what do ya want for nothing?",
            &tag
        ));
        assert!(!mac_matches(
            b"Jefe",
            b"what do ya want for nothing?",
            "short"
        ));
    }

    #[test]
    fn the_hash_is_sha256_hex() {
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hash_token(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
