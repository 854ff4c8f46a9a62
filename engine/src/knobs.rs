//! The tunable numbers of an alpha-beta player: the search's (late-move reductions, reverse
//! futility pruning, the aspiration window, the quiescence depth, the move-ordering bonuses)
//! and the handcrafted evaluation's weights, each a spec key (`lmr_base=120`,
//! `threatened=34`). At their defaults the player is exactly the one without them (the
//! `fanorona bench` signature does not move); `fanorona tune` searches them by SPSA.

use core::fmt;

use crate::eval::Weights;

/// One tunable number. The list is closed: the spec keys, their defaults and their bounds all
/// come from [`Knob::ALL`] and [`Knob::info`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Knob {
    /// Late-move reductions: the constant term of `r = base + ln d ln n / div`, in hundredths.
    LmrBase,
    /// Late-move reductions: the divisor of `r = base + ln d ln n / div`, in hundredths.
    LmrDiv,
    /// Late-move reductions: the shallowest depth that reduces.
    LmrDepth,
    /// Late-move reductions: turns of a node searched to the full depth before any is reduced.
    LmrIndex,
    /// Late-move reductions: how much less a PV node reduces.
    LmrPv,
    /// The aspiration window at the root, in centi-stones around the last iteration's score
    /// (0: the full window).
    Aspiration,
    /// Reverse futility pruning: the deepest non-PV node it prunes (0: off).
    RfpDepth,
    /// Reverse futility pruning: the margin per remaining turn, in centi-stones.
    RfpMargin,
    /// Turns of forced captures searched past the nominal depth.
    Quiescence,
    /// The ordering bonus of a node's first killer turn.
    Killer1,
    /// The ordering bonus of a node's second killer turn.
    Killer2,
    /// The history score at which every history score is halved.
    HistoryMax,
    /// Handcrafted evaluation: per stone on a strong point.
    Strong,
    /// Handcrafted evaluation: per possible step.
    Mobility,
    /// Handcrafted evaluation: per own stone the opponent could capture next.
    Threatened,
    /// Handcrafted evaluation: per enemy stone the side to move could capture now.
    Attacking,
    /// Handcrafted evaluation: per enemy stone near the stones of the side ahead.
    Contact,
}

/// What a knob is: its spec key, default, bounds and meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnobInfo {
    /// The spec key.
    pub name: &'static str,
    /// The value of the player without the knob.
    pub default: i32,
    /// The smallest value taken.
    pub min: i32,
    /// The largest value taken.
    pub max: i32,
    /// Whether it is a weight of the handcrafted evaluation (meaningless with another one).
    pub eval_weight: bool,
}

const fn info(name: &'static str, default: i32, min: i32, max: i32, eval_weight: bool) -> KnobInfo {
    KnobInfo { name, default, min, max, eval_weight }
}

/// The most a move-ordering bonus may be: below one captured stone's 10,000, so that a killer
/// never outranks a bigger capture.
const MAX_ORDER_BONUS: i32 = 9_999;

const DEFAULT_WEIGHTS: Weights = Weights::DEFAULT;

impl Knob {
    /// Every knob, in the canonical order of a spec's text.
    pub const ALL: [Knob; 17] = [
        Knob::LmrBase,
        Knob::LmrDiv,
        Knob::LmrDepth,
        Knob::LmrIndex,
        Knob::LmrPv,
        Knob::Aspiration,
        Knob::RfpDepth,
        Knob::RfpMargin,
        Knob::Quiescence,
        Knob::Killer1,
        Knob::Killer2,
        Knob::HistoryMax,
        Knob::Strong,
        Knob::Mobility,
        Knob::Threatened,
        Knob::Attacking,
        Knob::Contact,
    ];

