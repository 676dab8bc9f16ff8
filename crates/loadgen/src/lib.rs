#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod abuse;
pub mod pairing;
mod process;
pub mod server;
mod socket;
pub mod tournament;

use std::path::PathBuf;

/// What a load generator needs of the program that runs it.
#[derive(Clone, Debug)]
pub struct Host {
    /// The `rookery` program: started as `rookery serve` (the server under test) and as
    /// `rookery pair` (the engine that `bench pairing` times).
    pub rookery: PathBuf,
    /// The open-file limit, already raised as far as the hard limit allows; the servers
    /// started here inherit it. Thousands of sockets need thousands of files.
    pub open_files: u64,
}

/// Why a load generator stopped before its report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for what cannot be done (an option's value, a missing program);
    /// the message names the option.
    #[error("{0}")]
    Usage(String),
    /// The run failed: the server, the network, a file. The error's chain says where.
    #[error(transparent)]
    Run(#[from] anyhow::Error),
}
