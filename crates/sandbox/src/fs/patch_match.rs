//! Applying a file's hunks to its text in memory: find each hunk's old lines (after its `@@`
//! line, after the previous hunk) and replace them. Pure; nothing here touches the disk.
//!
//! Lines are compared exactly first, then ignoring trailing whitespace, then ignoring
//! surrounding whitespace and typographic punctuation (curly quotes, dashes, non-breaking
//! spaces), as Codex's `apply_patch` does: models often lose a trailing space or straighten a
//! quote. The first match after the previous hunk wins.

use super::patch_parse::Hunk;

/// Why a hunk could not be placed. The message says which hunk, what was looked for and, when
/// something close exists, where the file differs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("hunk {index} (patch line {patch_line}): {message}")]
pub struct HunkError {
    /// 1-based index of the hunk within its file.
    pub index: usize,
    /// 1-based line of the patch where the hunk starts.
    pub patch_line: usize,
    /// What did not match.
    pub message: String,
}

/// A text split into lines, with what it takes to put it back together the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The lines without their endings.
    pub lines: Vec<String>,
    /// `\r\n` when the text used it, else `\n`.
    pub eol: &'static str,
    /// The text ended with a line ending (or was empty).
    pub trailing_eol: bool,
}

impl Lines {
    /// Splits `text`; CRLF files keep CRLF when joined again.
    pub fn split(text: &str) -> Self {
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let trailing_eol = text.is_empty() || text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        let lines = if text.is_empty() {
            Vec::new()
        } else {
            body.split('\n')
                .map(|l| {
                    if eol == "\r\n" {
                        l.strip_suffix('\r').unwrap_or(l)
                    } else {
                        l
                    }
                    .to_string()
                })
                .collect()
        };
        Self {
            lines,
            eol,
            trailing_eol,
        }
    }

    /// The text again, with the original line ending style.
    pub fn join(&self) -> String {
        if self.lines.is_empty() {
            return String::new();
        }
        let mut out = self.lines.join(self.eol);
        if self.trailing_eol {
            out.push_str(self.eol);
        }
        out
    }
}

/// Applies every hunk to `text`, or says which hunk did not fit. The hunks are placed in
/// order; the text is changed only when all of them fit.
pub fn apply_hunks(text: &str, hunks: &[Hunk]) -> Result<String, HunkError> {
    let mut file = Lines::split(text);
    let mut replacements: Vec<(usize, usize, &[String])> = Vec::new();
    let mut cursor = 0;
    for (i, hunk) in hunks.iter().enumerate() {
        let fail = |message: String| HunkError {
            index: i + 1,
            patch_line: hunk.line,
            message,
        };
        if let Some(ctx) = &hunk.context {
            let found = seek(&file.lines, std::slice::from_ref(ctx), cursor, false);
            match found {
                Some(at) => cursor = at + 1,
                None => {
                    return Err(fail(format!(
                        "the `@@ {ctx}` line was not found{}; the text after `@@` must be a \
                         whole line of the file (such as a function header)",
                        after(cursor)
                    )))
                }
            }
        }
        if hunk.old.is_empty() {
            // Pure addition: after the `@@` line when there is one, else at the end.
            let at = if hunk.context.is_some() {
                cursor
            } else {
                file.lines.len()
            };
            replacements.push((at, 0, &hunk.new));
            cursor = at;
            continue;
        }
        let mut old: &[String] = &hunk.old;
        let mut new: &[String] = &hunk.new;
        let mut found = seek(&file.lines, old, cursor, hunk.at_eof);
        // A trailing empty context line is often the patch's own final newline.
        if found.is_none() && old.last().is_some_and(String::is_empty) {
            old = &old[..old.len() - 1];
            if new.last().is_some_and(String::is_empty) {
                new = &new[..new.len() - 1];
            }
            if !old.is_empty() {
                found = seek(&file.lines, old, cursor, hunk.at_eof);
            }
        }
        match found {
            Some(at) => {
                replacements.push((at, old.len(), new));
                cursor = at + old.len();
            }
            None => return Err(fail(not_found(&file.lines, &hunk.old, cursor, hunk.at_eof))),
        }
    }
    for (at, len, new) in replacements.into_iter().rev() {
        file.lines.splice(at..at + len, new.iter().cloned());
    }
    if text.is_empty() {
        file.trailing_eol = true;
    }
    Ok(file.join())
}

