//! A fetched page as readable markdown: the article found by `dom_smoothie` (a port of
//! Firefox's readability.js, which drops navigation, footers, sidebars and scripts), with the
//! page's title; text pages pass through. Pure and synchronous: callers run it on the blocking
//! pool, since parsing a big page takes a while.

use dom_query::Document;
use dom_smoothie::{Config, Readability, TextMode};

/// Elements never worth reading when the whole body has to be used.
const BOILERPLATE: &[&str] = &[
    "script", "style", "meta", "head", "nav", "header", "footer", "aside", "form", "noscript",
    "iframe", "svg", "button",
];

/// A page ready for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readable {
    /// The article's title, or the `<title>`; empty when the page has none.
    pub title: String,
    /// The text as markdown, not yet cut to size.
    pub markdown: String,
}

/// The readable part of an HTML page at `url` (used to make relative links absolute).
pub fn html_to_readable(html: &str, url: &str) -> Readable {
    let cfg = Config {
        text_mode: TextMode::Markdown,
        ..Default::default()
    };
    let article = Readability::new(html, Some(url), Some(cfg)).and_then(|mut r| r.parse());
    match article {
        Ok(a) if !a.text_content.trim().is_empty() => Readable {
            title: a.title.trim().to_string(),
            markdown: tidy(&a.text_content),
        },
        // No article found (a link list, an app shell): the body without its boilerplate.
        _ => {
            let doc = Document::from(html);
            let title = doc.select("title").text().trim().to_string();
            let body = doc.select("body");
            let markdown = match body.nodes().first() {
                Some(node) => node.md(Some(BOILERPLATE)).to_string(),
                None => doc.md(Some(BOILERPLATE)).to_string(),
            };
            Readable {
                title,
                markdown: tidy(&markdown),
            }
        }
    }
}

/// Runs of blank lines become one, trailing spaces go.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

/// `text` cut to at most `max` characters, at a paragraph or line break when one is near the
/// end, and whether it was cut.
pub fn cap_chars(text: &str, max: usize) -> (&str, bool) {
    let Some((cut, _)) = text.char_indices().nth(max) else {
        return (text, false);
    };
    let head = &text[..cut];
    // Prefer a clean break in the last fifth over an exact cut mid-sentence.
    let floor = head.len() * 4 / 5;
    let at = head
        .rfind("\n\n")
        .filter(|&i| i >= floor)
        .or_else(|| head.rfind('\n').filter(|&i| i >= floor))
        .unwrap_or(head.len());
    (head[..at].trim_end(), true)
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
    fn an_article_keeps_its_text_and_structure_and_loses_the_boilerplate() {
        let page = html_to_readable(
            &fixture("article-async-rust.html"),
            "https://blog.example.org/2024/async-rust",
        );
        assert_eq!(
            page.title,
            "Understanding async Rust: futures, executors and wakers"
        );
        let md = &page.markdown;
        assert!(
            md.contains("A future is a value that may not be ready yet"),
            "{md}"
        );
        assert!(md.contains("## Wakers"), "{md}");
        assert!(md.contains("- **Tokio**"), "lists stay lists: {md}");
        assert!(md.contains("```"), "code blocks stay code: {md}");
        // Links stay links, made absolute against the page.
        assert!(
            md.contains("(https://blog.example.org/2024/pinning)"),
            "{md}"
        );
        // Navigation, footer, sidebar, cookie banner and scripts are gone.
        for boilerplate in [
            "Subscribe to our newsletter",
            "All rights reserved",
            "Accept cookies",
            "Popular posts",
            "window.analytics",
            "Home</a>",
        ] {
            assert!(!md.contains(boilerplate), "`{boilerplate}` left in:\n{md}");
        }
    }

    #[test]
    fn a_page_without_an_article_falls_back_to_the_body_without_boilerplate() {
        let html = "<html><head><title>Links</title><script>var x=1;</script></head><body>\
            <nav><a href='/'>Home</a></nav><ul><li><a href='https://a.example/'>A</a></li></ul>\
            <footer>Footer text</footer></body></html>";
        let page = html_to_readable(html, "https://links.example/");
        assert_eq!(page.title, "Links");
        assert!(
            page.markdown.contains("https://a.example/"),
            "{}",
            page.markdown
        );
        assert!(!page.markdown.contains("Footer text"), "{}", page.markdown);
        assert!(!page.markdown.contains("var x"), "{}", page.markdown);
    }

    #[test]
    fn long_text_is_cut_at_a_break_near_the_limit() {
        let text = format!("{}\n\n{}", "a".repeat(90), "b".repeat(50));
        assert_eq!(cap_chars(&text, 100), ("a".repeat(90).as_str(), true));
        assert_eq!(cap_chars("short", 100), ("short", false));
        // No break near the end: an exact cut, on a char boundary.
        let accents = "é".repeat(50);
        let (cut, was_cut) = cap_chars(&accents, 10);
        assert_eq!(cut.chars().count(), 10);
        assert!(was_cut);
    }

    #[test]
    fn blank_line_runs_collapse() {
        assert_eq!(tidy("a  \n\n\n\nb\nc\n\n"), "a\n\nb\nc");
    }
}
