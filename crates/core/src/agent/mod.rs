//! The run loop and what it announces.

mod events;
mod run;
mod summarize;

pub use events::{EventSink, RunEvent, RunOutcome};
pub use run::{run, RunInput, RunParts, RunSpec};
pub use summarize::ModelSummarizer;
