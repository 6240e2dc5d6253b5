use curio_page::*;
#[test]
fn perf() {
    let s: DomSnapshot =
        serde_json::from_str(&std::fs::read_to_string("/tmp/capture/big/big.json").unwrap())
            .unwrap();
    let t = std::time::Instant::now();
    let p = Page::from_snapshot(&s);
    println!(
        "PERF {:?} actions={} forms={} fields={:?}",
        t.elapsed(),
        p.actions.len(),
        p.forms.len(),
        p.forms.iter().map(|f| f.fields.len()).collect::<Vec<_>>()
    );
}
