//! DuckDuckGo without a key: the HTML-only results page (`html.duckduckgo.com/html/`) for web
//! search, and for images the token (`vqd`) from the main page followed by the `i.js` JSON
//! that DuckDuckGo's own image tab loads. Neither is an official API: the HTML page is stable
//! and meant for browsers without JavaScript; the image endpoint is undocumented and is often
//! refused to non-browsers, which the result says.

use dom_query::Document;
use serde::Deserialize;
use url::Url;

use crate::error::WebError;
use crate::results::{one_line, ImageHit, SearchHit};

/// The name results are labelled with.
pub const SERVICE: &str = "DuckDuckGo";

/// What the HTML results page held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HtmlPage {
    /// Organic results (ads dropped), possibly none.
    Results(Vec<SearchHit>),
    /// DuckDuckGo's bot check ("anomaly") page instead of results.
    BotCheck,
}

/// Reads the results of an `html.duckduckgo.com/html/` page. Ads are dropped; links through
/// DuckDuckGo's redirect (`//duckduckgo.com/l/?uddg=<target>`) become their target.
pub fn parse_html_results(html: &str) -> HtmlPage {
    let doc = Document::from(html);
    if doc
        .select(".anomaly-modal__title, #challenge-form")
        .exists()
    {
        return HtmlPage::BotCheck;
    }
    let mut hits = Vec::new();
    for result in doc.select("div.result").iter() {
        if result.has_class("result--ad") {
            continue;
        }
        let link = result.select("a.result__a");
        let Some(href) = link.attr("href") else {
            continue;
        };
        let Some(url) = target_url(&href) else {
            continue;
        };
        let title = one_line(&link.text());
        let snippet = one_line(&result.select(".result__snippet").text());
        hits.push(SearchHit {
            title: if title.is_empty() { url.clone() } else { title },
            url,
            snippet,
        });
    }
    HtmlPage::Results(hits)
}

/// The page a result link leads to: the `uddg` target of a DuckDuckGo redirect, or the link
/// itself. `None` for ads (`y.js`) and anything not http(s).
pub fn target_url(href: &str) -> Option<String> {
    let absolute = if href.starts_with("//") {
        format!("https:{href}")
    } else {
        href.to_string()
    };
    let url = Url::parse(&absolute).ok()?;
    let on_ddg = url
        .host_str()
        .is_some_and(|h| h == "duckduckgo.com" || h.ends_with(".duckduckgo.com"));
    let target = if on_ddg {
        if url.path() != "/l/" {
            return None;
        }
        let uddg = url.query_pairs().find(|(k, _)| k == "uddg")?.1.into_owned();
        Url::parse(&uddg).ok()?
    } else {
        url
    };
    matches!(target.scheme(), "http" | "https").then(|| target.to_string())
}

/// The `vqd` token in DuckDuckGo's main page (`vqd="4-123..."`, `vqd='...'` or `vqd=4-...&`),
/// needed by the image endpoint.
pub fn find_vqd(page: &str) -> Option<String> {
    page.match_indices("vqd=").find_map(|(at, _)| {
        let rest = page[at + 4..].trim_start_matches(['"', '\'']);
        let token: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        (token.len() >= 3).then_some(token)
    })
}

#[derive(Debug, Deserialize)]
struct ImagesAnswer {
    results: Vec<ImageItem>,
}

#[derive(Debug, Deserialize)]
struct ImageItem {
    #[serde(default)]
    title: String,
    image: String,
    #[serde(default)]
    thumbnail: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
}

/// Reads the `i.js` answer: image, thumbnail, title, source page and size of each result.
pub fn parse_images(json: &str) -> Result<Vec<ImageHit>, WebError> {
    let answer: ImagesAnswer = serde_json::from_str(json).map_err(|e| WebError::BadAnswer {
        service: SERVICE.into(),
        detail: e.to_string(),
    })?;
    Ok(answer
        .results
        .into_iter()
        .filter(|i| is_web(&i.image))
        .map(|i| ImageHit {
            title: one_line(&i.title),
            thumbnail_url: i.thumbnail.filter(|t| is_web(t)).unwrap_or(i.image.clone()),
            image_url: i.image,
            source_page: i.url.filter(|u| is_web(u)),
            size: i.width.zip(i.height),
        })
        .collect())
}

