//! Tools shipped with Workbench. Each one is a file holding its spec, its argument validation and
//! its behaviour; assembly decides which of them a run gets.

pub mod ask_clarification;
pub mod remember;
pub mod retrieve_tool_result;
pub mod tool_search;
pub mod write_todos;

pub use ask_clarification::AskClarification;
pub use remember::{Remember, REMEMBER_NAME};
pub use retrieve_tool_result::RetrieveToolResult;
pub use tool_search::ToolSearch;
pub use write_todos::{WriteTodos, WRITE_TODOS_NAME};
