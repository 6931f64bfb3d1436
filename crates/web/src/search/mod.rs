//! The search services and their answer formats: DuckDuckGo (no key), Brave and Tavily (keys).
//! Parsers are pure functions over the recorded answers in `tests/fixtures/web/`.

pub mod brave;
pub mod duckduckgo;
pub mod tavily;
