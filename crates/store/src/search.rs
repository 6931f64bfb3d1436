//! Thread search: threads whose title or shown messages contain a text, newest first, each with
//! an excerpt around the first match. Plain `LIKE` over the rows: enough for the thousands of
//! messages a person's threads hold; a full-text index can replace it if that stops being true.

use rusqlite::{params, Connection};
use workbench_core::thread::{ThreadSearchHit, ThreadSummary};

/// Characters of context kept before the match in an excerpt.
pub const SNIPPET_BEFORE: usize = 40;
/// Characters kept from the match on.
pub const SNIPPET_AFTER: usize = 100;

/// The search, run on `conn`. `query` is matched as one piece of text, ignoring ASCII case; `%`,
/// `_` and `\` in it are literal. Tool results and hidden messages are not searched: they are
/// not what the person saw or wrote.
pub(crate) fn search(
    conn: &Connection,
    query: &str,
    limit: usize,
) -> rusqlite::Result<Vec<ThreadSearchHit>> {
    let pattern = format!("%{}%", escape_like(query));
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut stmt = conn.prepare_cached(
        "SELECT id, title, updated_at, hit FROM (
             SELECT t.id, t.title, t.updated_at,
                    (SELECT m.content FROM messages m
                      WHERE m.thread_id = t.id AND m.hidden = 0 AND m.role != 'tool'
                        AND m.content LIKE ?1 ESCAPE '\\'
                      ORDER BY m.seq LIMIT 1) AS hit
             FROM threads t)
         WHERE title LIKE ?1 ESCAPE '\\' OR hit IS NOT NULL
         ORDER BY updated_at DESC, id DESC
         LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![pattern, limit], |row| {
        let hit: Option<String> = row.get(3)?;
        Ok(ThreadSearchHit {
            thread: ThreadSummary {
                id: row.get(0)?,
                title: row.get(1)?,
                updated_at: row.get(2)?,
                running: false,
            },
            snippet: hit.map(|text| snippet(&text, query)).unwrap_or_default(),
        })
    })?;
    rows.collect()
}

/// `text` with LIKE's wildcards and the escape character made literal.
fn escape_like(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The part of `text` around the first case-insensitive occurrence of `query`, whitespace
/// collapsed, with `…` where it was cut. The whole (collapsed) text when it is short.
pub fn snippet(text: &str, query: &str) -> String {
    let flat: Vec<char> = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .collect();
    let needle: Vec<char> = query
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .collect();
    let at = find_ignoring_case(&flat, &needle).unwrap_or(0);
    let start = at.saturating_sub(SNIPPET_BEFORE);
    let end = (at + SNIPPET_AFTER).min(flat.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(&flat[start..end]);
    if end < flat.len() {
        out.push('…');
    }
    out
}

fn find_ignoring_case(hay: &[char], needle: &[char]) -> Option<usize> {
    if needle.is_empty() || needle.len() > hay.len() {
        return None;
    }
    let same = |a: &char, b: &char| a.to_lowercase().eq(b.to_lowercase());
    (0..=hay.len() - needle.len()).find(|&i| {
        hay[i..i + needle.len()]
            .iter()
            .zip(needle)
            .all(|(a, b)| same(a, b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_wildcards() {
        assert_eq!(escape_like(r"50%_a\b"), r"50\%\_a\\b");
    }

    #[test]
    fn snippets_cut_around_the_match_on_char_boundaries() {
        let text = format!(
            "{} Résumé  of\nthe ÉTÉ plan {}",
            "é".repeat(60),
            "x".repeat(200)
        );
        let s = snippet(&text, "été PLAN");
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("Résumé of the ÉTÉ plan"), "{s}");
        assert_eq!(s.chars().count(), SNIPPET_BEFORE + SNIPPET_AFTER + 2);
        assert_eq!(snippet("short text", "text"), "short text");
        assert_eq!(snippet("no match here", "zzz"), "no match here");
    }
}