fn after(cursor: usize) -> String {
    if cursor == 0 {
        String::new()
    } else {
        format!(" after line {cursor}")
    }
}

/// Where `pattern` first occurs at or after `start` (at the very end when `at_eof`), trying
/// looser comparisons only when stricter ones find nothing.
fn seek(lines: &[String], pattern: &[String], start: usize, at_eof: bool) -> Option<usize> {
    if pattern.len() > lines.len() {
        return None;
    }
    let last_start = lines.len() - pattern.len();
    let candidates: Vec<usize> = if at_eof {
        if last_start >= start {
            vec![last_start]
        } else {
            vec![]
        }
    } else {
        (start..=last_start).collect()
    };
    let passes: [fn(&str, &str) -> bool; 3] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| normalise(a) == normalise(b),
    ];
    for eq in passes {
        for &at in &candidates {
            if pattern.iter().zip(&lines[at..]).all(|(p, l)| eq(l, p)) {
                return Some(at);
            }
        }
    }
    None
}

/// A line with surrounding whitespace trimmed and typographic punctuation made plain.
fn normalise(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// The message for a hunk whose old lines are nowhere: where the closest run of lines starts
/// and the first line that differs, so the model can re-read that part and retry.
fn not_found(lines: &[String], old: &[String], cursor: usize, at_eof: bool) -> String {
    const SHOWN: usize = 6; // lines of the hunk quoted in the message
    let mut quoted: Vec<String> = old.iter().take(SHOWN).map(|l| format!("  {l}")).collect();
    if old.len() > SHOWN {
        quoted.push(format!("  ... ({} more)", old.len() - SHOWN));
    }
    let mut msg = format!(
        "these {} line{} (context and `-` lines) were not found{}{}:\n{}",
        old.len(),
        if old.len() == 1 { "" } else { "s" },
        after(cursor),
        if at_eof {
            " at the end of the file"
        } else {
            ""
        },
        quoted.join("\n")
    );
    // The longest prefix of the hunk that matches somewhere after the cursor.
    let mut best: Option<(usize, usize)> = None;
    for at in cursor..lines.len() {
        let matched = old
            .iter()
            .zip(&lines[at..])
            .take_while(|(p, l)| normalise(p) == normalise(l))
            .count();
        if matched > 0 && best.is_none_or(|(_, m)| matched > m) {
            best = Some((at, matched));
        }
    }
    match best {
        Some((at, matched)) if matched < old.len() => {
            let line_no = at + matched + 1;
            let actual = lines
                .get(at + matched)
                .map_or("(end of file)".to_string(), |l| format!("`{l}`"));
            msg.push_str(&format!(
                "\nThe closest match starts at line {}, but line {line_no} is {actual} where the \
                 hunk has `{}`. Read the file again and rewrite the hunk from its current text.",
                at + 1,
                old[matched]
            ));
        }
        Some((at, _)) => msg.push_str(&format!(
            "\nThe lines do occur at line {}, but not at the end of the file as `*** End of \
             File` requires.",
            at + 1
        )),
        None => msg.push_str(
            "\nNo line of the file matches the hunk's first line. Read the file again and \
             rewrite the hunk from its current text.",
        ),
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(context: Option<&str>, old: &[&str], new: &[&str]) -> Hunk {
        Hunk {
            context: context.map(str::to_string),
            old: old.iter().map(|s| s.to_string()).collect(),
            new: new.iter().map(|s| s.to_string()).collect(),
            at_eof: false,
            line: 3,
        }
    }

    #[test]
    fn replaces_in_order_and_keeps_line_endings() {
        let text = "a\r\nb\r\nc\r\nb\r\n";
        let out = apply_hunks(text, &[h(Some("c"), &["b"], &["B"])]).expect("applies");
        assert_eq!(out, "a\r\nb\r\nc\r\nB\r\n");
        let out = apply_hunks("x\ny", &[h(None, &["y"], &["y", "z"])]).expect("applies");
        assert_eq!(
            out, "x\ny\nz",
            "no trailing newline added where there was none"
        );
    }

    #[test]
    fn several_hunks_and_pure_additions() {
        let text = "fn a() {\n    1\n}\nfn b() {\n    1\n}\n";
        let hunks = [
            h(Some("fn b() {"), &["    1"], &["    2"]),
            h(None, &[], &["// end"]),
        ];
        let out = apply_hunks(text, &hunks).expect("applies");
        assert_eq!(out, "fn a() {\n    1\n}\nfn b() {\n    2\n}\n// end\n");
        let out = apply_hunks(text, &[h(Some("fn a() {"), &[], &["    0"])]).expect("applies");
        assert!(out.starts_with("fn a() {\n    0\n    1\n"), "{out}");
        assert_eq!(
            apply_hunks("", &[h(None, &[], &["x"])]).expect("empty"),
            "x\n"
        );
    }

    #[test]
    fn tolerates_whitespace_and_typographic_quotes() {
        let text = "say(\"hi\")   \n  done\n";
        let out = apply_hunks(text, &[h(None, &["say(“hi”)", "done"], &["bye"])]).expect("loose");
        assert_eq!(out, "bye\n");
    }

    #[test]
    fn end_of_file_hunks_match_only_at_the_end() {
        let text = "x\ny\nx\n";
        let mut hunk = h(None, &["x"], &["z"]);
        hunk.at_eof = true;
        assert_eq!(
            apply_hunks(text, &[hunk.clone()]).expect("eof"),
            "x\ny\nz\n"
        );
        let err = apply_hunks("x\ny\n", &[hunk]).expect_err("not at end");
        assert!(err.message.contains("not at the end of the file"), "{err}");
    }

    #[test]
    fn a_mismatch_names_the_hunk_and_the_differing_line() {
        let text = "one\ntwo\nthree\nfour\n";
        let hunks = [
            h(None, &["one"], &["ONE"]),
            h(None, &["two", "tree", "four"], &["x"]),
        ];
        let err = apply_hunks(text, &hunks).expect_err("mismatch");
        assert_eq!((err.index, err.patch_line), (2, 3));
        assert!(err.message.contains("after line 1"), "{err}");
        assert!(
            err.message.contains(
                "closest match starts at line 2, but line 3 is `three` where the hunk has `tree`"
            ),
            "{err}"
        );
        let err = apply_hunks(text, &[h(Some("fn missing"), &["one"], &["1"])]).expect_err("ctx");
        assert!(
            err.message.contains("`@@ fn missing` line was not found"),
            "{err}"
        );
        let err = apply_hunks(text, &[h(None, &["zzz"], &["1"])]).expect_err("nothing");
        assert!(err.message.contains("No line of the file matches"), "{err}");
    }

    #[test]
    fn hunks_apply_after_each_other_never_before() {
        let text = "a\nb\na\n";
        let hunks = [h(None, &["b"], &["B"]), h(None, &["a"], &["A"])];
        assert_eq!(apply_hunks(text, &hunks).expect("applies"), "a\nB\nA\n");
    }

    #[test]
    fn a_trailing_empty_context_line_is_forgiven() {
        let out = apply_hunks("a\nb\n", &[h(None, &["b", ""], &["c", ""])]).expect("applies");
        assert_eq!(out, "a\nc\n");
    }
}
