//! The ranking behind `tool_search`: exact selection, required name words, and free text ranked
//! with BM25F over a tool's name, server, description and parameters.
//!
//! Models search in phrases ("take a screenshot of the page"), so free text is ranked by how
//! well each word fits each tool rather than matched as one pattern. A query that looks like a
//! regular expression is also tried as one, but only as an extra signal. Nothing here fails:
//! odd input (empty, punctuation, an invalid pattern, megabytes of text) gives fewer hits or none.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::catalog::CatalogEntry;

/// How many hits `tool_search` returns when the model does not say.
pub const DEFAULT_LIMIT: usize = 5;

/// Queries are cut to this many characters: a real query is a sentence, and a bound keeps a
/// pasted document from costing more than a normal search.
const MAX_QUERY_CHARS: usize = 1_000;
/// Distinct query terms scored; the rest of an over-long query is ignored.
const MAX_QUERY_TERMS: usize = 32;
/// Only patterns up to this long are compiled as regular expressions.
const MAX_REGEX_CHARS: usize = 200;
/// Compiled-size bound for a query regex (the regex crate's own guard against huge programs).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Schema nesting walked for parameter names; real schemas are a few levels deep and a bound
/// keeps a pathological one cheap.
const MAX_SCHEMA_DEPTH: usize = 12;

/// BM25 term-frequency saturation: the usual value; a word's second mention counts for less.
const K1: f64 = 1.2;

/// The parts of a tool that are indexed, each with its own weight and length normalisation.
#[derive(Debug, Clone, Copy)]
enum Field {
    /// Words of the tool's own name (`browser_take_screenshot`).
    Name = 0,
    /// Words of the server's name (`chrome-devtools`).
    Server = 1,
    /// The description's first sentence: tool descriptions lead with what the tool does.
    Summary = 2,
    /// The whole description.
    Description = 3,
    /// Parameter names, anywhere in the argument schema.
    ParamName = 4,
    /// Parameter descriptions and enum values: the least specific text.
    ParamText = 5,
}

const FIELDS: usize = 6;

/// How much a word found in each field counts. The name says what a tool is for; the server
/// narrows to a product; the description's lead is next; parameters add weak evidence.
const FIELD_WEIGHT: [f64; FIELDS] = [3.0, 1.5, 1.0, 1.0, 1.0, 0.25];
/// BM25 length normalisation per field (0 = none, 1 = full). Names and servers are short and
/// similar in length; long descriptions would otherwise win by sheer word count.
const FIELD_B: [f64; FIELDS] = [0.3, 0.0, 0.5, 0.75, 0.5, 0.75];

/// Query terms this long or longer also match the longer indexed terms they begin; shorter ones
/// (`go`, `ui`) would match too much.
const PREFIX_MIN_CHARS: usize = 3;
/// A prefix match counts this much of an exact one.
const PREFIX_WEIGHT: f64 = 0.5;
/// At most this many longer terms per query term, in sorted order: bounds the work for `pre`.
const MAX_PREFIX_VARIANTS: usize = 64;

/// Added to the BM25 score of a tool whose name or `server/tool` equals the whole query, so a
/// model that already knows the name gets that tool first.
const EXACT_NAME_BONUS: f64 = 100.0;
/// Added when the query, tried as a regex (or as a literal when it is not a valid regex),
/// matches the tool's name.
const PATTERN_NAME_BONUS: f64 = 2.0;
/// Added when that pattern matches the description: weaker, descriptions are long.
const PATTERN_DESCRIPTION_BONUS: f64 = 0.5;
/// Scale for the share of the tool's name words the query covers: `git commit` should put
/// `git_commit` ahead of `git_commit_amend_all`.
const NAME_COVERAGE_BONUS: f64 = 2.0;
/// Scores are multiplied by (share of the query's weight the tool matched) to this power, so a
/// tool that fits several of the query's words beats one that fits one word very well. 0.5 is
/// gentler than Lucene's classic coordination factor (1.0): long task-style queries carry words
/// no tool matches.
const COORDINATION_EXPONENT: f64 = 0.5;

