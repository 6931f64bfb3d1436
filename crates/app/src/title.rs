/// Most words a thread title takes from the first message.
const TITLE_MAX_WORDS: usize = 6;
/// Most characters of such a title, so the sidebar stays one line.
const TITLE_MAX_CHARS: usize = 48;

/// A provisional thread title from the user's first message: its first words.
pub(crate) fn from_first_message(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let words: Vec<&str> = line.split_whitespace().take(TITLE_MAX_WORDS).collect();
    let mut title = words.join(" ");
    if title.chars().count() > TITLE_MAX_CHARS {
        title = title.chars().take(TITLE_MAX_CHARS - 1).collect::<String>() + "…";
    } else if line.split_whitespace().count() > TITLE_MAX_WORDS {
        title.push('…');
    }
    Some(title)
}

#[cfg(test)]
mod tests {
    use super::from_first_message;

    #[test]
    fn takes_the_first_words_of_the_first_non_empty_line() {
        assert_eq!(
            from_first_message("\n  Summarise the quarterly report for me please now\nmore")
                .as_deref(),
            Some("Summarise the quarterly report for me…")
        );
        assert_eq!(from_first_message("hi there").as_deref(), Some("hi there"));
    }

    #[test]
    fn blank_text_gives_no_title() {
        assert_eq!(from_first_message("  \n \t"), None);
    }

    #[test]
    fn long_words_are_cut_by_characters() {
        let t = from_first_message(&"x".repeat(100)).unwrap();
        assert_eq!(t.chars().count(), 48);
        assert!(t.ends_with('…'));
    }
}