    /// Its key, default, bounds.
    pub const fn info(self) -> KnobInfo {
        match self {
            Knob::LmrBase => info("lmr_base", 100, 0, 400, false),
            Knob::LmrDiv => info("lmr_div", 200, 50, 1000, false),
            Knob::LmrDepth => info("lmr_depth", 3, 2, 12, false),
            Knob::LmrIndex => info("lmr_index", 2, 1, 32, false),
            Knob::LmrPv => info("lmr_pv", 1, 0, 4, false),
            Knob::Aspiration => info("asp", 0, 0, 1000, false),
            Knob::RfpDepth => info("rfp_depth", 0, 0, 8, false),
            Knob::RfpMargin => info("rfp_margin", 100, 0, 2000, false),
            Knob::Quiescence => info("qdepth", 4, 0, crate::search::MAX_QUIESCENCE as i32, false),
            Knob::Killer1 => info("killer1", 5_000, 0, MAX_ORDER_BONUS, false),
            Knob::Killer2 => info("killer2", 4_000, 0, MAX_ORDER_BONUS, false),
            Knob::HistoryMax => info("history_max", 3_000, 16, 100_000, false),
            Knob::Strong => info("strong", DEFAULT_WEIGHTS.strong, -500, 500, true),
            Knob::Mobility => info("mobility", DEFAULT_WEIGHTS.mobility, -500, 500, true),
            Knob::Threatened => info("threatened", DEFAULT_WEIGHTS.threatened, -500, 500, true),
            Knob::Attacking => info("attacking", DEFAULT_WEIGHTS.attacking, -500, 500, true),
            Knob::Contact => info("contact", DEFAULT_WEIGHTS.contact, -500, 500, true),
        }
    }

    /// The knob of a spec key.
    pub fn from_name(name: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.info().name == name)
    }

    /// Its spec key.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Every spec key, comma-separated (for messages).
    pub fn names() -> String {
        Knob::ALL.map(Knob::name).join(", ")
    }
}

impl fmt::Display for Knob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a knob's value is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{knob}={value} is outside {min}..={max}", min = knob.info().min, max = knob.info().max)]
pub struct KnobRangeError {
    /// The knob.
    pub knob: Knob,
    /// The value.
    pub value: i64,
}

impl KnobRangeError {
    /// Always `true`: a knob's value comes from the user.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// A value for every knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knobs([i32; Knob::ALL.len()]);

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs::DEFAULT
    }
}

impl Knobs {
    /// Every knob at its default.
    pub const DEFAULT: Knobs = {
        let mut v = [0; Knob::ALL.len()];
        let mut i = 0;
        while i < v.len() {
            v[i] = Knob::ALL[i].info().default;
            i += 1;
        }
        Knobs(v)
    };

    /// The value of `knob`.
    pub const fn get(&self, knob: Knob) -> i32 {
        self.0[knob as usize]
    }

    /// Sets `knob` to `value`.
    ///
    /// # Errors
    /// [`KnobRangeError`] when the value is outside the knob's bounds (nothing is changed).
    pub fn set(&mut self, knob: Knob, value: i64) -> Result<(), KnobRangeError> {
        let KnobInfo { min, max, .. } = knob.info();
        if value < i64::from(min) || value > i64::from(max) {
            return Err(KnobRangeError { knob, value });
        }
        self.0[knob as usize] = value as i32;
        Ok(())
    }