/// Short, frequent English words that say nothing about which tool is meant (sorted: looked up
/// by binary search). IDF would already
/// make them cheap; dropping them also keeps them from matching long descriptions by chance.
const STOPWORDS: &[&str] = &[
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "by", "can", "could", "do", "does",
    "for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on",
    "onto", "or", "our", "please", "should", "so", "some", "that", "the", "their", "them", "then",
    "there", "these", "this", "those", "to", "us", "was", "we", "what", "when", "which", "with",
    "would", "you", "your",
];

/// Words about the request rather than the tool: models phrase searches as "the user wants me
/// to ...", and tool descriptions say "use this when the user asks ...". They are not dropped
/// (a query may really be about users) but count at [`CONVERSATION_WORD_WEIGHT`].
const CONVERSATION_WORDS: &[&str] = &[
    "user", "users", "want", "wants", "wanted", "ask", "asks", "asked", "need", "needs", "know",
    "help", "like", "use", "tool",
];
/// The share of a full term's score a conversation word keeps.
const CONVERSATION_WORD_WEIGHT: f64 = 0.5;

/// File extensions a query may name (`rename reports.csv`), with the kind of file each is.
/// A query that names a file is about files, and tool descriptions say "document", not "docx".
const FILE_EXTENSIONS: &[(&str, &str)] = &[
    ("txt", "text"),
    ("md", "text"),
    ("csv", "table"),
    ("tsv", "table"),
    ("json", "json"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("toml", "config"),
    ("xml", "xml"),
    ("html", "html"),
    ("log", "log"),
    ("pdf", "pdf"),
    ("doc", "document"),
    ("docx", "document"),
    ("odt", "document"),
    ("rtf", "document"),
    ("xls", "spreadsheet"),
    ("xlsx", "spreadsheet"),
    ("ods", "spreadsheet"),
    ("ppt", "presentation"),
    ("pptx", "presentation"),
    ("png", "image"),
    ("jpg", "image"),
    ("jpeg", "image"),
    ("gif", "image"),
    ("svg", "image"),
    ("webp", "image"),
    ("zip", "archive"),
    ("tar", "archive"),
    ("gz", "archive"),
];
/// The share of a full term's score the words implied by a file name keep: full, since naming
/// `report.docx` says "document file" as plainly as the words would.
const FILE_HINT_WEIGHT: f64 = 1.0;

/// One ranked result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    /// The exposed name.
    pub name: String,
    /// Higher is better; only comparable within one search.
    pub score: f64,
}

/// A parsed `tool_search` query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// `select:a,b`: these tools by exposed name, `server/tool` or original name, in this order.
    Select(Vec<String>),
    /// `+word rest`: every `required` word must be in the tool's name; `text` ranks.
    /// Free text is the same with no required words.
    Ranked { required: Vec<String>, text: String },
}

/// Reads the query forms: `select:a,b`, `+word rest`, or free text. Never fails.
pub fn parse_query(query: &str) -> Query {
    let query = truncate_chars(query.trim(), MAX_QUERY_CHARS);
    if let Some(list) = strip_prefix_ignore_case(query, "select:") {
        let mut seen = HashSet::new();
        let names = list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty() && seen.insert(n.to_string()))
            .map(str::to_string)
            .collect();
        return Query::Select(names);
    }
    let mut required = Vec::new();
    let mut rest = Vec::new();
    for word in query.split_whitespace() {
        match word.strip_prefix('+') {
            Some(req) if !req.is_empty() => required.push(req.to_lowercase()),
            // A lone `+` is noise, not a requirement.
            Some(_) => {}
            None => rest.push(word),
        }
    }
    Query::Ranked {
        required,
        text: rest.join(" "),
    }
}

/// The index of a catalog's entries, built once with the catalog.
#[derive(Debug, Default)]
pub(crate) struct SearchIndex {
    /// Stemmed term -> the entries containing it, with its frequency in each field.
    postings: HashMap<String, Vec<Posting>>,
    /// Per entry, each field's length in terms.
    lengths: Vec<[f32; FIELDS]>,
    /// Mean field lengths over the catalog, for BM25 normalisation.
    mean_lengths: [f64; FIELDS],
    /// Per entry, the stemmed terms of its name and server, for `+word` and name coverage.
    name_terms: Vec<Vec<String>>,
    /// Per entry, lowercase `exposed name`, `original name` and `server/tool`, for `+word`,
    /// exact-name and pattern matches.
    name_forms: Vec<[String; 3]>,
    /// The same three forms as written, for exact `select:` matches.
    name_forms_exact: Vec<[String; 3]>,
    /// Every indexed term, sorted, for prefix variants.
    vocabulary: Vec<String>,
    /// Lowercase exposed name, `server/tool` and original name -> entries, for `select:`.
    lookup: HashMap<String, Vec<usize>>,
}

