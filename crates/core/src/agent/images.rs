//! Viewed images into a model request: each image `view_image` prepared goes into a hidden user
//! message placed right after the results of the turn that viewed it. The message lives in the
//! request only; the stored thread keeps the tool's text result and a file name in its state.

use std::collections::BTreeMap;
use std::path::Path;

use tracing::warn;

use crate::thread::{ImagePart, Message, Role, ViewedImage, VIEWED_IMAGES_DIR};

/// What the model reads above attached images, so it never takes them for the user's words.
pub const IMAGE_NOTE_PREFIX: &str = "[image shown by view_image, not from the user]";

/// Reads each viewed image from `thread_dir` and inserts it into `messages` after the results
/// of the turn whose call viewed it. Images whose call is no longer in the messages (the turn
/// was compacted away) or whose file cannot be read are left out, with a log line.
pub fn attach_viewed_images(
    messages: &mut Vec<Message>,
    images: &[ViewedImage],
    thread_dir: &Path,
) {
    // Insertion index -> the images that go there, in viewing order.
    let mut at: BTreeMap<usize, Vec<(&ViewedImage, ImagePart)>> = BTreeMap::new();
    for image in images {
        let Some(pos) = after_results_of(messages, &image.call_id) else {
            continue;
        };
        if !image.has_plain_file_name() {
            warn!(file = %image.file, "a viewed image has an unusable file name; not attached");
            continue;
        }
        let file = thread_dir.join(VIEWED_IMAGES_DIR).join(&image.file);
        match std::fs::read(&file) {
            Ok(data) => at.entry(pos).or_default().push((
                image,
                ImagePart {
                    media_type: image.media_type.clone(),
                    data,
                },
            )),
            Err(e) => {
                warn!(error = %e, file = %image.file, "a viewed image could not be read; not attached")
            }
        }
    }
    // From the back, so earlier indexes stay valid.
    for (pos, group) in at.into_iter().rev() {
        let thread_id = messages[pos - 1].thread_id.clone();
        let mut note = String::from(IMAGE_NOTE_PREFIX);
        for (image, _) in &group {
            note.push_str(&format!(
                "\n{} ({}x{})",
                image.path, image.width, image.height
            ));
        }
        let mut message = Message::user(&thread_id, note);
        message.hidden = true;
        message.images = group.into_iter().map(|(_, part)| part).collect();
        messages.insert(pos, message);
    }
}

/// The index just past the run of tool results holding `call_id`'s result (the last
/// such result, if ids repeat across turns), or `None` when there is none.
fn after_results_of(messages: &[Message], call_id: &str) -> Option<usize> {
    let found = messages
        .iter()
        .rposition(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some(call_id))?;
    let mut end = found + 1;
    // A turn's results must follow its assistant message without anything between them.
    while end < messages.len() && messages[end].role == Role::Tool {
        end += 1;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thread::ToolCall;

    fn viewed(call_id: &str, file: &str) -> ViewedImage {
        ViewedImage {
            call_id: call_id.into(),
            path: format!("/mnt/user-data/uploads/{file}"),
            media_type: "image/png".into(),
            width: 2,
            height: 1,
            file: file.into(),
        }
    }

    fn assistant_calling(ids: &[&str]) -> Message {
        let mut m = Message::user("t", "");
        m.role = Role::Assistant;
        m.tool_calls = ids
            .iter()
            .map(|id| ToolCall {
                id: (*id).into(),
                name: "view_image".into(),
                arguments: "{}".into(),
            })
            .collect();
        m
    }

    fn result(id: &str) -> Message {
        Message::tool_result("t", "r", id, "ok", false)
    }

    fn dir_with(files: &[(&str, &[u8])]) -> tempfile_like::Dir {
        let d = tempfile_like::Dir::new();
        std::fs::create_dir_all(d.path().join(VIEWED_IMAGES_DIR)).unwrap();
        for (name, bytes) in files {
            std::fs::write(d.path().join(VIEWED_IMAGES_DIR).join(name), bytes).unwrap();
        }
        d
    }

    /// A throwaway folder without a dev-dependency: core keeps its dependency list short.
    mod tempfile_like {
        pub struct Dir(std::path::PathBuf);
        impl Dir {
            pub fn new() -> Self {
                let p = std::env::temp_dir().join(format!("wb-images-{}", crate::new_id()));
                std::fs::create_dir_all(&p).unwrap();
                Self(p)
            }
            pub fn path(&self) -> &std::path::Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn an_image_goes_after_all_results_of_its_turn() {
        let dir = dir_with(&[("a.png", b"PNGDATA")]);
        let mut messages = vec![
            Message::user("t", "look"),
            assistant_calling(&["c1", "c2"]),
            result("c1"),
            result("c2"),
            Message::user("t", "next"),
        ];
        attach_viewed_images(&mut messages, &[viewed("c1", "a.png")], dir.path());
        assert_eq!(messages.len(), 6);
        let injected = &messages[4];
        assert_eq!(injected.role, Role::User);
        assert!(injected.hidden);
        assert!(injected.content.starts_with(IMAGE_NOTE_PREFIX));
        assert!(injected
            .content
            .contains("/mnt/user-data/uploads/a.png (2x1)"));
        assert_eq!(injected.images.len(), 1);
        assert_eq!(injected.images[0].data, b"PNGDATA");
        assert_eq!(injected.images[0].media_type, "image/png");
        assert_eq!(messages[5].content, "next");
    }

    #[test]
    fn images_of_one_turn_share_a_message_and_turns_keep_their_own() {
        let dir = dir_with(&[("a.png", b"A"), ("b.png", b"B"), ("c.png", b"C")]);
        let mut messages = vec![
            assistant_calling(&["c1", "c2"]),
            result("c1"),
            result("c2"),
            assistant_calling(&["c3"]),
            result("c3"),
        ];
        let images = [
            viewed("c1", "a.png"),
            viewed("c2", "b.png"),
            viewed("c3", "c.png"),
        ];
        attach_viewed_images(&mut messages, &images, dir.path());
        let roles: Vec<Role> = messages.iter().map(|m| m.role).collect();
        use Role::*;
        assert_eq!(roles, [Assistant, Tool, Tool, User, Assistant, Tool, User]);
        let data = |i: usize| -> Vec<Vec<u8>> {
            messages[i].images.iter().map(|p| p.data.clone()).collect()
        };
        assert_eq!(data(3), [b"A".to_vec(), b"B".to_vec()]);
        assert_eq!(data(6), [b"C".to_vec()]);
    }

    #[test]
    fn missing_files_gone_calls_and_bad_names_attach_nothing() {
        let dir = dir_with(&[("a.png", b"A")]);
        let mut messages = vec![assistant_calling(&["c1"]), result("c1")];
        let images = [
            viewed("c1", "missing.png"),
            viewed("gone", "a.png"),
            viewed("c1", "../a.png"),
        ];
        attach_viewed_images(&mut messages, &images, dir.path());
        assert_eq!(messages.len(), 2, "{messages:?}");
    }
}
