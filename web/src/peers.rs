//! [`Peers`]: the connections each client address holds, capped ([`MAX_PER_ADDRESS`]), so that
//! one address (reconnecting, sending half a request, idling) cannot take every connection the
//! server has ([`MAX_CONNECTIONS`](crate::server::MAX_CONNECTIONS)) from the others.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Connections one client address holds at once at most; more are answered 503.
pub const MAX_PER_ADDRESS: usize = 16;

/// The connections held, by address.
#[derive(Debug, Default, Clone)]
pub struct Peers {
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection of an address, counted until dropped.
#[derive(Debug)]
pub struct Held {
    peers: Peers,
    ip: IpAddr,
}

impl Peers {
    /// Counts a connection from `ip`; `None` when the address holds [`MAX_PER_ADDRESS`].
    pub fn enter(&self, ip: IpAddr) -> Option<Held> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let n = held.entry(ip).or_insert(0);
        if *n >= MAX_PER_ADDRESS {
            return None;
        }
        *n += 1;
        Some(Held { peers: self.clone(), ip })
    }

    /// The connections `ip` holds.
    pub fn held(&self, ip: IpAddr) -> usize {
        self.held.lock().unwrap_or_else(PoisonError::into_inner).get(&ip).copied().unwrap_or(0)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.peers.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = held.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn each_address_holds_at_most_its_share() {
        let peers = Peers::default();
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap());
        let held: Vec<Held> = (0..MAX_PER_ADDRESS).map(|_| peers.enter(a).unwrap()).collect();
        assert!(peers.enter(a).is_none());
        let other = peers.enter(b).unwrap();
        assert_eq!((peers.held(a), peers.held(b)), (MAX_PER_ADDRESS, 1));
        drop(held);
        drop(other);
        assert_eq!((peers.held(a), peers.held(b)), (0, 0));
        assert!(peers.enter(a).is_some());
    }
}
