//! Step 5: one tool per name. The first candidate wins (sources are ordered: config,
//! built-ins, sandbox, web, MCP); the loser is reported with the winner's source.

use std::collections::HashMap;

use crate::tools::ToolSource;

/// For each candidate name in order, `None` if it wins, or the reason it lost.
pub fn losers<'a>(
    candidates: impl IntoIterator<Item = (&'a str, &'a ToolSource)>,
) -> Vec<Option<String>> {
    let mut seen: HashMap<&str, &ToolSource> = HashMap::new();
    candidates
        .into_iter()
        .map(|(name, source)| match seen.get(name) {
            Some(winner) => Some(format!(
                "another tool named `{name}` from {} comes first and wins",
                winner.label()
            )),
            None => {
                seen.insert(name, source);
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_of_two_same_named_tools_wins_and_the_loser_is_told_why() {
        let mcp = ToolSource::Mcp {
            server: "fs".into(),
        };
        let out = losers([
            ("read_file", &ToolSource::Sandbox),
            ("other", &ToolSource::Builtin),
            ("read_file", &mcp),
        ]);
        assert_eq!(out[0], None);
        assert_eq!(out[1], None);
        assert_eq!(
            out[2].as_deref(),
            Some("another tool named `read_file` from sandbox comes first and wins")
        );
    }
}
