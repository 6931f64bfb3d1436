//! Brave Search API (`api.search.brave.com/res/v1/`, key in `X-Subscription-Token`): web
//! results from `web/search`, images from `images/search`.

use serde::Deserialize;

use super::duckduckgo::is_web;
use crate::error::WebError;
use crate::results::{one_line, strip_tags, ImageHit, SearchHit};

/// The name results are labelled with.
pub const SERVICE: &str = "Brave Search";
/// The header that carries the key.
pub const KEY_HEADER: &str = "X-Subscription-Token";

#[derive(Debug, Deserialize)]
struct WebAnswer {
    #[serde(default)]
    web: Option<WebSection>,
}

#[derive(Debug, Deserialize)]
struct WebSection {
    #[serde(default)]
    results: Vec<WebItem>,
}

#[derive(Debug, Deserialize)]
struct WebItem {
    #[serde(default)]
    title: String,
    url: String,
    #[serde(default)]
    description: String,
}

/// Reads a `web/search` answer. An answer without a `web` section (nothing found) is empty.
pub fn parse_web(json: &str) -> Result<Vec<SearchHit>, WebError> {
    let answer: WebAnswer = serde_json::from_str(json).map_err(|e| bad(e.to_string()))?;
    Ok(answer
        .web
        .map(|w| w.results)
        .unwrap_or_default()
        .into_iter()
        .filter(|i| is_web(&i.url))
        .map(|i| SearchHit {
            title: one_line(&strip_tags(&i.title)),
            snippet: one_line(&strip_tags(&i.description)),
            url: i.url,
        })
        .collect())
}

#[derive(Debug, Deserialize)]
struct ImagesAnswer {
    #[serde(default)]
    results: Vec<ImageItem>,
}

#[derive(Debug, Deserialize)]
struct ImageItem {
    #[serde(default)]
    title: String,
    /// The page the image is on.
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    thumbnail: Option<Src>,
    properties: ImageProps,
}

#[derive(Debug, Deserialize)]
struct Src {
    src: String,
}

#[derive(Debug, Deserialize)]
struct ImageProps {
    url: String,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
}

/// Reads an `images/search` answer.
pub fn parse_images(json: &str) -> Result<Vec<ImageHit>, WebError> {
    let answer: ImagesAnswer = serde_json::from_str(json).map_err(|e| bad(e.to_string()))?;
    Ok(answer
        .results
        .into_iter()
        .filter(|i| is_web(&i.properties.url))
        .map(|i| ImageHit {
            title: one_line(&strip_tags(&i.title)),
            thumbnail_url: i
                .thumbnail
                .map(|t| t.src)
                .filter(|t| is_web(t))
                .unwrap_or(i.properties.url.clone()),
            source_page: i.url.filter(|u| is_web(u)),
            size: i.properties.width.zip(i.properties.height),
            image_url: i.properties.url,
        })
        .collect())
}

fn bad(detail: String) -> WebError {
    WebError::BadAnswer {
        service: SERVICE.into(),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../../tests/fixtures/web/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn web_results_lose_their_markup() {
        let hits = parse_web(&fixture("brave-web-rust-async.json")).unwrap();
        assert_eq!(hits.len(), 3);
        assert_eq!(hits[0].title, "Asynchronous Programming in Rust");
        assert_eq!(hits[0].url, "https://rust-lang.github.io/async-book/");
        assert!(!hits[0].snippet.contains('<'), "{}", hits[0].snippet);
        assert!(hits[0].snippet.contains("async"), "{}", hits[0].snippet);
        assert_eq!(
            parse_web(r#"{"type":"search","query":{"original":"x"}}"#).unwrap(),
            vec![]
        );
        assert!(parse_web("not json").is_err());
    }

    #[test]
    fn image_results_take_the_original_image_and_the_brave_thumbnail() {
        let hits = parse_images(&fixture("brave-images-ferris.json")).unwrap();
        assert_eq!(hits.len(), 2);
        assert_eq!(
            hits[0].image_url,
            "https://rustacean.net/assets/rustacean-flat-happy.png"
        );
        assert!(hits[0]
            .thumbnail_url
            .starts_with("https://imgs.search.brave.com/"));
        assert_eq!(
            hits[0].source_page.as_deref(),
            Some("https://rustacean.net/")
        );
        assert_eq!(hits[0].size, Some((1200, 800)));
    }
}