#[derive(Debug, Clone)]
struct Posting {
    entry: u32,
    tf: [f32; FIELDS],
}

impl SearchIndex {
    /// Indexes `entries` (in the catalog's order).
    pub(crate) fn build(entries: &[CatalogEntry]) -> Self {
        let mut index = SearchIndex::default();
        let mut totals = [0f64; FIELDS];
        // Terms get ids while building so each occurrence costs a lookup, not an allocation:
        // `word_ids` caches lowercase word -> stemmed term id (None for stopwords).
        let mut word_ids: HashMap<String, Option<u32>> = HashMap::new();
        let mut term_ids: HashMap<String, u32> = HashMap::new();
        let mut postings: Vec<Vec<Posting>> = Vec::new();
        let mut counts: HashMap<u32, [f32; FIELDS]> = HashMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let texts = field_texts(entry);
            counts.clear();
            let mut lengths = [0f32; FIELDS];
            for (field, text) in texts.iter().enumerate() {
                for_each_word(text, |word| {
                    let id = match word_ids.get(word) {
                        Some(id) => *id,
                        None => {
                            let id = term_of(word).map(|term| {
                                let next = term_ids.len() as u32;
                                *term_ids.entry(term).or_insert_with(|| {
                                    postings.push(Vec::new());
                                    next
                                })
                            });
                            word_ids.insert(word.to_string(), id);
                            id
                        }
                    };
                    if let Some(id) = id {
                        counts.entry(id).or_default()[field] += 1.0;
                        lengths[field] += 1.0;
                    }
                });
            }
            for (f, total) in totals.iter_mut().enumerate() {
                *total += f64::from(lengths[f]);
            }
            index.lengths.push(lengths);
            let mut name_terms: Vec<String> = terms(&texts[Field::Name as usize])
                .chain(terms(&texts[Field::Server as usize]))
                .collect();
            name_terms.sort_unstable();
            name_terms.dedup();
            index.name_terms.push(name_terms);
            for (&id, &tf) in &counts {
                postings[id as usize].push(Posting {
                    entry: i as u32,
                    tf,
                });
            }

            let exact = [
                entry.name.clone(),
                entry.original_name.clone(),
                entry.qualified_name(),
            ];
            let forms = exact.clone().map(|f| f.to_lowercase());
            index.name_forms_exact.push(exact);
            // Exposed and qualified names are unique; an original name may belong to several
            // servers, and `select:` then returns them all.
            for form in forms.iter().collect::<HashSet<_>>() {
                index.lookup.entry(form.clone()).or_default().push(i);
            }
            index.name_forms.push(forms);
        }
        let mut by_id: Vec<Option<Vec<Posting>>> = postings.into_iter().map(Some).collect();
        index.postings = term_ids
            .into_iter()
            .filter_map(|(term, id)| Some((term, by_id[id as usize].take()?)))
            .collect();
        index.vocabulary = index.postings.keys().cloned().collect();
        index.vocabulary.sort_unstable();
        let n = entries.len().max(1) as f64;
        for (f, total) in totals.iter().enumerate() {
            index.mean_lengths[f] = (total / n).max(1.0);
        }
        index
    }

    /// Runs `query` over `entries` (the same slice the index was built from).
    pub(crate) fn search(
        &self,
        entries: &[CatalogEntry],
        query: &str,
        limit: usize,
    ) -> Vec<SearchHit> {
        if limit == 0 || entries.is_empty() {
            return Vec::new();
        }
        match parse_query(query) {
            Query::Select(names) => self.select(entries, &names, limit),
            Query::Ranked { required, text } => {
                self.ranked(entries, query.trim(), &required, &text, limit)
            }
        }
    }

    /// The entries `name` selects: exact first, then ignoring case.
    pub(crate) fn resolve(&self, name: &str) -> Vec<usize> {
        // Exact wins when two names differ only in case; otherwise the lowercase table decides.
        let exact: Vec<usize> = self
            .lookup
            .get(&name.to_lowercase())
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| self.name_forms_exact[i].iter().any(|f| f == name))
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        self.lookup
            .get(&name.to_lowercase())
            .cloned()
            .unwrap_or_default()
    }

    fn select(&self, entries: &[CatalogEntry], names: &[String], limit: usize) -> Vec<SearchHit> {
        let mut seen = HashSet::new();
        let mut hits = Vec::new();
        for name in names {
            for i in self.resolve(name) {
                if seen.insert(i) {
                    hits.push(SearchHit {
                        name: entries[i].name.clone(),
                        score: 1.0,
                    });
                }
            }
        }
        hits.truncate(limit);
        hits
    }

    fn ranked(
        &self,
        entries: &[CatalogEntry],
        raw: &str,
        required: &[String],
        text: &str,
        limit: usize,
    ) -> Vec<SearchHit> {
        let raw = truncate_chars(raw, MAX_QUERY_CHARS);
        // Required words rank too: `+slack` alone should still order the slack tools.
        let conversation: HashSet<String> = CONVERSATION_WORDS.iter().map(|w| stem(w)).collect();
        let mut query_terms: Vec<(String, f64)> = Vec::new();
        let mut add = |term: String, weight: f64| {
            if let Some((_, w)) = query_terms.iter_mut().find(|(t, _)| *t == term) {
                *w = w.max(weight);
            } else if query_terms.len() < MAX_QUERY_TERMS {
                query_terms.push((term, weight));
            }
        };
        for term in required.iter().flat_map(|r| terms(r)).chain(terms(text)) {
            let weight = if conversation.contains(&term) {
                CONVERSATION_WORD_WEIGHT
            } else {
                1.0
            };
            add(term, weight);
        }
        for hint in file_hints(text) {
            add(stem(hint), FILE_HINT_WEIGHT);
        }

        let mut scores: HashMap<u32, f64> = HashMap::new();
        // Per tool, the summed weight of the query terms it contains, for coordination.
        let mut matched: HashMap<u32, f64> = HashMap::new();
        let total_weight: f64 = query_terms.iter().map(|(_, w)| w).sum();
        let mut best: HashMap<u32, f64> = HashMap::new();
        for (term, term_weight) in &query_terms {
            // Each query term counts once per tool: the better of its exact form and its
            // discounted longer forms (`pay` -> `payment`, `config` -> `configuration`).
            best.clear();
            for (variant, weight) in self.variants(term) {
                for (entry, score) in self.bm25(variant) {
                    let slot = best.entry(entry).or_default();
                    *slot = slot.max(weight * score);
                }
            }
            for (&entry, &score) in &best {
                *scores.entry(entry).or_default() += term_weight * score;
                *matched.entry(entry).or_default() += term_weight;
            }
        }
        // Coordination (see COORDINATION_EXPONENT).
        if total_weight > 0.0 {
            for (i, score) in scores.iter_mut() {
                let share = matched.get(i).copied().unwrap_or(0.0) / total_weight;
                *score *= share.powf(COORDINATION_EXPONENT);
            }
        }

        // Name coverage: the share of a tool's name words the query names.
        for (&i, score) in scores.iter_mut() {
            let name_terms = &self.name_terms[i as usize];
            if name_terms.is_empty() {
                continue;
            }
            let covered = name_terms
                .iter()
                .filter(|t| query_terms.iter().any(|(q, _)| q == *t))
                .count();
            *score += NAME_COVERAGE_BONUS * covered as f64 / name_terms.len() as f64;
        }

        // Extra signals from the whole query: an exact name, and the query as a pattern.
        for &i in self.lookup.get(&raw.to_lowercase()).into_iter().flatten() {
            *scores.entry(i as u32).or_default() += EXACT_NAME_BONUS;
        }
        if let Some(pattern) = Pattern::new(raw) {
            for (i, entry) in entries.iter().enumerate() {
                let bonus = if self.name_forms[i].iter().any(|f| pattern.is_match(f)) {
                    PATTERN_NAME_BONUS
                } else if pattern.is_match(&entry.spec.description) {
                    PATTERN_DESCRIPTION_BONUS
                } else {
                    continue;
                };
                *scores.entry(i as u32).or_default() += bonus;
            }
        }

        let mut hits: Vec<(u32, f64)> = scores
            .into_iter()
            .filter(|&(i, score)| score > 0.0 && self.has_required(i as usize, required))
            .collect();
        hits.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| entries[a.0 as usize].name.cmp(&entries[b.0 as usize].name))
        });
        hits.truncate(limit);
        hits.into_iter()
            .map(|(i, score)| SearchHit {
                name: entries[i as usize].name.clone(),
                score,
            })
            .collect()
    }

    /// `term` itself at full weight, and the indexed terms it is a prefix of at a discount:
    /// people and models abbreviate (`auth`, `repo`, `env`), and the light stemmer leaves
    /// derived forms apart (`pay` / `payment`).
    fn variants<'a>(&'a self, term: &'a str) -> impl Iterator<Item = (&'a str, f64)> + 'a {
        let longer: &[String] = if term.chars().count() >= PREFIX_MIN_CHARS {
            let start = self.vocabulary.partition_point(|v| v.as_str() <= term);
            let end = start + self.vocabulary[start..].partition_point(|v| v.starts_with(term));
            &self.vocabulary[start..end.min(start + MAX_PREFIX_VARIANTS)]
        } else {
            &[]
        };
        std::iter::once((term, 1.0)).chain(longer.iter().map(|v| (v.as_str(), PREFIX_WEIGHT)))
    }

    /// BM25F of one indexed term for every tool containing it.
    fn bm25<'a>(&'a self, term: &str) -> impl Iterator<Item = (u32, f64)> + 'a {
        let postings = self.postings.get(term).map_or(&[][..], Vec::as_slice);
        let n = self.lengths.len() as f64;
        let df = postings.len() as f64;
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        postings.iter().map(move |p| {
            let lengths = &self.lengths[p.entry as usize];
            let mut tf = 0.0;
            for f in 0..FIELDS {
                if p.tf[f] > 0.0 {
                    let b = FIELD_B[f];
                    let norm = 1.0 - b + b * f64::from(lengths[f]) / self.mean_lengths[f];
                    tf += FIELD_WEIGHT[f] * f64::from(p.tf[f]) / norm;
                }
            }
            (p.entry, idf * tf / (K1 + tf))
        })
    }

    /// Every required word is in the tool's name, as text (`+screen` finds `take_screenshot`)
    /// or as a stemmed word (`+screenshots` finds it too).
    fn has_required(&self, i: usize, required: &[String]) -> bool {
        required.iter().all(|word| {
            self.name_forms[i].iter().any(|f| f.contains(word.as_str()))
                || terms(word).all(|t| self.name_terms[i].contains(&t))
                    && terms(word).next().is_some()
        })
    }
}

