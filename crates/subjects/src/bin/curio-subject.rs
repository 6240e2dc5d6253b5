//! `curio-subject demo|testbed|tracker|gallery [--port N]`: serves an app on 127.0.0.1 until
//! Ctrl-C, for manual exploring and for benchmarks that run Curio against a separate
//! process.
//!
//! The URL is the only line on stdout, so a script can read it.

use std::io::Write;
use std::process::ExitCode;

use curio_subjects::{Subject, serve_on_port};

const USAGE: &str = "usage: curio-subject demo|testbed|tracker|gallery [--port N]";

struct Args {
    subject: Subject,
    port: u16,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut subject = None;
    let mut port = 0;
    while let Some(arg) = args.next() {
        let port_value = match arg.as_str() {
            "-h" | "--help" => return Err(USAGE.to_owned()),
            "--port" => Some(args.next().ok_or("--port needs a value")?),
            _ => arg.strip_prefix("--port=").map(str::to_owned),
        };
        if let Some(value) = port_value {
            port = value
                .parse()
                .map_err(|_| format!("invalid port {value:?}"))?;
        } else if arg.starts_with('-') {
            return Err(format!("unknown option {arg:?}\n{USAGE}"));
        } else if subject.is_some() {
            return Err(format!("unexpected argument {arg:?}\n{USAGE}"));
        } else {
            subject = Some(arg.parse::<Subject>().map_err(|e| e.to_string())?);
        }
    }
    let subject = subject.ok_or_else(|| USAGE.to_owned())?;
    Ok(Args { subject, port })
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let running = match serve_on_port(args.subject, args.port).await {
        Ok(running) => running,
        Err(err) => {
            eprintln!(
                "curio-subject: cannot listen on 127.0.0.1:{}: {err}",
                args.port
            );
            return ExitCode::FAILURE;
        }
    };
    // Listen for signals before the URL goes out: a script that reads the URL and then
    // stops us must not hit the moment before the handlers exist.
    let stop = match stop_signal() {
        Ok(stop) => stop,
        Err(err) => {
            eprintln!("curio-subject: cannot listen for signals: {err}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}", running.base_url());
    // A reader waiting for the URL must get it now, not when the buffer fills.
    let _ = std::io::stdout().flush();
    eprintln!("serving {} (Ctrl-C to stop)", args.subject);
    stop.await;
    running.shutdown().await;
    ExitCode::SUCCESS
}

/// Resolves on SIGINT or SIGTERM (Ctrl-C elsewhere). The handlers are installed when
/// this returns, not when the future is first polled.
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

#[cfg(not(unix))]
fn stop_signal() -> std::io::Result<impl Future<Output = ()>> {
    Ok(async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            eprintln!("curio-subject: cannot wait for Ctrl-C: {err}");
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, String> {
        parse_args(args.iter().map(|a| (*a).to_owned()))
    }

    #[test]
    fn parses_subject_and_port() {
        let a = parse(&["demo"]).unwrap();
        assert_eq!((a.subject, a.port), (Subject::Demo, 0));
        let a = parse(&["--port", "8080", "testbed"]).unwrap();
        assert_eq!((a.subject, a.port), (Subject::Testbed, 8080));
        let a = parse(&["testbed", "--port=9000"]).unwrap();
        assert_eq!(a.port, 9000);
        let a = parse(&["tracker", "--port", "8099"]).unwrap();
        assert_eq!((a.subject, a.port), (Subject::Tracker, 8099));
    }

    #[test]
    fn rejects_bad_args() {
        assert!(parse(&[]).is_err());
        assert!(parse(&["shop"]).is_err());
        assert!(parse(&["demo", "--port"]).is_err());
        assert!(parse(&["demo", "--port", "x"]).is_err());
        assert!(parse(&["demo", "testbed"]).is_err());
        assert!(parse(&["demo", "tracker"]).is_err());
        assert!(parse(&["demo", "--verbose"]).is_err());
    }
}
