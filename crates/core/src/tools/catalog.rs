//! The deferred catalog: the tools of one run that stay hidden behind `tool_search` until the
//! model asks for them, and the catalog file format MCP tool lists are stored in.
//!
//! The catalog is built once at assembly and never changes afterwards; its content hash names it
//! in the thread state (`promoted = {catalog_hash, names}`), so a promotion recorded against one
//! set of tools is never applied to a different one. Not here: which tools get deferred (the
//! deferral gate) or hiding unpromoted schemas from the model (a middleware).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::names::qualify_mcp_name;
use super::search::{SearchHit, SearchIndex};
use crate::model::ToolSpec;

/// Why a catalog could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Two entries would be exposed under the same name; assembly dedupes before deferral, so
    /// this is a bug upstream and the catalog refuses to guess which one was meant.
    #[error("two deferred tools share the exposed name `{name}`")]
    DuplicateName { name: String },
    /// A catalog file is not the expected JSON.
    #[error("{path}: not a tool catalog: {source}")]
    Parse {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// A catalog file or folder could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// One deferred tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogEntry {
    /// The name the model sees and calls (`github__create_issue`).
    pub name: String,
    /// The MCP server the tool comes from, if any.
    pub server: Option<String>,
    /// The tool's own name at its origin (`create_issue`).
    pub original_name: String,
    /// The full schema, returned by `tool_search`; its `name` is the exposed name.
    pub spec: ToolSpec,
}

impl CatalogEntry {
    /// `server/tool` for MCP tools, the original name otherwise: how people name a tool.
    pub fn qualified_name(&self) -> String {
        match &self.server {
            Some(server) => format!("{server}/{}", self.original_name),
            None => self.original_name.clone(),
        }
    }
}

/// A stored MCP tool list: `{"server", "package", "tools": [{name, description, inputSchema}]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogFile {
    /// The server's name; exposed tool names are `<server>__<tool>`.
    pub server: String,
    /// `npm:<name>@<version>` or `pypi:<name>==<version>`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// The tools as the server listed them.
    #[serde(default)]
    pub tools: Vec<CatalogTool>,
}

/// One tool of a [`CatalogFile`], exactly as the server sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogTool {
    /// The tool's own name.
    pub name: String,
    /// MCP makes the description optional; a missing one reads as empty.
    #[serde(default)]
    pub description: String,
    /// JSON Schema of the arguments; a missing one reads as an empty object schema.
    #[serde(rename = "inputSchema", default = "empty_object_schema")]
    pub input_schema: serde_json::Value,
}

fn empty_object_schema() -> serde_json::Value {
    serde_json::json!({"type": "object", "properties": {}})
}

