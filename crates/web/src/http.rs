//! One HTTP client for the web tools: time limits, a size cap read chunk by chunk, only
//! http/https, and every failure turned into a [`WebError`] sentence.

use reqwest::header::{HeaderMap, CONTENT_TYPE};
use reqwest::{RequestBuilder, Response};
use url::Url;

use crate::config::{WebConfig, CONNECT_TIMEOUT, MAX_REDIRECTS, USER_AGENT};
use crate::error::WebError;

/// A body read within the cap.
#[derive(Debug, Clone)]
pub struct Body {
    /// Where the body came from, after redirects.
    pub final_url: Url,
    /// The `Content-Type` header, lowercased; empty when missing.
    pub content_type: String,
    pub text: String,
}

/// The web tools' HTTP client.
#[derive(Debug, Clone)]
pub struct Http {
    client: reqwest::Client,
    config: WebConfig,
}

impl Http {
    /// A client with the config's limits.
    pub fn new(config: WebConfig) -> Result<Self, WebError> {
        let client = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .timeout(config.timeout)
            .connect_timeout(CONNECT_TIMEOUT.min(config.timeout))
            .redirect(reqwest::redirect::Policy::limited(MAX_REDIRECTS))
            .build()
            .map_err(|e| WebError::Other {
                url: String::new(),
                detail: format!("could not set up the HTTP client: {e}"),
            })?;
        Ok(Self { client, config })
    }

    /// The config the client was made with.
    pub fn config(&self) -> &WebConfig {
        &self.config
    }

    /// A GET request builder for `url`.
    pub fn get(&self, url: &Url) -> RequestBuilder {
        self.client.get(url.clone())
    }

    /// A POST request builder for `url`.
    pub fn post(&self, url: &Url) -> RequestBuilder {
        self.client.post(url.clone())
    }

    /// Sends the request and reads the body up to the byte cap. HTTP errors, connect
    /// failures, timeouts and over-large bodies come back as sentences.
    pub async fn send(&self, url: &Url, request: RequestBuilder) -> Result<Body, WebError> {
        self.send_checked(url, request, |_| Ok(())).await
    }

    /// [`Http::send`], with the `Content-Type` checked by `check` before the body is read,
    /// so a refused type is never downloaded.
    pub async fn send_checked(
        &self,
        url: &Url,
        request: RequestBuilder,
        check: impl FnOnce(&str) -> Result<(), WebError>,
    ) -> Result<Body, WebError> {
        let response = request.send().await.map_err(|e| self.map_error(url, e))?;
        let status = response.status();
        if !status.is_success() {
            return Err(WebError::Status {
                url: url.to_string(),
                status: status.as_u16(),
                reason: status
                    .canonical_reason()
                    .map(|r| format!(" {r}"))
                    .unwrap_or_default(),
            });
        }
        let final_url = response.url().clone();
        let content_type = content_type(response.headers());
        check(&content_type)?;
        let bytes = self.read_capped(url, response).await?;
        Ok(Body {
            final_url,
            text: decode(&bytes, &content_type),
            content_type,
        })
    }

    async fn read_capped(&self, url: &Url, mut response: Response) -> Result<Vec<u8>, WebError> {
        let limit = self.config.max_fetch_bytes;
        let too_large = || WebError::TooLarge {
            url: url.to_string(),
            limit_mb: (limit / (1024 * 1024)).max(1) as u64,
        };
        if response.content_length().is_some_and(|n| n > limit as u64) {
            return Err(too_large());
        }
        let mut out = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.map_error(url, e))? {
            if out.len() + chunk.len() > limit {
                return Err(too_large());
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    }

    fn map_error(&self, url: &Url, e: reqwest::Error) -> WebError {
        if e.is_timeout() {
            return WebError::Timeout {
                url: url.to_string(),
                secs: self.config.timeout.as_secs().max(1),
            };
        }
        if e.is_connect() {
            return WebError::Connect {
                host: url.host_str().unwrap_or("the server").to_string(),
                detail: root_cause(&e),
            };
        }
        if e.is_redirect() {
            return WebError::Other {
                url: url.to_string(),
                detail: format!("more than {MAX_REDIRECTS} redirects"),
            };
        }
        WebError::Other {
            url: url.to_string(),
            detail: root_cause(&e),
        }
    }
}

/// Parses `raw` as an absolute http or https URL.
pub fn web_url(raw: &str) -> Result<Url, WebError> {
    let url = Url::parse(raw.trim()).map_err(|e| WebError::InvalidUrl {
        url: raw.to_string(),
        reason: e.to_string(),
    })?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(WebError::UnsupportedScheme {
            scheme: other.to_string(),
        }),
    }
}

/// `base` joined with `path`; a base without a trailing slash is treated as a folder.
pub fn endpoint(base: &str, path: &str) -> Result<Url, WebError> {
    let mut base = web_url(base)?;
    if !base.path().ends_with('/') {
        let p = format!("{}/", base.path());
        base.set_path(&p);
    }
    base.join(path).map_err(|e| WebError::InvalidUrl {
        url: format!("{base}{path}"),
        reason: e.to_string(),
    })
}

fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The innermost error's message: "dns error: failed to lookup address information: Name or
/// service not known" says more than "error sending request".
fn root_cause(e: &reqwest::Error) -> String {
    let mut source: &dyn std::error::Error = e;
    while let Some(inner) = source.source() {
        source = inner;
    }
    source.to_string()
}

/// The body as text in the charset the header names (UTF-8 when none or unknown).
fn decode(bytes: &[u8], content_type: &str) -> String {
    let label = content_type
        .split(';')
        .filter_map(|p| p.trim().strip_prefix("charset="))
        .next()
        .map(|c| c.trim_matches('"'));
    let encoding = label
        .and_then(|l| encoding_rs::Encoding::for_label(l.as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    encoding.decode(bytes).0.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_urls_are_accepted() {
        assert!(web_url("https://example.com/a?b=c").is_ok());
        assert!(web_url(" http://example.com ").is_ok());
        assert_eq!(
            web_url("file:///etc/passwd").unwrap_err().to_string(),
            "only http and https URLs can be fetched, not `file:`"
        );
        assert!(matches!(
            web_url("ftp://example.com/x"),
            Err(WebError::UnsupportedScheme { .. })
        ));
        assert!(matches!(
            web_url("example.com/page"),
            Err(WebError::InvalidUrl { .. })
        ));
    }

    #[test]
    fn endpoints_join_with_or_without_a_trailing_slash() {
        assert_eq!(
            endpoint("http://127.0.0.1:9/res/v1", "web/search")
                .unwrap()
                .as_str(),
            "http://127.0.0.1:9/res/v1/web/search"
        );
        assert_eq!(
            endpoint("https://api.tavily.com/", "search")
                .unwrap()
                .as_str(),
            "https://api.tavily.com/search"
        );
    }

    #[test]
    fn bodies_decode_in_the_charset_the_header_names() {
        // "café" in Latin-1.
        let latin1 = [0x63, 0x61, 0x66, 0xe9];
        assert_eq!(decode(&latin1, "text/html; charset=iso-8859-1"), "café");
        assert_eq!(decode("café".as_bytes(), "text/html"), "café");
        assert_eq!(
            decode("café".as_bytes(), "text/html; charset=\"utf-8\""),
            "café"
        );
    }
}
