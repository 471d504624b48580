//! A request body that must keep arriving: cut when no byte comes for a while, or when it
//! averages less than a minimum rate. The clock runs only while the server waits for the
//! body (a handler checking an upload is not the client's time).

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use thiserror::Error;
use tokio::time::{Instant, Sleep};

/// Why a body was cut.
#[derive(Debug, Error, PartialEq)]
pub enum SlowBody {
    /// No byte for the idle timeout.
    #[error("the request body sent nothing for {0:?}")]
    Idle(Duration),
    /// Fewer bytes than the minimum rate.
    #[error("the request body arrived at less than {0} bytes a second")]
    TooSlow(u64),
}

/// How a body must keep up.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// The longest wait for a byte.
    pub idle: Duration,
    /// The least average rate, in bytes a second, of the time waited past `grace`.
    pub min_rate: u64,
    /// Waiting time before the rate counts.
    pub grace: Duration,
}

/// `B`, cut when it falls behind its [`Pace`].
pub struct Paced<B> {
    inner: B,
    pace: Pace,
    /// Bytes received.
    bytes: u64,
    /// Time spent waiting for the client, not counting the wait in progress.
    waited: Duration,
    /// The wait in progress: since when, and its alarm.
    waiting: Option<(Instant, Pin<Box<Sleep>>)>,
}

impl<B> Paced<B> {
    /// `inner` at `pace`.
    pub fn new(inner: B, pace: Pace) -> Self {
        Paced {
            inner,
            pace,
            bytes: 0,
            waited: Duration::ZERO,
            waiting: None,
        }
    }

    /// How long the server may still wait, given the bytes so far, before the body is behind
    /// its minimum rate: the bytes buy time at `min_rate`, after the grace.
    fn allowance(&self) -> Option<Duration> {
        if self.pace.min_rate == 0 {
            return None;
        }
        let earned = Duration::from_secs_f64(self.bytes as f64 / self.pace.min_rate as f64);
        Some((self.pace.grace + earned).saturating_sub(self.waited))
    }

    /// The alarm of a new wait: the sooner of the idle timeout and the rate's allowance.
    fn alarm(&self) -> (Duration, SlowBody) {
        match self.allowance() {
            Some(a) if a < self.pace.idle => (a, SlowBody::TooSlow(self.pace.min_rate)),
            _ => (self.pace.idle, SlowBody::Idle(self.pace.idle)),
        }
    }
}

/// The error a paced body yields: its own, or the inner body's.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<B> Body for Paced<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(frame) => {
                if let Some((since, _)) = this.waiting.take() {
                    this.waited += since.elapsed();
                }
                if let Some(Ok(f)) = &frame {
                    if let Some(d) = f.data_ref() {
                        this.bytes += d.len() as u64;
                    }
                }
                Poll::Ready(frame.map(|r| r.map_err(Into::into)))
            }
            Poll::Pending => {
                let (after, why) = this.alarm();
                let (_, sleep) = this
                    .waiting
                    .get_or_insert_with(|| (Instant::now(), Box::pin(tokio::time::sleep(after))));
                match sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(why)))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A body that yields `chunks`, each after its delay.
    struct Trickle(Vec<(Duration, &'static [u8])>, Option<Pin<Box<Sleep>>>);

    impl Body for Trickle {
        type Data = Bytes;
        type Error = std::convert::Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            let Some(&(delay, chunk)) = self.0.first() else {
                return Poll::Ready(None);
            };
            let sleep = self
                .1
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(delay)));
            match sleep.as_mut().poll(cx) {
                Poll::Pending => Poll::Pending,
                Poll::Ready(()) => {
                    self.1 = None;
                    self.0.remove(0);
                    Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(chunk)))))
                }
            }
        }
    }

    fn pace() -> Pace {
        Pace {
            idle: Duration::from_millis(300),
            min_rate: 100,
            grace: Duration::from_millis(200),
        }
    }

    async fn read(body: Trickle) -> Result<usize, String> {
        Paced::new(body, pace())
            .collect()
            .await
            .map(|b| b.to_bytes().len())
            .map_err(|e| e.to_string())
    }

    #[tokio::test]
    async fn a_steady_body_passes() {
        let chunk: &'static [u8] = &[7u8; 100];
        let body = Trickle(vec![(Duration::from_millis(100), chunk); 5], None);
        assert_eq!(read(body).await, Ok(500));
    }

    #[tokio::test]
    async fn a_silent_body_is_cut_at_the_idle_timeout() {
        let big: &'static [u8] = &[7u8; 1000];
        let body = Trickle(
            vec![(Duration::ZERO, big), (Duration::from_secs(5), b"x")],
            None,
        );
        let started = Instant::now();
        let err = read(body).await.unwrap_err();
        assert!(err.contains("sent nothing"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[tokio::test]
    async fn a_trickle_is_cut_for_its_rate() {
        // A byte every 150 ms: never idle 300 ms, but 7 bytes a second against 100.
        let body = Trickle(vec![(Duration::from_millis(150), b"x"); 20], None);
        let started = Instant::now();
        let err = read(body).await.unwrap_err();
        assert!(err.contains("less than 100 bytes"), "{err}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
    }
}
