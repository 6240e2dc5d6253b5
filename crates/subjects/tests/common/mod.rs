//! A few lines of HTTP/1.1 over a `TcpStream`, shared by the test files: enough for
//! these checks, and no HTTP client crate in the dependency tree.

// Each test file uses its own subset.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use curio_subjects::RunningSubject;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub fn request_bytes(addr: SocketAddr, method: &str, path: &str, form: Option<&str>) -> Vec<u8> {
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(body) = form {
        req.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    } else {
        req.push_str("\r\n");
    }
    req.into_bytes()
}

pub fn decode_chunked(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size");
        let size_text = std::str::from_utf8(&raw[..line_end]).expect("ascii size");
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16)
            .expect("hex size");
        raw = &raw[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

pub fn parse_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("end of headers");
    let head = std::str::from_utf8(&raw[..split]).expect("ascii headers");
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut reply = Reply {
        status,
        headers,
        body: String::new(),
    };
    let body = &raw[split + 4..];
    let body = if reply
        .header("transfer-encoding")
        .is_some_and(|te| te.eq_ignore_ascii_case("chunked"))
    {
        decode_chunked(body)
    } else {
        body.to_vec()
    };
    reply.body = String::from_utf8(body).expect("utf-8 body");
    reply
}

pub async fn send(addr: SocketAddr, method: &str, path: &str, form: Option<&str>) -> Reply {
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream
            .write_all(&request_bytes(addr, method, path, form))
            .await
            .expect("write request");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.expect("read reply");
        parse_reply(&raw)
    };
    tokio::time::timeout(TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| panic!("{method} {path} timed out"))
}

pub async fn get(app: &RunningSubject, path: &str) -> Reply {
    send(app.addr(), "GET", path, None).await
}

pub async fn post(app: &RunningSubject, path: &str, form: &str) -> Reply {
    send(app.addr(), "POST", path, Some(form)).await
}

/// Values of `attr="..."` in `html`.
pub fn attr_values<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .filter_map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// `html` without its `<script>` elements: what markup (links, forms) is left.
pub fn without_scripts(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</script>") {
            Some(end) => rest = &rest[start + end + "</script>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

pub fn assert_truth_only_in_scripts(path: &str, html: &str) {
    assert!(
        !html.contains("<a href=\"/__truth"),
        "{path} links to the truth endpoint"
    );
    assert!(
        !without_scripts(html).contains("__truth"),
        "{path} mentions the truth endpoint outside inline JS"
    );
}
