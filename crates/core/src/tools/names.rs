//! The names MCP tools are exposed under: `<server>__<tool>`, within what providers accept.
//!
//! OpenAI and Anthropic both accept tool names matching `^[a-zA-Z0-9_-]{1,64}$`; a name outside
//! that makes the whole request fail, so every MCP tool name is made to fit before a model sees it.

use sha2::{Digest, Sha256};

/// The longest tool name OpenAI and Anthropic accept.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// Separates the server from the tool in an exposed name. Two underscores because single ones are
/// common inside both server and tool names.
pub const MCP_NAME_SEPARATOR: &str = "__";

/// Hex digits of the hash appended to a truncated name: 8 digits (32 bits) keep the few hundred
/// tools of one run apart while leaving most of the 64 characters to the readable part.
const HASH_SUFFIX_DIGITS: usize = 8;

/// `<server>__<tool>` with every character outside `[A-Za-z0-9_-]` replaced by `_`, at most
/// [`MAX_TOOL_NAME_LEN`] characters; a longer name is cut and ends in a hash of the original
/// server and tool, so distinct long names stay distinct and the same tool always gets the same
/// name.
pub fn qualify_mcp_name(server: &str, tool: &str) -> String {
    let joined = format!("{server}{MCP_NAME_SEPARATOR}{tool}");
    let mut name = sanitise(&joined);
    if name.is_empty() {
        // Unreachable while the separator is non-empty; kept so the result is never empty.
        name.push('_');
    }
    if name.len() <= MAX_TOOL_NAME_LEN {
        return name;
    }
    // Hash the raw parts, not the sanitised text, and keep them apart with a NUL that neither
    // can contain in practice, so `a__b`/`c` and `a`/`b__c` still hash differently.
    let mut hasher = Sha256::new();
    hasher.update(server.as_bytes());
    hasher.update([0u8]);
    hasher.update(tool.as_bytes());
    let digest = hasher.finalize();
    let suffix: String = digest
        .iter()
        .flat_map(|b| [b >> 4, b & 0x0f])
        .take(HASH_SUFFIX_DIGITS)
        .map(|n| char::from_digit(u32::from(n), 16).unwrap_or('0'))
        .collect();
    // The sanitised text is ASCII, so cutting at a byte index is a character boundary.
    name.truncate(MAX_TOOL_NAME_LEN - HASH_SUFFIX_DIGITS - 1);
    name.push('_');
    name.push_str(&suffix);
    name
}

/// Replaces every character a provider would reject with `_`.
fn sanitise(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_valid(name: &str) -> bool {
        !name.is_empty()
            && name.len() <= MAX_TOOL_NAME_LEN
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    }

    #[test]
    fn joins_server_and_tool() {
        assert_eq!(
            qualify_mcp_name("github", "create_issue"),
            "github__create_issue"
        );
        assert_eq!(
            qualify_mcp_name("mongodb", "create-index"),
            "mongodb__create-index"
        );
    }

    #[test]
    fn replaces_characters_providers_reject() {
        assert_eq!(
            qualify_mcp_name("my server", "read.file"),
            "my_server__read_file"
        );
        assert_eq!(qualify_mcp_name("srv", "héllo/wörld"), "srv__h_llo_w_rld");
        assert!(is_valid(&qualify_mcp_name("", "")));
    }

    #[test]
    fn long_names_are_cut_to_the_limit_and_stay_distinct() {
        let long = "a".repeat(80);
        let one = qualify_mcp_name("server", &format!("{long}_one"));
        let two = qualify_mcp_name("server", &format!("{long}_two"));
        assert!(is_valid(&one), "{one}");
        assert!(is_valid(&two), "{two}");
        assert_eq!(one.len(), MAX_TOOL_NAME_LEN);
        assert_ne!(one, two);
        assert!(one.starts_with("server__aaaa"));
    }

    #[test]
    fn the_same_tool_always_gets_the_same_name() {
        let tool = "x".repeat(100);
        assert_eq!(qualify_mcp_name("s", &tool), qualify_mcp_name("s", &tool));
        // Pinned, so a change of hash or layout (which would orphan promoted names stored in
        // threads) fails here first. The suffix is the first 8 hex digits of
        // sha256("s\0" + tool).
        assert_eq!(
            qualify_mcp_name("s", &tool),
            format!("s__{}_244cf40d", "x".repeat(52))
        );
    }

    #[test]
    fn names_at_the_limit_are_kept_whole() {
        let tool = "t".repeat(MAX_TOOL_NAME_LEN - 3);
        assert_eq!(qualify_mcp_name("s", &tool), format!("s__{tool}"));
    }

    #[test]
    fn multibyte_input_never_panics() {
        let tool = "日本語".repeat(40);
        let name = qualify_mcp_name("サーバー", &tool);
        assert!(is_valid(&name), "{name}");
    }
}
