//! The `*** Begin Patch` format (as OpenAI's Codex `apply_patch` writes it) parsed into file
//! operations. Pure text in, operations out; nothing here touches the disk.
//!
//! ```text
//! *** Begin Patch
//! *** Add File: notes/todo.md
//! +first line
//! *** Delete File: old.txt
//! *** Update File: src/main.rs
//! *** Move to: src/app.rs
//! @@ fn main() {
//!      let x = 1;
//! -    let y = 2;
//! +    let y = 3;
//! *** End of File
//! *** End Patch
//! ```
//!
//! Accepted leniencies, because models produce them: a heredoc wrapper (`<<'EOF'` ... `EOF`)
//! around the patch, spaces around the marker lines, a first hunk without `@@`, and a blank
//! line inside a hunk read as an empty context line.

/// Opens a patch.
const BEGIN: &str = "*** Begin Patch";
/// Closes a patch.
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// One change of lines inside an updated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// The text after `@@`: a line to find first (a function or class header), if given.
    pub context: Option<String>,
    /// The lines the file has now (context and `-` lines), in order.
    pub old: Vec<String>,
    /// The lines it will have (context and `+` lines), in order.
    pub new: Vec<String>,
    /// `*** End of File` followed: the old lines must be the file's last lines.
    pub at_eof: bool,
    /// 1-based line of the patch where the hunk starts, for messages.
    pub line: usize,
}

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// Create a file with these lines (it must not exist).
    Add { path: String, lines: Vec<String> },
    /// Remove a file.
    Delete { path: String },
    /// Change a file's lines, and optionally move it.
    Update {
        path: String,
        move_to: Option<String>,
        hunks: Vec<Hunk>,
    },
}

impl FileOp {
    /// The path the operation names first.
    pub fn path(&self) -> &str {
        match self {
            Self::Add { path, .. } | Self::Delete { path } | Self::Update { path, .. } => path,
        }
    }
}

/// Why a patch text could not be parsed: the 1-based line and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the patch is malformed at line {line}: {message}")]
pub struct ParseError {
    /// 1-based line of the patch text.
    pub line: usize,
    /// What was wrong and what the format wants instead.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// A line for messages: long lines cut, so an error does not echo a whole file.
fn shown(line: &str) -> String {
    const SHOWN_CHARS: usize = 80; // enough to recognise the line
    if line.chars().count() <= SHOWN_CHARS {
        line.to_string()
    } else {
        format!("{}...", line.chars().take(SHOWN_CHARS).collect::<String>())
    }
}

/// Parses a whole patch into its file operations, in order.
pub fn parse_patch(text: &str) -> Result<Vec<FileOp>, ParseError> {
    let all: Vec<&str> = text.lines().collect();
    // (1-based line number, text) without the heredoc wrapper and surrounding blank lines.
    let mut lines: Vec<(usize, &str)> = all
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .collect();
    while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines.pop();
    }
    let first_text = lines.iter().position(|(_, l)| !l.trim().is_empty());
    let mut lines = lines.split_off(first_text.unwrap_or(lines.len()));
    if let (Some((_, first)), Some((_, last))) = (lines.first(), lines.last()) {
        let first = first.trim();
        if lines.len() >= 2 && first.starts_with("<<") && last.trim() == heredoc_tag(first) {
            lines.pop();
            lines.remove(0);
        }
    }
    let Some(&(begin_line, begin)) = lines.first() else {
        return Err(err(
            1,
            format!("the patch is empty; it starts with `{BEGIN}`"),
        ));
    };
    if begin.trim() != BEGIN {
        return Err(err(
            begin_line,
            format!("the first line must be `{BEGIN}`, found `{}`", shown(begin)),
        ));
    }
    let Some(&(end_line, end)) = lines.last().filter(|_| lines.len() >= 2) else {
        return Err(err(begin_line, format!("the last line must be `{END}`")));
    };
    if end.trim() != END {
        return Err(err(
            end_line,
            format!("the last line must be `{END}`, found `{}`", shown(end)),
        ));
    }
    let body = &lines[1..lines.len() - 1];
    let mut ops = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (n, line) = body[i];
        let marker = line.trim_start();
        if let Some(path) = marker.strip_prefix(ADD) {
            let path = file_path(path, n, "Add File")?;
            i += 1;
            let mut added = Vec::new();
            while let Some(&(_, l)) = body.get(i) {
                match l.strip_prefix('+') {
                    Some(rest) => added.push(rest.to_string()),
                    None if l.trim_start().starts_with("***") => break,
                    None => {
                        return Err(err(
                            body[i].0,
                            format!(
                                "every line of an added file starts with `+` (in `{path}`), \
                                 found `{}`",
                                shown(l)
                            ),
                        ))
                    }
                }
                i += 1;
            }
            ops.push(FileOp::Add { path, lines: added });
        } else if let Some(path) = marker.strip_prefix(DELETE) {
            ops.push(FileOp::Delete {
                path: file_path(path, n, "Delete File")?,
            });
            i += 1;
        } else if let Some(path) = marker.strip_prefix(UPDATE) {
            let path = file_path(path, n, "Update File")?;
            i += 1;
            let mut move_to = None;
            if let Some(dest) = body
                .get(i)
                .and_then(|(_, l)| l.trim_start().strip_prefix(MOVE))
            {
                move_to = Some(file_path(dest, body[i].0, "Move to")?);
                i += 1;
            }
            let hunks = parse_hunks(body, &mut i, &path)?;
            if hunks.is_empty() && move_to.is_none() {
                return Err(err(
                    n,
                    format!(
                        "`*** Update File: {path}` has no hunks; add `@@` hunks of ` ` context, \
                         `-` removed and `+` added lines, or a `*** Move to:` line"
                    ),
                ));
            }
            ops.push(FileOp::Update {
                path,
                move_to,
                hunks,
            });
        } else if line.trim().is_empty() {
            i += 1;
        } else {
            return Err(err(
                n,
                format!(
                    "expected `{ADD}<path>`, `{DELETE}<path>`, `{UPDATE}<path>` or `{END}`, \
                     found `{}`",
                    shown(line)
                ),
            ));
        }
    }
    if ops.is_empty() {
        return Err(err(
            end_line,
            "the patch changes no file; add `*** Add File:`, `*** Delete File:` or \
             `*** Update File:` sections",
        ));
    }
    Ok(ops)
}

