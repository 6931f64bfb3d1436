//! Tavily (`api.tavily.com/search`, key as a bearer token): web results, and images when
//! asked with `include_images` (Tavily gives image URLs and descriptions, no thumbnails or
//! source pages).

use serde::{Deserialize, Serialize};

use super::duckduckgo::is_web;
use crate::error::WebError;
use crate::results::{one_line, ImageHit, SearchHit};

/// The name results are labelled with.
pub const SERVICE: &str = "Tavily";

/// The request body.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub query: &'a str,
    pub max_results: usize,
    pub include_images: bool,
    pub include_image_descriptions: bool,
}

#[derive(Debug, Deserialize)]
struct Answer {
    #[serde(default)]
    results: Vec<Item>,
    #[serde(default)]
    images: Vec<Image>,
}

#[derive(Debug, Deserialize)]
struct Item {
    #[serde(default)]
    title: String,
    url: String,
    #[serde(default)]
    content: String,
}

/// Tavily sends bare URLs, or objects when descriptions were asked for.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Image {
    Url(String),
    Described {
        url: String,
        #[serde(default)]
        description: Option<String>,
    },
}

/// Reads the web results of an answer.
pub fn parse_web(json: &str) -> Result<Vec<SearchHit>, WebError> {
    let answer = parse(json)?;
    Ok(answer
        .results
        .into_iter()
        .filter(|i| is_web(&i.url))
        .map(|i| SearchHit {
            title: one_line(&i.title),
            snippet: one_line(&i.content),
            url: i.url,
        })
        .collect())
}

/// Reads the images of an answer.
pub fn parse_images(json: &str) -> Result<Vec<ImageHit>, WebError> {
    let answer = parse(json)?;
    Ok(answer
        .images
        .into_iter()
        .map(|i| match i {
            Image::Url(url) => (url, String::new()),
            Image::Described { url, description } => (url, description.unwrap_or_default()),
        })
        .filter(|(url, _)| is_web(url))
        .map(|(url, description)| ImageHit {
            title: one_line(&description),
            thumbnail_url: url.clone(),
            image_url: url,
            source_page: None,
            size: None,
        })
        .collect())
}

fn parse(json: &str) -> Result<Answer, WebError> {
    serde_json::from_str(json).map_err(|e| WebError::BadAnswer {
        service: SERVICE.into(),
        detail: e.to_string(),
    })
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
    fn results_and_described_images_are_read() {
        let json = fixture("tavily-rust-async.json");
        let hits = parse_web(&json).unwrap();
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[1].url, "https://tokio.rs/tokio/tutorial");
        assert!(hits[1]
            .snippet
            .starts_with("Tokio is an asynchronous runtime"));
        let images = parse_images(&json).unwrap();
        assert_eq!(images.len(), 2);
        assert_eq!(
            images[0].image_url,
            "https://tokio.rs/img/tokio-horizontal.svg"
        );
        assert_eq!(images[0].thumbnail_url, images[0].image_url);
        assert_eq!(images[0].title, "The Tokio logo, a stylised turtle");
    }

    #[test]
    fn bare_image_urls_are_accepted_too() {
        let images =
            parse_images(r#"{"results":[],"images":["https://a.example/x.png","ftp://b/y.png"]}"#)
                .unwrap();
        assert_eq!(images.len(), 1);
        assert_eq!(images[0].title, "");
    }
}
