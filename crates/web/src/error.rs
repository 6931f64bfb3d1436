//! Why a web call failed, as a sentence the model (and the user reading the tool row) can act on.

/// A failed web request or an answer we could not use. `Display` is the sentence shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// The URL does not parse.
    #[error("`{url}` is not a valid URL: {reason}")]
    InvalidUrl { url: String, reason: String },
    /// Only http and https are fetched; file:, ftp:, data: and the like are refused.
    #[error("only http and https URLs can be fetched, not `{scheme}:`")]
    UnsupportedScheme { scheme: String },
    /// The server answered with an error status.
    #[error("{url} answered HTTP {status}{reason}")]
    Status {
        url: String,
        status: u16,
        /// ` Not Found` and the like, with its leading space; empty when unknown.
        reason: String,
    },
    /// DNS lookup or the TCP/TLS connection failed.
    #[error("could not connect to {host}: {detail}")]
    Connect { host: String, detail: String },
    /// No complete answer within the time limit.
    #[error("{url} did not answer within {secs} s")]
    Timeout { url: String, secs: u64 },
    /// The body is larger than the fetch limit.
    #[error("{url} is larger than the {limit_mb} MB limit for fetched pages")]
    TooLarge { url: String, limit_mb: u64 },
    /// The page is not HTML or text (a PDF, an image, a zip...).
    #[error("{url} is `{content_type}`, not an HTML page or text; web_fetch only reads web pages")]
    NotHtml { url: String, content_type: String },
    /// The search service refused the request (rate limit, bot check, bad key).
    #[error("{service} refused the search: {detail}")]
    Refused { service: String, detail: String },
    /// The answer did not have the shape we know.
    #[error("could not read {service}'s answer: {detail}")]
    BadAnswer { service: String, detail: String },
    /// Any other transport failure.
    #[error("request to {url} failed: {detail}")]
    Other { url: String, detail: String },
}