    /// The knobs whose value is not the default, in canonical order.
    pub fn changed(&self) -> impl Iterator<Item = (Knob, i32)> + '_ {
        Knob::ALL.into_iter().filter(|&k| self.get(k) != k.info().default).map(|k| (k, self.get(k)))
    }

    /// The first changed weight of the handcrafted evaluation, if any.
    pub fn changed_weight(&self) -> Option<Knob> {
        self.changed().map(|(k, _)| k).find(|k| k.info().eval_weight)
    }

    /// The handcrafted evaluation's weights.
    pub const fn weights(&self) -> Weights {
        Weights {
            stone: DEFAULT_WEIGHTS.stone,
            strong: self.get(Knob::Strong),
            mobility: self.get(Knob::Mobility),
            threatened: self.get(Knob::Threatened),
            attacking: self.get(Knob::Attacking),
            contact: self.get(Knob::Contact),
        }
    }

    /// The search's numbers.
    pub const fn search(&self) -> SearchKnobs {
        SearchKnobs {
            lmr_base: self.get(Knob::LmrBase),
            lmr_div: self.get(Knob::LmrDiv),
            lmr_depth: self.get(Knob::LmrDepth),
            lmr_index: self.get(Knob::LmrIndex),
            lmr_pv: self.get(Knob::LmrPv),
            aspiration: self.get(Knob::Aspiration),
            rfp_depth: self.get(Knob::RfpDepth),
            rfp_margin: self.get(Knob::RfpMargin),
            quiescence: self.get(Knob::Quiescence) as usize,
            killer1: self.get(Knob::Killer1),
            killer2: self.get(Knob::Killer2),
            history_max: self.get(Knob::HistoryMax),
        }
    }

    /// Writes `key=value,` for every changed knob, in canonical order.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        for (k, v) in self.changed() {
            write!(out, "{k}={v},")?;
        }
        Ok(())
    }
}

/// The search's tunable numbers, as the searcher reads them ([`Knobs::search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchKnobs {
    /// [`Knob::LmrBase`].
    pub lmr_base: i32,
    /// [`Knob::LmrDiv`].
    pub lmr_div: i32,
    /// [`Knob::LmrDepth`].
    pub lmr_depth: i32,
    /// [`Knob::LmrIndex`].
    pub lmr_index: i32,
    /// [`Knob::LmrPv`].
    pub lmr_pv: i32,
    /// [`Knob::Aspiration`].
    pub aspiration: i32,
    /// [`Knob::RfpDepth`].
    pub rfp_depth: i32,
    /// [`Knob::RfpMargin`].
    pub rfp_margin: i32,
    /// [`Knob::Quiescence`].
    pub quiescence: usize,
    /// [`Knob::Killer1`].
    pub killer1: i32,
    /// [`Knob::Killer2`].
    pub killer2: i32,
    /// [`Knob::HistoryMax`].
    pub history_max: i32,
}

impl Default for SearchKnobs {
    fn default() -> SearchKnobs {
        Knobs::DEFAULT.search()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_players_without_knobs() {
        assert_eq!(Knobs::DEFAULT.weights(), Weights::default());
        let s = SearchKnobs::default();
        assert_eq!((s.lmr_base, s.lmr_div, s.lmr_depth, s.lmr_index, s.lmr_pv), (100, 200, 3, 2, 1));
        assert_eq!((s.aspiration, s.rfp_depth), (0, 0));
        assert_eq!(s.quiescence, crate::search::DEFAULT_QUIESCENCE);
        assert_eq!((s.killer1, s.killer2, s.history_max), (5_000, 4_000, 3_000));
        assert_eq!(Knobs::DEFAULT.changed().count(), 0);
        for k in Knob::ALL {
            let i = k.info();
            assert!(i.min <= i.default && i.default <= i.max, "{k}");
            assert_eq!(Knob::from_name(i.name), Some(k));
            assert_eq!(Knob::ALL[k as usize], k);
        }
    }

    #[test]
    fn values_are_bounded_and_written_when_changed() {
        let mut k = Knobs::DEFAULT;
        assert_eq!(k.set(Knob::LmrBase, 401), Err(KnobRangeError { knob: Knob::LmrBase, value: 401 }));
        assert_eq!(
            KnobRangeError { knob: Knob::LmrBase, value: 401 }.to_string(),
            "lmr_base=401 is outside 0..=400"
        );
        k.set(Knob::Threatened, 34).unwrap();
        k.set(Knob::LmrBase, 120).unwrap();
        let mut text = String::new();
        k.write(&mut text).unwrap();
        assert_eq!(text, "lmr_base=120,threatened=34,");
        assert_eq!(k.changed_weight(), Some(Knob::Threatened));
        assert_eq!(k.weights().threatened, 34);
        assert_eq!(k.search().lmr_base, 120);
        assert_eq!(Knob::from_name("depth"), None);
    }
}
