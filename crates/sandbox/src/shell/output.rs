//! Output capture capped to a head and a tail, with the count of what was left out between.

/// Bytes kept from the start of the output.
pub const HEAD_BYTES: usize = 8 * 1024;
/// Bytes kept from the end of the output.
pub const TAIL_BYTES: usize = 8 * 1024;

/// The first `head_cap` and last `tail_cap` bytes of a stream, and how many came in total.
#[derive(Debug, Clone)]
pub struct HeadTail {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    head_cap: usize,
    tail_cap: usize,
    total: u64,
}

impl Default for HeadTail {
    fn default() -> Self {
        Self::new(HEAD_BYTES, TAIL_BYTES)
    }
}

impl HeadTail {
    /// A capture keeping `head_cap` bytes from the start and `tail_cap` from the end.
    pub fn new(head_cap: usize, tail_cap: usize) -> Self {
        Self {
            head: Vec::new(),
            tail: std::collections::VecDeque::new(),
            head_cap,
            tail_cap,
            total: 0,
        }
    }

    /// Appends bytes.
    pub fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.head_cap.saturating_sub(self.head.len());
        let to_head = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..to_head]);
        bytes = &bytes[to_head..];
        if bytes.len() >= self.tail_cap {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.tail_cap..]);
        } else {
            let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.tail_cap);
            self.tail.drain(..overflow);
            self.tail.extend(bytes);
        }
    }

    /// Total bytes pushed.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes pushed but not kept.
    pub fn omitted(&self) -> u64 {
        self.total - (self.head.len() + self.tail.len()) as u64
    }

    /// The kept text (lossy UTF-8), with `... N bytes omitted ...` where bytes were dropped.
    pub fn render(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        let omitted = self.omitted();
        if omitted > 0 {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("... {omitted} bytes omitted ...\n"));
        }
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        text.push_str(&String::from_utf8_lossy(&tail));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_output_is_kept_whole() {
        let mut c = HeadTail::new(4, 4);
        c.push(b"abc");
        c.push(b"de");
        assert_eq!(c.render(), "abcde");
        assert_eq!(c.omitted(), 0);
    }

    #[test]
    fn large_output_keeps_head_and_tail_and_counts_the_gap() {
        let mut c = HeadTail::new(3, 3);
        for chunk in [&b"012"[..], b"3456", b"78", b"9"] {
            c.push(chunk);
        }
        assert_eq!(c.total(), 10);
        assert_eq!(c.omitted(), 4);
        assert_eq!(c.render(), "012\n... 4 bytes omitted ...\n789");
    }

    #[test]
    fn one_huge_chunk_is_split() {
        let mut c = HeadTail::new(2, 2);
        c.push(b"abcdefgh");
        assert_eq!(c.render(), "ab\n... 4 bytes omitted ...\ngh");
    }
}
