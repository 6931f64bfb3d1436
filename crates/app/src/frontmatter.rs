//! Splits a Markdown file into its YAML frontmatter and its body.
//!
//! Frontmatter is the block between a first line `---` and the next line `---` (blank lines
//! before the opening `---` are tolerated, CRLF line ends too). Only the split happens here;
//! the YAML itself is parsed by the caller with `serde_norway`.
//!
//! Not here: what the keys mean (see `skills.rs`).

/// The two parts of a Markdown file that has frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split<'a> {
    /// The YAML between the delimiters, preceded by one empty line for every line of the file
    /// up to and including the opening `---`, so a YAML parser's line numbers are the file's.
    pub yaml: String,
    /// Everything after the closing `---` line.
    pub body: &'a str,
}

/// Why a file's frontmatter could not be found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SplitError {
    #[error("it has no frontmatter: it does not start with a `---` line")]
    Missing,
    #[error("the frontmatter opened by `---` on line {opened_at} has no closing `---` line")]
    Unclosed { opened_at: usize },
}

/// Finds the frontmatter of `text`.
pub(crate) fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let mut lines = text.split_inclusive('\n');
    let mut offset = 0;
    let mut line_no = 0;
    // Find the opening delimiter: the first line that is not blank.
    let opened_at = loop {
        let Some(line) = lines.next() else {
            return Err(SplitError::Missing);
        };
        offset += line.len();
        line_no += 1;
        if is_delimiter(line) {
            break line_no;
        }
        if !line.trim().is_empty() {
            return Err(SplitError::Missing);
        }
    };
    let yaml_start = offset;
    for line in lines {
        if is_delimiter(line) {
            let mut yaml = "\n".repeat(opened_at);
            yaml.push_str(&text[yaml_start..offset]);
            return Ok(Split {
                yaml,
                body: &text[offset + line.len()..],
            });
        }
        offset += line.len();
    }
    Err(SplitError::Unclosed { opened_at })
}

fn is_delimiter(line: &str) -> bool {
    line.trim_end() == "---"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_yaml_from_body() {
        let s = split("---\nname: a\n---\nbody\n").expect("has frontmatter");
        assert_eq!(s.yaml, "\nname: a\n");
        assert_eq!(s.body, "body\n");
    }

    #[test]
    fn accepts_crlf_and_leading_blank_lines() {
        let s = split("\r\n---\r\nname: a\r\n---\r\nbody").expect("has frontmatter");
        // Two padding lines: the blank line and the opening delimiter.
        assert_eq!(s.yaml, "\n\nname: a\r\n");
        assert_eq!(s.body, "body");
    }

    #[test]
    fn empty_frontmatter_is_still_frontmatter() {
        let s = split("---\n---\n").expect("has frontmatter");
        assert_eq!(s.yaml, "\n");
        assert_eq!(s.body, "");
    }

    #[test]
    fn text_first_means_no_frontmatter() {
        assert_eq!(split("# Title\n---\n"), Err(SplitError::Missing));
        assert_eq!(split(""), Err(SplitError::Missing));
    }

    #[test]
    fn an_unclosed_block_says_where_it_opened() {
        assert_eq!(
            split("\n---\nname: a\n"),
            Err(SplitError::Unclosed { opened_at: 2 })
        );
    }

    #[test]
    fn a_longer_rule_is_not_a_delimiter() {
        assert_eq!(split("----\n"), Err(SplitError::Missing));
    }
}
