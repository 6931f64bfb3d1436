//! `web_fetch(url)`: one web page as readable markdown with its title, cut to a size a model
//! can read. Only http and https; pages that are not HTML or text are refused by their type.

use serde::Deserialize;
use serde_json::json;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::{cancellable, meta, parse_args, Shared};
use crate::error::WebError;
use crate::http::web_url;
use crate::readable::{cap_chars, html_to_readable, Readable};

/// The tool's name.
pub const WEB_FETCH_NAME: &str = "web_fetch";

/// Fetches a page.
pub struct WebFetch {
    shared: Shared,
    spec: ToolSpec,
    meta: ToolMeta,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    url: String,
}

/// How a body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Html,
    Text,
}

/// HTML pages are made readable; other text is passed through; anything else is refused.
/// A missing type counts as HTML (the parser copes with text too).
fn kind_of(content_type: &str) -> Option<Kind> {
    let mime = content_type.split(';').next().unwrap_or("").trim();
    match mime {
        "" | "text/html" | "application/xhtml+xml" => Some(Kind::Html),
        m if m.starts_with("text/") => Some(Kind::Text),
        "application/json" | "application/xml" | "application/rss+xml" | "application/atom+xml" => {
            Some(Kind::Text)
        }
        _ => None,
    }
}

impl WebFetch {
    pub(crate) fn new(shared: Shared) -> Self {
        let max_chars = shared.http.config().max_text_chars;
        Self {
            shared,
            spec: ToolSpec {
                name: WEB_FETCH_NAME.into(),
                description: format!(
                    "Fetch a web page (http or https) and return its title and its main text \
                     as markdown, without navigation, ads and footers. Long pages are cut at \
                     {} characters. Works for HTML and plain-text pages, not for PDFs, images \
                     or downloads.",
                    max_chars
                ),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "url": {"type": "string", "description": "The full URL, starting with http:// or https://."}
                    },
                    "required": ["url"],
                    "additionalProperties": false
                }),
            },
            meta: meta(),
        }
    }

    async fn fetch(&self, raw: &str) -> Result<String, WebError> {
        let url = web_url(raw)?;
        let http = &self.shared.http;
        let req = http.get(&url).header(
            "Accept",
            "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
        );
        let mut kind = Kind::Html;
        let body = http
            .send_checked(&url, req, |ct| match kind_of(ct) {
                Some(k) => {
                    kind = k;
                    Ok(())
                }
                None => Err(WebError::NotHtml {
                    url: url.to_string(),
                    content_type: ct.split(';').next().unwrap_or(ct).trim().to_string(),
                }),
            })
            .await?;
        let final_url = body.final_url.to_string();
        let page = match kind {
            Kind::Text => Readable {
                title: String::new(),
                markdown: body.text,
            },
            Kind::Html => {
                let (html, at) = (body.text, final_url.clone());
                tokio::task::spawn_blocking(move || html_to_readable(&html, &at))
                    .await
                    .map_err(|e| WebError::Other {
                        url: final_url.clone(),
                        detail: format!("reading the page failed: {e}"),
                    })?
            }
        };
        Ok(render(
            &page,
            &final_url,
            self.shared.http.config().max_text_chars,
        ))
    }
}

/// `Title:` and `URL:` lines, a blank line, the text (cut, with a note saying so). The UI
/// reads the two header lines (ui/src/core/toolViews.ts).
fn render(page: &Readable, url: &str, max_chars: usize) -> String {
    let title = if page.title.is_empty() {
        "(no title)"
    } else {
        &page.title
    };
    let mut out = format!("Title: {}\nURL: {url}\n\n", crate::results::one_line(title));
    let text = page.markdown.trim();
    if text.is_empty() {
        out.push_str("(The page has no readable text; it may need JavaScript to show it.)\n");
        return out;
    }
    let (shown, cut) = cap_chars(text, max_chars);
    out.push_str(shown);
    out.push('\n');
    if cut {
        out.push_str(&format!(
            "\n[Cut: showing {} of {} characters of the page's text.]\n",
            shown.chars().count(),
            text.chars().count()
        ));
    }
    out
}

#[async_trait::async_trait]
impl Tool for WebFetch {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let args: Args = parse_args(args)?;
        let text = cancellable(ctx, self.fetch(&args.url)).await?;
        Ok(ToolOutput::text(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_decide_how_a_body_is_read() {
        assert_eq!(kind_of("text/html; charset=utf-8"), Some(Kind::Html));
        assert_eq!(kind_of(""), Some(Kind::Html));
        assert_eq!(kind_of("application/xhtml+xml"), Some(Kind::Html));
        assert_eq!(kind_of("text/plain"), Some(Kind::Text));
        assert_eq!(kind_of("text/markdown; charset=utf-8"), Some(Kind::Text));
        assert_eq!(kind_of("application/json"), Some(Kind::Text));
        assert_eq!(kind_of("application/pdf"), None);
        assert_eq!(kind_of("image/png"), None);
        assert_eq!(kind_of("application/octet-stream"), None);
    }

    #[test]
    fn render_puts_title_and_url_first_and_says_when_it_cut() {
        let page = Readable {
            title: "A\ntitle".into(),
            markdown: format!("{}\n\n{}", "x".repeat(50), "y".repeat(50)),
        };
        let out = render(&page, "https://e.example/", 60);
        assert!(
            out.starts_with("Title: A title\nURL: https://e.example/\n\n"),
            "{out}"
        );
        assert!(out.contains(&"x".repeat(50)));
        assert!(!out.contains('y'));
        assert!(
            out.ends_with("[Cut: showing 50 of 102 characters of the page's text.]\n"),
            "{out}"
        );
        let empty = Readable {
            title: String::new(),
            markdown: " ".into(),
        };
        assert!(render(&empty, "https://e.example/", 60).contains("(no title)"));
    }
}
