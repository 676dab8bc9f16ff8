//! `rookery serve` as a process, for the cli crate's tests that stop it hard (serve.rs,
//! tournament_restart.rs, cluster.rs).

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A loopback address with a port free at this moment.
pub fn free_addr() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

/// `rookery serve --addr ADDR --log-level warn`, for the caller to add its own arguments.
pub fn serve_command(addr: SocketAddr) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rookery"));
    command.args(["serve", "--addr", &addr.to_string(), "--log-level", "warn"]);
    command
}

/// Starts `command` and waits until the server says it listens (at most `within`). Its
/// stderr is drained from then on, so the server never blocks on a full pipe; with `echo`
/// each line goes to the test's stderr, prefixed `[node]`.
pub fn start(mut command: Command, within: Duration, echo: bool) -> Child {
    let mut child = command.stderr(Stdio::piped()).spawn().expect("rookery serve starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let deadline = Instant::now() + within;
    loop {
        let line = lines.next().expect("the server says where it listens").unwrap();
        if line.contains("serving on") {
            break;
        }
        assert!(Instant::now() < deadline, "the server did not start");
    }
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if echo {
                eprintln!("[node] {line}");
            }
        }
    });
    child
}