/// The closing line a heredoc opener names: `<<'EOF'`, `<<"EOF"`, `<<EOF`, `<<-EOF`.
fn heredoc_tag(first: &str) -> &str {
    first
        .trim_start_matches("<<")
        .trim_start_matches('-')
        .trim_matches(|c| c == '\'' || c == '"')
        .trim()
}

fn file_path(raw: &str, line: usize, what: &str) -> Result<String, ParseError> {
    let path = raw.trim();
    if path.is_empty() {
        return Err(err(line, format!("`*** {what}:` needs a path after it")));
    }
    Ok(path.to_string())
}

/// The hunks of one `Update File` section, from `body[*i]` up to the next `***` marker.
fn parse_hunks(body: &[(usize, &str)], i: &mut usize, path: &str) -> Result<Vec<Hunk>, ParseError> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut current: Option<Hunk> = None;
    while let Some(&(n, line)) = body.get(*i) {
        if line.trim_end() == END_OF_FILE {
            let Some(h) = current.as_mut() else {
                return Err(err(
                    n,
                    format!("`{END_OF_FILE}` must follow a hunk of `{path}`"),
                ));
            };
            h.at_eof = true;
            *i += 1;
            continue;
        }
        if line.trim_start().starts_with("***") && !line.starts_with(['+', '-', ' ']) {
            break;
        }
        if let Some(rest) = line.strip_prefix("@@") {
            hunks.extend(finish(current.take(), path)?);
            let context = rest.trim();
            current = Some(Hunk {
                context: (!context.is_empty()).then(|| context.to_string()),
                old: Vec::new(),
                new: Vec::new(),
                at_eof: false,
                line: n,
            });
            *i += 1;
            continue;
        }
        let hunk = current.get_or_insert_with(|| Hunk {
            context: None,
            old: Vec::new(),
            new: Vec::new(),
            at_eof: false,
            line: n,
        });
        if hunk.at_eof {
            return Err(err(
                n,
                format!("nothing may follow `{END_OF_FILE}` in a hunk of `{path}` but `@@` or the next `***` section"),
            ));
        }
        match line.chars().next() {
            Some(' ') => {
                hunk.old.push(line[1..].to_string());
                hunk.new.push(line[1..].to_string());
            }
            Some('-') => hunk.old.push(line[1..].to_string()),
            Some('+') => hunk.new.push(line[1..].to_string()),
            // An empty line in a hunk is an empty context line with its space lost.
            None => {
                hunk.old.push(String::new());
                hunk.new.push(String::new());
            }
            Some(_) => {
                return Err(err(
                    n,
                    format!(
                        "in a hunk of `{path}` every line starts with ` ` (context), `-` \
                         (remove) or `+` (add), or is `@@`; found `{}`",
                        shown(line)
                    ),
                ))
            }
        }
        *i += 1;
    }
    hunks.extend(finish(current, path)?);
    Ok(hunks)
}

