use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::tools::StateUpdate;

/// State a thread carries besides its messages, each part merged by its own reducer when a
/// tool returns a [`StateUpdate`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadState {
    /// Deferred tools tool_search found, callable from the next turn on.
    #[serde(default)]
    pub promoted: Option<Promoted>,
    /// Files the agent presented (virtual paths).
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Tool calls the last run stopped on until the user answers (approvals).
    #[serde(default)]
    pub pending: Vec<super::PendingCall>,
    /// The agent's plan, as `write_todos` last wrote it.
    #[serde(default)]
    pub todos: Vec<TodoItem>,
    /// Images `view_image` prepared, newest last, at most [`super::MAX_VIEWED_IMAGES`]; each
    /// is attached to every model request after its call's result. Left out of the JSON when
    /// empty (and optional in TypeScript), so states written without it read the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<super::ViewedImage>>", optional))]
    pub viewed_images: Vec<super::ViewedImage>,
}

/// Where one item of the plan is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Done,
}

/// One item of the agent's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TodoItem {
    pub content: String,
    pub status: TodoStatus,
}

impl TodoItem {
    /// Whether the item still needs work.
    pub fn is_open(&self) -> bool {
        self.status != TodoStatus::Done
    }
}

/// Deferred tools promoted in one catalog. Names only mean something with their catalog's
/// hash: a changed catalog (a server added, a tool changed) starts over.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Promoted {
    pub catalog_hash: String,
    pub names: BTreeSet<String>,
}

impl Promoted {
    /// Whether `name` is promoted in the catalog with `catalog_hash`.
    pub fn allows(&self, catalog_hash: &str, name: &str) -> bool {
        self.catalog_hash == catalog_hash && self.names.contains(name)
    }
}

impl ThreadState {
    /// Merges a tool's state update: promotions union within one catalog and replace across
    /// catalogs; artifacts are added once each, in order; viewed images keep the newest
    /// [`super::MAX_VIEWED_IMAGES`].
    pub fn apply(&mut self, update: &StateUpdate) {
        match update {
            StateUpdate::Promoted {
                catalog_hash,
                names,
            } => match &mut self.promoted {
                Some(p) if &p.catalog_hash == catalog_hash => {
                    p.names.extend(names.iter().cloned());
                }
                _ => {
                    self.promoted = Some(Promoted {
                        catalog_hash: catalog_hash.clone(),
                        names: names.iter().cloned().collect(),
                    });
                }
            },
            // Handled by the loop, which turns it into a pending call.
            StateUpdate::AskUser(_) => {}
            // The tool sends the whole list each time, so the newest list is the plan.
            StateUpdate::Todos { items } => self.todos = items.clone(),
            StateUpdate::ViewedImage(image) => {
                // Viewing the same call twice (a resumed run) keeps one entry.
                self.viewed_images.retain(|v| v.call_id != image.call_id);
                self.viewed_images.push(image.as_ref().clone());
                let excess = self
                    .viewed_images
                    .len()
                    .saturating_sub(super::MAX_VIEWED_IMAGES);
                self.viewed_images.drain(..excess);
            }
            StateUpdate::Artifacts { paths } => {
                for p in paths {
                    if !self.artifacts.contains(p) {
                        self.artifacts.push(p.clone());
                    }
                }
            }
        }
    }

    /// The plan's items that are not done.
    pub fn open_todos(&self) -> impl Iterator<Item = &TodoItem> {
        self.todos.iter().filter(|t| t.is_open())
    }

    /// Whether `name` is promoted in the catalog with `catalog_hash`.
    pub fn is_promoted(&self, catalog_hash: &str, name: &str) -> bool {
        self.promoted
            .as_ref()
            .is_some_and(|p| p.allows(catalog_hash, name))
    }
}

/// A conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Thread {
    pub id: String,
    pub title: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at: i64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_at: i64,
    #[serde(default)]
    pub state: ThreadState,
}

/// A thread as the sidebar lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadSummary {
    pub id: String,
    pub title: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_at: i64,
    /// Whether a run of this thread is streaming right now.
    pub running: bool,
}

/// A thread a search found, with the text around the first match in its messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadSearchHit {
    pub thread: ThreadSummary,
    /// A short excerpt of the first shown message that matched; empty when only the title did.
    pub snippet: String,
}