/// The query tried as a case-insensitive pattern: as a regex when it looks like one and compiles,
/// otherwise as literal text. `None` when it is plain words (the terms already cover those).
enum Pattern {
    Regex(regex::Regex),
    Literal(String),
}

impl Pattern {
    fn new(query: &str) -> Option<Self> {
        if !looks_like_pattern(query) || query.chars().count() > MAX_REGEX_CHARS {
            return None;
        }
        let compiled = regex::RegexBuilder::new(query)
            .case_insensitive(true)
            .size_limit(REGEX_SIZE_LIMIT)
            .build();
        match compiled {
            Ok(re) => Some(Pattern::Regex(re)),
            // Not a valid regex: the characters were meant literally (`c++`, `what?(`).
            Err(_) => Some(Pattern::Literal(query.to_lowercase())),
        }
    }

    fn is_match(&self, text: &str) -> bool {
        match self {
            Pattern::Regex(re) => re.is_match(text),
            Pattern::Literal(lit) => text.to_lowercase().contains(lit.as_str()),
        }
    }
}

/// True when `query` uses regex syntax beyond a sentence's punctuation: a trailing `?` or `.` in
/// a question is not a pattern, `browser_.*` and `^git_` are.
fn looks_like_pattern(query: &str) -> bool {
    const META: &[&str] = &[".*", ".+", "^", "$", "|", "\\", "[", "(", "{", "*"];
    // A pattern is one word: phrases with spaces are sentences.
    !query.contains(char::is_whitespace) && META.iter().any(|m| query.contains(m))
}

