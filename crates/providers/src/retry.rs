//! Retrying a model call before its stream has yielded anything: exponential backoff with full
//! jitter, and the server's `Retry-After` when it sends one. Once an event has reached the
//! caller nothing is retried: a replay would duplicate text the user already saw.

use std::future::Future;
use std::time::Duration;

use rand::Rng;
use workbench_core::model::ModelError;

/// Doubling never goes past 2^this, whatever `max_attempts` says (keeps the arithmetic sane).
const MAX_DOUBLINGS: u32 = 16;

/// When and how often to retry a failed call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts, the first one included; 1 means never retry.
    pub max_attempts: u32,
    /// Upper bound of the first backoff; it doubles per attempt.
    pub base_delay: Duration,
    /// Upper bound of any backoff.
    pub max_delay: Duration,
    /// A `Retry-After` longer than this is not waited for: the call fails at once, so a run is
    /// never frozen for minutes by a rate limit.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// A policy that tries once.
    pub fn no_retries() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// The backoff ceiling after failed attempt number `attempt` (1-based):
    /// `min(max_delay, base_delay * 2^(attempt-1))`.
    pub fn ceiling(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(MAX_DOUBLINGS);
        self.base_delay
            .saturating_mul(1u32 << doublings)
            .min(self.max_delay)
    }

    /// How long to wait before the next attempt after failed attempt `attempt`, or `None` to
    /// give up (attempts used up, or the server asks for a longer wait than we accept).
    pub fn delay_before_retry(
        &self,
        attempt: u32,
        retry_after: Option<Duration>,
    ) -> Option<Duration> {
        if attempt >= self.max_attempts {
            return None;
        }
        match retry_after {
            Some(wait) if wait > self.max_retry_after => None,
            // The server said when; jitter would only make us early or needlessly late.
            Some(wait) => Some(wait),
            None => {
                // Full jitter: spreads clients that failed together instead of retrying in step.
                let ceiling = self.ceiling(attempt);
                let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
                Some(Duration::from_millis(
                    rand::thread_rng().gen_range(0..=millis),
                ))
            }
        }
    }
}

/// Why one attempt failed, and whether another may succeed.
#[derive(Debug)]
pub(crate) struct Failure {
    pub error: ModelError,
    pub retryable: bool,
    pub retry_after: Option<Duration>,
}

impl Failure {
    /// A failure whose retryability follows [`ModelError::is_retryable`].
    pub fn from_error(error: ModelError, retry_after: Option<Duration>) -> Self {
        Self {
            retryable: error.is_retryable(),
            error,
            retry_after,
        }
    }
}

/// Runs `attempt_fn(n)` for n = 1, 2, ... until it succeeds, fails for good, or the policy gives
/// up. The final error reports how many attempts were made where it says so (rate limits).
pub(crate) async fn with_retries<T, F, Fut>(
    policy: &RetryPolicy,
    mut attempt_fn: F,
) -> Result<T, ModelError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let mut attempt = 1;
    loop {
        let failure = match attempt_fn(attempt).await {
            Ok(v) => return Ok(v),
            Err(f) => f,
        };
        let delay = if failure.retryable {
            policy.delay_before_retry(attempt, failure.retry_after)
        } else {
            None
        };
        match delay {
            Some(delay) => {
                tracing::warn!(
                    attempt,
                    delay_ms = delay.as_millis() as u64,
                    error = %failure.error,
                    "model call failed; retrying"
                );
                tokio::time::sleep(delay).await;
                attempt += 1;
            }
            None => return Err(with_attempts(failure.error, attempt)),
        }
    }
}

fn with_attempts(error: ModelError, attempts: u32) -> ModelError {
    match error {
        ModelError::RateLimited {
            url, retry_after, ..
        } => ModelError::RateLimited {
            url,
            attempts,
            retry_after,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceiling_doubles_from_the_base_and_stops_at_the_cap() {
        let p = RetryPolicy::default();
        assert_eq!(p.ceiling(1), Duration::from_millis(500));
        assert_eq!(p.ceiling(2), Duration::from_secs(1));
        assert_eq!(p.ceiling(4), Duration::from_secs(4));
        assert_eq!(p.ceiling(5), Duration::from_secs(8));
        assert_eq!(p.ceiling(60), Duration::from_secs(8));
    }

    #[test]
    fn jittered_delay_stays_under_the_ceiling() {
        let p = RetryPolicy::default();
        for _ in 0..200 {
            let d = p
                .delay_before_retry(2, None)
                .expect("attempt 2 of 4 retries");
            assert!(d <= Duration::from_secs(1), "{d:?}");
        }
    }

    #[test]
    fn retry_after_is_honoured_unless_too_long() {
        let p = RetryPolicy::default();
        assert_eq!(
            p.delay_before_retry(1, Some(Duration::from_secs(3))),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            p.delay_before_retry(1, Some(Duration::from_secs(3600))),
            None
        );
    }

    #[test]
    fn gives_up_after_max_attempts() {
        let p = RetryPolicy::default();
        assert!(p.delay_before_retry(3, None).is_some());
        assert_eq!(p.delay_before_retry(4, None), None);
        assert_eq!(RetryPolicy::no_retries().delay_before_retry(1, None), None);
    }

    #[tokio::test]
    async fn with_retries_reports_the_attempts_of_a_rate_limit() {
        let p = RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(1),
            ..RetryPolicy::default()
        };
        let mut calls = 0;
        let r: Result<(), _> = with_retries(&p, |_| {
            calls += 1;
            async {
                Err(Failure::from_error(
                    ModelError::RateLimited {
                        url: "u".into(),
                        attempts: 1,
                        retry_after: None,
                    },
                    None,
                ))
            }
        })
        .await;
        assert_eq!(calls, 3);
        assert!(
            matches!(r, Err(ModelError::RateLimited { attempts: 3, .. })),
            "{r:?}"
        );
    }

    #[tokio::test]
    async fn with_retries_does_not_retry_what_is_not_retryable() {
        let mut calls = 0;
        let r: Result<(), _> = with_retries(&RetryPolicy::default(), |_| {
            calls += 1;
            async {
                Err(Failure::from_error(
                    ModelError::Auth {
                        url: "u".into(),
                        status: 401,
                    },
                    None,
                ))
            }
        })
        .await;
        assert_eq!(calls, 1);
        assert!(matches!(r, Err(ModelError::Auth { .. })));
    }
}
