//! A [`ThreadStore`] kept in memory: for a subagent's private conversation, which lives only
//! as long as its task, and for tests that do not care about SQLite.

use std::collections::HashMap;
use std::sync::Mutex;

use super::{Message, StoreError, Thread, ThreadState, ThreadStore, ThreadSummary};

/// Threads and messages in a map; nothing survives the value.
#[derive(Default)]
pub struct InMemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    threads: HashMap<String, Thread>,
    messages: HashMap<String, Vec<Message>>,
}

impl InMemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Inner) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut inner = self.inner.lock().map_err(|_| StoreError::Db {
            op: "use the in-memory store",
            detail: "a writer panicked".into(),
        })?;
        f(&mut inner)
    }
}

impl Inner {
    fn thread(&mut self, id: &str) -> Result<&mut Thread, StoreError> {
        self.threads
            .get_mut(id)
            .ok_or_else(|| StoreError::ThreadNotFound(id.to_string()))
    }

    fn message(&mut self, id: &str) -> Result<&mut Message, StoreError> {
        self.messages
            .values_mut()
            .flat_map(|list| list.iter_mut())
            .find(|m| m.id == id)
            .ok_or_else(|| StoreError::MessageNotFound(id.to_string()))
    }
}

impl ThreadStore for InMemoryStore {
    fn create_thread(&self, title: &str) -> Result<Thread, StoreError> {
        let now = crate::now_ms();
        let thread = Thread {
            id: crate::new_id(),
            title: title.to_string(),
            created_at: now,
            updated_at: now,
            state: ThreadState::default(),
        };
        self.with(|i| {
            i.threads.insert(thread.id.clone(), thread.clone());
            i.messages.insert(thread.id.clone(), Vec::new());
            Ok(thread.clone())
        })
    }

    fn get_thread(&self, thread_id: &str) -> Result<Thread, StoreError> {
        self.with(|i| i.thread(thread_id).cloned())
    }

    fn list_threads(&self) -> Result<Vec<ThreadSummary>, StoreError> {
        self.with(|i| {
            let mut list: Vec<ThreadSummary> = i
                .threads
                .values()
                .map(|t| ThreadSummary {
                    id: t.id.clone(),
                    title: t.title.clone(),
                    updated_at: t.updated_at,
                    running: false,
                })
                .collect();
            list.sort_by_key(|t| std::cmp::Reverse(t.updated_at));
            Ok(list)
        })
    }

    fn rename_thread(&self, thread_id: &str, title: &str) -> Result<(), StoreError> {
        self.with(|i| {
            i.thread(thread_id)?.title = title.to_string();
            Ok(())
        })
    }

    fn save_thread_state(&self, thread_id: &str, state: &ThreadState) -> Result<(), StoreError> {
        self.with(|i| {
            i.thread(thread_id)?.state = state.clone();
            Ok(())
        })
    }

    fn delete_thread(&self, thread_id: &str) -> Result<(), StoreError> {
        self.with(|i| {
            i.threads.remove(thread_id);
            i.messages.remove(thread_id);
            Ok(())
        })
    }

    fn begin_run(&self, thread_id: &str, _run_id: &str) -> Result<(), StoreError> {
        self.with(|i| i.thread(thread_id).map(|_| ()))
    }

    fn end_run(&self, _run_id: &str, _status: &str) -> Result<(), StoreError> {
        Ok(())
    }

    fn append_message(&self, message: &Message) -> Result<(), StoreError> {
        self.with(|i| {
            i.thread(&message.thread_id)?.updated_at = crate::now_ms();
            i.messages
                .entry(message.thread_id.clone())
                .or_default()
                .push(message.clone());
            Ok(())
        })
    }

    fn append_delta(
        &self,
        message_id: &str,
        text: &str,
        reasoning: bool,
    ) -> Result<(), StoreError> {
        self.with(|i| {
            let m = i.message(message_id)?;
            if reasoning {
                m.reasoning.push_str(text);
            } else {
                m.content.push_str(text);
            }
            Ok(())
        })
    }

    fn finish_message(&self, message: &Message) -> Result<(), StoreError> {
        self.with(|i| {
            *i.message(&message.id)? = message.clone();
            Ok(())
        })
    }

    fn load_messages(&self, thread_id: &str) -> Result<Vec<Message>, StoreError> {
        self.with(|i| {
            i.thread(thread_id)?;
            Ok(i.messages.get(thread_id).cloned().unwrap_or_default())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_stream_in_and_finish_in_order() {
        let s = InMemoryStore::new();
        let t = s.create_thread("sub").unwrap();
        s.append_message(&Message::user(&t.id, "hi")).unwrap();
        let mut reply = Message::assistant_streaming(&t.id, "r1");
        s.append_message(&reply).unwrap();
        s.append_delta(&reply.id, "Hel", false).unwrap();
        s.append_delta(&reply.id, "lo", false).unwrap();
        assert_eq!(s.load_messages(&t.id).unwrap()[1].content, "Hello");
        reply.content = "Hello!".into();
        s.finish_message(&reply).unwrap();
        let list = s.load_messages(&t.id).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].content, "Hello!");
        assert!(matches!(
            s.append_delta("nope", "x", false),
            Err(StoreError::MessageNotFound(_))
        ));
        assert!(matches!(
            s.get_thread("nope"),
            Err(StoreError::ThreadNotFound(_))
        ));
    }
}
