//! Character-safe slicing for middlewares that shorten text. Counts are in `char`s (Unicode
//! scalar values), never bytes, so a cut can never land inside a multi-byte character.

/// The first `n` characters of `s` (all of it when shorter).
pub(crate) fn first_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((byte, _)) => &s[..byte],
        None => s,
    }
}

/// The last `n` characters of `s` (all of it when shorter).
pub(crate) fn last_chars(s: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    match s.char_indices().rev().nth(n - 1) {
        Some((byte, _)) => &s[byte..],
        None => s,
    }
}

/// Formats a count with thousands separators (`12,345`), for notes the model reads.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_by_characters_not_bytes() {
        let s = "héllo wörld ✓";
        assert_eq!(first_chars(s, 2), "hé");
        assert_eq!(last_chars(s, 3), "d ✓");
        assert_eq!(first_chars(s, 100), s);
        assert_eq!(last_chars(s, 100), s);
        assert_eq!(first_chars(s, 0), "");
        assert_eq!(last_chars(s, 0), "");
        assert_eq!(first_chars("", 3), "");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(12_000), "12,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