pub(crate) fn is_web(url: &str) -> bool {
    Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/../../tests/fixtures/web/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn the_recorded_results_page_gives_organic_results_with_decoded_targets() {
        let HtmlPage::Results(hits) =
            parse_html_results(&fixture("duckduckgo-html-rust-async.html"))
        else {
            panic!("not a results page");
        };
        assert_eq!(hits.len(), 4, "{hits:#?}");
        assert_eq!(hits[0].title, "Asynchronous Programming in Rust");
        assert_eq!(hits[0].url, "https://rust-lang.github.io/async-book/");
        assert!(
            hits[0]
                .snippet
                .starts_with("This book aims to be a thorough guide"),
            "{}",
            hits[0].snippet
        );
        // Percent-encoded targets with their own query strings survive decoding.
        assert_eq!(
            hits[2].url,
            "https://users.rust-lang.org/t/async-await-explained/12345?u=ferris&page=2"
        );
        // The ad (y.js) is gone and nothing points back at DuckDuckGo.
        assert!(hits.iter().all(|h| !h.url.contains("duckduckgo.com")));
        assert!(hits.iter().all(|h| !h.title.contains("Sponsored")));
    }

    #[test]
    fn a_page_without_results_and_the_bot_check_are_told_apart() {
        assert_eq!(
            parse_html_results(&fixture("duckduckgo-html-no-results.html")),
            HtmlPage::Results(vec![])
        );
        assert_eq!(
            parse_html_results(&fixture("duckduckgo-html-anomaly.html")),
            HtmlPage::BotCheck
        );
    }

    #[test]
    fn redirect_links_decode_and_ads_and_other_schemes_are_dropped() {
        assert_eq!(
            target_url(
                "//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2&rut=abc"
            )
            .as_deref(),
            Some("https://example.com/a?b=1&c=2")
        );
        assert_eq!(
            target_url("https://example.org/direct").as_deref(),
            Some("https://example.org/direct")
        );
        assert_eq!(
            target_url("https://duckduckgo.com/y.js?ad_domain=shop.example&u3=x"),
            None
        );
        assert_eq!(
            target_url("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)"),
            None
        );
        assert_eq!(target_url("not a url"), None);
    }

    #[test]
    fn the_vqd_token_is_found_in_its_quoted_and_unquoted_forms() {
        assert_eq!(
            find_vqd(&fixture("duckduckgo-images-token.html")).as_deref(),
            Some("4-211907441806286633395386049563398461373")
        );
        assert_eq!(find_vqd("x&vqd=4-12345&p=1").as_deref(), Some("4-12345"));
        assert_eq!(find_vqd("<html>no token here</html>"), None);
    }

    #[test]
    fn image_results_carry_image_thumbnail_title_page_and_size() {
        let hits = parse_images(&fixture("duckduckgo-images-ferris.json")).unwrap();
        assert_eq!(hits.len(), 3);
        assert_eq!(hits[0].title, "Ferris the crab, unofficial mascot for Rust");
        assert_eq!(
            hits[0].image_url,
            "https://rustacean.net/assets/rustacean-orig-noshadow.png"
        );
        assert!(hits[0]
            .thumbnail_url
            .starts_with("https://tse2.mm.bing.net/th?id="));
        assert_eq!(
            hits[0].source_page.as_deref(),
            Some("https://rustacean.net/")
        );
        assert_eq!(hits[0].size, Some((1200, 800)));
        assert!(matches!(
            parse_images("<html>403</html>"),
            Err(WebError::BadAnswer { .. })
        ));
    }
}
