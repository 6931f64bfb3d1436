//! Recognising facts that hold a secret, so `remember` refuses them: well-known key formats by
//! their prefixes, `password = ...`-style assignments, and long random-looking strings.

use std::sync::OnceLock;

use regex::Regex;

/// Longest fact kept, in characters: memory is for one-sentence facts, not documents.
pub const MAX_FACT_CHARS: usize = 500;

/// Shortest run of token characters judged by its randomness: shorter strings (words, ids,
/// version numbers) are too short to tell apart from a secret and too short to be most keys.
const MIN_RANDOM_TOKEN_CHARS: usize = 24;
/// Shannon entropy per character above which a long token reads as random. English words sit
/// near 3 bits, hex digests near 4, base64 keys above 4.5; 3.7 catches digests and keys while
/// leaving long identifiers such as `a_rather_long_function_name` alone.
const RANDOM_BITS_PER_CHAR: f64 = 3.7;

/// Known secret formats and what to call them in the refusal.
const PATTERNS: &[(&str, &str)] = &[
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----", "a private key"),
    (
        r"\bsk-(ant-|proj-)?[A-Za-z0-9_\-]{16,}",
        "an API key (sk-...)",
    ),
    (r"\bgh[pousr]_[A-Za-z0-9]{20,}", "a GitHub token"),
    (r"\bgithub_pat_[A-Za-z0-9_]{20,}", "a GitHub token"),
    (r"\bglpat-[A-Za-z0-9_\-]{16,}", "a GitLab token"),
    (r"\bxox[abprs]-[A-Za-z0-9\-]{10,}", "a Slack token"),
    (r"\b(AKIA|ASIA)[0-9A-Z]{16}\b", "an AWS access key"),
    (r"\bAIza[0-9A-Za-z_\-]{30,}", "a Google API key"),
    (r"\bhf_[A-Za-z0-9]{30,}", "a Hugging Face token"),
    (r"\bnpm_[A-Za-z0-9]{30,}", "an npm token"),
    (
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.",
        "a JSON web token",
    ),
    (r"(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{16,}", "a bearer token"),
    (
        r"(?i)\b(password|passwd|pwd|passphrase|secret|api[_ -]?key|access[_ -]?token|auth[_ -]?token|token)\s*[:=]\s*\S{6,}",
        "a password or key assignment",
    ),
    // "the password is X": only when X looks like a password (has a digit or a symbol), so
    // "the token is stored in the keychain" stays a fact.
    (
        r"(?i)\b(password|passwd|passphrase|api[_ -]?key|token)\s+is\s+\S*[0-9!@#$%^&*]\S*",
        "a password or key",
    ),
    (r"(?i)://[^/\s:@]+:[^/\s@]+@", "a URL with a password"),
];

fn patterns() -> &'static [(Regex, &'static str)] {
    static COMPILED: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        PATTERNS
            .iter()
            // The patterns are constants checked by the tests below; one that failed to
            // compile would only make the check weaker, never panic.
            .filter_map(|(p, what)| Regex::new(p).ok().map(|r| (r, *what)))
            .collect()
    })
}

/// What kind of secret `text` seems to hold, or `None`.
pub fn secret_reason(text: &str) -> Option<String> {
    if let Some((_, what)) = patterns().iter().find(|(r, _)| r.is_match(text)) {
        return Some((*what).to_string());
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-')))
        .find(|token| looks_random(token))
        .map(|_| "a long random-looking string".to_string())
}

/// A long token mixing letters and digits with high entropy per character.
fn looks_random(token: &str) -> bool {
    if token.len() < MIN_RANDOM_TOKEN_CHARS {
        return false;
    }
    let has_digit = token.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = token.bytes().any(|b| b.is_ascii_alphabetic());
    has_digit && has_alpha && entropy_bits_per_char(token) > RANDOM_BITS_PER_CHAR
}

fn entropy_bits_per_char(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        assert_eq!(patterns().len(), PATTERNS.len());
    }

    #[test]
    fn known_key_formats_are_refused() {
        for secret in [
            "the key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv",
            "use ghp_1234567890abcdefghijABCDEFGHIJ123456 for pushes",
            "AWS: AKIAIOSFODNN7EXAMPLE",
            "google AIzaSyA1234567890abcdefghijklmnopqrstu",
            "token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc",
            "Authorization: Bearer abcdef1234567890abcdef",
            "the db password is hunter2hunter2",
            "api_key=abc123def456",
            "connect to postgres://admin:s3cret@db.local/app",
            "-----BEGIN RSA PRIVATE KEY----- MIIE",
            "slack xoxb-123456789012-abcdefghijkl",
        ] {
            assert!(secret_reason(secret).is_some(), "not caught: {secret}");
        }
    }

    #[test]
    fn random_looking_strings_are_refused() {
        assert!(secret_reason("deploy with Qm9vX2Zvb2JhcjEyMzQ1Njc4OTBhYmNkZWY").is_some());
        assert!(secret_reason(
            "hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        )
        .is_some());
    }

    #[test]
    fn ordinary_facts_pass() {
        for fact in [
            "The user prefers tabs over spaces.",
            "The project builds with `cargo build --release` and tests with make test.",
            "Their main repository is github.com/acme/widgets, branch main.",
            "They call the function a_rather_long_function_name_for_testing often.",
            "The API key for the staging server is in the keychain under 'staging'.",
            "The token is stored in the OS keychain, never in files.",
            "Version 2.39.5 of git is installed; Debian 12 bookworm.",
            "The meeting is on 2024-11-08 at 10:00 in room B12.",
        ] {
            assert_eq!(secret_reason(fact), None, "refused: {fact}");
        }
    }
}
