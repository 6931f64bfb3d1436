//! The run loop and what it announces.

mod events;
mod run;

pub use events::{EventSink, RunEvent, RunOutcome};
pub use run::{run, RunParts, RunSpec};