/// A thread with its messages, as the UI opens it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ThreadView {
    pub thread: Thread,
    pub messages: Vec<super::Message>,
    /// Whether a run of this thread is streaming right now.
    pub running: bool,
    /// For a branch (a past message edited and sent again): the thread and message it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub branched_from: Option<BranchLink>,
    /// Threads branched from this one, oldest first, each with the message here it replaced.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<BranchLink>>", optional))]
    pub branches: Vec<BranchLink>,
}

/// One end of a branch: the other thread, and the edited user message of the source thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct BranchLink {
    pub thread_id: String,
    /// The message of the source thread that the branch edited.
    pub message_id: String,
    /// The other thread's title.
    pub title: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn promote(hash: &str, names: &[&str]) -> StateUpdate {
        StateUpdate::Promoted {
            catalog_hash: hash.into(),
            names: names.iter().map(|n| n.to_string()).collect(),
        }
    }

    #[test]
    fn promotions_union_within_one_catalog() {
        let mut s = ThreadState::default();
        s.apply(&promote("h1", &["a"]));
        s.apply(&promote("h1", &["b", "a"]));
        let p = s.promoted.clone().unwrap();
        assert_eq!(p.names.into_iter().collect::<Vec<_>>(), ["a", "b"]);
        assert!(s.is_promoted("h1", "b"));
    }

    #[test]
    fn a_changed_catalog_replaces_old_promotions() {
        let mut s = ThreadState::default();
        s.apply(&promote("h1", &["a", "b"]));
        s.apply(&promote("h2", &["c"]));
        assert!(
            !s.is_promoted("h2", "a"),
            "a promotion from an old catalog does not carry over"
        );
        assert!(!s.is_promoted("h1", "a"), "the old catalog is gone");
        assert!(s.is_promoted("h2", "c"));
    }

    #[test]
    fn artifacts_are_added_once_in_order() {
        let mut s = ThreadState::default();
        s.apply(&StateUpdate::Artifacts {
            paths: vec!["/o/a".into(), "/o/b".into()],
        });
        s.apply(&StateUpdate::Artifacts {
            paths: vec!["/o/b".into(), "/o/c".into()],
        });
        assert_eq!(s.artifacts, ["/o/a", "/o/b", "/o/c"]);
    }

    #[test]
    fn a_new_todo_list_replaces_the_old_one() {
        let item = |c: &str, status| TodoItem {
            content: c.into(),
            status,
        };
        let mut s = ThreadState::default();
        s.apply(&StateUpdate::Todos {
            items: vec![
                item("a", TodoStatus::Pending),
                item("b", TodoStatus::Pending),
            ],
        });
        s.apply(&StateUpdate::Todos {
            items: vec![
                item("a", TodoStatus::Done),
                item("b", TodoStatus::InProgress),
            ],
        });
        assert_eq!(s.todos.len(), 2);
        assert_eq!(s.todos[0].status, TodoStatus::Done);
        let open: Vec<&str> = s.open_todos().map(|t| t.content.as_str()).collect();
        assert_eq!(open, ["b"]);
    }

    #[test]
    fn only_the_newest_viewed_images_are_kept() {
        let image = |n: usize| crate::thread::ViewedImage {
            call_id: format!("c{n}"),
            path: format!("/mnt/user-data/uploads/{n}.png"),
            media_type: "image/png".into(),
            width: 10,
            height: 10,
            file: format!("{n}.png"),
        };
        let mut s = ThreadState::default();
        let n = crate::thread::MAX_VIEWED_IMAGES + 2;
        for i in 0..n {
            s.apply(&StateUpdate::ViewedImage(Box::new(image(i))));
        }
        s.apply(&StateUpdate::ViewedImage(Box::new(image(n - 1))));
        let ids: Vec<&str> = s.viewed_images.iter().map(|v| v.call_id.as_str()).collect();
        let want: Vec<String> = (2..n).map(|i| format!("c{i}")).collect();
        assert_eq!(ids, want, "oldest dropped, a repeated call kept once");
    }

    #[test]
    fn old_stored_state_without_fields_still_loads() {
        let s: ThreadState = serde_json::from_str("{}").unwrap();
        assert_eq!(s, ThreadState::default());
    }
}