impl CatalogFile {
    /// Parses a catalog file's text; `path` only names the file in the error.
    pub fn parse(text: &str, path: &Path) -> Result<Self, CatalogError> {
        serde_json::from_str(text).map_err(|source| CatalogError::Parse {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The file's tools as catalog entries, exposed as `<server>__<tool>`.
    pub fn into_entries(self) -> Vec<CatalogEntry> {
        let server = self.server;
        self.tools
            .into_iter()
            .map(|tool| {
                let name = qualify_mcp_name(&server, &tool.name);
                CatalogEntry {
                    spec: ToolSpec {
                        name: name.clone(),
                        description: tool.description,
                        parameters: tool.input_schema,
                    },
                    name,
                    server: Some(server.clone()),
                    original_name: tool.name,
                }
            })
            .collect()
    }
}

/// What [`read_catalog_dir`] found in a folder.
#[derive(Debug, Default)]
pub struct CatalogDir {
    /// The catalog files that parsed, in file-name order.
    pub files: Vec<(PathBuf, CatalogFile)>,
    /// The files that did not, with why.
    pub skipped: Vec<CatalogError>,
}

/// Reads every `*.json` catalog in `dir` except `queries*.json` (labelled query sets live beside
/// the catalogs). Blocking: call it off the async threads.
pub fn read_catalog_dir(dir: &Path) -> Result<CatalogDir, CatalogError> {
    let read_err = |path: &Path, source| CatalogError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut paths = Vec::new();
    for item in std::fs::read_dir(dir).map_err(|e| read_err(dir, e))? {
        let path = item.map_err(|e| read_err(dir, e))?.path();
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_file() && file_name.ends_with(".json") && !file_name.starts_with("queries") {
            paths.push(path);
        }
    }
    // read_dir's order is the file system's; sort so every run sees the same catalog order.
    paths.sort();
    let mut found = CatalogDir::default();
    for path in paths {
        match std::fs::read_to_string(&path) {
            Err(e) => found.skipped.push(read_err(&path, e)),
            Ok(text) => match CatalogFile::parse(&text, &path) {
                Ok(file) => found.files.push((path, file)),
                Err(e) => found.skipped.push(e),
            },
        }
    }
    Ok(found)
}

/// The deferred tools of one run: immutable, content-hashed, searchable.
#[derive(Debug)]
pub struct DeferredCatalog {
    /// Sorted by exposed name, so order of arrival changes neither the hash nor the results.
    entries: Vec<CatalogEntry>,
    by_name: HashMap<String, usize>,
    hash: String,
    index: SearchIndex,
}

impl DeferredCatalog {
    /// Builds the catalog, its hash and its search index. Fails if two entries share an
    /// exposed name.
    pub fn new(mut entries: Vec<CatalogEntry>) -> Result<Self, CatalogError> {
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let mut by_name = HashMap::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            if by_name.insert(entry.name.clone(), i).is_some() {
                return Err(CatalogError::DuplicateName {
                    name: entry.name.clone(),
                });
            }
        }
        let hash = content_hash(&entries);
        let index = SearchIndex::build(&entries);
        Ok(Self {
            entries,
            by_name,
            hash,
            index,
        })
    }

    /// Hex SHA-256 of the sorted entries in a canonical form: equal for equal content in any
    /// process, whatever the input order or JSON key order.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The entry exposed as `name`.
    pub fn get(&self, name: &str) -> Option<&CatalogEntry> {
        self.by_name.get(name).map(|&i| &self.entries[i])
    }

    /// The entries `name` selects: the exposed name, `server/tool`, or an original name (which
    /// several servers may share), matched exactly or else ignoring case.
    pub fn resolve(&self, name: &str) -> Vec<&CatalogEntry> {
        if let Some(entry) = self.get(name) {
            return vec![entry];
        }
        self.index
            .resolve(name)
            .into_iter()
            .map(|i| &self.entries[i])
            .collect()
    }

    /// Exposed names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// Every entry, sorted by exposed name.
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    /// Number of deferred tools.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is deferred.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The best `limit` tools for `query` (see [`super::search::parse_query`] for the forms), best
    /// first. Never fails: odd input gives fewer or no hits.
    pub fn search(&self, query: &str, limit: usize) -> Vec<SearchHit> {
        self.index.search(&self.entries, query, limit)
    }

    /// The deferred names as the first model request lists them, one line per server to save
    /// the repeated prefix: `github: create_issue, merge_pull_request` (exposed as
    /// `github__create_issue`, ...). Tools without a server, and names that do not read as
    /// `<server>__<tool>` (sanitised or cut), stand whole on their own lines.
    pub fn listing(&self) -> String {
        // (server, its tools) runs in entry order; `None` marks a name that stands alone.
        let mut lines: Vec<(Option<&str>, Vec<&str>)> = Vec::new();
        for entry in &self.entries {
            let grouped = entry.server.as_deref().and_then(|server| {
                let rest = entry.name.strip_prefix(server)?;
                Some((server, rest.strip_prefix(super::names::MCP_NAME_SEPARATOR)?))
            });
            match (grouped, lines.last_mut()) {
                (Some((server, tool)), Some((Some(last), tools))) if *last == server => {
                    tools.push(tool)
                }
                (Some((server, tool)), _) => lines.push((Some(server), vec![tool])),
                (None, _) => lines.push((None, vec![entry.name.as_str()])),
            }
        }
        let mut out = String::new();
        for (server, tools) in lines {
            if let Some(server) = server {
                out.push_str(server);
                out.push_str(": ");
            }
            out.push_str(&tools.join(", "));
            out.push('\n');
        }
        out
    }
}

/// SHA-256 over one canonical JSON line per entry, in the given (sorted) order.
fn content_hash(entries: &[CatalogEntry]) -> String {
    let mut hasher = Sha256::new();
    let mut line = String::new();
    for entry in entries {
        line.clear();
        let fields = serde_json::json!([
            entry.name,
            entry.server,
            entry.original_name,
            entry.spec.name,
            entry.spec.description,
        ]);
        line.push('[');
        canonical_json(&fields, &mut line);
        line.push(',');
        canonical_json(&entry.spec.parameters, &mut line);
        line.push_str("]\n");
        hasher.update(line.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// JSON with object keys sorted by their bytes and no whitespace. Written by hand because
/// serde_json's map order depends on a feature (`preserve_order`) another crate in the build may
/// switch on, which would silently change every hash.
fn canonical_json(value: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {
            // Scalars print the same in every map mode; strings escape deterministically.
            out.push_str(&value.to_string());
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical_json(&map[key], out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(server: &str, tool: &str, description: &str) -> CatalogEntry {
        let name = qualify_mcp_name(server, tool);
        CatalogEntry {
            spec: ToolSpec {
                name: name.clone(),
                description: description.into(),
                parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
            },
            name,
            server: Some(server.into()),
            original_name: tool.into(),
        }
    }

    #[test]
    fn hash_ignores_input_order_and_key_order() {
        let a = entry("fs", "read_file", "Read a file");
        let b = entry("git", "git_log", "Show the log");
        let one = DeferredCatalog::new(vec![a.clone(), b.clone()]).unwrap();
        let two = DeferredCatalog::new(vec![b.clone(), a.clone()]).unwrap();
        assert_eq!(one.hash(), two.hash());

        let mut reordered = a.clone();
        reordered.spec.parameters = serde_json::from_str(
            r#"{"properties": {"path": {"type": "string"}}, "type": "object"}"#,
        )
        .unwrap();
        let three = DeferredCatalog::new(vec![reordered, b]).unwrap();
        assert_eq!(one.hash(), three.hash());
    }

    #[test]
    fn hash_changes_with_content() {
        let a = entry("fs", "read_file", "Read a file");
        let base = DeferredCatalog::new(vec![a.clone()]).unwrap();
        let mut changed = a.clone();
        changed.spec.description = "Read a file.".into();
        assert_ne!(
            base.hash(),
            DeferredCatalog::new(vec![changed]).unwrap().hash()
        );
        let more = DeferredCatalog::new(vec![a, entry("fs", "write_file", "")]).unwrap();
        assert_ne!(base.hash(), more.hash());
    }

    #[test]
    fn hash_is_pinned() {
        // A different hash for the same tools would drop every promotion stored in threads,
        // so the canonical form is pinned here.
        let catalog = DeferredCatalog::new(vec![entry("fs", "read_file", "Read a file")]).unwrap();
        assert_eq!(catalog.hash(), PINNED_HASH);
        assert_eq!(catalog.hash().len(), 64);
    }
    // Also what Python gives: `json.dumps(..., sort_keys=True, separators=(",", ":"))` per line.
    const PINNED_HASH: &str = "e7dcdb076994e960486a6f48f9c3b576a4bd6f566ba0e0a74c2823c686d0670e";

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let value = json!({"b": [{"z": 1, "a": null}], "a": "x\"y"});
        let mut out = String::new();
        canonical_json(&value, &mut out);
        assert_eq!(out, r#"{"a":"x\"y","b":[{"a":null,"z":1}]}"#);
    }

    #[test]
    fn duplicate_exposed_names_are_refused() {
        let a = entry("fs", "read_file", "one");
        let b = entry("fs", "read_file", "two");
        let err = DeferredCatalog::new(vec![a, b]).unwrap_err();
        assert!(matches!(err, CatalogError::DuplicateName { ref name } if name == "fs__read_file"));
    }

    #[test]
    fn get_names_and_len() {
        let catalog = DeferredCatalog::new(vec![
            entry("git", "git_log", ""),
            entry("fs", "read_file", ""),
        ])
        .unwrap();
        assert_eq!(catalog.len(), 2);
        assert!(!catalog.is_empty());
        assert_eq!(
            catalog.names().collect::<Vec<_>>(),
            ["fs__read_file", "git__git_log"]
        );
        let got = catalog.get("git__git_log").unwrap();
        assert_eq!(got.qualified_name(), "git/git_log");
        assert!(catalog.get("git_log").is_none());
    }

    #[test]
    fn catalog_file_parses_the_stored_format() {
        let text = r#"{"server": "time", "package": "pypi:mcp-server-time==1",
            "tools": [{"name": "get_current_time", "description": "Get the time",
                       "inputSchema": {"type": "object", "properties": {"timezone": {"type": "string"}}}},
                      {"name": "bare"}]}"#;
        let file = CatalogFile::parse(text, Path::new("time.json")).unwrap();
        let entries = file.into_entries();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name, "time__get_current_time");
        assert_eq!(entries[0].spec.name, "time__get_current_time");
        assert_eq!(entries[0].original_name, "get_current_time");
        assert_eq!(entries[0].server.as_deref(), Some("time"));
        assert_eq!(entries[1].spec.description, "");
        assert_eq!(entries[1].spec.parameters["type"], "object");
    }

    #[test]
    fn catalog_file_errors_name_the_file() {
        let err = CatalogFile::parse("{\"tools\": 3}", Path::new("broken.json")).unwrap_err();
        assert!(err.to_string().contains("broken.json"), "{err}");
    }

    #[test]
    fn listing_groups_by_server() {
        let mut odd = entry("my server", "x", "");
        odd.name = qualify_mcp_name("my server", "x");
        let catalog = DeferredCatalog::new(vec![
            odd,
            entry("git", "git_log", ""),
            entry("fs", "read_file", ""),
            entry("fs", "write_file", ""),
        ])
        .unwrap();
        assert_eq!(
            catalog.listing(),
            "fs: read_file, write_file\ngit: git_log\nmy_server__x\n"
        );
    }
}
