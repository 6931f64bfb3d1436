//! Tools shipped with Workbench. Each one is a file holding its spec, its argument validation and
//! its behaviour; assembly decides which of them a run gets.

pub mod ask_clarification;
pub mod tool_search;

pub use ask_clarification::AskClarification;

pub use tool_search::ToolSearch;
pub mod retrieve_tool_result;
pub use retrieve_tool_result::RetrieveToolResult;