/// Words implied by file names in the query: `file`, and the kind of file (`report.docx` ->
/// `document`).
fn file_hints(text: &str) -> Vec<&'static str> {
    let mut hints = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        let Some((stem, ext)) = word.rsplit_once('.') else {
            continue;
        };
        // `.docx` alone names a kind of file too; `https://x.com` does not name one.
        if word.contains("://") || stem.ends_with('.') {
            continue;
        }
        let ext = ext.to_ascii_lowercase();
        if let Some((_, kind)) = FILE_EXTENSIONS.iter().find(|(e, _)| *e == ext) {
            for hint in ["file", kind] {
                if !hints.contains(&hint) {
                    hints.push(hint);
                }
            }
        }
    }
    hints
}

/// The text of each field of an entry.
fn field_texts(entry: &CatalogEntry) -> [String; FIELDS] {
    let mut param_names = String::new();
    let mut param_text = String::new();
    walk_schema(&entry.spec.parameters, 0, &mut param_names, &mut param_text);
    let description = &entry.spec.description;
    let mut texts: [String; FIELDS] = Default::default();
    texts[Field::Name as usize] = entry.original_name.clone();
    texts[Field::Server as usize] = entry.server.clone().unwrap_or_default();
    texts[Field::Summary as usize] = first_sentence(description).to_string();
    texts[Field::Description as usize] = description.clone();
    texts[Field::ParamName as usize] = param_names;
    texts[Field::ParamText as usize] = param_text;
    texts
}

