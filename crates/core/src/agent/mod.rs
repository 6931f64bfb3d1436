//! The run loop and what it announces.

mod events;
mod images;
mod run;
mod single_call;
mod summarize;

pub use events::{EventSink, RunEvent, RunOutcome, SubagentStatus, SubagentUpdate};
pub use images::{attach_viewed_images, IMAGE_NOTE_PREFIX};
pub use run::{run, RunInput, RunParts, RunSpec};
pub use single_call::{call_once, SingleCall};
pub use summarize::ModelSummarizer;