/// A hunk that changes nothing is refused: it is always a mistake in the patch.
fn finish(hunk: Option<Hunk>, path: &str) -> Result<Option<Hunk>, ParseError> {
    match hunk {
        Some(h) if h.old == h.new => Err(err(
            h.line,
            format!(
                "this hunk of `{path}` changes nothing; mark removed lines with `-` and added \
                 lines with `+`"
            ),
        )),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(context: Option<&str>, old: &[&str], new: &[&str], at_eof: bool, line: usize) -> Hunk {
        Hunk {
            context: context.map(str::to_string),
            old: old.iter().map(|s| s.to_string()).collect(),
            new: new.iter().map(|s| s.to_string()).collect(),
            at_eof,
            line,
        }
    }

    #[test]
    fn parses_every_operation() {
        let patch = "*** Begin Patch\n\
                     *** Add File: a/new.txt\n\
                     +one\n\
                     +\n\
                     *** Delete File: old.txt\n\
                     *** Update File: src/main.rs\n\
                     *** Move to: src/app.rs\n\
                     @@ fn main() {\n \
                     let x = 1;\n\
                     -let y = 2;\n\
                     +let y = 3;\n\
                     @@\n\
                     -tail\n\
                     +end\n\
                     *** End of File\n\
                     *** End Patch\n";
        let ops = parse_patch(patch).expect("parses");
        assert_eq!(
            ops,
            vec![
                FileOp::Add {
                    path: "a/new.txt".into(),
                    lines: vec!["one".into(), String::new()]
                },
                FileOp::Delete {
                    path: "old.txt".into()
                },
                FileOp::Update {
                    path: "src/main.rs".into(),
                    move_to: Some("src/app.rs".into()),
                    hunks: vec![
                        hunk(
                            Some("fn main() {"),
                            &["let x = 1;", "let y = 2;"],
                            &["let x = 1;", "let y = 3;"],
                            false,
                            8
                        ),
                        hunk(None, &["tail"], &["end"], true, 12),
                    ],
                },
            ]
        );
    }

    #[test]
    fn accepts_a_heredoc_wrapper_crlf_and_a_first_hunk_without_header() {
        let patch = "<<'EOF'\r\n*** Begin Patch\r\n*** Update File: f\r\n a\r\n-b\r\n+c\r\n\r\n d\r\n*** End Patch\r\nEOF\r\n";
        let ops = parse_patch(patch).expect("parses");
        assert_eq!(
            ops,
            vec![FileOp::Update {
                path: "f".into(),
                move_to: None,
                hunks: vec![hunk(
                    None,
                    &["a", "b", "", "d"],
                    &["a", "c", "", "d"],
                    false,
                    4
                )],
            }]
        );
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        let cases = [
            ("", 1, "the patch is empty"),
            ("*** Begin Patch\n", 1, "last line must be `*** End Patch`"),
            (
                "diff --git a b\n",
                1,
                "first line must be `*** Begin Patch`",
            ),
            (
                "*** Begin Patch\n*** Add File: x\n+a\n",
                3,
                "last line must be",
            ),
            ("*** Begin Patch\n*** End Patch", 2, "changes no file"),
            (
                "*** Begin Patch\n*** Frobnicate: x\n*** End Patch",
                2,
                "expected `*** Add File: <path>`",
            ),
            (
                "*** Begin Patch\n*** Add File: x\nno plus\n*** End Patch",
                3,
                "starts with `+` (in `x`)",
            ),
            (
                "*** Begin Patch\n*** Update File: x\n*** End Patch",
                2,
                "has no hunks",
            ),
            (
                "*** Begin Patch\n*** Update File: x\n@@\n a\n!b\n*** End Patch",
                5,
                "found `!b`",
            ),
            (
                "*** Begin Patch\n*** Update File: x\n@@\n a\n b\n*** End Patch",
                3,
                "changes nothing",
            ),
            (
                "*** Begin Patch\n*** Add File:   \n*** End Patch",
                2,
                "needs a path",
            ),
            (
                "*** Begin Patch\n*** Update File: x\n*** End of File\n*** End Patch",
                3,
                "must follow a hunk",
            ),
        ];
        for (patch, line, want) in cases {
            let e = parse_patch(patch).expect_err(patch);
            assert_eq!(e.line, line, "{patch:?}: {e}");
            assert!(e.to_string().contains(want), "{patch:?}: {e}");
        }
    }

    #[test]
    fn a_move_without_hunks_is_a_rename() {
        let ops = parse_patch("*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** End Patch")
            .expect("parses");
        assert_eq!(
            ops,
            vec![FileOp::Update {
                path: "a".into(),
                move_to: Some("b".into()),
                hunks: vec![]
            }]
        );
    }
}