/// The description up to its first sentence end or line break.
fn first_sentence(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .char_indices()
        .find(|&(i, c)| c == '\n' || (c == '.' && text[i + 1..].starts_with(char::is_whitespace)))
        .map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// Collects property names and the descriptions and enum values under them, at any depth
/// (`items`, `$defs`, `anyOf`, ...). Titles and defaults are skipped: titles repeat the name and
/// defaults are data.
fn walk_schema(value: &serde_json::Value, depth: usize, names: &mut String, text: &mut String) {
    use serde_json::Value;
    if depth > MAX_SCHEMA_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, val) in map {
                match (key.as_str(), val) {
                    ("properties", Value::Object(props)) => {
                        for (name, schema) in props {
                            names.push_str(name);
                            names.push(' ');
                            walk_schema(schema, depth + 1, names, text);
                        }
                    }
                    ("description", Value::String(s)) => {
                        text.push_str(s);
                        text.push(' ');
                    }
                    ("enum", Value::Array(items)) => {
                        for s in items.iter().filter_map(Value::as_str) {
                            text.push_str(s);
                            text.push(' ');
                        }
                    }
                    ("title" | "default" | "examples" | "$schema" | "$ref" | "required", _) => {}
                    (_, val) => walk_schema(val, depth + 1, names, text),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                walk_schema(item, depth + 1, names, text);
            }
        }
        _ => {}
    }
}

/// Lowercase, stemmed, stopword-free words of `text`: split on anything not a letter or digit
/// and at camelCase humps, so `getCssStyles`, `get_css_styles` and `get-css styles` agree.
pub(crate) fn terms(text: &str) -> impl Iterator<Item = String> {
    let mut out = Vec::new();
    for_each_word(text, |w| out.extend(term_of(w)));
    out.into_iter()
}

/// The indexed term for one lowercase word: its stem, or `None` for a stopword.
fn term_of(word: &str) -> Option<String> {
    if STOPWORDS.binary_search(&word).is_ok() {
        return None;
    }
    Some(stem(word)).filter(|t| !t.is_empty())
}

/// Splits `text` into lowercase words (no stemming).
#[cfg(test)]
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w| out.push(w.to_string()));
    out
}

/// Calls `f` with each lowercase word of `text`, reusing one buffer.
fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                f(&current);
                current.clear();
            }
            prev = Some(c);
            continue;
        }
        if c.is_uppercase() && !current.is_empty() {
            let next_lower = chars.peek().is_some_and(|n| n.is_lowercase());
            // `cssStyles` splits before S; `HTMLParser` splits before the P of Parser.
            let split = prev.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next_lower)
            });
            if split {
                f(&current);
                current.clear();
            }
        }
        current.extend(c.to_lowercase());
        prev = Some(c);
    }
    if !current.is_empty() {
        f(&current);
    }
}

