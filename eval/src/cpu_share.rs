//! How much of a core the timed searches of a match got: their searching thread's processor
//! time against the wall-clock time they took.
//!
//! A time limit per move (`movetime`, a clock) is wall-clock time. On a machine busy with
//! other work an engine searches less in the same time, so a time-limited result measured
//! under load is not the result on an idle machine (the network's lead over the handcrafted
//! engine, for one, grows as the searches get shorter). The match report says what share of a
//! core the searches had, and warns when it was low.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Below this share of a core a match report warns that the machine was busy.
pub const BUSY_SHARE: f64 = 0.8;

/// The least wall time over which a share is given: the processor time is read from Linux's
/// scheduler statistics ([`fanorona_engine::thread_time`]), which advance a clock tick (1-4
/// ms) at a time, so only a sum over many turns is accurate.
pub const MIN_WALL_US: u64 = 1_000_000;

/// The timed turns of one engine: their count, wall time and processor time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuShare {
    /// Timed turns measured.
    pub turns: u64,
    /// Their wall-clock time, in microseconds.
    pub wall_us: u64,
    /// The searching thread's processor time over them, in microseconds.
    pub cpu_us: u64,
}

impl CpuShare {
    /// Counts one turn that took `wall`, of which the searching thread ran `cpu`.
    pub fn add(&mut self, wall: Duration, cpu: Duration) {
        let us = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.merge(&CpuShare { turns: 1, wall_us: us(wall), cpu_us: us(cpu) });
    }

    /// Adds the turns of `other`.
    pub fn merge(&mut self, other: &CpuShare) {
        self.turns += other.turns;
        self.wall_us = self.wall_us.saturating_add(other.wall_us);
        self.cpu_us = self.cpu_us.saturating_add(other.cpu_us);
    }

    /// Processor time over wall time (at most 1), `None` over less than [`MIN_WALL_US`].
    pub fn share(&self) -> Option<f64> {
        (self.wall_us >= MIN_WALL_US).then(|| (self.cpu_us as f64 / self.wall_us as f64).min(1.0))
    }
}

/// The report's line on the engines' shares (`None` when no timed turn was measured), with a
/// warning when one of them had less than [`BUSY_SHARE`] of a core.
pub fn cpu_share_line(shares: &[CpuShare; 2]) -> Option<String> {
    let [a, b] = shares.map(|s| s.share());
    if a.is_none() && b.is_none() {
        return None;
    }
    let pct = |s: Option<f64>| s.map_or("-".to_string(), |x| format!("{:.0} %", x * 100.0));
    let mut line = format!("CPU share of timed turns: {} - {}", pct(a), pct(b));
    if a.into_iter().chain(b).any(|x| x < BUSY_SHARE) {
        line.push_str(
            " (warning: the machine was busy; time-limited results depend on its load, compare \
             them only with runs at the same load or use node limits)",
        );
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up_and_warn_below_the_threshold() {
        let ms = Duration::from_millis;
        let mut a = CpuShare::default();
        assert_eq!(a.share(), None);
        a.add(ms(20), ms(19));
        assert_eq!(a.share(), None, "under a second: too coarse to say");
        a.add(ms(1980), ms(1781));
        assert_eq!((a.turns, a.wall_us, a.cpu_us), (2, 2_000_000, 1_800_000));
        assert_eq!(a.share(), Some(0.9));
        let mut b = CpuShare::default();
        b.add(ms(1000), ms(250));
        let mut c = b;
        c.merge(&b);
        assert_eq!((c.turns, c.share()), (2, Some(0.25)));
        // More processor time than wall time (the ticks) counts as a whole core.
        let mut d = CpuShare::default();
        d.add(ms(1000), ms(1004));
        assert_eq!(d.share(), Some(1.0));

        assert_eq!(cpu_share_line(&[CpuShare::default(); 2]), None);
        assert_eq!(cpu_share_line(&[a, CpuShare::default()]).unwrap(), "CPU share of timed turns: 90 % - -");
        assert_eq!(cpu_share_line(&[a, d]).unwrap(), "CPU share of timed turns: 90 % - 100 %");
        let busy = cpu_share_line(&[a, c]).unwrap();
        assert!(
            busy.starts_with("CPU share of timed turns: 90 % - 25 % (warning: the machine was busy"),
            "{busy}"
        );
    }
}
