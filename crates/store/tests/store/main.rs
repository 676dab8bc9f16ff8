//! Integration tests of rookery-store against real databases: every test body runs on a fresh
//! SQLite file and, when `ROOKERY_TEST_POSTGRES` is set, on a fresh PostgreSQL database (see
//! `harness.rs`).

mod accounts;
mod analyses;
mod cluster;
mod durability;
mod games;
mod harness;
mod ladder;
mod tournaments;