/// A light suffix stripper (plural, -ing, -ed, final e), enough that `screenshots`,
/// `screenshot`, `creating`, `created` and `create` meet. Applied alike to queries and tools, so
/// the stems only need to agree, not to be words.
pub(crate) fn stem(word: &str) -> String {
    if word.len() <= 3 || !word.is_ascii() {
        return word.to_string();
    }
    let mut w = word.to_string();
    if let Some(base) = w.strip_suffix("ies") {
        if base.len() >= 2 {
            w = format!("{base}y");
        }
    } else if let Some(base) = w.strip_suffix("sses") {
        w = format!("{base}ss");
    } else if let Some(base) = ["ches", "shes", "xes", "zes"].iter().find_map(|s| {
        w.strip_suffix(s)
            .map(|b| format!("{b}{}", &s[..s.len() - 2]))
    }) {
        w = base;
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.pop();
    }
    for suffix in ["ing", "ed"] {
        if let Some(base) = w.strip_suffix(suffix) {
            if base.len() >= 3 && base.chars().any(is_vowel) {
                w = undouble(base);
                break;
            }
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
}

/// `mapp` -> `map`, `logg` -> `log`; `ll`, `ss` and `zz` stay (`install`, `access`).
fn undouble(base: &str) -> String {
    let bytes = base.as_bytes();
    let n = bytes.len();
    if n >= 2 && bytes[n - 1] == bytes[n - 2] && !matches!(bytes[n - 1], b'l' | b's' | b'z') {
        let last = char::from(bytes[n - 1]);
        if !is_vowel(last) {
            return base[..n - 1].to_string();
        }
    }
    base.to_string()
}

fn truncate_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolSpec;
    use serde_json::json;

    fn entry(
        server: &str,
        tool: &str,
        description: &str,
        params: serde_json::Value,
    ) -> CatalogEntry {
        let name = super::super::names::qualify_mcp_name(server, tool);
        CatalogEntry {
            spec: ToolSpec {
                name: name.clone(),
                description: description.into(),
                parameters: params,
            },
            name,
            server: Some(server.into()),
            original_name: tool.into(),
        }
    }

    fn catalog() -> Vec<CatalogEntry> {
        let path = json!({"type": "object", "properties": {"path": {"type": "string", "description": "File path"}}});
        vec![
            entry(
                "fs",
                "read_file",
                "Read the contents of a file.",
                path.clone(),
            ),
            entry("fs", "write_file", "Write text to a file.", path.clone()),
            entry("fs", "list_directory", "List the files in a folder.", path),
            entry(
                "browser",
                "take_screenshot",
                "Capture an image of the current page.",
                json!({}),
            ),
            entry(
                "browser",
                "navigate",
                "Open a URL in the browser.",
                json!({"type": "object", "properties": {"url": {"type": "string"}}}),
            ),
            entry(
                "git",
                "git_commit",
                "Record staged changes in the repository.",
                json!({}),
            ),
            entry(
                "git",
                "git_commit_amend_all",
                "Amend the last commit with all changes.",
                json!({}),
            ),
            entry(
                "other",
                "read_file",
                "Another server's file reader.",
                json!({}),
            ),
        ]
    }

    fn names(index: &SearchIndex, entries: &[CatalogEntry], q: &str, limit: usize) -> Vec<String> {
        index
            .search(entries, q, limit)
            .into_iter()
            .map(|h| h.name)
            .collect()
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn words_split_snake_camel_kebab_and_slashes() {
        assert_eq!(words("getCssStyles"), ["get", "css", "styles"]);
        assert_eq!(words("HTMLParser v2"), ["html", "parser", "v2"]);
        assert_eq!(words("github__create_issue"), ["github", "create", "issue"]);
        assert_eq!(
            words("API-post-page server/tool"),
            ["api", "post", "page", "server", "tool"]
        );
        assert!(words("...!!").is_empty());
    }

    #[test]
    fn stems_agree_across_forms() {
        for group in [
            &["screenshot", "screenshots"][..],
            &["create", "creates", "created", "creating"],
            &["entry", "entries"],
            &["index", "indexes"],
            &["log", "logs", "logging", "logged"],
            &["install", "installs", "installed", "installing"],
        ] {
            let stems: HashSet<String> = group.iter().map(|w| stem(w)).collect();
            assert_eq!(stems.len(), 1, "{group:?} -> {stems:?}");
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("string"), "string");
    }

    #[test]
    fn phrases_find_the_tool() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        assert_eq!(
            names(&index, &entries, "take a screenshot of the page", 1),
            ["browser__take_screenshot"]
        );
        assert_eq!(
            names(&index, &entries, "list files in a folder", 1),
            ["fs__list_directory"]
        );
        assert_eq!(
            names(&index, &entries, "git commit", 1),
            ["git__git_commit"]
        );
    }

    #[test]
    fn select_accepts_exposed_qualified_and_original_names() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        assert_eq!(
            names(&index, &entries, "select:fs__write_file", 5),
            ["fs__write_file"]
        );
        assert_eq!(
            names(
                &index,
                &entries,
                "select: git/git_commit , fs__read_file",
                5
            ),
            ["git__git_commit", "fs__read_file"]
        );
        // An original name shared by two servers selects both.
        assert_eq!(
            names(&index, &entries, "select:read_file", 5),
            ["fs__read_file", "other__read_file"]
        );
        assert_eq!(
            names(&index, &entries, "SELECT:FS__WRITE_FILE", 5),
            ["fs__write_file"]
        );
        assert!(names(&index, &entries, "select:nope,", 5).is_empty());
        assert!(names(&index, &entries, "select:", 5).is_empty());
    }

    #[test]
    fn required_words_filter_by_name() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        let got = names(&index, &entries, "+git changes", 5);
        assert!(!got.is_empty());
        assert!(got.iter().all(|n| n.starts_with("git__")), "{got:?}");
        assert_eq!(
            names(&index, &entries, "+screenshots", 5),
            ["browser__take_screenshot"]
        );
        assert!(names(&index, &entries, "+nothing file", 5).is_empty());
    }

    #[test]
    fn patterns_are_an_extra_signal_and_bad_ones_degrade() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        let got = names(&index, &entries, "^git_.*amend", 5);
        assert_eq!(
            got.first().map(String::as_str),
            Some("git__git_commit_amend_all")
        );
        // Invalid regex: literal matching, no error.
        let got = names(&index, &entries, "read_file(", 5);
        assert!(got.contains(&"fs__read_file".to_string()), "{got:?}");
    }

    #[test]
    fn odd_input_never_fails() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        for q in [
            "",
            "   ",
            "+",
            "+ +",
            "?!.,;",
            "[[[",
            "(((",
            "***",
            "\u{0}",
            "select:,,,",
        ] {
            let _ = index.search(&entries, q, 5);
        }
        assert!(index.search(&entries, "", 5).is_empty());
        assert!(index.search(&entries, "?!.,;", 5).is_empty());
        let huge = "screenshot ".repeat(100_000);
        let got = names(&index, &entries, &huge, 5);
        assert_eq!(
            got.first().map(String::as_str),
            Some("browser__take_screenshot")
        );
        assert!(index.search(&entries, "file", 0).is_empty());
        assert!(SearchIndex::build(&[]).search(&[], "file", 5).is_empty());
    }

    #[test]
    fn exact_names_come_first() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        assert_eq!(
            names(&index, &entries, "git_commit_amend_all", 1),
            ["git__git_commit_amend_all"]
        );
        assert_eq!(
            names(&index, &entries, "fs/write_file", 1),
            ["fs__write_file"]
        );
    }

    #[test]
    fn shorter_name_wins_when_the_query_names_it_whole() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        assert_eq!(
            names(&index, &entries, "git commit", 2),
            ["git__git_commit", "git__git_commit_amend_all"]
        );
    }

    #[test]
    fn results_are_deterministic_and_limited() {
        let entries = catalog();
        let index = SearchIndex::build(&entries);
        let a = index.search(&entries, "file", 2);
        assert_eq!(a.len(), 2);
        assert_eq!(a, index.search(&entries, "file", 2));
    }

    #[test]
    fn parse_query_forms() {
        assert_eq!(
            parse_query("select:a, b,a"),
            Query::Select(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            parse_query("+Slack send message"),
            Query::Ranked {
                required: vec!["slack".into()],
                text: "send message".into()
            }
        );
        assert_eq!(
            parse_query("take a screenshot"),
            Query::Ranked {
                required: vec![],
                text: "take a screenshot".into()
            }
        );
    }
}
