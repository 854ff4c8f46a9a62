//! A trained network shipped inside the binary, for `fanorona bench` and the tests.

use crate::{FormatError, Network};

/// The generation-3 network of the default loop (seed 1), `threats:180-256-1` with clipped ReLU.
const BENCH_NET: &[u8] = include_bytes!("../nets/bench.fnet");

/// What the embedded network is.
pub const BENCH_NET_DESCRIPTION: &str = "the default loop's generation-3 network (seed 1), threats:180-256-1";

/// The embedded network: speed figures measured with it resemble a real search's, unlike a
/// random network's.
///
/// # Errors
/// Never for the shipped file (a test reads it); the error is kept for form.
pub fn bench_network() -> Result<Network, FormatError> {
    Network::from_bytes(BENCH_NET)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_reads_and_runs_in_integers() {
        let net = bench_network().unwrap();
        assert_eq!(net.arch().to_string(), "threats:180-256-1");
        assert!(crate::QuantisedNetwork::new(&net).is_ok());
    }
}
