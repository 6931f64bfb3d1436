//! Images a model looks at: the bytes attached to one request ([`ImagePart`]) and the record of
//! an image `view_image` prepared ([`ViewedImage`]), kept in the thread state so later requests
//! can attach it again.

use serde::{Deserialize, Serialize};

/// Folder under a thread's own folder where `view_image` keeps the images it prepared, so
/// thread state and stored messages hold only a file name, never the bytes.
pub const VIEWED_IMAGES_DIR: &str = "viewed-images";

/// How many viewed images the thread keeps sending to the model: the newest ones. Each image
/// costs the model about as many tokens as a page of text on every request, so older ones go.
pub const MAX_VIEWED_IMAGES: usize = 4;

/// An image attached to a message for one model request. Never stored and never sent to the
/// UI: only the request builder fills it.
#[derive(Clone, PartialEq, Eq)]
pub struct ImagePart {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// The encoded image file (not base64: providers encode it for their wire format).
    pub data: Vec<u8>,
}

impl std::fmt::Debug for ImagePart {
    // Megabytes of bytes in a debug print or a log line help nobody.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImagePart")
            .field("media_type", &self.media_type)
            .field("bytes", &self.data.len())
            .finish()
    }
}

/// An image `view_image` read and prepared for the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ViewedImage {
    /// The `view_image` call that prepared it: the image goes into requests right after that
    /// call's result.
    pub call_id: String,
    /// The virtual path the model gave, for the model's note and the UI.
    pub path: String,
    /// The media type of the prepared file.
    pub media_type: String,
    /// Size sent to the model, after downscaling.
    pub width: u32,
    pub height: u32,
    /// The prepared file's name inside [`VIEWED_IMAGES_DIR`].
    pub file: String,
}

impl ViewedImage {
    /// Whether `file` is a plain file name (no folder part), so joining it to the images
    /// folder can only name a file inside it.
    pub fn has_plain_file_name(&self) -> bool {
        !self.file.is_empty()
            && !self.file.contains(['/', '\\'])
            && self.file != "."
            && self.file != ".."
    }
}
