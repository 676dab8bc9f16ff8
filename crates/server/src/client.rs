//! The client's address: the one place that says who is asking, network-wise. Every limit per
//! address (connections, seeks, sign-ups, log-ins) reads it from here. It is the TCP peer or,
//! from a balancer trusted with `--proxy-protocol`, the client its PROXY protocol header
//! names (the accept loop, rookery-listener, puts it in each request, where handlers take it
//! as an `Extension`). An address in a network the operator trusts (`--trusted-networks`: a
//! school's or a club's, where a class shares one public address) is marked so, and no limit
//! per address applies to it; the limits per account and per visitor still do.

pub use rookery_protocol::ClientAddr;
