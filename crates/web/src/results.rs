//! What the search tools found, and the text the model reads. The text is a numbered markdown
//! list (`1. [title](url)` then indented lines) that the UI also reads to draw links
//! (ui/src/core/toolViews.ts); keep the two in step.

/// One web search hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchHit {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

/// One image search hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageHit {
    pub title: String,
    /// The full-size image.
    pub image_url: String,
    /// A small preview; the image itself when the service gives none.
    pub thumbnail_url: String,
    /// The page the image appears on, when known.
    pub source_page: Option<String>,
    /// Width and height in pixels, when known.
    pub size: Option<(u32, u32)>,
}

/// The search results as the model reads them.
pub fn format_hits(query: &str, service: &str, hits: &[SearchHit]) -> String {
    if hits.is_empty() {
        return format!("No web results for \"{query}\" ({service}).");
    }
    let mut out = format!(
        "Web results for \"{query}\" ({service}, {} result{}):\n",
        hits.len(),
        plural(hits.len())
    );
    for (i, h) in hits.iter().enumerate() {
        out.push_str(&format!(
            "\n{}. [{}]({})\n",
            i + 1,
            one_line(&h.title),
            h.url
        ));
        if !h.snippet.is_empty() {
            out.push_str(&format!("   {}\n", one_line(&h.snippet)));
        }
    }
    out
}

/// The image results as the model reads them; `note` (if any) ends the text.
pub fn format_images(query: &str, service: &str, hits: &[ImageHit], note: Option<&str>) -> String {
    let mut out = if hits.is_empty() {
        format!("No image results for \"{query}\" ({service}).\n")
    } else {
        format!(
            "Image results for \"{query}\" ({service}, {} result{}):\n",
            hits.len(),
            plural(hits.len())
        )
    };
    for (i, h) in hits.iter().enumerate() {
        let title = if h.title.trim().is_empty() {
            "(untitled)"
        } else {
            &h.title
        };
        out.push_str(&format!("\n{}. {}\n", i + 1, one_line(title)));
        out.push_str(&format!("   image: {}\n", h.image_url));
        out.push_str(&format!("   thumbnail: {}\n", h.thumbnail_url));
        if let Some(page) = &h.source_page {
            out.push_str(&format!("   source: {page}\n"));
        }
        if let Some((w, h)) = h.size {
            out.push_str(&format!("   size: {w}x{h}\n"));
        }
    }
    if let Some(note) = note {
        out.push_str(&format!("\n{note}\n"));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Whitespace runs (line breaks included) become one space, so each field stays on its line.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text with HTML tags removed and the common entities decoded (Brave marks matches with
/// `<strong>` in its descriptions).
pub(crate) fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&nbsp;", " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_are_a_numbered_list_of_links_with_snippets_on_one_line() {
        let hits = vec![
            SearchHit {
                title: "The Rust\nBook".into(),
                url: "https://doc.rust-lang.org/book/".into(),
                snippet: "Learn  Rust\n from the start".into(),
            },
            SearchHit {
                title: "Rust".into(),
                url: "https://www.rust-lang.org/".into(),
                snippet: String::new(),
            },
        ];
        let text = format_hits("rust book", "DuckDuckGo", &hits);
        assert_eq!(
            text,
            "Web results for \"rust book\" (DuckDuckGo, 2 results):\n\n\
             1. [The Rust Book](https://doc.rust-lang.org/book/)\n   Learn Rust from the start\n\n\
             2. [Rust](https://www.rust-lang.org/)\n"
        );
        assert_eq!(
            format_hits("zzz", "Brave", &[]),
            "No web results for \"zzz\" (Brave)."
        );
    }

    #[test]
    fn image_hits_list_image_thumbnail_source_and_size() {
        let hits = vec![ImageHit {
            title: "Ferris".into(),
            image_url: "https://rustacean.net/ferris.png".into(),
            thumbnail_url: "https://tse1.mm.bing.net/th?id=1".into(),
            source_page: Some("https://rustacean.net/".into()),
            size: Some((1200, 800)),
        }];
        let text = format_images("ferris", "Brave", &hits, Some("A note."));
        assert!(text.starts_with("Image results for \"ferris\" (Brave, 1 result):\n"));
        assert!(text.contains("\n1. Ferris\n   image: https://rustacean.net/ferris.png\n   thumbnail: https://tse1.mm.bing.net/th?id=1\n   source: https://rustacean.net/\n   size: 1200x800\n"));
        assert!(text.ends_with("\nA note.\n"));
    }

    #[test]
    fn tags_are_stripped_and_entities_decoded() {
        assert_eq!(
            strip_tags("The <strong>Rust</strong> &amp; Cargo &lt;book&gt;"),
            "The Rust & Cargo <book>"
        );
    }
}
