//! Which saved facts a new run's system prompt gets: as many as fit in a token budget,
//! preferring facts that are both recent and often used.

use super::Memory;
use crate::middleware::CHARS_PER_TOKEN;

/// Tokens the memory section of a system prompt may take: enough for a few dozen one-line
/// facts, small next to any context window a tool-using model has.
pub const MEMORY_BUDGET_TOKENS: usize = 2_000;

/// Tokens each fact costs besides its text (the bullet and line break).
const FACT_OVERHEAD_TOKENS: usize = 2;

/// The facts to inject, best first, within `budget_tokens`.
///
/// Ranking: each fact gets its position in the newest-first order plus its position in the
/// most-used-first order; the lowest sum comes first (ties: newest first). Recency alone would
/// bury a fact used in every thread; use counts alone would starve new facts, which have none.
/// A fact that does not fit is skipped, so a smaller one further down may still get in.
pub fn select_for_prompt(memories: &[Memory], budget_tokens: usize) -> Vec<Memory> {
    let mut by_new: Vec<usize> = (0..memories.len()).collect();
    by_new.sort_by(|&a, &b| {
        memories[b]
            .updated_at
            .cmp(&memories[a].updated_at)
            .then_with(|| memories[b].id.cmp(&memories[a].id))
    });
    let mut by_use = by_new.clone();
    by_use.sort_by(|&a, &b| memories[b].uses.cmp(&memories[a].uses));
    let mut score = vec![0usize; memories.len()];
    for (rank, &i) in by_new.iter().enumerate() {
        score[i] += rank;
    }
    for (rank, &i) in by_use.iter().enumerate() {
        score[i] += rank;
    }
    let newness: Vec<usize> = {
        let mut n = vec![0; memories.len()];
        for (rank, &i) in by_new.iter().enumerate() {
            n[i] = rank;
        }
        n
    };
    let mut order: Vec<usize> = (0..memories.len()).collect();
    order.sort_by_key(|&i| (score[i], newness[i]));

    let mut left = budget_tokens;
    let mut chosen = Vec::new();
    for i in order {
        let cost =
            memories[i].fact.chars().count().div_ceil(CHARS_PER_TOKEN) + FACT_OVERHEAD_TOKENS;
        if cost <= left {
            left -= cost;
            chosen.push(memories[i].clone());
        }
    }
    chosen
}

/// The system-prompt section for the chosen facts; empty when there are none.
pub fn memory_section(chosen: &[Memory]) -> String {
    if chosen.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "## Memory\nFacts saved in earlier threads (with `remember`). Use them when they \
         help; the user can edit or delete them in Settings -> Memory.\n",
    );
    for m in chosen {
        s.push_str("- ");
        s.push_str(&m.fact.replace('\n', " "));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem(id: &str, fact: &str, updated_at: i64, uses: i64) -> Memory {
        Memory {
            id: id.into(),
            fact: fact.into(),
            created_at: updated_at,
            updated_at,
            uses,
        }
    }

    fn ids(v: &[Memory]) -> Vec<&str> {
        v.iter().map(|m| m.id.as_str()).collect()
    }

    #[test]
    fn recent_and_used_facts_come_first() {
        let all = vec![
            mem("old-unused", "a", 1, 0),
            mem("old-used", "b", 2, 9),
            mem("new-unused", "c", 3, 0),
            mem("new-used", "d", 4, 5),
        ];
        let chosen = select_for_prompt(&all, MEMORY_BUDGET_TOKENS);
        assert_eq!(ids(&chosen)[0], "new-used");
        assert_eq!(*ids(&chosen).last().unwrap(), "old-unused");
        assert_eq!(chosen.len(), 4);
    }

    #[test]
    fn the_budget_is_kept_and_small_facts_fill_the_rest() {
        let big = "x".repeat(CHARS_PER_TOKEN * 15);
        let all = vec![
            mem("big", &big, 3, 0),
            mem("small", "tabs", 2, 0),
            mem("big2", &big, 1, 0),
        ];
        // 20 tokens: one big fact (17) fits, the second does not, the small one (3) does.
        let chosen = select_for_prompt(&all, 20);
        assert_eq!(ids(&chosen), ["big", "small"]);
        let used: usize = chosen
            .iter()
            .map(|m| m.fact.len().div_ceil(CHARS_PER_TOKEN) + FACT_OVERHEAD_TOKENS)
            .sum();
        assert!(used <= 20);
    }

    #[test]
    fn the_section_lists_each_fact_on_one_line() {
        assert_eq!(memory_section(&[]), "");
        let s = memory_section(&[mem("a", "line one\nline two", 1, 0)]);
        assert!(s.starts_with("## Memory"));
        assert!(s.contains("- line one line two\n"));
    }
}
